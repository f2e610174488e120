/** Internal type. DO NOT USE DIRECTLY. */
type Exact<T extends { [key: string]: unknown }> = { [K in keyof T]: T[K] };
/** Internal type. DO NOT USE DIRECTLY. */
export type Incremental<T> = T | { [P in keyof T]?: P extends ' $fragmentName' | '__typename' ? T[P] : never };
import type { TypedDocumentNode as DocumentNode } from '@graphql-typed-document-node/core';
/** The agent to erase */
export type AgentEraseInput = {
  /** The agent id (`Agent.agentId`) */
  agentId: string;
  /** Erase even while a runtime owner is live (the receipt records it as forced) */
  force?: boolean | null | undefined;
};

/** What happened */
export type AgentEventType =
  /** The agent was created */
  | 'AGENT_CREATED'
  /** The agent's erasure started: the last event of its log; every subscriber of the agent gets it, then its stream completes */
  | 'AGENT_ERASED'
  /** A memory was saved (or imported) */
  | 'BRAIN_CREATED'
  /** A removed memory's content was purged by an operator (brainPurge); the event carries no title */
  | 'BRAIN_PURGED'
  /** A memory was removed (tombstoned) */
  | 'BRAIN_REMOVED'
  /** A memory got a new revision */
  | 'BRAIN_UPDATED'
  /** A continuity run changed state */
  | 'CONTINUITY_TRANSITION'
  /** An original was appended to a session */
  | 'CONVERSATION_APPENDED'
  /** A session was archived */
  | 'CONVERSATION_ARCHIVED'
  /** Part of a session was archived and replaced by a summary */
  | 'CONVERSATION_COMPACTED'
  /** A session was reset: its active history archived */
  | 'CONVERSATION_RESET'
  /** A session was unarchived */
  | 'CONVERSATION_UNARCHIVED'
  /** A session handoff was written */
  | 'HANDOFF_WRITTEN'
  /** A profile document got a new revision */
  | 'PROFILE_UPDATED'
  /** A rolling card was created */
  | 'ROLLING_CARD_CREATED'
  /** A rolling card outlived its TTL */
  | 'ROLLING_CARD_EXPIRED'
  /** A rolling card got a new revision */
  | 'ROLLING_CARD_UPDATED'
  /** A Tiddle pass failed; its error says why */
  | 'TIDDLE_PASS_FAILED'
  /** A Tiddle pass finished */
  | 'TIDDLE_PASS_SUCCEEDED'
  /** A cross-scope synthesis failed; its error says why */
  | 'TIDDLE_SYNTHESIS_FAILED'
  /** A cross-scope synthesis finished */
  | 'TIDDLE_SYNTHESIS_SUCCEEDED'
  /** A working record was written */
  | 'WORKING_CREATED'
  /** A resolved or superseded working record became active again */
  | 'WORKING_REACTIVATED'
  /** A working record was resolved */
  | 'WORKING_RESOLVED'
  /** A working record was superseded by another */
  | 'WORKING_SUPERSEDED'
  /** A working record got a new revision */
  | 'WORKING_UPDATED';

/** A new Dream diary entry */
export type AppendDreamDiaryEntryInput = {
  /** The agent id (`Agent.agentId`) the entry is about */
  agentId: string;
  /** 1 to 24,000 characters */
  body: string;
  /** YYYY-MM-DD; default today (UTC) */
  entryDate?: string | null | undefined;
  /** At most 240 characters */
  title?: string | null | undefined;
};

/** The session to archive */
export type ArchiveConversationSessionInput = {
  /** Operators name the agent; agent tokens act as their agent */
  agentId?: string | null | undefined;
  /** At most 2,000 characters */
  reason?: string | null | undefined;
  /** Defaults to the runtime session; an agent token may only archive its runtime session */
  sessionId?: string | null | undefined;
};

/** The outcome of one item of brainRemoveMany */
export type BrainDeletionStatus =
  /** The tombstone was written; `memory` is the removed memory */
  | 'DELETED'
  /** An agent token selected an operator-owned memory. Nothing was written */
  | 'FORBIDDEN'
  /** The item itself is invalid (expectedRevision below 1). Nothing was written */
  | 'INVALID'
  /** No live memory of this agent has this id (unknown or already removed) */
  | 'NOT_FOUND'
  /** The memory changed since expectedRevision; `currentRevision` says where it is now. Nothing was written */
  | 'REVISION_CONFLICT';

/** The scope a legacy Albdruck record had */
export type BrainLegacyScope =
  /** Owned by one agent in Albdruck; imported to that agent */
  | 'AGENT'
  /** Global in Albdruck; imported to the agent hatchet */
  | 'GLOBAL';

/** The order of the operator list of memories; each ends with memoryId, so pages never skip or repeat a memory */
export type BrainMemorySort =
  /** Newest created first (the default) */
  | 'CREATED_AT_DESC'
  /** By title, in the database's collation */
  | 'TITLE_ASC'
  /** Most recently written first */
  | 'UPDATED_AT_DESC';

/** Who owns a memory: once an operator wrote it, agents can neither update nor remove it */
export type BrainOwnership =
  /** Written by its agent (or never touched by an operator): the agent may update and remove it */
  | 'AGENT'
  /** Last written by an operator: agents can read it but neither update nor remove it */
  | 'OPERATOR';

/** Which memories the operator list keeps, by who owns them */
export type BrainOwnershipFilter =
  /** Only agent-owned memories */
  | 'AGENT'
  /** Only operator-owned memories */
  | 'OPERATOR';

/** A revision-checked removal (tombstone) of one memory */
export type BrainRemoveInput = {
  /** Optional, and usually left out: an agent token acts only as its own agent, so this may only repeat that agent id (another fails with AGENT_MISMATCH). Operator tokens must name the agent. */
  agentId?: string | null | undefined;
  /** The revision you last read. If the memory changed since, nothing is written and the current memory comes back (REVISION_CONFLICT). */
  expectedRevision: number;
  /** The memory id: `memoryId` of a memory from brain_search, brain_read or brain_save (not its global `id`). */
  memoryId: string;
};

/** One memory selected for brainRemoveMany */
export type BrainRemoveManyItem = {
  /** The revision last read; a changed memory is left alone (REVISION_CONFLICT for this item) */
  expectedRevision: number;
  /** The memory id (`BrainMemory.memoryId`) */
  memoryId: string;
};

/** What a revision of a memory did */
export type BrainRevisionAction =
  /** brainSave created the memory (revision 1) */
  | 'CREATED'
  /** The Albdruck import created the memory */
  | 'IMPORTED'
  /** brainRemove or brainRemoveMany wrote the tombstone */
  | 'REMOVED'
  /** brainUpdate changed title, content or source references */
  | 'UPDATED';

/** A new memory of the acting agent */
export type BrainSaveInput = {
  /** Optional, and usually left out: an agent token acts only as its own agent, so this may only repeat that agent id (another fails with AGENT_MISMATCH). Operator tokens must name the agent. */
  agentId?: string | null | undefined;
  /** The memory itself, at most 24,000 characters. */
  content: string;
  /** Makes a retry safe: a repeat with the same key within 24 hours answers the first result and writes nothing; the same key with other input is refused (IDEMPOTENCY_KEY_REUSED). 1 to 200 characters, e.g. a UUID, new for each logical write. Over HTTP the Idempotency-Key header does the same. */
  idempotencyKey?: string | null | undefined;
  /** Where the claim came from: at most 12, each 1 to 2,000 characters. A reference is not verification of current state. */
  sourceRefs?: Array<string> | null | undefined;
  /** 1 to 240 characters (trimmed). */
  title: string;
};

/** A revision-checked change of a memory: absent fields keep their value */
export type BrainUpdateInput = {
  /** Optional, and usually left out: an agent token acts only as its own agent, so this may only repeat that agent id (another fails with AGENT_MISMATCH). Operator tokens must name the agent. */
  agentId?: string | null | undefined;
  /** New content, at most 24,000 characters; absent keeps the current one. */
  content?: string | null | undefined;
  /** The revision you last read. If the memory changed since, nothing is written and the current memory comes back (REVISION_CONFLICT). */
  expectedRevision: number;
  /** The memory id: `memoryId` of a memory from brain_search, brain_read or brain_save (not its global `id`). */
  memoryId: string;
  /** Where the claim came from: at most 12, each 1 to 2,000 characters. A reference is not verification of current state. Replaces the list when given; absent keeps it. */
  sourceRefs?: Array<string> | null | undefined;
  /** New title, 1 to 240 characters; absent keeps the current one. */
  title?: string | null | undefined;
};

/** A span of the active history and the summary that replaces it */
export type CompactConversationInput = {
  /** Operators name the agent; agent tokens act as their agent */
  agentId?: string | null | undefined;
  /** Position of the first active entry of the span */
  fromPosition: number;
  /** The summary entry's role (1 to 64 characters) */
  role?: string | null | undefined;
  /** Defaults to the runtime session; an agent token may only compact its runtime session */
  sessionId?: string | null | undefined;
  /** The summary entry as JSON text, stored byte for byte like any original (at most 1,000,000 characters) */
  summary: string;
  /** Position of the last active entry of the span (the same entry or a later one in the active history) */
  toPosition: number;
};

/** The parts of the portable configuration */
export type ConfigurationCategory =
  /** Agents with their six profile documents */
  | 'AGENTS'
  /** MCP connections */
  | 'MCP_CONNECTIONS'
  /** Model connections */
  | 'MODEL_CONNECTIONS'
  /** Per-agent settings */
  | 'SETTINGS';

/** Where a run is in its state machine */
export type ContinuityRunState =
  /** Finished; nothing changes any more */
  | 'COMPLETED'
  /** The fenced terminal commit happened; waiting for the durable completion */
  | 'FINALIZING'
  /** Stopped by its owner or found abandoned by reconciliation; waiting to be assessed */
  | 'INTERRUPTED'
  /** Assessed from durable evidence; a live owner may claim it at the next generation */
  | 'RECOVERY_PENDING'
  /** Owned by one live owner at one generation; head commits, effects and receipts are accepted */
  | 'RUNNING';

/** What made an archive generation */
export type ConversationArchiveKind =
  /** compactConversation: a span moved and a summary took its place */
  | 'COMPACTION'
  /** resetConversation: every active entry moved */
  | 'RESET';

/** Which sessions a list holds */
export type ConversationSessionArchiveFilter =
  /** Sessions that are not archived (the default) */
  | 'EXCLUDE'
  /** Every session */
  | 'INCLUDE'
  /** Archived sessions only */
  | 'ONLY';

/** A new agent; its six profile documents start empty at revision 1 */
export type CreateAgentInput = {
  /** 1 to 63 characters of a-z, 0-9, "_" and "-", starting with a letter or digit; generated (agent-xxxxxxxx) when absent */
  agentId?: string | null | undefined;
  /** A display name, 1 to 200 characters */
  name: string;
};

/** A new bearer token */
export type CreateApiTokenInput = {
  /** Required for AGENT tokens (an agent that exists); refused for OPERATOR tokens */
  agentId?: string | null | undefined;
  /** Optional lifetime: a positive whole number with a unit, 3600s, 90m, 12h or 30d; no expiry when absent */
  expiresIn?: string | null | undefined;
  /** OPERATOR acts on every agent; AGENT only as `agentId` */
  kind: PrincipalKind;
  /** 1 to 200 characters */
  name: string;
};

/** Every code the API answers with: the `code` of a result-union member, and `extensions.code` of a request error. Upper case, except the two continuity scope codes the continuity contract spells in lower case. */
export type ErrorCode =
  /** an agent token named another agent (arguments, node(id), connections, subscriptions) */
  | 'AGENT_MISMATCH'
  /** a create named an id that is taken (createAgent) */
  | 'ALREADY_EXISTS'
  /** an agent archive upload that is not intact (does not decompress, truncated, changed, unknown table or column); nothing was written */
  | 'BAD_ARCHIVE'
  /** a pagination cursor that is not one this server issued */
  | 'BAD_CURSOR'
  /** malformed GraphQL (syntax, validation, argument coercion), a bad global id, or data PostgreSQL refused (e.g. U+0000 in text) */
  | 'BAD_REQUEST'
  /** Tiddle residue without the runtime's session (Burrow-Session) */
  | 'CONTINUITY_SESSION_REQUIRED'
  /** a cursor from another list or another agent's list */
  | 'CURSOR_MISMATCH'
  /** the database connection is lost for the moment: retry */
  | 'DATABASE_UNAVAILABLE'
  /** an operator-only field called with an agent token (createAgent, createApiToken, apiTokens, revokeApiToken, …), or an operator omitting the agent a verb needs */
  | 'FORBIDDEN'
  /** a run state change the state machine does not allow */
  | 'FORBIDDEN_TRANSITION'
  /** an idempotency key used within its window for a different write (another operation or other input); nothing was changed */
  | 'IDEMPOTENCY_KEY_REUSED'
  /** anything unexpected: masked (no stack, no SQL) and logged on the server */
  | 'INTERNAL_SERVER_ERROR'
  /** a request beyond a configured limit (size, depth, aliases, tokens, …; an agent archive over BURROW_ARCHIVE_MAX_BYTES) */
  | 'LIMIT_EXCEEDED'
  /** the record does not exist or is hidden from this token; a per-agent subscription naming an unknown agent */
  | 'NOT_FOUND'
  /** a fenced continuity write by an owner that does not hold the run */
  | 'NOT_OWNER'
  /** an agent tried to change a record an operator wrote */
  | 'OPERATOR_OWNED'
  /** runtimeOwnership opened over something other than graphql-ws */
  | 'OWNERSHIP_REQUIRES_WEBSOCKET'
  /** an ownership session could not take its lock */
  | 'OWNERSHIP_UNAVAILABLE'
  /** the database already holds BURROW_OWNERS_MAX ownership connections */
  | 'OWNER_CAPACITY_REACHED'
  /** an agent already has the most ownership sessions allowed */
  | 'OWNER_LIMIT_REACHED'
  /** agentErase without force while a runtime owner of the agent is live */
  | 'OWNER_LIVE'
  /** a continuity write named an ownership session that has ended (or another agent's) */
  | 'OWNER_NOT_LIVE'
  /** a persisted-document hash the server does not know */
  | 'PERSISTED_QUERY_NOT_FOUND'
  /** brainSearch with an empty query */
  | 'QUERY_REQUIRED'
  /** a Brain query above its maximum length */
  | 'QUERY_TOO_LONG'
  /** a brainSearch query without a word of three or more characters (the operator list brainMemories takes any length) */
  | 'QUERY_TOO_SHORT'
  /** a token exceeded its request rate; over graphql-ws the socket stays open */
  | 'RATE_LIMITED'
  /** a continuity effect already has its receipt */
  | 'RECEIPT_RECORDED'
  /** a revision-checked write named a stale revision */
  | 'REVISION_CONFLICT'
  /** a stored secret was encrypted with another key than the configured one */
  | 'SECRET_UNREADABLE'
  /** a write to an archived conversation session */
  | 'SESSION_ARCHIVED'
  /** a session argument that differs from the runtime session */
  | 'SESSION_MISMATCH'
  /** unarchiving a session that is not archived */
  | 'SESSION_NOT_ARCHIVED'
  /** a conversation operation without a session */
  | 'SESSION_REQUIRED'
  /** a setting with a secret written while no settings key is configured */
  | 'SETTINGS_KEY_REQUIRED'
  /** a fenced continuity write from an older generation */
  | 'STALE_GENERATION'
  /** trusted documents are enforced and the request sent a document that is not one of them */
  | 'TRUSTED_DOCUMENT_REQUIRED'
  /** no bearer token, or an unknown, revoked or expired one; a WebSocket whose token is revoked or expires closes with 4403 */
  | 'UNAUTHENTICATED'
  /** input outside a documented limit or form; limit is the bound crossed */
  | 'VALIDATION_FAILED'
  /** a project argument that differs from the runtime scope */
  | 'continuity_scope_mismatch'
  /** a scoped operation without a runtime scope (Burrow-Continuity-Scope header or connectionParams) */
  | 'continuity_scope_required';

/** The family of an event, and the event type it is delivered as */
export type EventStream =
  /** Brain memories saved, updated, removed or purged (BrainMemoryEvent) */
  | 'BRAIN'
  /** Continuity run state transitions (ContinuityRunEvent) */
  | 'CONTINUITY'
  /** Conversation originals appended, sessions reset, compacted, archived (ConversationEvent) */
  | 'CONVERSATION'
  /** Session handoffs written (HandoffEvent) */
  | 'HANDOFF'
  /** Agent creation and profile document updates (ProfileEvent) */
  | 'PROFILE'
  /** Rolling cards created, updated or expired (RollingCardEvent) */
  | 'ROLLING_CARD'
  /** Tiddle passes and syntheses finished (TiddleStatusEvent) */
  | 'TIDDLE_STATUS'
  /** Working records written or changing state (WorkingRecordEvent) */
  | 'WORKING';

/** What to export, and how to protect secrets */
export type ExportConfigurationInput = {
  /** Default: all four */
  categories?: Array<ConfigurationCategory> | null | undefined;
  /** Put secrets in a separate envelope encrypted with `password` (scrypt + AES-256-GCM) */
  includeSecrets?: boolean | null | undefined;
  /** At least 12 characters; required with includeSecrets */
  password?: string | null | undefined;
};

/** Who decided to write a handoff */
export type HandoffOrigin =
  /** Written by the runtime (recordAutomaticHandoff), never over an explicit one */
  | 'AUTOMATIC'
  /** Written on purpose (sessionWriteHandoff); it keeps the session's slot until retention removes it */
  | 'EXPLICIT';

/** An export document to import */
export type ImportConfigurationInput = {
  /** An export document (object or its JSON text) */
  document: unknown;
  /** The envelope's password, when the file carries secrets */
  password?: string | null | undefined;
};

/** How the agent platform talks to an MCP server */
export type McpTransport =
  /** The older HTTP + Server-Sent Events transport */
  | 'SSE'
  /** MCP Streamable HTTP */
  | 'STREAMABLE_HTTP';

/** What Burrow calls a model endpoint for */
export type ModelPurpose =
  /** The embeddings endpoint of Brain search (BURROW_EMBEDDINGS_* override it) */
  | 'BRAIN_EMBEDDINGS'
  /** Tiddle's card proposer (BURROW_TIDDLE_PROPOSER=openai and BURROW_TIDDLE_* override it) */
  | 'TIDDLE_PROPOSER';

/** The two kinds of bearer token */
export type PrincipalKind =
  /** A token bound to one agent: acts only as that agent */
  | 'AGENT'
  /** An operator token: acts on every agent */
  | 'OPERATOR';

/** The six profile documents every agent has, each exactly once */
export type ProfileKind =
  /** The compact dream memory (the dated Dream diary is separate and operator-only) */
  | 'DREAM_MEMORY'
  /** Where the agent stands: its situation, people and projects */
  | 'ORIENTATION'
  /** The agent's learned and stated preferences; the only document automatic learning changes */
  | 'PREFERENCES'
  /** Rules the agent must follow */
  | 'RULES'
  /** Who the agent is: character, voice and values */
  | 'SOUL'
  /** The tools the agent has and how to use them */
  | 'TOOLS';

/** Creates or replaces an MCP connection by name */
export type SetMcpConnectionInput = {
  /** Remove the stored token */
  clearToken?: boolean | null | undefined;
  /** At most 1,000 characters */
  description?: string | null | undefined;
  /** Default true */
  enabled?: boolean | null | undefined;
  /** Update only at this revision; omit to create or replace */
  expectedRevision?: number | null | undefined;
  /** 1 to 64 characters of a-z, 0-9, _ . - */
  name: string;
  /** A bearer token. Write-only. Stored encrypted under BURROW_SETTINGS_KEY (SettingsKeyRequired without one). Omit to keep the stored one. */
  token?: string | null | undefined;
  /** Default STREAMABLE_HTTP */
  transport?: McpTransport | null | undefined;
  /** http(s) URL, at most 2,000 characters, no credentials */
  url: string;
};

/** Creates or replaces the model connection of a purpose */
export type SetModelConnectionInput = {
  /** Write-only. Stored encrypted under BURROW_SETTINGS_KEY (SettingsKeyRequired without one). Omit to keep the stored one. */
  apiKey?: string | null | undefined;
  /** Remove the stored API key */
  clearApiKey?: boolean | null | undefined;
  /** Update only at this revision; omit to create or replace */
  expectedRevision?: number | null | undefined;
  /** 1 to 200 characters */
  model: string;
  /** Which connection */
  purpose: ModelPurpose;
  /** 50 to 600,000; default 5,000 (embeddings) or 30,000 (proposer) */
  timeoutMs?: number | null | undefined;
  /** http(s) URL of an OpenAI-compatible API (…/v1), at most 2,000 characters, no credentials */
  url: string;
};

/** Where card proposals come from (BURROW_TIDDLE_PROPOSER) */
export type TiddleProposerKind =
  /** No model: passes propose nothing */
  | 'NOOP'
  /** A chat-completions model */
  | 'OPENAI';

/** The session to unarchive */
export type UnarchiveConversationSessionInput = {
  /** Operators name the agent; agent tokens act as their agent */
  agentId?: string | null | undefined;
  /** Defaults to the runtime session; an agent token may only unarchive its runtime session */
  sessionId?: string | null | undefined;
};

/** A new revision of one profile document */
export type UpdateProfileDocumentInput = {
  /** The agent id (`Agent.agentId`) */
  agentId: string;
  /** The whole new content, at most 48,000 characters */
  content: string;
  /** The revision the change was based on (`ProfileDocument.revision`); RevisionConflict when it is no longer current */
  expectedRevision: number;
  /** Which of the six documents */
  kind: ProfileKind;
};

/** What a working record is about */
export type WorkingRecordKind =
  /** What stops progress */
  | 'BLOCKER'
  /** A choice that was made */
  | 'DECISION'
  /** Something learned */
  | 'FINDING'
  /** What the next worker needs */
  | 'HANDOFF'
  /** Operational evidence about a task. It is not a board task: task status and execution receipts have their own store and lifecycle. */
  | 'TASK';

/** Whether a working record still holds */
export type WorkingRecordState =
  /** Still true or open */
  | 'ACTIVE'
  /** Dealt with (resolveWorkingRecord) */
  | 'RESOLVED'
  /** Replaced by another record of the same agent and scope (supersededBy) */
  | 'SUPERSEDED';

export type ConsoleAgentPageQueryVariables = Exact<{
  agentId: string;
}>;


export type ConsoleAgentPageQuery = { agent: { agentId: string, name: string, createdAt: string, lastEventSequence: number, counts: { brains: number, workingRecords: number | null, rollingCards: number | null, conversationSessions: number, conversationOriginals: number, runsByState: Array<{ state: ContinuityRunState, count: number }>, scopes: Array<{ project: string, workingRecords: number, handoffs: number, rollingCards: number }> | null }, profile: Array<{ kind: ProfileKind, revision: number, updatedAt: string, content: string }>, brainMemories: { totalCount: number, edges: Array<{ node: { memoryId: string, title: string, revision: number, createdAt: string } }> }, conversationSessions: { edges: Array<{ node: { sessionId: string, project: string | null, activeCount: number, archivedCount: number, originalCount: number, archiveGenerations: number, archived: boolean, lastActivityAt: string } }>, pageInfo: { hasNextPage: boolean } }, continuityRuns: { edges: Array<{ node: { runId: string, state: ContinuityRunState, project: string | null, generation: number, updatedAt: string, interruptedAt: string | null } }>, pageInfo: { hasNextPage: boolean } }, tiddleStatus: { cardTtlDays: number, schedulerEnabled: boolean, proposer: TiddleProposerKind, lastSynthesisAt: string | null, scopes: Array<{ project: string, nextRunAt: string, lastAttemptAt: string | null, lastSuccessAt: string | null, lastError: string | null, lastErrorAt: string | null, consecutiveFailures: number }> } } | null };

export type ConsoleMemoryFragment = { agentId: string, title: string, content: string, sourceRefs: Array<string>, revision: number, ownership: BrainOwnership, labels: Array<string>, createdAt: string, updatedAt: string, id: string, createdBy: { kind: PrincipalKind, principalId: string }, updatedBy: { kind: PrincipalKind, principalId: string }, legacyMigration: { source: string, legacyId: string, legacyScope: BrainLegacyScope, legacyOwnerAgentId: string | null, legacyStatus: string, operatorCorrected: boolean, operatorDeleted: boolean, importedAt: string, truncated: boolean, evidenceCount: number, snapshotCount: number, details: unknown, importedBy: { kind: PrincipalKind, principalId: string } } | null };

export type ConsoleBrainMemoriesQueryVariables = Exact<{
  agentId: string;
  query?: string | null | undefined;
  sort?: BrainMemorySort | null | undefined;
  ownership?: BrainOwnershipFilter | null | undefined;
  first?: number | null | undefined;
  after?: string | null | undefined;
}>;


export type ConsoleBrainMemoriesQuery = { brainMemories: { totalCount: number, edges: Array<{ node: { agentId: string, title: string, content: string, sourceRefs: Array<string>, revision: number, ownership: BrainOwnership, labels: Array<string>, createdAt: string, updatedAt: string, id: string, createdBy: { kind: PrincipalKind, principalId: string }, updatedBy: { kind: PrincipalKind, principalId: string }, legacyMigration: { source: string, legacyId: string, legacyScope: BrainLegacyScope, legacyOwnerAgentId: string | null, legacyStatus: string, operatorCorrected: boolean, operatorDeleted: boolean, importedAt: string, truncated: boolean, evidenceCount: number, snapshotCount: number, details: unknown, importedBy: { kind: PrincipalKind, principalId: string } } | null } }>, pageInfo: { hasNextPage: boolean, endCursor: string | null } } };

export type ConsoleBrainRevisionsQueryVariables = Exact<{
  agentId: string;
  id: string;
}>;


export type ConsoleBrainRevisionsQuery = { brainRead: { revision: number, id: string, revisions: Array<{ revision: number, action: BrainRevisionAction, title: string, content: string, sourceRefs: Array<string>, createdAt: string, actor: { kind: PrincipalKind, principalId: string } }> } | null };

export type ConsoleBrainReadQueryVariables = Exact<{
  agentId: string;
  id: string;
}>;


export type ConsoleBrainReadQuery = { brainRead: { agentId: string, title: string, content: string, sourceRefs: Array<string>, revision: number, ownership: BrainOwnership, labels: Array<string>, createdAt: string, updatedAt: string, id: string, createdBy: { kind: PrincipalKind, principalId: string }, updatedBy: { kind: PrincipalKind, principalId: string }, legacyMigration: { source: string, legacyId: string, legacyScope: BrainLegacyScope, legacyOwnerAgentId: string | null, legacyStatus: string, operatorCorrected: boolean, operatorDeleted: boolean, importedAt: string, truncated: boolean, evidenceCount: number, snapshotCount: number, details: unknown, importedBy: { kind: PrincipalKind, principalId: string } } | null } | null };

export type ConsoleBrainSaveMutationVariables = Exact<{
  input: BrainSaveInput;
}>;


export type ConsoleBrainSaveMutation = { brainSave:
    | { __typename: 'BrainSaveSuccess', memory: { agentId: string, title: string, content: string, sourceRefs: Array<string>, revision: number, ownership: BrainOwnership, labels: Array<string>, createdAt: string, updatedAt: string, id: string, createdBy: { kind: PrincipalKind, principalId: string }, updatedBy: { kind: PrincipalKind, principalId: string }, legacyMigration: { source: string, legacyId: string, legacyScope: BrainLegacyScope, legacyOwnerAgentId: string | null, legacyStatus: string, operatorCorrected: boolean, operatorDeleted: boolean, importedAt: string, truncated: boolean, evidenceCount: number, snapshotCount: number, details: unknown, importedBy: { kind: PrincipalKind, principalId: string } } | null } }
    | { __typename: 'NotFound', code: ErrorCode, message: string }
    | { __typename: 'ValidationFailed', field: string, limit: number | null, code: ErrorCode, message: string }
   };

export type ConsoleBrainUpdateMutationVariables = Exact<{
  input: BrainUpdateInput;
}>;


export type ConsoleBrainUpdateMutation = { brainUpdate:
    | { __typename: 'BrainUpdateSuccess', memory: { agentId: string, title: string, content: string, sourceRefs: Array<string>, revision: number, ownership: BrainOwnership, labels: Array<string>, createdAt: string, updatedAt: string, id: string, createdBy: { kind: PrincipalKind, principalId: string }, updatedBy: { kind: PrincipalKind, principalId: string }, legacyMigration: { source: string, legacyId: string, legacyScope: BrainLegacyScope, legacyOwnerAgentId: string | null, legacyStatus: string, operatorCorrected: boolean, operatorDeleted: boolean, importedAt: string, truncated: boolean, evidenceCount: number, snapshotCount: number, details: unknown, importedBy: { kind: PrincipalKind, principalId: string } } | null } }
    | { __typename: 'Forbidden', code: ErrorCode, message: string }
    | { __typename: 'NotFound', code: ErrorCode, message: string }
    | { __typename: 'RevisionConflict', expectedRevision: number, currentRevision: number, currentContent: string | null, currentValue: unknown, code: ErrorCode, message: string }
    | { __typename: 'ValidationFailed', field: string, limit: number | null, code: ErrorCode, message: string }
   };

export type ConsoleBrainRemoveMutationVariables = Exact<{
  input: BrainRemoveInput;
}>;


export type ConsoleBrainRemoveMutation = { brainRemove:
    | { __typename: 'BrainRemoveSuccess', memory: { revision: number, id: string } }
    | { __typename: 'Forbidden', code: ErrorCode, message: string }
    | { __typename: 'NotFound', code: ErrorCode, message: string }
    | { __typename: 'RevisionConflict', expectedRevision: number, currentRevision: number, currentContent: string | null, currentValue: unknown, code: ErrorCode, message: string }
    | { __typename: 'ValidationFailed', field: string, limit: number | null, code: ErrorCode, message: string }
   };

export type ConsoleDeleteBrainMemoriesMutationVariables = Exact<{
  agentId: string;
  items: Array<BrainRemoveManyItem> | BrainRemoveManyItem;
}>;


export type ConsoleDeleteBrainMemoriesMutation = { brainRemoveMany:
    | { __typename: 'BrainRemoveManySuccess', results: Array<{ status: BrainDeletionStatus, message: string, currentRevision: number | null, id: string }> }
    | { __typename: 'ValidationFailed', field: string, limit: number | null, code: ErrorCode, message: string }
   };

export type ConsoleExportConfigurationMutationVariables = Exact<{
  input?: ExportConfigurationInput | null | undefined;
}>;


export type ConsoleExportConfigurationMutation = { exportConfiguration:
    | { __typename: 'ExportConfigurationSuccess', document: unknown }
    | { __typename: 'SecretUnreadable', code: ErrorCode, message: string }
    | { __typename: 'ValidationFailed', field: string, limit: number | null, code: ErrorCode, message: string }
   };

export type ConsoleImportConfigurationMutationVariables = Exact<{
  input: ImportConfigurationInput;
}>;


export type ConsoleImportConfigurationMutation = { importConfiguration:
    | { __typename: 'ImportConfigurationSuccess', counts: Array<{ category: ConfigurationCategory, created: number, updated: number, unchanged: number }> }
    | { __typename: 'SecretUnreadable', code: ErrorCode, message: string }
    | { __typename: 'SettingsKeyRequired', field: string, code: ErrorCode, message: string }
    | { __typename: 'ValidationFailed', field: string, limit: number | null, code: ErrorCode, message: string }
   };

export type ConsoleRecoveryRunFragment = { agentId: string, runId: string, state: ContinuityRunState, generation: number, headRevision: number, interruptedAt: string | null, recoveryQueue: unknown, updatedAt: string };

export type ConsoleRecoveryQueueQueryVariables = Exact<{ [key: string]: never; }>;


export type ConsoleRecoveryQueueQuery = { agents: { edges: Array<{ node: { agentId: string, continuityRuns: { edges: Array<{ node: { agentId: string, runId: string, state: ContinuityRunState, generation: number, headRevision: number, interruptedAt: string | null, recoveryQueue: unknown, updatedAt: string } }>, pageInfo: { hasNextPage: boolean } } } }> } };

export type ConsoleReconcileContinuityMutationVariables = Exact<{
  agentId?: string | null | undefined;
}>;


export type ConsoleReconcileContinuityMutation = { reconcileContinuity: { ownersChecked: number, interrupted: Array<{ agentId: string, runId: string, state: ContinuityRunState, generation: number, headRevision: number, interruptedAt: string | null, recoveryQueue: unknown, updatedAt: string }>, recoveryPending: Array<{ agentId: string, runId: string, state: ContinuityRunState, generation: number, headRevision: number, interruptedAt: string | null, recoveryQueue: unknown, updatedAt: string }>, failed: Array<{ agentId: string, runId: string, state: ContinuityRunState, generation: number, headRevision: number, interruptedAt: string | null, recoveryQueue: unknown, updatedAt: string }> } };

export type ConsoleConversationArchiveFragment = { generation: number, kind: ConversationArchiveKind, entryCount: number, firstPosition: number | null, lastPosition: number | null, reason: string | null, summaryEntryId: string | null, archivedAt: string, archivedBy: { kind: PrincipalKind, principalId: string } };

export type ConsoleConversationSessionFragment = { sessionId: string, project: string | null, activeCount: number, archivedCount: number, originalCount: number, lastPosition: number, archiveGenerations: number, firstActivityAt: string, lastActivityAt: string, archived: boolean, archivedAt: string | null, archiveReason: string | null, archivedBy: { kind: PrincipalKind, principalId: string } | null, archives: Array<{ generation: number, kind: ConversationArchiveKind, entryCount: number, firstPosition: number | null, lastPosition: number | null, reason: string | null, summaryEntryId: string | null, archivedAt: string, archivedBy: { kind: PrincipalKind, principalId: string } }> };

export type ConsoleConversationOriginalFragment = { sessionId: string, entryId: string, position: number, historyPosition: number, role: string | null, payload: string, createdAt: string, archiveGeneration: number | null, archivedAt: string | null, summarizesGeneration: number | null, reference: string };

export type ConsoleConversationSessionsQueryVariables = Exact<{
  agentId: string;
  archived?: ConversationSessionArchiveFilter | null | undefined;
  after?: string | null | undefined;
}>;


export type ConsoleConversationSessionsQuery = { conversationSessions: { edges: Array<{ node: { sessionId: string, project: string | null, activeCount: number, archivedCount: number, originalCount: number, lastPosition: number, archiveGenerations: number, firstActivityAt: string, lastActivityAt: string, archived: boolean, archivedAt: string | null, archiveReason: string | null, archivedBy: { kind: PrincipalKind, principalId: string } | null, archives: Array<{ generation: number, kind: ConversationArchiveKind, entryCount: number, firstPosition: number | null, lastPosition: number | null, reason: string | null, summaryEntryId: string | null, archivedAt: string, archivedBy: { kind: PrincipalKind, principalId: string } }> } }>, pageInfo: { hasNextPage: boolean, endCursor: string | null } } };

export type ConsoleConversationSessionQueryVariables = Exact<{
  agentId: string;
  sessionId: string;
}>;


export type ConsoleConversationSessionQuery = { conversationSession: { sessionId: string, project: string | null, activeCount: number, archivedCount: number, originalCount: number, lastPosition: number, archiveGenerations: number, firstActivityAt: string, lastActivityAt: string, archived: boolean, archivedAt: string | null, archiveReason: string | null, archivedBy: { kind: PrincipalKind, principalId: string } | null, archives: Array<{ generation: number, kind: ConversationArchiveKind, entryCount: number, firstPosition: number | null, lastPosition: number | null, reason: string | null, summaryEntryId: string | null, archivedAt: string, archivedBy: { kind: PrincipalKind, principalId: string } }> } | null };

export type ConsoleConversationHistoryQueryVariables = Exact<{
  agentId: string;
  sessionId: string;
  after?: string | null | undefined;
}>;


export type ConsoleConversationHistoryQuery = { conversationHistory: { edges: Array<{ node: { sessionId: string, entryId: string, position: number, historyPosition: number, role: string | null, payload: string, createdAt: string, archiveGeneration: number | null, archivedAt: string | null, summarizesGeneration: number | null, reference: string } }>, pageInfo: { hasNextPage: boolean, endCursor: string | null } } };

export type ConsoleConversationOriginalsQueryVariables = Exact<{
  agentId: string;
  sessionId: string;
  generation?: number | null | undefined;
  after?: string | null | undefined;
}>;


export type ConsoleConversationOriginalsQuery = { conversationOriginals: { edges: Array<{ node: { sessionId: string, entryId: string, position: number, historyPosition: number, role: string | null, payload: string, createdAt: string, archiveGeneration: number | null, archivedAt: string | null, summarizesGeneration: number | null, reference: string } }>, pageInfo: { hasNextPage: boolean, endCursor: string | null } } };

export type ConsoleConversationSearchQueryVariables = Exact<{
  agentId: string;
  query: string;
  after?: string | null | undefined;
}>;


export type ConsoleConversationSearchQuery = { conversationSearch: { edges: Array<{ node: { sessionId: string, entryId: string, position: number, historyPosition: number, role: string | null, payload: string, createdAt: string, archiveGeneration: number | null, archivedAt: string | null, summarizesGeneration: number | null, reference: string } }>, pageInfo: { hasNextPage: boolean, endCursor: string | null } } };

export type ConsoleArchiveConversationSessionMutationVariables = Exact<{
  input: ArchiveConversationSessionInput;
}>;


export type ConsoleArchiveConversationSessionMutation = { archiveConversationSession:
    | { __typename: 'ArchiveConversationSessionSuccess', session: { sessionId: string, project: string | null, activeCount: number, archivedCount: number, originalCount: number, lastPosition: number, archiveGenerations: number, firstActivityAt: string, lastActivityAt: string, archived: boolean, archivedAt: string | null, archiveReason: string | null, archivedBy: { kind: PrincipalKind, principalId: string } | null, archives: Array<{ generation: number, kind: ConversationArchiveKind, entryCount: number, firstPosition: number | null, lastPosition: number | null, reason: string | null, summaryEntryId: string | null, archivedAt: string, archivedBy: { kind: PrincipalKind, principalId: string } }> } }
    | { __typename: 'ConversationSessionArchived', code: ErrorCode, message: string }
    | { __typename: 'NotFound', code: ErrorCode, message: string }
    | { __typename: 'ValidationFailed', field: string, limit: number | null, code: ErrorCode, message: string }
   };

export type ConsoleUnarchiveConversationSessionMutationVariables = Exact<{
  input: UnarchiveConversationSessionInput;
}>;


export type ConsoleUnarchiveConversationSessionMutation = { unarchiveConversationSession:
    | { __typename: 'ConversationSessionNotArchived', code: ErrorCode, message: string }
    | { __typename: 'NotFound', code: ErrorCode, message: string }
    | { __typename: 'UnarchiveConversationSessionSuccess', session: { sessionId: string, project: string | null, activeCount: number, archivedCount: number, originalCount: number, lastPosition: number, archiveGenerations: number, firstActivityAt: string, lastActivityAt: string, archived: boolean, archivedAt: string | null, archiveReason: string | null, archivedBy: { kind: PrincipalKind, principalId: string } | null, archives: Array<{ generation: number, kind: ConversationArchiveKind, entryCount: number, firstPosition: number | null, lastPosition: number | null, reason: string | null, summaryEntryId: string | null, archivedAt: string, archivedBy: { kind: PrincipalKind, principalId: string } }> } }
   };

export type ConsoleCompactConversationMutationVariables = Exact<{
  input: CompactConversationInput;
}>;


export type ConsoleCompactConversationMutation = { compactConversation:
    | { __typename: 'CompactConversationSuccess', compaction: { archive: { generation: number, kind: ConversationArchiveKind, entryCount: number, firstPosition: number | null, lastPosition: number | null, reason: string | null, summaryEntryId: string | null, archivedAt: string, archivedBy: { kind: PrincipalKind, principalId: string } }, summary: { sessionId: string, entryId: string, position: number, historyPosition: number, role: string | null, payload: string, createdAt: string, archiveGeneration: number | null, archivedAt: string | null, summarizesGeneration: number | null, reference: string } } }
    | { __typename: 'ConversationSessionArchived', code: ErrorCode, message: string }
    | { __typename: 'NotFound', code: ErrorCode, message: string }
    | { __typename: 'ValidationFailed', field: string, limit: number | null, code: ErrorCode, message: string }
   };

export type ConsoleAgentCountsQueryVariables = Exact<{
  agentId: string;
}>;


export type ConsoleAgentCountsQuery = { agent: { counts: { brains: number, workingRecords: number | null, rollingCards: number | null, runsByState: Array<{ state: ContinuityRunState, count: number }> }, tiddleStatus: { scopes: Array<{ project: string }> } } | null };

export type ConsoleAgentDetailQueryVariables = Exact<{
  agentId: string;
}>;


export type ConsoleAgentDetailQuery = { tiddleStatus: { agentId: string, cardTtlDays: number, schedulerEnabled: boolean, proposer: TiddleProposerKind, lastSynthesisAt: string | null, scopes: Array<{ project: string, nextRunAt: string, lastAttemptAt: string | null, lastSuccessAt: string | null, lastError: string | null, lastErrorAt: string | null, consecutiveFailures: number }> }, continuityRuns: { edges: Array<{ node: { runId: string, state: ContinuityRunState, project: string | null, ownerId: string, generation: number, head: string, updatedAt: string, interruptedAt: string | null, interruptionManifest: unknown, recoveryQueue: unknown } }> } };

export type ConsoleScopeQueryVariables = Exact<{
  agentId: string;
  project: string;
}>;


export type ConsoleScopeQuery = { rollingCards: { edges: Array<{ node: { cardId: string, title: string, body: string, refreshedAt: string, expiresAt: string } }> }, workingRecords: { edges: Array<{ node: { id: string, kind: WorkingRecordKind, state: WorkingRecordState, title: string, updatedAt: string, expiresAt: string, pinned: boolean, operatorOwned: boolean } }> }, sessionReadHandoff: Array<{ id: string, title: string, goal: string, outcome: string, origin: HandoffOrigin, sessionId: string, updatedAt: string, expiresAt: string }> };

export type ConsoleOperatorEventsSubscriptionVariables = Exact<{
  agentIds?: Array<string> | string | null | undefined;
  after?: string | null | undefined;
}>;


export type ConsoleOperatorEventsSubscription = { operatorEvents:
    | { agentId: string, sequence: number, cursor: string, stream: EventStream, type: AgentEventType, subjectId: string, project: string | null, occurredAt: string }
    | { agentId: string, sequence: number, cursor: string, stream: EventStream, type: AgentEventType, subjectId: string, project: string | null, occurredAt: string }
    | { agentId: string, sequence: number, cursor: string, stream: EventStream, type: AgentEventType, subjectId: string, project: string | null, occurredAt: string }
    | { agentId: string, sequence: number, cursor: string, stream: EventStream, type: AgentEventType, subjectId: string, project: string | null, occurredAt: string }
    | { agentId: string, sequence: number, cursor: string, stream: EventStream, type: AgentEventType, subjectId: string, project: string | null, occurredAt: string }
    | { agentId: string, sequence: number, cursor: string, stream: EventStream, type: AgentEventType, subjectId: string, project: string | null, occurredAt: string }
    | { agentId: string, sequence: number, cursor: string, stream: EventStream, type: AgentEventType, subjectId: string, project: string | null, occurredAt: string }
    | { agentId: string, sequence: number, cursor: string, stream: EventStream, type: AgentEventType, subjectId: string, project: string | null, occurredAt: string }
   };

export type ConsoleAgentEraseMutationVariables = Exact<{
  input: AgentEraseInput;
}>;


export type ConsoleAgentEraseMutation = { agentErase:
    | { __typename: 'AgentEraseSuccess', resumed: boolean, receipt: { receiptId: string, agentId: string, forced: boolean, startedAt: string, completedAt: string | null, contentHash: string, actor: { kind: PrincipalKind, principalId: string }, counts: Array<{ store: string, rows: number }> } }
    | { __typename: 'NotFound', code: ErrorCode, message: string }
    | { __typename: 'OwnerLive', ownerIds: Array<string>, code: ErrorCode, message: string }
   };

export type ConsoleModelConnectionFragment = { purpose: ModelPurpose, url: string, model: string, timeoutMs: number, hasSecret: boolean, revision: number, updatedAt: string, updatedBy: string };

export type ConsoleMcpConnectionFragment = { name: string, url: string, transport: McpTransport, enabled: boolean, description: string, hasSecret: boolean, revision: number, updatedAt: string, updatedBy: string };

export type ConsoleConnectionsQueryVariables = Exact<{ [key: string]: never; }>;


export type ConsoleConnectionsQuery = { settingsStatus: { keyConfigured: boolean }, modelConnections: Array<{ purpose: ModelPurpose, url: string, model: string, timeoutMs: number, hasSecret: boolean, revision: number, updatedAt: string, updatedBy: string }>, mcpConnections: Array<{ name: string, url: string, transport: McpTransport, enabled: boolean, description: string, hasSecret: boolean, revision: number, updatedAt: string, updatedBy: string }> };

export type ConsoleSetModelConnectionMutationVariables = Exact<{
  input: SetModelConnectionInput;
}>;


export type ConsoleSetModelConnectionMutation = { setModelConnection:
    | { __typename: 'NotFound', code: ErrorCode, message: string }
    | { __typename: 'RevisionConflict', expectedRevision: number, currentRevision: number, currentContent: string | null, currentValue: unknown, code: ErrorCode, message: string }
    | { __typename: 'SetModelConnectionSuccess', connection: { purpose: ModelPurpose, url: string, model: string, timeoutMs: number, hasSecret: boolean, revision: number, updatedAt: string, updatedBy: string } }
    | { __typename: 'SettingsKeyRequired', field: string, code: ErrorCode, message: string }
    | { __typename: 'ValidationFailed', field: string, limit: number | null, code: ErrorCode, message: string }
   };

export type ConsoleSetMcpConnectionMutationVariables = Exact<{
  input: SetMcpConnectionInput;
}>;


export type ConsoleSetMcpConnectionMutation = { setMcpConnection:
    | { __typename: 'NotFound', code: ErrorCode, message: string }
    | { __typename: 'RevisionConflict', expectedRevision: number, currentRevision: number, currentContent: string | null, currentValue: unknown, code: ErrorCode, message: string }
    | { __typename: 'SetMcpConnectionSuccess', connection: { name: string, url: string, transport: McpTransport, enabled: boolean, description: string, hasSecret: boolean, revision: number, updatedAt: string, updatedBy: string } }
    | { __typename: 'SettingsKeyRequired', field: string, code: ErrorCode, message: string }
    | { __typename: 'ValidationFailed', field: string, limit: number | null, code: ErrorCode, message: string }
   };

export type ConsoleDeleteModelConnectionMutationVariables = Exact<{
  purpose: ModelPurpose;
}>;


export type ConsoleDeleteModelConnectionMutation = { deleteModelConnection: { deleted: boolean } };

export type ConsoleDeleteMcpConnectionMutationVariables = Exact<{
  name: string;
}>;


export type ConsoleDeleteMcpConnectionMutation = { deleteMcpConnection: { deleted: boolean } };

export type ConsoleDreamDiaryEntryFragment = { entryId: string, entryDate: string, title: string, body: string, createdAt: string, writtenBy: string };

export type ConsoleDreamDiaryQueryVariables = Exact<{
  agentId: string;
  after?: string | null | undefined;
}>;


export type ConsoleDreamDiaryQuery = { dreamDiary: { edges: Array<{ node: { entryId: string, entryDate: string, title: string, body: string, createdAt: string, writtenBy: string } }>, pageInfo: { hasNextPage: boolean, endCursor: string | null } } };

export type ConsoleAppendDreamDiaryEntryMutationVariables = Exact<{
  input: AppendDreamDiaryEntryInput;
}>;


export type ConsoleAppendDreamDiaryEntryMutation = { appendDreamDiaryEntry:
    | { __typename: 'AppendDreamDiaryEntrySuccess', entry: { entryId: string, entryDate: string, title: string, body: string, createdAt: string, writtenBy: string } }
    | { __typename: 'NotFound', code: ErrorCode, message: string }
    | { __typename: 'ValidationFailed', field: string, limit: number | null, code: ErrorCode, message: string }
   };

export type ConsoleProfileQueryVariables = Exact<{
  agentId: string;
}>;


export type ConsoleProfileQuery = { agent: { agentId: string, name: string, profile: Array<{ kind: ProfileKind, revision: number, updatedAt: string, reference: string }> } | null };

export type ConsoleProfileDocumentQueryVariables = Exact<{
  agentId: string;
  kind: ProfileKind;
}>;


export type ConsoleProfileDocumentQuery = { profileDocument: { kind: ProfileKind, revision: number, content: string, reference: string, updatedAt: string, updatedBy: { kind: PrincipalKind, principalId: string }, revisions: { edges: Array<{ node: { revision: number, content: string, createdAt: string, reason: string, actor: { kind: PrincipalKind, principalId: string } } }> } } | null };

export type ConsoleUpdateProfileDocumentMutationVariables = Exact<{
  input: UpdateProfileDocumentInput;
}>;


export type ConsoleUpdateProfileDocumentMutation = { updateProfileDocument:
    | { __typename: 'NotFound', code: ErrorCode, message: string }
    | { __typename: 'RevisionConflict', expectedRevision: number, currentRevision: number, currentContent: string | null, currentValue: unknown, code: ErrorCode, message: string }
    | { __typename: 'UpdateProfileDocumentSuccess', document: { kind: ProfileKind, revision: number, content: string, updatedAt: string } }
    | { __typename: 'ValidationFailed', field: string, limit: number | null, code: ErrorCode, message: string }
   };

type ConsoleError_AlreadyExists_Fragment = { __typename: 'AlreadyExists', resource: string, resourceId: string, code: ErrorCode, message: string };

type ConsoleError_ContinuityFenceRejected_Fragment = { __typename: 'ContinuityFenceRejected', code: ErrorCode, message: string };

type ConsoleError_ConversationSessionArchived_Fragment = { __typename: 'ConversationSessionArchived', code: ErrorCode, message: string };

type ConsoleError_ConversationSessionNotArchived_Fragment = { __typename: 'ConversationSessionNotArchived', code: ErrorCode, message: string };

type ConsoleError_Forbidden_Fragment = { __typename: 'Forbidden', code: ErrorCode, message: string };

type ConsoleError_NotFound_Fragment = { __typename: 'NotFound', code: ErrorCode, message: string };

type ConsoleError_OwnerLive_Fragment = { __typename: 'OwnerLive', code: ErrorCode, message: string };

type ConsoleError_RevisionConflict_Fragment = { __typename: 'RevisionConflict', expectedRevision: number, currentRevision: number, currentContent: string | null, currentValue: unknown, code: ErrorCode, message: string };

type ConsoleError_SecretUnreadable_Fragment = { __typename: 'SecretUnreadable', code: ErrorCode, message: string };

type ConsoleError_SettingsKeyRequired_Fragment = { __typename: 'SettingsKeyRequired', code: ErrorCode, message: string };

type ConsoleError_ValidationFailed_Fragment = { __typename: 'ValidationFailed', field: string, limit: number | null, code: ErrorCode, message: string };

export type ConsoleErrorFragment =
  | ConsoleError_AlreadyExists_Fragment
  | ConsoleError_ContinuityFenceRejected_Fragment
  | ConsoleError_ConversationSessionArchived_Fragment
  | ConsoleError_ConversationSessionNotArchived_Fragment
  | ConsoleError_Forbidden_Fragment
  | ConsoleError_NotFound_Fragment
  | ConsoleError_OwnerLive_Fragment
  | ConsoleError_RevisionConflict_Fragment
  | ConsoleError_SecretUnreadable_Fragment
  | ConsoleError_SettingsKeyRequired_Fragment
  | ConsoleError_ValidationFailed_Fragment
;

export type ConsoleViewerQueryVariables = Exact<{ [key: string]: never; }>;


export type ConsoleViewerQuery = { viewer: { principal: PrincipalKind, tokenName: string, agentId: string | null } };

export type ConsoleAgentsQueryVariables = Exact<{ [key: string]: never; }>;


export type ConsoleAgentsQuery = { agents: { edges: Array<{ node: { agentId: string, name: string, lastEventSequence: number } }>, pageInfo: { hasNextPage: boolean } } };

export type ConsoleCreateAgentMutationVariables = Exact<{
  input: CreateAgentInput;
}>;


export type ConsoleCreateAgentMutation = { createAgent:
    | { __typename: 'AlreadyExists', resource: string, resourceId: string, code: ErrorCode, message: string }
    | { __typename: 'CreateAgentSuccess', agent: { agentId: string, name: string, lastEventSequence: number } }
    | { __typename: 'ValidationFailed', field: string, limit: number | null, code: ErrorCode, message: string }
   };

export type ConsoleApiTokenFragment = { tokenId: string, name: string, kind: PrincipalKind, agentId: string | null, createdAt: string, expiresAt: string | null, lastUsedAt: string | null, revokedAt: string | null, active: boolean };

export type ConsoleApiTokensQueryVariables = Exact<{ [key: string]: never; }>;


export type ConsoleApiTokensQuery = { apiTokens: { totalCount: number, edges: Array<{ node: { tokenId: string, name: string, kind: PrincipalKind, agentId: string | null, createdAt: string, expiresAt: string | null, lastUsedAt: string | null, revokedAt: string | null, active: boolean } }>, pageInfo: { hasNextPage: boolean } } };

export type ConsoleCreateApiTokenMutationVariables = Exact<{
  input: CreateApiTokenInput;
}>;


export type ConsoleCreateApiTokenMutation = { createApiToken:
    | { __typename: 'CreateApiTokenSuccess', secret: string, token: { tokenId: string, name: string, kind: PrincipalKind, agentId: string | null, createdAt: string, expiresAt: string | null, lastUsedAt: string | null, revokedAt: string | null, active: boolean } }
    | { __typename: 'NotFound', code: ErrorCode, message: string }
    | { __typename: 'ValidationFailed', field: string, limit: number | null, code: ErrorCode, message: string }
   };

export type ConsoleRevokeApiTokenMutationVariables = Exact<{
  tokenId: string;
}>;


export type ConsoleRevokeApiTokenMutation = { revokeApiToken:
    | { __typename: 'NotFound', code: ErrorCode, message: string }
    | { __typename: 'RevokeApiTokenSuccess', token: { tokenId: string, name: string, kind: PrincipalKind, agentId: string | null, createdAt: string, expiresAt: string | null, lastUsedAt: string | null, revokedAt: string | null, active: boolean } }
   };

export const ConsoleMemoryFragmentDoc = {"kind":"Document","definitions":[{"kind":"FragmentDefinition","name":{"kind":"Name","value":"ConsoleMemory"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"BrainMemory"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","alias":{"kind":"Name","value":"id"},"name":{"kind":"Name","value":"memoryId"}},{"kind":"Field","name":{"kind":"Name","value":"agentId"}},{"kind":"Field","name":{"kind":"Name","value":"title"}},{"kind":"Field","name":{"kind":"Name","value":"content"}},{"kind":"Field","name":{"kind":"Name","value":"sourceRefs"}},{"kind":"Field","name":{"kind":"Name","value":"revision"}},{"kind":"Field","name":{"kind":"Name","value":"ownership"}},{"kind":"Field","name":{"kind":"Name","value":"labels"}},{"kind":"Field","name":{"kind":"Name","value":"createdAt"}},{"kind":"Field","name":{"kind":"Name","value":"createdBy"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"kind"}},{"kind":"Field","name":{"kind":"Name","value":"principalId"}}]}},{"kind":"Field","name":{"kind":"Name","value":"updatedAt"}},{"kind":"Field","name":{"kind":"Name","value":"updatedBy"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"kind"}},{"kind":"Field","name":{"kind":"Name","value":"principalId"}}]}},{"kind":"Field","name":{"kind":"Name","value":"legacyMigration"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"source"}},{"kind":"Field","name":{"kind":"Name","value":"legacyId"}},{"kind":"Field","name":{"kind":"Name","value":"legacyScope"}},{"kind":"Field","name":{"kind":"Name","value":"legacyOwnerAgentId"}},{"kind":"Field","name":{"kind":"Name","value":"legacyStatus"}},{"kind":"Field","name":{"kind":"Name","value":"operatorCorrected"}},{"kind":"Field","name":{"kind":"Name","value":"operatorDeleted"}},{"kind":"Field","name":{"kind":"Name","value":"importedAt"}},{"kind":"Field","name":{"kind":"Name","value":"importedBy"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"kind"}},{"kind":"Field","name":{"kind":"Name","value":"principalId"}}]}},{"kind":"Field","name":{"kind":"Name","value":"truncated"}},{"kind":"Field","name":{"kind":"Name","value":"evidenceCount"}},{"kind":"Field","name":{"kind":"Name","value":"snapshotCount"}},{"kind":"Field","name":{"kind":"Name","value":"details"}}]}}]}}]} as unknown as DocumentNode<ConsoleMemoryFragment, unknown>;
export const ConsoleRecoveryRunFragmentDoc = {"kind":"Document","definitions":[{"kind":"FragmentDefinition","name":{"kind":"Name","value":"ConsoleRecoveryRun"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"ContinuityRun"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"agentId"}},{"kind":"Field","name":{"kind":"Name","value":"runId"}},{"kind":"Field","name":{"kind":"Name","value":"state"}},{"kind":"Field","name":{"kind":"Name","value":"generation"}},{"kind":"Field","name":{"kind":"Name","value":"headRevision"}},{"kind":"Field","name":{"kind":"Name","value":"interruptedAt"}},{"kind":"Field","name":{"kind":"Name","value":"recoveryQueue"}},{"kind":"Field","name":{"kind":"Name","value":"updatedAt"}}]}}]} as unknown as DocumentNode<ConsoleRecoveryRunFragment, unknown>;
export const ConsoleConversationArchiveFragmentDoc = {"kind":"Document","definitions":[{"kind":"FragmentDefinition","name":{"kind":"Name","value":"ConsoleConversationArchive"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"ConversationArchive"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"generation"}},{"kind":"Field","name":{"kind":"Name","value":"kind"}},{"kind":"Field","name":{"kind":"Name","value":"entryCount"}},{"kind":"Field","name":{"kind":"Name","value":"firstPosition"}},{"kind":"Field","name":{"kind":"Name","value":"lastPosition"}},{"kind":"Field","name":{"kind":"Name","value":"reason"}},{"kind":"Field","name":{"kind":"Name","value":"summaryEntryId"}},{"kind":"Field","name":{"kind":"Name","value":"archivedAt"}},{"kind":"Field","name":{"kind":"Name","value":"archivedBy"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"kind"}},{"kind":"Field","name":{"kind":"Name","value":"principalId"}}]}}]}}]} as unknown as DocumentNode<ConsoleConversationArchiveFragment, unknown>;
export const ConsoleConversationSessionFragmentDoc = {"kind":"Document","definitions":[{"kind":"FragmentDefinition","name":{"kind":"Name","value":"ConsoleConversationSession"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"ConversationSession"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"sessionId"}},{"kind":"Field","name":{"kind":"Name","value":"project"}},{"kind":"Field","name":{"kind":"Name","value":"activeCount"}},{"kind":"Field","name":{"kind":"Name","value":"archivedCount"}},{"kind":"Field","name":{"kind":"Name","value":"originalCount"}},{"kind":"Field","name":{"kind":"Name","value":"lastPosition"}},{"kind":"Field","name":{"kind":"Name","value":"archiveGenerations"}},{"kind":"Field","name":{"kind":"Name","value":"firstActivityAt"}},{"kind":"Field","name":{"kind":"Name","value":"lastActivityAt"}},{"kind":"Field","name":{"kind":"Name","value":"archived"}},{"kind":"Field","name":{"kind":"Name","value":"archivedAt"}},{"kind":"Field","name":{"kind":"Name","value":"archiveReason"}},{"kind":"Field","name":{"kind":"Name","value":"archivedBy"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"kind"}},{"kind":"Field","name":{"kind":"Name","value":"principalId"}}]}},{"kind":"Field","name":{"kind":"Name","value":"archives"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"FragmentSpread","name":{"kind":"Name","value":"ConsoleConversationArchive"}}]}}]}},{"kind":"FragmentDefinition","name":{"kind":"Name","value":"ConsoleConversationArchive"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"ConversationArchive"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"generation"}},{"kind":"Field","name":{"kind":"Name","value":"kind"}},{"kind":"Field","name":{"kind":"Name","value":"entryCount"}},{"kind":"Field","name":{"kind":"Name","value":"firstPosition"}},{"kind":"Field","name":{"kind":"Name","value":"lastPosition"}},{"kind":"Field","name":{"kind":"Name","value":"reason"}},{"kind":"Field","name":{"kind":"Name","value":"summaryEntryId"}},{"kind":"Field","name":{"kind":"Name","value":"archivedAt"}},{"kind":"Field","name":{"kind":"Name","value":"archivedBy"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"kind"}},{"kind":"Field","name":{"kind":"Name","value":"principalId"}}]}}]}}]} as unknown as DocumentNode<ConsoleConversationSessionFragment, unknown>;
export const ConsoleConversationOriginalFragmentDoc = {"kind":"Document","definitions":[{"kind":"FragmentDefinition","name":{"kind":"Name","value":"ConsoleConversationOriginal"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"ConversationOriginal"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"sessionId"}},{"kind":"Field","name":{"kind":"Name","value":"entryId"}},{"kind":"Field","name":{"kind":"Name","value":"position"}},{"kind":"Field","name":{"kind":"Name","value":"historyPosition"}},{"kind":"Field","name":{"kind":"Name","value":"role"}},{"kind":"Field","name":{"kind":"Name","value":"payload"}},{"kind":"Field","name":{"kind":"Name","value":"createdAt"}},{"kind":"Field","name":{"kind":"Name","value":"archiveGeneration"}},{"kind":"Field","name":{"kind":"Name","value":"archivedAt"}},{"kind":"Field","name":{"kind":"Name","value":"summarizesGeneration"}},{"kind":"Field","name":{"kind":"Name","value":"reference"}}]}}]} as unknown as DocumentNode<ConsoleConversationOriginalFragment, unknown>;
export const ConsoleModelConnectionFragmentDoc = {"kind":"Document","definitions":[{"kind":"FragmentDefinition","name":{"kind":"Name","value":"ConsoleModelConnection"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"ModelConnectionSetting"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"purpose"}},{"kind":"Field","name":{"kind":"Name","value":"url"}},{"kind":"Field","name":{"kind":"Name","value":"model"}},{"kind":"Field","name":{"kind":"Name","value":"timeoutMs"}},{"kind":"Field","name":{"kind":"Name","value":"hasSecret"}},{"kind":"Field","name":{"kind":"Name","value":"revision"}},{"kind":"Field","name":{"kind":"Name","value":"updatedAt"}},{"kind":"Field","name":{"kind":"Name","value":"updatedBy"}}]}}]} as unknown as DocumentNode<ConsoleModelConnectionFragment, unknown>;
export const ConsoleMcpConnectionFragmentDoc = {"kind":"Document","definitions":[{"kind":"FragmentDefinition","name":{"kind":"Name","value":"ConsoleMcpConnection"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"McpConnectionSetting"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"name"}},{"kind":"Field","name":{"kind":"Name","value":"url"}},{"kind":"Field","name":{"kind":"Name","value":"transport"}},{"kind":"Field","name":{"kind":"Name","value":"enabled"}},{"kind":"Field","name":{"kind":"Name","value":"description"}},{"kind":"Field","name":{"kind":"Name","value":"hasSecret"}},{"kind":"Field","name":{"kind":"Name","value":"revision"}},{"kind":"Field","name":{"kind":"Name","value":"updatedAt"}},{"kind":"Field","name":{"kind":"Name","value":"updatedBy"}}]}}]} as unknown as DocumentNode<ConsoleMcpConnectionFragment, unknown>;
export const ConsoleDreamDiaryEntryFragmentDoc = {"kind":"Document","definitions":[{"kind":"FragmentDefinition","name":{"kind":"Name","value":"ConsoleDreamDiaryEntry"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"DreamDiaryEntry"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"entryId"}},{"kind":"Field","name":{"kind":"Name","value":"entryDate"}},{"kind":"Field","name":{"kind":"Name","value":"title"}},{"kind":"Field","name":{"kind":"Name","value":"body"}},{"kind":"Field","name":{"kind":"Name","value":"createdAt"}},{"kind":"Field","name":{"kind":"Name","value":"writtenBy"}}]}}]} as unknown as DocumentNode<ConsoleDreamDiaryEntryFragment, unknown>;
export const ConsoleErrorFragmentDoc = {"kind":"Document","definitions":[{"kind":"FragmentDefinition","name":{"kind":"Name","value":"ConsoleError"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"Error"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"code"}},{"kind":"Field","name":{"kind":"Name","value":"message"}},{"kind":"InlineFragment","typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"ValidationFailed"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"field"}},{"kind":"Field","name":{"kind":"Name","value":"limit"}}]}},{"kind":"InlineFragment","typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"AlreadyExists"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"resource"}},{"kind":"Field","name":{"kind":"Name","value":"resourceId"}}]}},{"kind":"InlineFragment","typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"RevisionConflict"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"expectedRevision"}},{"kind":"Field","name":{"kind":"Name","value":"currentRevision"}},{"kind":"Field","name":{"kind":"Name","value":"currentContent"}},{"kind":"Field","name":{"kind":"Name","value":"currentValue"}}]}}]}}]} as unknown as DocumentNode<ConsoleErrorFragment, unknown>;
export const ConsoleApiTokenFragmentDoc = {"kind":"Document","definitions":[{"kind":"FragmentDefinition","name":{"kind":"Name","value":"ConsoleApiToken"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"ApiToken"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"tokenId"}},{"kind":"Field","name":{"kind":"Name","value":"name"}},{"kind":"Field","name":{"kind":"Name","value":"kind"}},{"kind":"Field","name":{"kind":"Name","value":"agentId"}},{"kind":"Field","name":{"kind":"Name","value":"createdAt"}},{"kind":"Field","name":{"kind":"Name","value":"expiresAt"}},{"kind":"Field","name":{"kind":"Name","value":"lastUsedAt"}},{"kind":"Field","name":{"kind":"Name","value":"revokedAt"}},{"kind":"Field","name":{"kind":"Name","value":"active"}}]}}]} as unknown as DocumentNode<ConsoleApiTokenFragment, unknown>;
export const ConsoleAgentPageDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"query","name":{"kind":"Name","value":"ConsoleAgentPage"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"agentId"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"String"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"agent"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"agentId"},"value":{"kind":"Variable","name":{"kind":"Name","value":"agentId"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"agentId"}},{"kind":"Field","name":{"kind":"Name","value":"name"}},{"kind":"Field","name":{"kind":"Name","value":"createdAt"}},{"kind":"Field","name":{"kind":"Name","value":"lastEventSequence"}},{"kind":"Field","name":{"kind":"Name","value":"counts"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"brains"}},{"kind":"Field","name":{"kind":"Name","value":"workingRecords"}},{"kind":"Field","name":{"kind":"Name","value":"rollingCards"}},{"kind":"Field","name":{"kind":"Name","value":"conversationSessions"}},{"kind":"Field","name":{"kind":"Name","value":"conversationOriginals"}},{"kind":"Field","name":{"kind":"Name","value":"runsByState"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"state"}},{"kind":"Field","name":{"kind":"Name","value":"count"}}]}},{"kind":"Field","name":{"kind":"Name","value":"scopes"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"project"}},{"kind":"Field","name":{"kind":"Name","value":"workingRecords"}},{"kind":"Field","name":{"kind":"Name","value":"handoffs"}},{"kind":"Field","name":{"kind":"Name","value":"rollingCards"}}]}}]}},{"kind":"Field","name":{"kind":"Name","value":"profile"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"kind"}},{"kind":"Field","name":{"kind":"Name","value":"revision"}},{"kind":"Field","name":{"kind":"Name","value":"updatedAt"}},{"kind":"Field","name":{"kind":"Name","value":"content"}}]}},{"kind":"Field","name":{"kind":"Name","value":"brainMemories"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"first"},"value":{"kind":"IntValue","value":"5"}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"totalCount"}},{"kind":"Field","name":{"kind":"Name","value":"edges"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"node"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"memoryId"}},{"kind":"Field","name":{"kind":"Name","value":"title"}},{"kind":"Field","name":{"kind":"Name","value":"revision"}},{"kind":"Field","name":{"kind":"Name","value":"createdAt"}}]}}]}}]}},{"kind":"Field","name":{"kind":"Name","value":"conversationSessions"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"first"},"value":{"kind":"IntValue","value":"20"}},{"kind":"Argument","name":{"kind":"Name","value":"archived"},"value":{"kind":"EnumValue","value":"INCLUDE"}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"edges"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"node"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"sessionId"}},{"kind":"Field","name":{"kind":"Name","value":"project"}},{"kind":"Field","name":{"kind":"Name","value":"activeCount"}},{"kind":"Field","name":{"kind":"Name","value":"archivedCount"}},{"kind":"Field","name":{"kind":"Name","value":"originalCount"}},{"kind":"Field","name":{"kind":"Name","value":"archiveGenerations"}},{"kind":"Field","name":{"kind":"Name","value":"archived"}},{"kind":"Field","name":{"kind":"Name","value":"lastActivityAt"}}]}}]}},{"kind":"Field","name":{"kind":"Name","value":"pageInfo"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"hasNextPage"}}]}}]}},{"kind":"Field","name":{"kind":"Name","value":"continuityRuns"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"first"},"value":{"kind":"IntValue","value":"20"}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"edges"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"node"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"runId"}},{"kind":"Field","name":{"kind":"Name","value":"state"}},{"kind":"Field","name":{"kind":"Name","value":"project"}},{"kind":"Field","name":{"kind":"Name","value":"generation"}},{"kind":"Field","name":{"kind":"Name","value":"updatedAt"}},{"kind":"Field","name":{"kind":"Name","value":"interruptedAt"}}]}}]}},{"kind":"Field","name":{"kind":"Name","value":"pageInfo"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"hasNextPage"}}]}}]}},{"kind":"Field","name":{"kind":"Name","value":"tiddleStatus"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"cardTtlDays"}},{"kind":"Field","name":{"kind":"Name","value":"schedulerEnabled"}},{"kind":"Field","name":{"kind":"Name","value":"proposer"}},{"kind":"Field","name":{"kind":"Name","value":"lastSynthesisAt"}},{"kind":"Field","name":{"kind":"Name","value":"scopes"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"project"}},{"kind":"Field","name":{"kind":"Name","value":"nextRunAt"}},{"kind":"Field","name":{"kind":"Name","value":"lastAttemptAt"}},{"kind":"Field","name":{"kind":"Name","value":"lastSuccessAt"}},{"kind":"Field","name":{"kind":"Name","value":"lastError"}},{"kind":"Field","name":{"kind":"Name","value":"lastErrorAt"}},{"kind":"Field","name":{"kind":"Name","value":"consecutiveFailures"}}]}}]}}]}}]}}]} as unknown as DocumentNode<ConsoleAgentPageQuery, ConsoleAgentPageQueryVariables>;
export const ConsoleBrainMemoriesDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"query","name":{"kind":"Name","value":"ConsoleBrainMemories"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"agentId"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"String"}}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"query"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"String"}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"sort"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"BrainMemorySort"}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"ownership"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"BrainOwnershipFilter"}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"first"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"Int"}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"after"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"String"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"brainMemories"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"agentId"},"value":{"kind":"Variable","name":{"kind":"Name","value":"agentId"}}},{"kind":"Argument","name":{"kind":"Name","value":"query"},"value":{"kind":"Variable","name":{"kind":"Name","value":"query"}}},{"kind":"Argument","name":{"kind":"Name","value":"sort"},"value":{"kind":"Variable","name":{"kind":"Name","value":"sort"}}},{"kind":"Argument","name":{"kind":"Name","value":"ownership"},"value":{"kind":"Variable","name":{"kind":"Name","value":"ownership"}}},{"kind":"Argument","name":{"kind":"Name","value":"first"},"value":{"kind":"Variable","name":{"kind":"Name","value":"first"}}},{"kind":"Argument","name":{"kind":"Name","value":"after"},"value":{"kind":"Variable","name":{"kind":"Name","value":"after"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"totalCount"}},{"kind":"Field","name":{"kind":"Name","value":"edges"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"node"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"FragmentSpread","name":{"kind":"Name","value":"ConsoleMemory"}}]}}]}},{"kind":"Field","name":{"kind":"Name","value":"pageInfo"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"hasNextPage"}},{"kind":"Field","name":{"kind":"Name","value":"endCursor"}}]}}]}}]}},{"kind":"FragmentDefinition","name":{"kind":"Name","value":"ConsoleMemory"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"BrainMemory"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","alias":{"kind":"Name","value":"id"},"name":{"kind":"Name","value":"memoryId"}},{"kind":"Field","name":{"kind":"Name","value":"agentId"}},{"kind":"Field","name":{"kind":"Name","value":"title"}},{"kind":"Field","name":{"kind":"Name","value":"content"}},{"kind":"Field","name":{"kind":"Name","value":"sourceRefs"}},{"kind":"Field","name":{"kind":"Name","value":"revision"}},{"kind":"Field","name":{"kind":"Name","value":"ownership"}},{"kind":"Field","name":{"kind":"Name","value":"labels"}},{"kind":"Field","name":{"kind":"Name","value":"createdAt"}},{"kind":"Field","name":{"kind":"Name","value":"createdBy"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"kind"}},{"kind":"Field","name":{"kind":"Name","value":"principalId"}}]}},{"kind":"Field","name":{"kind":"Name","value":"updatedAt"}},{"kind":"Field","name":{"kind":"Name","value":"updatedBy"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"kind"}},{"kind":"Field","name":{"kind":"Name","value":"principalId"}}]}},{"kind":"Field","name":{"kind":"Name","value":"legacyMigration"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"source"}},{"kind":"Field","name":{"kind":"Name","value":"legacyId"}},{"kind":"Field","name":{"kind":"Name","value":"legacyScope"}},{"kind":"Field","name":{"kind":"Name","value":"legacyOwnerAgentId"}},{"kind":"Field","name":{"kind":"Name","value":"legacyStatus"}},{"kind":"Field","name":{"kind":"Name","value":"operatorCorrected"}},{"kind":"Field","name":{"kind":"Name","value":"operatorDeleted"}},{"kind":"Field","name":{"kind":"Name","value":"importedAt"}},{"kind":"Field","name":{"kind":"Name","value":"importedBy"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"kind"}},{"kind":"Field","name":{"kind":"Name","value":"principalId"}}]}},{"kind":"Field","name":{"kind":"Name","value":"truncated"}},{"kind":"Field","name":{"kind":"Name","value":"evidenceCount"}},{"kind":"Field","name":{"kind":"Name","value":"snapshotCount"}},{"kind":"Field","name":{"kind":"Name","value":"details"}}]}}]}}]} as unknown as DocumentNode<ConsoleBrainMemoriesQuery, ConsoleBrainMemoriesQueryVariables>;
export const ConsoleBrainRevisionsDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"query","name":{"kind":"Name","value":"ConsoleBrainRevisions"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"agentId"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"String"}}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"id"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"String"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"brainRead"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"agentId"},"value":{"kind":"Variable","name":{"kind":"Name","value":"agentId"}}},{"kind":"Argument","name":{"kind":"Name","value":"memoryId"},"value":{"kind":"Variable","name":{"kind":"Name","value":"id"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","alias":{"kind":"Name","value":"id"},"name":{"kind":"Name","value":"memoryId"}},{"kind":"Field","name":{"kind":"Name","value":"revision"}},{"kind":"Field","name":{"kind":"Name","value":"revisions"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"first"},"value":{"kind":"IntValue","value":"100"}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"revision"}},{"kind":"Field","name":{"kind":"Name","value":"action"}},{"kind":"Field","name":{"kind":"Name","value":"title"}},{"kind":"Field","name":{"kind":"Name","value":"content"}},{"kind":"Field","name":{"kind":"Name","value":"sourceRefs"}},{"kind":"Field","name":{"kind":"Name","value":"createdAt"}},{"kind":"Field","name":{"kind":"Name","value":"actor"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"kind"}},{"kind":"Field","name":{"kind":"Name","value":"principalId"}}]}}]}}]}}]}}]} as unknown as DocumentNode<ConsoleBrainRevisionsQuery, ConsoleBrainRevisionsQueryVariables>;
export const ConsoleBrainReadDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"query","name":{"kind":"Name","value":"ConsoleBrainRead"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"agentId"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"String"}}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"id"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"String"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"brainRead"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"agentId"},"value":{"kind":"Variable","name":{"kind":"Name","value":"agentId"}}},{"kind":"Argument","name":{"kind":"Name","value":"memoryId"},"value":{"kind":"Variable","name":{"kind":"Name","value":"id"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"FragmentSpread","name":{"kind":"Name","value":"ConsoleMemory"}}]}}]}},{"kind":"FragmentDefinition","name":{"kind":"Name","value":"ConsoleMemory"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"BrainMemory"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","alias":{"kind":"Name","value":"id"},"name":{"kind":"Name","value":"memoryId"}},{"kind":"Field","name":{"kind":"Name","value":"agentId"}},{"kind":"Field","name":{"kind":"Name","value":"title"}},{"kind":"Field","name":{"kind":"Name","value":"content"}},{"kind":"Field","name":{"kind":"Name","value":"sourceRefs"}},{"kind":"Field","name":{"kind":"Name","value":"revision"}},{"kind":"Field","name":{"kind":"Name","value":"ownership"}},{"kind":"Field","name":{"kind":"Name","value":"labels"}},{"kind":"Field","name":{"kind":"Name","value":"createdAt"}},{"kind":"Field","name":{"kind":"Name","value":"createdBy"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"kind"}},{"kind":"Field","name":{"kind":"Name","value":"principalId"}}]}},{"kind":"Field","name":{"kind":"Name","value":"updatedAt"}},{"kind":"Field","name":{"kind":"Name","value":"updatedBy"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"kind"}},{"kind":"Field","name":{"kind":"Name","value":"principalId"}}]}},{"kind":"Field","name":{"kind":"Name","value":"legacyMigration"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"source"}},{"kind":"Field","name":{"kind":"Name","value":"legacyId"}},{"kind":"Field","name":{"kind":"Name","value":"legacyScope"}},{"kind":"Field","name":{"kind":"Name","value":"legacyOwnerAgentId"}},{"kind":"Field","name":{"kind":"Name","value":"legacyStatus"}},{"kind":"Field","name":{"kind":"Name","value":"operatorCorrected"}},{"kind":"Field","name":{"kind":"Name","value":"operatorDeleted"}},{"kind":"Field","name":{"kind":"Name","value":"importedAt"}},{"kind":"Field","name":{"kind":"Name","value":"importedBy"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"kind"}},{"kind":"Field","name":{"kind":"Name","value":"principalId"}}]}},{"kind":"Field","name":{"kind":"Name","value":"truncated"}},{"kind":"Field","name":{"kind":"Name","value":"evidenceCount"}},{"kind":"Field","name":{"kind":"Name","value":"snapshotCount"}},{"kind":"Field","name":{"kind":"Name","value":"details"}}]}}]}}]} as unknown as DocumentNode<ConsoleBrainReadQuery, ConsoleBrainReadQueryVariables>;
export const ConsoleBrainSaveDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"mutation","name":{"kind":"Name","value":"ConsoleBrainSave"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"input"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"BrainSaveInput"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"brainSave"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"input"},"value":{"kind":"Variable","name":{"kind":"Name","value":"input"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"InlineFragment","typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"BrainSaveSuccess"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"memory"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"FragmentSpread","name":{"kind":"Name","value":"ConsoleMemory"}}]}}]}},{"kind":"InlineFragment","typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"Error"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"FragmentSpread","name":{"kind":"Name","value":"ConsoleError"}}]}}]}}]}},{"kind":"FragmentDefinition","name":{"kind":"Name","value":"ConsoleMemory"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"BrainMemory"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","alias":{"kind":"Name","value":"id"},"name":{"kind":"Name","value":"memoryId"}},{"kind":"Field","name":{"kind":"Name","value":"agentId"}},{"kind":"Field","name":{"kind":"Name","value":"title"}},{"kind":"Field","name":{"kind":"Name","value":"content"}},{"kind":"Field","name":{"kind":"Name","value":"sourceRefs"}},{"kind":"Field","name":{"kind":"Name","value":"revision"}},{"kind":"Field","name":{"kind":"Name","value":"ownership"}},{"kind":"Field","name":{"kind":"Name","value":"labels"}},{"kind":"Field","name":{"kind":"Name","value":"createdAt"}},{"kind":"Field","name":{"kind":"Name","value":"createdBy"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"kind"}},{"kind":"Field","name":{"kind":"Name","value":"principalId"}}]}},{"kind":"Field","name":{"kind":"Name","value":"updatedAt"}},{"kind":"Field","name":{"kind":"Name","value":"updatedBy"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"kind"}},{"kind":"Field","name":{"kind":"Name","value":"principalId"}}]}},{"kind":"Field","name":{"kind":"Name","value":"legacyMigration"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"source"}},{"kind":"Field","name":{"kind":"Name","value":"legacyId"}},{"kind":"Field","name":{"kind":"Name","value":"legacyScope"}},{"kind":"Field","name":{"kind":"Name","value":"legacyOwnerAgentId"}},{"kind":"Field","name":{"kind":"Name","value":"legacyStatus"}},{"kind":"Field","name":{"kind":"Name","value":"operatorCorrected"}},{"kind":"Field","name":{"kind":"Name","value":"operatorDeleted"}},{"kind":"Field","name":{"kind":"Name","value":"importedAt"}},{"kind":"Field","name":{"kind":"Name","value":"importedBy"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"kind"}},{"kind":"Field","name":{"kind":"Name","value":"principalId"}}]}},{"kind":"Field","name":{"kind":"Name","value":"truncated"}},{"kind":"Field","name":{"kind":"Name","value":"evidenceCount"}},{"kind":"Field","name":{"kind":"Name","value":"snapshotCount"}},{"kind":"Field","name":{"kind":"Name","value":"details"}}]}}]}},{"kind":"FragmentDefinition","name":{"kind":"Name","value":"ConsoleError"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"Error"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"code"}},{"kind":"Field","name":{"kind":"Name","value":"message"}},{"kind":"InlineFragment","typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"ValidationFailed"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"field"}},{"kind":"Field","name":{"kind":"Name","value":"limit"}}]}},{"kind":"InlineFragment","typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"AlreadyExists"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"resource"}},{"kind":"Field","name":{"kind":"Name","value":"resourceId"}}]}},{"kind":"InlineFragment","typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"RevisionConflict"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"expectedRevision"}},{"kind":"Field","name":{"kind":"Name","value":"currentRevision"}},{"kind":"Field","name":{"kind":"Name","value":"currentContent"}},{"kind":"Field","name":{"kind":"Name","value":"currentValue"}}]}}]}}]} as unknown as DocumentNode<ConsoleBrainSaveMutation, ConsoleBrainSaveMutationVariables>;
export const ConsoleBrainUpdateDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"mutation","name":{"kind":"Name","value":"ConsoleBrainUpdate"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"input"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"BrainUpdateInput"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"brainUpdate"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"input"},"value":{"kind":"Variable","name":{"kind":"Name","value":"input"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"InlineFragment","typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"BrainUpdateSuccess"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"memory"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"FragmentSpread","name":{"kind":"Name","value":"ConsoleMemory"}}]}}]}},{"kind":"InlineFragment","typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"Error"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"FragmentSpread","name":{"kind":"Name","value":"ConsoleError"}}]}}]}}]}},{"kind":"FragmentDefinition","name":{"kind":"Name","value":"ConsoleMemory"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"BrainMemory"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","alias":{"kind":"Name","value":"id"},"name":{"kind":"Name","value":"memoryId"}},{"kind":"Field","name":{"kind":"Name","value":"agentId"}},{"kind":"Field","name":{"kind":"Name","value":"title"}},{"kind":"Field","name":{"kind":"Name","value":"content"}},{"kind":"Field","name":{"kind":"Name","value":"sourceRefs"}},{"kind":"Field","name":{"kind":"Name","value":"revision"}},{"kind":"Field","name":{"kind":"Name","value":"ownership"}},{"kind":"Field","name":{"kind":"Name","value":"labels"}},{"kind":"Field","name":{"kind":"Name","value":"createdAt"}},{"kind":"Field","name":{"kind":"Name","value":"createdBy"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"kind"}},{"kind":"Field","name":{"kind":"Name","value":"principalId"}}]}},{"kind":"Field","name":{"kind":"Name","value":"updatedAt"}},{"kind":"Field","name":{"kind":"Name","value":"updatedBy"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"kind"}},{"kind":"Field","name":{"kind":"Name","value":"principalId"}}]}},{"kind":"Field","name":{"kind":"Name","value":"legacyMigration"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"source"}},{"kind":"Field","name":{"kind":"Name","value":"legacyId"}},{"kind":"Field","name":{"kind":"Name","value":"legacyScope"}},{"kind":"Field","name":{"kind":"Name","value":"legacyOwnerAgentId"}},{"kind":"Field","name":{"kind":"Name","value":"legacyStatus"}},{"kind":"Field","name":{"kind":"Name","value":"operatorCorrected"}},{"kind":"Field","name":{"kind":"Name","value":"operatorDeleted"}},{"kind":"Field","name":{"kind":"Name","value":"importedAt"}},{"kind":"Field","name":{"kind":"Name","value":"importedBy"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"kind"}},{"kind":"Field","name":{"kind":"Name","value":"principalId"}}]}},{"kind":"Field","name":{"kind":"Name","value":"truncated"}},{"kind":"Field","name":{"kind":"Name","value":"evidenceCount"}},{"kind":"Field","name":{"kind":"Name","value":"snapshotCount"}},{"kind":"Field","name":{"kind":"Name","value":"details"}}]}}]}},{"kind":"FragmentDefinition","name":{"kind":"Name","value":"ConsoleError"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"Error"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"code"}},{"kind":"Field","name":{"kind":"Name","value":"message"}},{"kind":"InlineFragment","typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"ValidationFailed"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"field"}},{"kind":"Field","name":{"kind":"Name","value":"limit"}}]}},{"kind":"InlineFragment","typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"AlreadyExists"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"resource"}},{"kind":"Field","name":{"kind":"Name","value":"resourceId"}}]}},{"kind":"InlineFragment","typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"RevisionConflict"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"expectedRevision"}},{"kind":"Field","name":{"kind":"Name","value":"currentRevision"}},{"kind":"Field","name":{"kind":"Name","value":"currentContent"}},{"kind":"Field","name":{"kind":"Name","value":"currentValue"}}]}}]}}]} as unknown as DocumentNode<ConsoleBrainUpdateMutation, ConsoleBrainUpdateMutationVariables>;
export const ConsoleBrainRemoveDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"mutation","name":{"kind":"Name","value":"ConsoleBrainRemove"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"input"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"BrainRemoveInput"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"brainRemove"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"input"},"value":{"kind":"Variable","name":{"kind":"Name","value":"input"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"InlineFragment","typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"BrainRemoveSuccess"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"memory"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","alias":{"kind":"Name","value":"id"},"name":{"kind":"Name","value":"memoryId"}},{"kind":"Field","name":{"kind":"Name","value":"revision"}}]}}]}},{"kind":"InlineFragment","typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"Error"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"FragmentSpread","name":{"kind":"Name","value":"ConsoleError"}}]}}]}}]}},{"kind":"FragmentDefinition","name":{"kind":"Name","value":"ConsoleError"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"Error"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"code"}},{"kind":"Field","name":{"kind":"Name","value":"message"}},{"kind":"InlineFragment","typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"ValidationFailed"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"field"}},{"kind":"Field","name":{"kind":"Name","value":"limit"}}]}},{"kind":"InlineFragment","typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"AlreadyExists"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"resource"}},{"kind":"Field","name":{"kind":"Name","value":"resourceId"}}]}},{"kind":"InlineFragment","typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"RevisionConflict"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"expectedRevision"}},{"kind":"Field","name":{"kind":"Name","value":"currentRevision"}},{"kind":"Field","name":{"kind":"Name","value":"currentContent"}},{"kind":"Field","name":{"kind":"Name","value":"currentValue"}}]}}]}}]} as unknown as DocumentNode<ConsoleBrainRemoveMutation, ConsoleBrainRemoveMutationVariables>;
export const ConsoleDeleteBrainMemoriesDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"mutation","name":{"kind":"Name","value":"ConsoleDeleteBrainMemories"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"agentId"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"String"}}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"items"}},"type":{"kind":"NonNullType","type":{"kind":"ListType","type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"BrainRemoveManyItem"}}}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"brainRemoveMany"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"agentId"},"value":{"kind":"Variable","name":{"kind":"Name","value":"agentId"}}},{"kind":"Argument","name":{"kind":"Name","value":"items"},"value":{"kind":"Variable","name":{"kind":"Name","value":"items"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"InlineFragment","typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"BrainRemoveManySuccess"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"results"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","alias":{"kind":"Name","value":"id"},"name":{"kind":"Name","value":"memoryId"}},{"kind":"Field","name":{"kind":"Name","value":"status"}},{"kind":"Field","name":{"kind":"Name","value":"message"}},{"kind":"Field","name":{"kind":"Name","value":"currentRevision"}}]}}]}},{"kind":"InlineFragment","typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"Error"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"FragmentSpread","name":{"kind":"Name","value":"ConsoleError"}}]}}]}}]}},{"kind":"FragmentDefinition","name":{"kind":"Name","value":"ConsoleError"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"Error"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"code"}},{"kind":"Field","name":{"kind":"Name","value":"message"}},{"kind":"InlineFragment","typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"ValidationFailed"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"field"}},{"kind":"Field","name":{"kind":"Name","value":"limit"}}]}},{"kind":"InlineFragment","typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"AlreadyExists"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"resource"}},{"kind":"Field","name":{"kind":"Name","value":"resourceId"}}]}},{"kind":"InlineFragment","typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"RevisionConflict"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"expectedRevision"}},{"kind":"Field","name":{"kind":"Name","value":"currentRevision"}},{"kind":"Field","name":{"kind":"Name","value":"currentContent"}},{"kind":"Field","name":{"kind":"Name","value":"currentValue"}}]}}]}}]} as unknown as DocumentNode<ConsoleDeleteBrainMemoriesMutation, ConsoleDeleteBrainMemoriesMutationVariables>;
export const ConsoleExportConfigurationDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"mutation","name":{"kind":"Name","value":"ConsoleExportConfiguration"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"input"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"ExportConfigurationInput"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"exportConfiguration"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"input"},"value":{"kind":"Variable","name":{"kind":"Name","value":"input"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"InlineFragment","typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"ExportConfigurationSuccess"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"document"}}]}},{"kind":"InlineFragment","typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"ValidationFailed"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"field"}}]}},{"kind":"InlineFragment","typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"Error"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"FragmentSpread","name":{"kind":"Name","value":"ConsoleError"}}]}}]}}]}},{"kind":"FragmentDefinition","name":{"kind":"Name","value":"ConsoleError"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"Error"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"code"}},{"kind":"Field","name":{"kind":"Name","value":"message"}},{"kind":"InlineFragment","typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"ValidationFailed"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"field"}},{"kind":"Field","name":{"kind":"Name","value":"limit"}}]}},{"kind":"InlineFragment","typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"AlreadyExists"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"resource"}},{"kind":"Field","name":{"kind":"Name","value":"resourceId"}}]}},{"kind":"InlineFragment","typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"RevisionConflict"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"expectedRevision"}},{"kind":"Field","name":{"kind":"Name","value":"currentRevision"}},{"kind":"Field","name":{"kind":"Name","value":"currentContent"}},{"kind":"Field","name":{"kind":"Name","value":"currentValue"}}]}}]}}]} as unknown as DocumentNode<ConsoleExportConfigurationMutation, ConsoleExportConfigurationMutationVariables>;
export const ConsoleImportConfigurationDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"mutation","name":{"kind":"Name","value":"ConsoleImportConfiguration"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"input"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"ImportConfigurationInput"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"importConfiguration"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"input"},"value":{"kind":"Variable","name":{"kind":"Name","value":"input"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"InlineFragment","typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"ImportConfigurationSuccess"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"counts"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"category"}},{"kind":"Field","name":{"kind":"Name","value":"created"}},{"kind":"Field","name":{"kind":"Name","value":"updated"}},{"kind":"Field","name":{"kind":"Name","value":"unchanged"}}]}}]}},{"kind":"InlineFragment","typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"ValidationFailed"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"field"}}]}},{"kind":"InlineFragment","typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"SettingsKeyRequired"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"field"}}]}},{"kind":"InlineFragment","typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"Error"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"FragmentSpread","name":{"kind":"Name","value":"ConsoleError"}}]}}]}}]}},{"kind":"FragmentDefinition","name":{"kind":"Name","value":"ConsoleError"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"Error"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"code"}},{"kind":"Field","name":{"kind":"Name","value":"message"}},{"kind":"InlineFragment","typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"ValidationFailed"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"field"}},{"kind":"Field","name":{"kind":"Name","value":"limit"}}]}},{"kind":"InlineFragment","typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"AlreadyExists"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"resource"}},{"kind":"Field","name":{"kind":"Name","value":"resourceId"}}]}},{"kind":"InlineFragment","typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"RevisionConflict"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"expectedRevision"}},{"kind":"Field","name":{"kind":"Name","value":"currentRevision"}},{"kind":"Field","name":{"kind":"Name","value":"currentContent"}},{"kind":"Field","name":{"kind":"Name","value":"currentValue"}}]}}]}}]} as unknown as DocumentNode<ConsoleImportConfigurationMutation, ConsoleImportConfigurationMutationVariables>;
export const ConsoleRecoveryQueueDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"query","name":{"kind":"Name","value":"ConsoleRecoveryQueue"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"agents"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"first"},"value":{"kind":"IntValue","value":"100"}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"edges"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"node"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"agentId"}},{"kind":"Field","name":{"kind":"Name","value":"continuityRuns"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"states"},"value":{"kind":"ListValue","values":[{"kind":"EnumValue","value":"INTERRUPTED"},{"kind":"EnumValue","value":"RECOVERY_PENDING"}]}},{"kind":"Argument","name":{"kind":"Name","value":"first"},"value":{"kind":"IntValue","value":"50"}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"edges"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"node"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"FragmentSpread","name":{"kind":"Name","value":"ConsoleRecoveryRun"}}]}}]}},{"kind":"Field","name":{"kind":"Name","value":"pageInfo"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"hasNextPage"}}]}}]}}]}}]}}]}}]}},{"kind":"FragmentDefinition","name":{"kind":"Name","value":"ConsoleRecoveryRun"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"ContinuityRun"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"agentId"}},{"kind":"Field","name":{"kind":"Name","value":"runId"}},{"kind":"Field","name":{"kind":"Name","value":"state"}},{"kind":"Field","name":{"kind":"Name","value":"generation"}},{"kind":"Field","name":{"kind":"Name","value":"headRevision"}},{"kind":"Field","name":{"kind":"Name","value":"interruptedAt"}},{"kind":"Field","name":{"kind":"Name","value":"recoveryQueue"}},{"kind":"Field","name":{"kind":"Name","value":"updatedAt"}}]}}]} as unknown as DocumentNode<ConsoleRecoveryQueueQuery, ConsoleRecoveryQueueQueryVariables>;
export const ConsoleReconcileContinuityDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"mutation","name":{"kind":"Name","value":"ConsoleReconcileContinuity"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"agentId"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"String"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"reconcileContinuity"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"agentId"},"value":{"kind":"Variable","name":{"kind":"Name","value":"agentId"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"ownersChecked"}},{"kind":"Field","name":{"kind":"Name","value":"interrupted"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"FragmentSpread","name":{"kind":"Name","value":"ConsoleRecoveryRun"}}]}},{"kind":"Field","name":{"kind":"Name","value":"recoveryPending"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"FragmentSpread","name":{"kind":"Name","value":"ConsoleRecoveryRun"}}]}},{"kind":"Field","name":{"kind":"Name","value":"failed"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"FragmentSpread","name":{"kind":"Name","value":"ConsoleRecoveryRun"}}]}}]}}]}},{"kind":"FragmentDefinition","name":{"kind":"Name","value":"ConsoleRecoveryRun"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"ContinuityRun"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"agentId"}},{"kind":"Field","name":{"kind":"Name","value":"runId"}},{"kind":"Field","name":{"kind":"Name","value":"state"}},{"kind":"Field","name":{"kind":"Name","value":"generation"}},{"kind":"Field","name":{"kind":"Name","value":"headRevision"}},{"kind":"Field","name":{"kind":"Name","value":"interruptedAt"}},{"kind":"Field","name":{"kind":"Name","value":"recoveryQueue"}},{"kind":"Field","name":{"kind":"Name","value":"updatedAt"}}]}}]} as unknown as DocumentNode<ConsoleReconcileContinuityMutation, ConsoleReconcileContinuityMutationVariables>;
export const ConsoleConversationSessionsDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"query","name":{"kind":"Name","value":"ConsoleConversationSessions"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"agentId"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"String"}}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"archived"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"ConversationSessionArchiveFilter"}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"after"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"String"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"conversationSessions"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"agentId"},"value":{"kind":"Variable","name":{"kind":"Name","value":"agentId"}}},{"kind":"Argument","name":{"kind":"Name","value":"archived"},"value":{"kind":"Variable","name":{"kind":"Name","value":"archived"}}},{"kind":"Argument","name":{"kind":"Name","value":"first"},"value":{"kind":"IntValue","value":"50"}},{"kind":"Argument","name":{"kind":"Name","value":"after"},"value":{"kind":"Variable","name":{"kind":"Name","value":"after"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"edges"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"node"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"FragmentSpread","name":{"kind":"Name","value":"ConsoleConversationSession"}}]}}]}},{"kind":"Field","name":{"kind":"Name","value":"pageInfo"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"hasNextPage"}},{"kind":"Field","name":{"kind":"Name","value":"endCursor"}}]}}]}}]}},{"kind":"FragmentDefinition","name":{"kind":"Name","value":"ConsoleConversationArchive"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"ConversationArchive"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"generation"}},{"kind":"Field","name":{"kind":"Name","value":"kind"}},{"kind":"Field","name":{"kind":"Name","value":"entryCount"}},{"kind":"Field","name":{"kind":"Name","value":"firstPosition"}},{"kind":"Field","name":{"kind":"Name","value":"lastPosition"}},{"kind":"Field","name":{"kind":"Name","value":"reason"}},{"kind":"Field","name":{"kind":"Name","value":"summaryEntryId"}},{"kind":"Field","name":{"kind":"Name","value":"archivedAt"}},{"kind":"Field","name":{"kind":"Name","value":"archivedBy"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"kind"}},{"kind":"Field","name":{"kind":"Name","value":"principalId"}}]}}]}},{"kind":"FragmentDefinition","name":{"kind":"Name","value":"ConsoleConversationSession"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"ConversationSession"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"sessionId"}},{"kind":"Field","name":{"kind":"Name","value":"project"}},{"kind":"Field","name":{"kind":"Name","value":"activeCount"}},{"kind":"Field","name":{"kind":"Name","value":"archivedCount"}},{"kind":"Field","name":{"kind":"Name","value":"originalCount"}},{"kind":"Field","name":{"kind":"Name","value":"lastPosition"}},{"kind":"Field","name":{"kind":"Name","value":"archiveGenerations"}},{"kind":"Field","name":{"kind":"Name","value":"firstActivityAt"}},{"kind":"Field","name":{"kind":"Name","value":"lastActivityAt"}},{"kind":"Field","name":{"kind":"Name","value":"archived"}},{"kind":"Field","name":{"kind":"Name","value":"archivedAt"}},{"kind":"Field","name":{"kind":"Name","value":"archiveReason"}},{"kind":"Field","name":{"kind":"Name","value":"archivedBy"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"kind"}},{"kind":"Field","name":{"kind":"Name","value":"principalId"}}]}},{"kind":"Field","name":{"kind":"Name","value":"archives"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"FragmentSpread","name":{"kind":"Name","value":"ConsoleConversationArchive"}}]}}]}}]} as unknown as DocumentNode<ConsoleConversationSessionsQuery, ConsoleConversationSessionsQueryVariables>;
export const ConsoleConversationSessionDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"query","name":{"kind":"Name","value":"ConsoleConversationSession"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"agentId"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"String"}}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"sessionId"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"String"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"conversationSession"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"agentId"},"value":{"kind":"Variable","name":{"kind":"Name","value":"agentId"}}},{"kind":"Argument","name":{"kind":"Name","value":"sessionId"},"value":{"kind":"Variable","name":{"kind":"Name","value":"sessionId"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"FragmentSpread","name":{"kind":"Name","value":"ConsoleConversationSession"}}]}}]}},{"kind":"FragmentDefinition","name":{"kind":"Name","value":"ConsoleConversationArchive"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"ConversationArchive"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"generation"}},{"kind":"Field","name":{"kind":"Name","value":"kind"}},{"kind":"Field","name":{"kind":"Name","value":"entryCount"}},{"kind":"Field","name":{"kind":"Name","value":"firstPosition"}},{"kind":"Field","name":{"kind":"Name","value":"lastPosition"}},{"kind":"Field","name":{"kind":"Name","value":"reason"}},{"kind":"Field","name":{"kind":"Name","value":"summaryEntryId"}},{"kind":"Field","name":{"kind":"Name","value":"archivedAt"}},{"kind":"Field","name":{"kind":"Name","value":"archivedBy"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"kind"}},{"kind":"Field","name":{"kind":"Name","value":"principalId"}}]}}]}},{"kind":"FragmentDefinition","name":{"kind":"Name","value":"ConsoleConversationSession"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"ConversationSession"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"sessionId"}},{"kind":"Field","name":{"kind":"Name","value":"project"}},{"kind":"Field","name":{"kind":"Name","value":"activeCount"}},{"kind":"Field","name":{"kind":"Name","value":"archivedCount"}},{"kind":"Field","name":{"kind":"Name","value":"originalCount"}},{"kind":"Field","name":{"kind":"Name","value":"lastPosition"}},{"kind":"Field","name":{"kind":"Name","value":"archiveGenerations"}},{"kind":"Field","name":{"kind":"Name","value":"firstActivityAt"}},{"kind":"Field","name":{"kind":"Name","value":"lastActivityAt"}},{"kind":"Field","name":{"kind":"Name","value":"archived"}},{"kind":"Field","name":{"kind":"Name","value":"archivedAt"}},{"kind":"Field","name":{"kind":"Name","value":"archiveReason"}},{"kind":"Field","name":{"kind":"Name","value":"archivedBy"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"kind"}},{"kind":"Field","name":{"kind":"Name","value":"principalId"}}]}},{"kind":"Field","name":{"kind":"Name","value":"archives"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"FragmentSpread","name":{"kind":"Name","value":"ConsoleConversationArchive"}}]}}]}}]} as unknown as DocumentNode<ConsoleConversationSessionQuery, ConsoleConversationSessionQueryVariables>;
export const ConsoleConversationHistoryDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"query","name":{"kind":"Name","value":"ConsoleConversationHistory"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"agentId"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"String"}}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"sessionId"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"String"}}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"after"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"String"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"conversationHistory"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"agentId"},"value":{"kind":"Variable","name":{"kind":"Name","value":"agentId"}}},{"kind":"Argument","name":{"kind":"Name","value":"sessionId"},"value":{"kind":"Variable","name":{"kind":"Name","value":"sessionId"}}},{"kind":"Argument","name":{"kind":"Name","value":"first"},"value":{"kind":"IntValue","value":"100"}},{"kind":"Argument","name":{"kind":"Name","value":"after"},"value":{"kind":"Variable","name":{"kind":"Name","value":"after"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"edges"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"node"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"FragmentSpread","name":{"kind":"Name","value":"ConsoleConversationOriginal"}}]}}]}},{"kind":"Field","name":{"kind":"Name","value":"pageInfo"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"hasNextPage"}},{"kind":"Field","name":{"kind":"Name","value":"endCursor"}}]}}]}}]}},{"kind":"FragmentDefinition","name":{"kind":"Name","value":"ConsoleConversationOriginal"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"ConversationOriginal"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"sessionId"}},{"kind":"Field","name":{"kind":"Name","value":"entryId"}},{"kind":"Field","name":{"kind":"Name","value":"position"}},{"kind":"Field","name":{"kind":"Name","value":"historyPosition"}},{"kind":"Field","name":{"kind":"Name","value":"role"}},{"kind":"Field","name":{"kind":"Name","value":"payload"}},{"kind":"Field","name":{"kind":"Name","value":"createdAt"}},{"kind":"Field","name":{"kind":"Name","value":"archiveGeneration"}},{"kind":"Field","name":{"kind":"Name","value":"archivedAt"}},{"kind":"Field","name":{"kind":"Name","value":"summarizesGeneration"}},{"kind":"Field","name":{"kind":"Name","value":"reference"}}]}}]} as unknown as DocumentNode<ConsoleConversationHistoryQuery, ConsoleConversationHistoryQueryVariables>;
export const ConsoleConversationOriginalsDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"query","name":{"kind":"Name","value":"ConsoleConversationOriginals"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"agentId"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"String"}}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"sessionId"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"String"}}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"generation"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"Int"}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"after"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"String"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"conversationOriginals"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"agentId"},"value":{"kind":"Variable","name":{"kind":"Name","value":"agentId"}}},{"kind":"Argument","name":{"kind":"Name","value":"sessionId"},"value":{"kind":"Variable","name":{"kind":"Name","value":"sessionId"}}},{"kind":"Argument","name":{"kind":"Name","value":"generation"},"value":{"kind":"Variable","name":{"kind":"Name","value":"generation"}}},{"kind":"Argument","name":{"kind":"Name","value":"first"},"value":{"kind":"IntValue","value":"100"}},{"kind":"Argument","name":{"kind":"Name","value":"after"},"value":{"kind":"Variable","name":{"kind":"Name","value":"after"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"edges"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"node"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"FragmentSpread","name":{"kind":"Name","value":"ConsoleConversationOriginal"}}]}}]}},{"kind":"Field","name":{"kind":"Name","value":"pageInfo"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"hasNextPage"}},{"kind":"Field","name":{"kind":"Name","value":"endCursor"}}]}}]}}]}},{"kind":"FragmentDefinition","name":{"kind":"Name","value":"ConsoleConversationOriginal"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"ConversationOriginal"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"sessionId"}},{"kind":"Field","name":{"kind":"Name","value":"entryId"}},{"kind":"Field","name":{"kind":"Name","value":"position"}},{"kind":"Field","name":{"kind":"Name","value":"historyPosition"}},{"kind":"Field","name":{"kind":"Name","value":"role"}},{"kind":"Field","name":{"kind":"Name","value":"payload"}},{"kind":"Field","name":{"kind":"Name","value":"createdAt"}},{"kind":"Field","name":{"kind":"Name","value":"archiveGeneration"}},{"kind":"Field","name":{"kind":"Name","value":"archivedAt"}},{"kind":"Field","name":{"kind":"Name","value":"summarizesGeneration"}},{"kind":"Field","name":{"kind":"Name","value":"reference"}}]}}]} as unknown as DocumentNode<ConsoleConversationOriginalsQuery, ConsoleConversationOriginalsQueryVariables>;
export const ConsoleConversationSearchDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"query","name":{"kind":"Name","value":"ConsoleConversationSearch"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"agentId"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"String"}}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"query"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"String"}}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"after"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"String"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"conversationSearch"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"agentId"},"value":{"kind":"Variable","name":{"kind":"Name","value":"agentId"}}},{"kind":"Argument","name":{"kind":"Name","value":"query"},"value":{"kind":"Variable","name":{"kind":"Name","value":"query"}}},{"kind":"Argument","name":{"kind":"Name","value":"first"},"value":{"kind":"IntValue","value":"20"}},{"kind":"Argument","name":{"kind":"Name","value":"after"},"value":{"kind":"Variable","name":{"kind":"Name","value":"after"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"edges"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"node"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"FragmentSpread","name":{"kind":"Name","value":"ConsoleConversationOriginal"}}]}}]}},{"kind":"Field","name":{"kind":"Name","value":"pageInfo"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"hasNextPage"}},{"kind":"Field","name":{"kind":"Name","value":"endCursor"}}]}}]}}]}},{"kind":"FragmentDefinition","name":{"kind":"Name","value":"ConsoleConversationOriginal"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"ConversationOriginal"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"sessionId"}},{"kind":"Field","name":{"kind":"Name","value":"entryId"}},{"kind":"Field","name":{"kind":"Name","value":"position"}},{"kind":"Field","name":{"kind":"Name","value":"historyPosition"}},{"kind":"Field","name":{"kind":"Name","value":"role"}},{"kind":"Field","name":{"kind":"Name","value":"payload"}},{"kind":"Field","name":{"kind":"Name","value":"createdAt"}},{"kind":"Field","name":{"kind":"Name","value":"archiveGeneration"}},{"kind":"Field","name":{"kind":"Name","value":"archivedAt"}},{"kind":"Field","name":{"kind":"Name","value":"summarizesGeneration"}},{"kind":"Field","name":{"kind":"Name","value":"reference"}}]}}]} as unknown as DocumentNode<ConsoleConversationSearchQuery, ConsoleConversationSearchQueryVariables>;
export const ConsoleArchiveConversationSessionDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"mutation","name":{"kind":"Name","value":"ConsoleArchiveConversationSession"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"input"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"ArchiveConversationSessionInput"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"archiveConversationSession"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"input"},"value":{"kind":"Variable","name":{"kind":"Name","value":"input"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"InlineFragment","typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"ArchiveConversationSessionSuccess"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"session"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"FragmentSpread","name":{"kind":"Name","value":"ConsoleConversationSession"}}]}}]}},{"kind":"InlineFragment","typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"Error"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"FragmentSpread","name":{"kind":"Name","value":"ConsoleError"}}]}}]}}]}},{"kind":"FragmentDefinition","name":{"kind":"Name","value":"ConsoleConversationArchive"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"ConversationArchive"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"generation"}},{"kind":"Field","name":{"kind":"Name","value":"kind"}},{"kind":"Field","name":{"kind":"Name","value":"entryCount"}},{"kind":"Field","name":{"kind":"Name","value":"firstPosition"}},{"kind":"Field","name":{"kind":"Name","value":"lastPosition"}},{"kind":"Field","name":{"kind":"Name","value":"reason"}},{"kind":"Field","name":{"kind":"Name","value":"summaryEntryId"}},{"kind":"Field","name":{"kind":"Name","value":"archivedAt"}},{"kind":"Field","name":{"kind":"Name","value":"archivedBy"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"kind"}},{"kind":"Field","name":{"kind":"Name","value":"principalId"}}]}}]}},{"kind":"FragmentDefinition","name":{"kind":"Name","value":"ConsoleConversationSession"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"ConversationSession"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"sessionId"}},{"kind":"Field","name":{"kind":"Name","value":"project"}},{"kind":"Field","name":{"kind":"Name","value":"activeCount"}},{"kind":"Field","name":{"kind":"Name","value":"archivedCount"}},{"kind":"Field","name":{"kind":"Name","value":"originalCount"}},{"kind":"Field","name":{"kind":"Name","value":"lastPosition"}},{"kind":"Field","name":{"kind":"Name","value":"archiveGenerations"}},{"kind":"Field","name":{"kind":"Name","value":"firstActivityAt"}},{"kind":"Field","name":{"kind":"Name","value":"lastActivityAt"}},{"kind":"Field","name":{"kind":"Name","value":"archived"}},{"kind":"Field","name":{"kind":"Name","value":"archivedAt"}},{"kind":"Field","name":{"kind":"Name","value":"archiveReason"}},{"kind":"Field","name":{"kind":"Name","value":"archivedBy"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"kind"}},{"kind":"Field","name":{"kind":"Name","value":"principalId"}}]}},{"kind":"Field","name":{"kind":"Name","value":"archives"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"FragmentSpread","name":{"kind":"Name","value":"ConsoleConversationArchive"}}]}}]}},{"kind":"FragmentDefinition","name":{"kind":"Name","value":"ConsoleError"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"Error"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"code"}},{"kind":"Field","name":{"kind":"Name","value":"message"}},{"kind":"InlineFragment","typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"ValidationFailed"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"field"}},{"kind":"Field","name":{"kind":"Name","value":"limit"}}]}},{"kind":"InlineFragment","typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"AlreadyExists"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"resource"}},{"kind":"Field","name":{"kind":"Name","value":"resourceId"}}]}},{"kind":"InlineFragment","typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"RevisionConflict"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"expectedRevision"}},{"kind":"Field","name":{"kind":"Name","value":"currentRevision"}},{"kind":"Field","name":{"kind":"Name","value":"currentContent"}},{"kind":"Field","name":{"kind":"Name","value":"currentValue"}}]}}]}}]} as unknown as DocumentNode<ConsoleArchiveConversationSessionMutation, ConsoleArchiveConversationSessionMutationVariables>;
export const ConsoleUnarchiveConversationSessionDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"mutation","name":{"kind":"Name","value":"ConsoleUnarchiveConversationSession"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"input"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"UnarchiveConversationSessionInput"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"unarchiveConversationSession"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"input"},"value":{"kind":"Variable","name":{"kind":"Name","value":"input"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"InlineFragment","typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"UnarchiveConversationSessionSuccess"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"session"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"FragmentSpread","name":{"kind":"Name","value":"ConsoleConversationSession"}}]}}]}},{"kind":"InlineFragment","typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"Error"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"FragmentSpread","name":{"kind":"Name","value":"ConsoleError"}}]}}]}}]}},{"kind":"FragmentDefinition","name":{"kind":"Name","value":"ConsoleConversationArchive"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"ConversationArchive"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"generation"}},{"kind":"Field","name":{"kind":"Name","value":"kind"}},{"kind":"Field","name":{"kind":"Name","value":"entryCount"}},{"kind":"Field","name":{"kind":"Name","value":"firstPosition"}},{"kind":"Field","name":{"kind":"Name","value":"lastPosition"}},{"kind":"Field","name":{"kind":"Name","value":"reason"}},{"kind":"Field","name":{"kind":"Name","value":"summaryEntryId"}},{"kind":"Field","name":{"kind":"Name","value":"archivedAt"}},{"kind":"Field","name":{"kind":"Name","value":"archivedBy"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"kind"}},{"kind":"Field","name":{"kind":"Name","value":"principalId"}}]}}]}},{"kind":"FragmentDefinition","name":{"kind":"Name","value":"ConsoleConversationSession"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"ConversationSession"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"sessionId"}},{"kind":"Field","name":{"kind":"Name","value":"project"}},{"kind":"Field","name":{"kind":"Name","value":"activeCount"}},{"kind":"Field","name":{"kind":"Name","value":"archivedCount"}},{"kind":"Field","name":{"kind":"Name","value":"originalCount"}},{"kind":"Field","name":{"kind":"Name","value":"lastPosition"}},{"kind":"Field","name":{"kind":"Name","value":"archiveGenerations"}},{"kind":"Field","name":{"kind":"Name","value":"firstActivityAt"}},{"kind":"Field","name":{"kind":"Name","value":"lastActivityAt"}},{"kind":"Field","name":{"kind":"Name","value":"archived"}},{"kind":"Field","name":{"kind":"Name","value":"archivedAt"}},{"kind":"Field","name":{"kind":"Name","value":"archiveReason"}},{"kind":"Field","name":{"kind":"Name","value":"archivedBy"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"kind"}},{"kind":"Field","name":{"kind":"Name","value":"principalId"}}]}},{"kind":"Field","name":{"kind":"Name","value":"archives"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"FragmentSpread","name":{"kind":"Name","value":"ConsoleConversationArchive"}}]}}]}},{"kind":"FragmentDefinition","name":{"kind":"Name","value":"ConsoleError"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"Error"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"code"}},{"kind":"Field","name":{"kind":"Name","value":"message"}},{"kind":"InlineFragment","typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"ValidationFailed"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"field"}},{"kind":"Field","name":{"kind":"Name","value":"limit"}}]}},{"kind":"InlineFragment","typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"AlreadyExists"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"resource"}},{"kind":"Field","name":{"kind":"Name","value":"resourceId"}}]}},{"kind":"InlineFragment","typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"RevisionConflict"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"expectedRevision"}},{"kind":"Field","name":{"kind":"Name","value":"currentRevision"}},{"kind":"Field","name":{"kind":"Name","value":"currentContent"}},{"kind":"Field","name":{"kind":"Name","value":"currentValue"}}]}}]}}]} as unknown as DocumentNode<ConsoleUnarchiveConversationSessionMutation, ConsoleUnarchiveConversationSessionMutationVariables>;
export const ConsoleCompactConversationDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"mutation","name":{"kind":"Name","value":"ConsoleCompactConversation"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"input"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"CompactConversationInput"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"compactConversation"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"input"},"value":{"kind":"Variable","name":{"kind":"Name","value":"input"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"InlineFragment","typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"CompactConversationSuccess"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"compaction"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"archive"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"FragmentSpread","name":{"kind":"Name","value":"ConsoleConversationArchive"}}]}},{"kind":"Field","name":{"kind":"Name","value":"summary"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"FragmentSpread","name":{"kind":"Name","value":"ConsoleConversationOriginal"}}]}}]}}]}},{"kind":"InlineFragment","typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"Error"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"FragmentSpread","name":{"kind":"Name","value":"ConsoleError"}}]}}]}}]}},{"kind":"FragmentDefinition","name":{"kind":"Name","value":"ConsoleConversationArchive"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"ConversationArchive"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"generation"}},{"kind":"Field","name":{"kind":"Name","value":"kind"}},{"kind":"Field","name":{"kind":"Name","value":"entryCount"}},{"kind":"Field","name":{"kind":"Name","value":"firstPosition"}},{"kind":"Field","name":{"kind":"Name","value":"lastPosition"}},{"kind":"Field","name":{"kind":"Name","value":"reason"}},{"kind":"Field","name":{"kind":"Name","value":"summaryEntryId"}},{"kind":"Field","name":{"kind":"Name","value":"archivedAt"}},{"kind":"Field","name":{"kind":"Name","value":"archivedBy"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"kind"}},{"kind":"Field","name":{"kind":"Name","value":"principalId"}}]}}]}},{"kind":"FragmentDefinition","name":{"kind":"Name","value":"ConsoleConversationOriginal"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"ConversationOriginal"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"sessionId"}},{"kind":"Field","name":{"kind":"Name","value":"entryId"}},{"kind":"Field","name":{"kind":"Name","value":"position"}},{"kind":"Field","name":{"kind":"Name","value":"historyPosition"}},{"kind":"Field","name":{"kind":"Name","value":"role"}},{"kind":"Field","name":{"kind":"Name","value":"payload"}},{"kind":"Field","name":{"kind":"Name","value":"createdAt"}},{"kind":"Field","name":{"kind":"Name","value":"archiveGeneration"}},{"kind":"Field","name":{"kind":"Name","value":"archivedAt"}},{"kind":"Field","name":{"kind":"Name","value":"summarizesGeneration"}},{"kind":"Field","name":{"kind":"Name","value":"reference"}}]}},{"kind":"FragmentDefinition","name":{"kind":"Name","value":"ConsoleError"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"Error"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"code"}},{"kind":"Field","name":{"kind":"Name","value":"message"}},{"kind":"InlineFragment","typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"ValidationFailed"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"field"}},{"kind":"Field","name":{"kind":"Name","value":"limit"}}]}},{"kind":"InlineFragment","typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"AlreadyExists"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"resource"}},{"kind":"Field","name":{"kind":"Name","value":"resourceId"}}]}},{"kind":"InlineFragment","typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"RevisionConflict"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"expectedRevision"}},{"kind":"Field","name":{"kind":"Name","value":"currentRevision"}},{"kind":"Field","name":{"kind":"Name","value":"currentContent"}},{"kind":"Field","name":{"kind":"Name","value":"currentValue"}}]}}]}}]} as unknown as DocumentNode<ConsoleCompactConversationMutation, ConsoleCompactConversationMutationVariables>;
export const ConsoleAgentCountsDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"query","name":{"kind":"Name","value":"ConsoleAgentCounts"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"agentId"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"String"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"agent"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"agentId"},"value":{"kind":"Variable","name":{"kind":"Name","value":"agentId"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"counts"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"brains"}},{"kind":"Field","name":{"kind":"Name","value":"workingRecords"}},{"kind":"Field","name":{"kind":"Name","value":"rollingCards"}},{"kind":"Field","name":{"kind":"Name","value":"runsByState"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"state"}},{"kind":"Field","name":{"kind":"Name","value":"count"}}]}}]}},{"kind":"Field","name":{"kind":"Name","value":"tiddleStatus"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"scopes"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"project"}}]}}]}}]}}]}}]} as unknown as DocumentNode<ConsoleAgentCountsQuery, ConsoleAgentCountsQueryVariables>;
export const ConsoleAgentDetailDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"query","name":{"kind":"Name","value":"ConsoleAgentDetail"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"agentId"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"String"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"tiddleStatus"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"agentId"},"value":{"kind":"Variable","name":{"kind":"Name","value":"agentId"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"agentId"}},{"kind":"Field","name":{"kind":"Name","value":"cardTtlDays"}},{"kind":"Field","name":{"kind":"Name","value":"schedulerEnabled"}},{"kind":"Field","name":{"kind":"Name","value":"proposer"}},{"kind":"Field","name":{"kind":"Name","value":"lastSynthesisAt"}},{"kind":"Field","name":{"kind":"Name","value":"scopes"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"project"}},{"kind":"Field","name":{"kind":"Name","value":"nextRunAt"}},{"kind":"Field","name":{"kind":"Name","value":"lastAttemptAt"}},{"kind":"Field","name":{"kind":"Name","value":"lastSuccessAt"}},{"kind":"Field","name":{"kind":"Name","value":"lastError"}},{"kind":"Field","name":{"kind":"Name","value":"lastErrorAt"}},{"kind":"Field","name":{"kind":"Name","value":"consecutiveFailures"}}]}}]}},{"kind":"Field","name":{"kind":"Name","value":"continuityRuns"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"agentId"},"value":{"kind":"Variable","name":{"kind":"Name","value":"agentId"}}},{"kind":"Argument","name":{"kind":"Name","value":"first"},"value":{"kind":"IntValue","value":"100"}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"edges"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"node"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"runId"}},{"kind":"Field","name":{"kind":"Name","value":"state"}},{"kind":"Field","name":{"kind":"Name","value":"project"}},{"kind":"Field","name":{"kind":"Name","value":"ownerId"}},{"kind":"Field","name":{"kind":"Name","value":"generation"}},{"kind":"Field","name":{"kind":"Name","value":"head"}},{"kind":"Field","name":{"kind":"Name","value":"updatedAt"}},{"kind":"Field","name":{"kind":"Name","value":"interruptedAt"}},{"kind":"Field","name":{"kind":"Name","value":"interruptionManifest"}},{"kind":"Field","name":{"kind":"Name","value":"recoveryQueue"}}]}}]}}]}}]}}]} as unknown as DocumentNode<ConsoleAgentDetailQuery, ConsoleAgentDetailQueryVariables>;
export const ConsoleScopeDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"query","name":{"kind":"Name","value":"ConsoleScope"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"agentId"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"String"}}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"project"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"String"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"rollingCards"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"agentId"},"value":{"kind":"Variable","name":{"kind":"Name","value":"agentId"}}},{"kind":"Argument","name":{"kind":"Name","value":"project"},"value":{"kind":"Variable","name":{"kind":"Name","value":"project"}}},{"kind":"Argument","name":{"kind":"Name","value":"first"},"value":{"kind":"IntValue","value":"5"}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"edges"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"node"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"cardId"}},{"kind":"Field","name":{"kind":"Name","value":"title"}},{"kind":"Field","name":{"kind":"Name","value":"body"}},{"kind":"Field","name":{"kind":"Name","value":"refreshedAt"}},{"kind":"Field","name":{"kind":"Name","value":"expiresAt"}}]}}]}}]}},{"kind":"Field","name":{"kind":"Name","value":"workingRecords"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"agentId"},"value":{"kind":"Variable","name":{"kind":"Name","value":"agentId"}}},{"kind":"Argument","name":{"kind":"Name","value":"project"},"value":{"kind":"Variable","name":{"kind":"Name","value":"project"}}},{"kind":"Argument","name":{"kind":"Name","value":"first"},"value":{"kind":"IntValue","value":"20"}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"edges"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"node"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"kind"}},{"kind":"Field","name":{"kind":"Name","value":"state"}},{"kind":"Field","name":{"kind":"Name","value":"title"}},{"kind":"Field","name":{"kind":"Name","value":"updatedAt"}},{"kind":"Field","name":{"kind":"Name","value":"expiresAt"}},{"kind":"Field","name":{"kind":"Name","value":"pinned"}},{"kind":"Field","name":{"kind":"Name","value":"operatorOwned"}}]}}]}}]}},{"kind":"Field","name":{"kind":"Name","value":"sessionReadHandoff"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"agentId"},"value":{"kind":"Variable","name":{"kind":"Name","value":"agentId"}}},{"kind":"Argument","name":{"kind":"Name","value":"project"},"value":{"kind":"Variable","name":{"kind":"Name","value":"project"}}},{"kind":"Argument","name":{"kind":"Name","value":"first"},"value":{"kind":"IntValue","value":"10"}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"title"}},{"kind":"Field","name":{"kind":"Name","value":"goal"}},{"kind":"Field","name":{"kind":"Name","value":"outcome"}},{"kind":"Field","name":{"kind":"Name","value":"origin"}},{"kind":"Field","name":{"kind":"Name","value":"sessionId"}},{"kind":"Field","name":{"kind":"Name","value":"updatedAt"}},{"kind":"Field","name":{"kind":"Name","value":"expiresAt"}}]}}]}}]} as unknown as DocumentNode<ConsoleScopeQuery, ConsoleScopeQueryVariables>;
export const ConsoleOperatorEventsDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"subscription","name":{"kind":"Name","value":"ConsoleOperatorEvents"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"agentIds"}},"type":{"kind":"ListType","type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"String"}}}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"after"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"String"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"operatorEvents"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"agentIds"},"value":{"kind":"Variable","name":{"kind":"Name","value":"agentIds"}}},{"kind":"Argument","name":{"kind":"Name","value":"after"},"value":{"kind":"Variable","name":{"kind":"Name","value":"after"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"agentId"}},{"kind":"Field","name":{"kind":"Name","value":"sequence"}},{"kind":"Field","name":{"kind":"Name","value":"cursor"}},{"kind":"Field","name":{"kind":"Name","value":"stream"}},{"kind":"Field","name":{"kind":"Name","value":"type"}},{"kind":"Field","name":{"kind":"Name","value":"subjectId"}},{"kind":"Field","name":{"kind":"Name","value":"project"}},{"kind":"Field","name":{"kind":"Name","value":"occurredAt"}}]}}]}}]} as unknown as DocumentNode<ConsoleOperatorEventsSubscription, ConsoleOperatorEventsSubscriptionVariables>;
export const ConsoleAgentEraseDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"mutation","name":{"kind":"Name","value":"ConsoleAgentErase"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"input"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"AgentEraseInput"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"agentErase"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"input"},"value":{"kind":"Variable","name":{"kind":"Name","value":"input"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"InlineFragment","typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"AgentEraseSuccess"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"resumed"}},{"kind":"Field","name":{"kind":"Name","value":"receipt"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"receiptId"}},{"kind":"Field","name":{"kind":"Name","value":"agentId"}},{"kind":"Field","name":{"kind":"Name","value":"forced"}},{"kind":"Field","name":{"kind":"Name","value":"startedAt"}},{"kind":"Field","name":{"kind":"Name","value":"completedAt"}},{"kind":"Field","name":{"kind":"Name","value":"contentHash"}},{"kind":"Field","name":{"kind":"Name","value":"actor"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"kind"}},{"kind":"Field","name":{"kind":"Name","value":"principalId"}}]}},{"kind":"Field","name":{"kind":"Name","value":"counts"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"store"}},{"kind":"Field","name":{"kind":"Name","value":"rows"}}]}}]}}]}},{"kind":"InlineFragment","typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"OwnerLive"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"ownerIds"}}]}},{"kind":"InlineFragment","typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"Error"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"FragmentSpread","name":{"kind":"Name","value":"ConsoleError"}}]}}]}}]}},{"kind":"FragmentDefinition","name":{"kind":"Name","value":"ConsoleError"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"Error"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"code"}},{"kind":"Field","name":{"kind":"Name","value":"message"}},{"kind":"InlineFragment","typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"ValidationFailed"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"field"}},{"kind":"Field","name":{"kind":"Name","value":"limit"}}]}},{"kind":"InlineFragment","typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"AlreadyExists"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"resource"}},{"kind":"Field","name":{"kind":"Name","value":"resourceId"}}]}},{"kind":"InlineFragment","typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"RevisionConflict"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"expectedRevision"}},{"kind":"Field","name":{"kind":"Name","value":"currentRevision"}},{"kind":"Field","name":{"kind":"Name","value":"currentContent"}},{"kind":"Field","name":{"kind":"Name","value":"currentValue"}}]}}]}}]} as unknown as DocumentNode<ConsoleAgentEraseMutation, ConsoleAgentEraseMutationVariables>;
export const ConsoleConnectionsDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"query","name":{"kind":"Name","value":"ConsoleConnections"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"settingsStatus"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"keyConfigured"}}]}},{"kind":"Field","name":{"kind":"Name","value":"modelConnections"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"FragmentSpread","name":{"kind":"Name","value":"ConsoleModelConnection"}}]}},{"kind":"Field","name":{"kind":"Name","value":"mcpConnections"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"FragmentSpread","name":{"kind":"Name","value":"ConsoleMcpConnection"}}]}}]}},{"kind":"FragmentDefinition","name":{"kind":"Name","value":"ConsoleModelConnection"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"ModelConnectionSetting"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"purpose"}},{"kind":"Field","name":{"kind":"Name","value":"url"}},{"kind":"Field","name":{"kind":"Name","value":"model"}},{"kind":"Field","name":{"kind":"Name","value":"timeoutMs"}},{"kind":"Field","name":{"kind":"Name","value":"hasSecret"}},{"kind":"Field","name":{"kind":"Name","value":"revision"}},{"kind":"Field","name":{"kind":"Name","value":"updatedAt"}},{"kind":"Field","name":{"kind":"Name","value":"updatedBy"}}]}},{"kind":"FragmentDefinition","name":{"kind":"Name","value":"ConsoleMcpConnection"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"McpConnectionSetting"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"name"}},{"kind":"Field","name":{"kind":"Name","value":"url"}},{"kind":"Field","name":{"kind":"Name","value":"transport"}},{"kind":"Field","name":{"kind":"Name","value":"enabled"}},{"kind":"Field","name":{"kind":"Name","value":"description"}},{"kind":"Field","name":{"kind":"Name","value":"hasSecret"}},{"kind":"Field","name":{"kind":"Name","value":"revision"}},{"kind":"Field","name":{"kind":"Name","value":"updatedAt"}},{"kind":"Field","name":{"kind":"Name","value":"updatedBy"}}]}}]} as unknown as DocumentNode<ConsoleConnectionsQuery, ConsoleConnectionsQueryVariables>;
export const ConsoleSetModelConnectionDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"mutation","name":{"kind":"Name","value":"ConsoleSetModelConnection"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"input"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"SetModelConnectionInput"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"setModelConnection"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"input"},"value":{"kind":"Variable","name":{"kind":"Name","value":"input"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"InlineFragment","typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"SetModelConnectionSuccess"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"connection"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"FragmentSpread","name":{"kind":"Name","value":"ConsoleModelConnection"}}]}}]}},{"kind":"InlineFragment","typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"SettingsKeyRequired"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"field"}}]}},{"kind":"InlineFragment","typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"Error"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"FragmentSpread","name":{"kind":"Name","value":"ConsoleError"}}]}}]}}]}},{"kind":"FragmentDefinition","name":{"kind":"Name","value":"ConsoleModelConnection"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"ModelConnectionSetting"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"purpose"}},{"kind":"Field","name":{"kind":"Name","value":"url"}},{"kind":"Field","name":{"kind":"Name","value":"model"}},{"kind":"Field","name":{"kind":"Name","value":"timeoutMs"}},{"kind":"Field","name":{"kind":"Name","value":"hasSecret"}},{"kind":"Field","name":{"kind":"Name","value":"revision"}},{"kind":"Field","name":{"kind":"Name","value":"updatedAt"}},{"kind":"Field","name":{"kind":"Name","value":"updatedBy"}}]}},{"kind":"FragmentDefinition","name":{"kind":"Name","value":"ConsoleError"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"Error"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"code"}},{"kind":"Field","name":{"kind":"Name","value":"message"}},{"kind":"InlineFragment","typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"ValidationFailed"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"field"}},{"kind":"Field","name":{"kind":"Name","value":"limit"}}]}},{"kind":"InlineFragment","typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"AlreadyExists"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"resource"}},{"kind":"Field","name":{"kind":"Name","value":"resourceId"}}]}},{"kind":"InlineFragment","typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"RevisionConflict"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"expectedRevision"}},{"kind":"Field","name":{"kind":"Name","value":"currentRevision"}},{"kind":"Field","name":{"kind":"Name","value":"currentContent"}},{"kind":"Field","name":{"kind":"Name","value":"currentValue"}}]}}]}}]} as unknown as DocumentNode<ConsoleSetModelConnectionMutation, ConsoleSetModelConnectionMutationVariables>;
export const ConsoleSetMcpConnectionDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"mutation","name":{"kind":"Name","value":"ConsoleSetMcpConnection"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"input"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"SetMcpConnectionInput"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"setMcpConnection"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"input"},"value":{"kind":"Variable","name":{"kind":"Name","value":"input"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"InlineFragment","typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"SetMcpConnectionSuccess"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"connection"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"FragmentSpread","name":{"kind":"Name","value":"ConsoleMcpConnection"}}]}}]}},{"kind":"InlineFragment","typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"SettingsKeyRequired"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"field"}}]}},{"kind":"InlineFragment","typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"Error"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"FragmentSpread","name":{"kind":"Name","value":"ConsoleError"}}]}}]}}]}},{"kind":"FragmentDefinition","name":{"kind":"Name","value":"ConsoleMcpConnection"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"McpConnectionSetting"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"name"}},{"kind":"Field","name":{"kind":"Name","value":"url"}},{"kind":"Field","name":{"kind":"Name","value":"transport"}},{"kind":"Field","name":{"kind":"Name","value":"enabled"}},{"kind":"Field","name":{"kind":"Name","value":"description"}},{"kind":"Field","name":{"kind":"Name","value":"hasSecret"}},{"kind":"Field","name":{"kind":"Name","value":"revision"}},{"kind":"Field","name":{"kind":"Name","value":"updatedAt"}},{"kind":"Field","name":{"kind":"Name","value":"updatedBy"}}]}},{"kind":"FragmentDefinition","name":{"kind":"Name","value":"ConsoleError"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"Error"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"code"}},{"kind":"Field","name":{"kind":"Name","value":"message"}},{"kind":"InlineFragment","typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"ValidationFailed"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"field"}},{"kind":"Field","name":{"kind":"Name","value":"limit"}}]}},{"kind":"InlineFragment","typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"AlreadyExists"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"resource"}},{"kind":"Field","name":{"kind":"Name","value":"resourceId"}}]}},{"kind":"InlineFragment","typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"RevisionConflict"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"expectedRevision"}},{"kind":"Field","name":{"kind":"Name","value":"currentRevision"}},{"kind":"Field","name":{"kind":"Name","value":"currentContent"}},{"kind":"Field","name":{"kind":"Name","value":"currentValue"}}]}}]}}]} as unknown as DocumentNode<ConsoleSetMcpConnectionMutation, ConsoleSetMcpConnectionMutationVariables>;
export const ConsoleDeleteModelConnectionDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"mutation","name":{"kind":"Name","value":"ConsoleDeleteModelConnection"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"purpose"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"ModelPurpose"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"deleteModelConnection"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"purpose"},"value":{"kind":"Variable","name":{"kind":"Name","value":"purpose"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"deleted"}}]}}]}}]} as unknown as DocumentNode<ConsoleDeleteModelConnectionMutation, ConsoleDeleteModelConnectionMutationVariables>;
export const ConsoleDeleteMcpConnectionDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"mutation","name":{"kind":"Name","value":"ConsoleDeleteMcpConnection"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"name"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"String"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"deleteMcpConnection"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"name"},"value":{"kind":"Variable","name":{"kind":"Name","value":"name"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"deleted"}}]}}]}}]} as unknown as DocumentNode<ConsoleDeleteMcpConnectionMutation, ConsoleDeleteMcpConnectionMutationVariables>;
export const ConsoleDreamDiaryDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"query","name":{"kind":"Name","value":"ConsoleDreamDiary"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"agentId"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"String"}}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"after"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"String"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"dreamDiary"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"agentId"},"value":{"kind":"Variable","name":{"kind":"Name","value":"agentId"}}},{"kind":"Argument","name":{"kind":"Name","value":"first"},"value":{"kind":"IntValue","value":"20"}},{"kind":"Argument","name":{"kind":"Name","value":"after"},"value":{"kind":"Variable","name":{"kind":"Name","value":"after"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"edges"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"node"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"FragmentSpread","name":{"kind":"Name","value":"ConsoleDreamDiaryEntry"}}]}}]}},{"kind":"Field","name":{"kind":"Name","value":"pageInfo"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"hasNextPage"}},{"kind":"Field","name":{"kind":"Name","value":"endCursor"}}]}}]}}]}},{"kind":"FragmentDefinition","name":{"kind":"Name","value":"ConsoleDreamDiaryEntry"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"DreamDiaryEntry"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"entryId"}},{"kind":"Field","name":{"kind":"Name","value":"entryDate"}},{"kind":"Field","name":{"kind":"Name","value":"title"}},{"kind":"Field","name":{"kind":"Name","value":"body"}},{"kind":"Field","name":{"kind":"Name","value":"createdAt"}},{"kind":"Field","name":{"kind":"Name","value":"writtenBy"}}]}}]} as unknown as DocumentNode<ConsoleDreamDiaryQuery, ConsoleDreamDiaryQueryVariables>;
export const ConsoleAppendDreamDiaryEntryDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"mutation","name":{"kind":"Name","value":"ConsoleAppendDreamDiaryEntry"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"input"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"AppendDreamDiaryEntryInput"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"appendDreamDiaryEntry"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"input"},"value":{"kind":"Variable","name":{"kind":"Name","value":"input"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"InlineFragment","typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"AppendDreamDiaryEntrySuccess"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"entry"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"FragmentSpread","name":{"kind":"Name","value":"ConsoleDreamDiaryEntry"}}]}}]}},{"kind":"InlineFragment","typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"Error"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"FragmentSpread","name":{"kind":"Name","value":"ConsoleError"}}]}}]}}]}},{"kind":"FragmentDefinition","name":{"kind":"Name","value":"ConsoleDreamDiaryEntry"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"DreamDiaryEntry"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"entryId"}},{"kind":"Field","name":{"kind":"Name","value":"entryDate"}},{"kind":"Field","name":{"kind":"Name","value":"title"}},{"kind":"Field","name":{"kind":"Name","value":"body"}},{"kind":"Field","name":{"kind":"Name","value":"createdAt"}},{"kind":"Field","name":{"kind":"Name","value":"writtenBy"}}]}},{"kind":"FragmentDefinition","name":{"kind":"Name","value":"ConsoleError"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"Error"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"code"}},{"kind":"Field","name":{"kind":"Name","value":"message"}},{"kind":"InlineFragment","typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"ValidationFailed"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"field"}},{"kind":"Field","name":{"kind":"Name","value":"limit"}}]}},{"kind":"InlineFragment","typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"AlreadyExists"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"resource"}},{"kind":"Field","name":{"kind":"Name","value":"resourceId"}}]}},{"kind":"InlineFragment","typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"RevisionConflict"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"expectedRevision"}},{"kind":"Field","name":{"kind":"Name","value":"currentRevision"}},{"kind":"Field","name":{"kind":"Name","value":"currentContent"}},{"kind":"Field","name":{"kind":"Name","value":"currentValue"}}]}}]}}]} as unknown as DocumentNode<ConsoleAppendDreamDiaryEntryMutation, ConsoleAppendDreamDiaryEntryMutationVariables>;
export const ConsoleProfileDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"query","name":{"kind":"Name","value":"ConsoleProfile"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"agentId"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"String"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"agent"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"agentId"},"value":{"kind":"Variable","name":{"kind":"Name","value":"agentId"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"agentId"}},{"kind":"Field","name":{"kind":"Name","value":"name"}},{"kind":"Field","name":{"kind":"Name","value":"profile"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"kind"}},{"kind":"Field","name":{"kind":"Name","value":"revision"}},{"kind":"Field","name":{"kind":"Name","value":"updatedAt"}},{"kind":"Field","name":{"kind":"Name","value":"reference"}}]}}]}}]}}]} as unknown as DocumentNode<ConsoleProfileQuery, ConsoleProfileQueryVariables>;
export const ConsoleProfileDocumentDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"query","name":{"kind":"Name","value":"ConsoleProfileDocument"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"agentId"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"String"}}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"kind"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"ProfileKind"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"profileDocument"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"agentId"},"value":{"kind":"Variable","name":{"kind":"Name","value":"agentId"}}},{"kind":"Argument","name":{"kind":"Name","value":"kind"},"value":{"kind":"Variable","name":{"kind":"Name","value":"kind"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"kind"}},{"kind":"Field","name":{"kind":"Name","value":"revision"}},{"kind":"Field","name":{"kind":"Name","value":"content"}},{"kind":"Field","name":{"kind":"Name","value":"reference"}},{"kind":"Field","name":{"kind":"Name","value":"updatedAt"}},{"kind":"Field","name":{"kind":"Name","value":"updatedBy"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"kind"}},{"kind":"Field","name":{"kind":"Name","value":"principalId"}}]}},{"kind":"Field","name":{"kind":"Name","value":"revisions"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"first"},"value":{"kind":"IntValue","value":"50"}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"edges"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"node"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"revision"}},{"kind":"Field","name":{"kind":"Name","value":"content"}},{"kind":"Field","name":{"kind":"Name","value":"createdAt"}},{"kind":"Field","name":{"kind":"Name","value":"reason"}},{"kind":"Field","name":{"kind":"Name","value":"actor"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"kind"}},{"kind":"Field","name":{"kind":"Name","value":"principalId"}}]}}]}}]}}]}}]}}]}}]} as unknown as DocumentNode<ConsoleProfileDocumentQuery, ConsoleProfileDocumentQueryVariables>;
export const ConsoleUpdateProfileDocumentDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"mutation","name":{"kind":"Name","value":"ConsoleUpdateProfileDocument"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"input"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"UpdateProfileDocumentInput"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"updateProfileDocument"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"input"},"value":{"kind":"Variable","name":{"kind":"Name","value":"input"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"InlineFragment","typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"UpdateProfileDocumentSuccess"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"document"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"kind"}},{"kind":"Field","name":{"kind":"Name","value":"revision"}},{"kind":"Field","name":{"kind":"Name","value":"content"}},{"kind":"Field","name":{"kind":"Name","value":"updatedAt"}}]}}]}},{"kind":"InlineFragment","typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"Error"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"FragmentSpread","name":{"kind":"Name","value":"ConsoleError"}}]}}]}}]}},{"kind":"FragmentDefinition","name":{"kind":"Name","value":"ConsoleError"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"Error"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"code"}},{"kind":"Field","name":{"kind":"Name","value":"message"}},{"kind":"InlineFragment","typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"ValidationFailed"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"field"}},{"kind":"Field","name":{"kind":"Name","value":"limit"}}]}},{"kind":"InlineFragment","typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"AlreadyExists"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"resource"}},{"kind":"Field","name":{"kind":"Name","value":"resourceId"}}]}},{"kind":"InlineFragment","typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"RevisionConflict"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"expectedRevision"}},{"kind":"Field","name":{"kind":"Name","value":"currentRevision"}},{"kind":"Field","name":{"kind":"Name","value":"currentContent"}},{"kind":"Field","name":{"kind":"Name","value":"currentValue"}}]}}]}}]} as unknown as DocumentNode<ConsoleUpdateProfileDocumentMutation, ConsoleUpdateProfileDocumentMutationVariables>;
export const ConsoleViewerDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"query","name":{"kind":"Name","value":"ConsoleViewer"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"viewer"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"principal"}},{"kind":"Field","name":{"kind":"Name","value":"tokenName"}},{"kind":"Field","name":{"kind":"Name","value":"agentId"}}]}}]}}]} as unknown as DocumentNode<ConsoleViewerQuery, ConsoleViewerQueryVariables>;
export const ConsoleAgentsDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"query","name":{"kind":"Name","value":"ConsoleAgents"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"agents"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"first"},"value":{"kind":"IntValue","value":"100"}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"edges"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"node"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"agentId"}},{"kind":"Field","name":{"kind":"Name","value":"name"}},{"kind":"Field","name":{"kind":"Name","value":"lastEventSequence"}}]}}]}},{"kind":"Field","name":{"kind":"Name","value":"pageInfo"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"hasNextPage"}}]}}]}}]}}]} as unknown as DocumentNode<ConsoleAgentsQuery, ConsoleAgentsQueryVariables>;
export const ConsoleCreateAgentDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"mutation","name":{"kind":"Name","value":"ConsoleCreateAgent"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"input"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"CreateAgentInput"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"createAgent"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"input"},"value":{"kind":"Variable","name":{"kind":"Name","value":"input"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"InlineFragment","typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"CreateAgentSuccess"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"agent"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"agentId"}},{"kind":"Field","name":{"kind":"Name","value":"name"}},{"kind":"Field","name":{"kind":"Name","value":"lastEventSequence"}}]}}]}},{"kind":"FragmentSpread","name":{"kind":"Name","value":"ConsoleError"}}]}}]}},{"kind":"FragmentDefinition","name":{"kind":"Name","value":"ConsoleError"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"Error"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"code"}},{"kind":"Field","name":{"kind":"Name","value":"message"}},{"kind":"InlineFragment","typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"ValidationFailed"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"field"}},{"kind":"Field","name":{"kind":"Name","value":"limit"}}]}},{"kind":"InlineFragment","typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"AlreadyExists"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"resource"}},{"kind":"Field","name":{"kind":"Name","value":"resourceId"}}]}},{"kind":"InlineFragment","typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"RevisionConflict"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"expectedRevision"}},{"kind":"Field","name":{"kind":"Name","value":"currentRevision"}},{"kind":"Field","name":{"kind":"Name","value":"currentContent"}},{"kind":"Field","name":{"kind":"Name","value":"currentValue"}}]}}]}}]} as unknown as DocumentNode<ConsoleCreateAgentMutation, ConsoleCreateAgentMutationVariables>;
export const ConsoleApiTokensDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"query","name":{"kind":"Name","value":"ConsoleApiTokens"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"apiTokens"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"first"},"value":{"kind":"IntValue","value":"200"}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"edges"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"node"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"FragmentSpread","name":{"kind":"Name","value":"ConsoleApiToken"}}]}}]}},{"kind":"Field","name":{"kind":"Name","value":"pageInfo"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"hasNextPage"}}]}},{"kind":"Field","name":{"kind":"Name","value":"totalCount"}}]}}]}},{"kind":"FragmentDefinition","name":{"kind":"Name","value":"ConsoleApiToken"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"ApiToken"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"tokenId"}},{"kind":"Field","name":{"kind":"Name","value":"name"}},{"kind":"Field","name":{"kind":"Name","value":"kind"}},{"kind":"Field","name":{"kind":"Name","value":"agentId"}},{"kind":"Field","name":{"kind":"Name","value":"createdAt"}},{"kind":"Field","name":{"kind":"Name","value":"expiresAt"}},{"kind":"Field","name":{"kind":"Name","value":"lastUsedAt"}},{"kind":"Field","name":{"kind":"Name","value":"revokedAt"}},{"kind":"Field","name":{"kind":"Name","value":"active"}}]}}]} as unknown as DocumentNode<ConsoleApiTokensQuery, ConsoleApiTokensQueryVariables>;
export const ConsoleCreateApiTokenDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"mutation","name":{"kind":"Name","value":"ConsoleCreateApiToken"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"input"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"CreateApiTokenInput"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"createApiToken"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"input"},"value":{"kind":"Variable","name":{"kind":"Name","value":"input"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"InlineFragment","typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"CreateApiTokenSuccess"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"secret"}},{"kind":"Field","name":{"kind":"Name","value":"token"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"FragmentSpread","name":{"kind":"Name","value":"ConsoleApiToken"}}]}}]}},{"kind":"FragmentSpread","name":{"kind":"Name","value":"ConsoleError"}}]}}]}},{"kind":"FragmentDefinition","name":{"kind":"Name","value":"ConsoleApiToken"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"ApiToken"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"tokenId"}},{"kind":"Field","name":{"kind":"Name","value":"name"}},{"kind":"Field","name":{"kind":"Name","value":"kind"}},{"kind":"Field","name":{"kind":"Name","value":"agentId"}},{"kind":"Field","name":{"kind":"Name","value":"createdAt"}},{"kind":"Field","name":{"kind":"Name","value":"expiresAt"}},{"kind":"Field","name":{"kind":"Name","value":"lastUsedAt"}},{"kind":"Field","name":{"kind":"Name","value":"revokedAt"}},{"kind":"Field","name":{"kind":"Name","value":"active"}}]}},{"kind":"FragmentDefinition","name":{"kind":"Name","value":"ConsoleError"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"Error"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"code"}},{"kind":"Field","name":{"kind":"Name","value":"message"}},{"kind":"InlineFragment","typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"ValidationFailed"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"field"}},{"kind":"Field","name":{"kind":"Name","value":"limit"}}]}},{"kind":"InlineFragment","typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"AlreadyExists"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"resource"}},{"kind":"Field","name":{"kind":"Name","value":"resourceId"}}]}},{"kind":"InlineFragment","typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"RevisionConflict"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"expectedRevision"}},{"kind":"Field","name":{"kind":"Name","value":"currentRevision"}},{"kind":"Field","name":{"kind":"Name","value":"currentContent"}},{"kind":"Field","name":{"kind":"Name","value":"currentValue"}}]}}]}}]} as unknown as DocumentNode<ConsoleCreateApiTokenMutation, ConsoleCreateApiTokenMutationVariables>;
export const ConsoleRevokeApiTokenDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"mutation","name":{"kind":"Name","value":"ConsoleRevokeApiToken"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"tokenId"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"String"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"revokeApiToken"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"tokenId"},"value":{"kind":"Variable","name":{"kind":"Name","value":"tokenId"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"InlineFragment","typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"RevokeApiTokenSuccess"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"token"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"FragmentSpread","name":{"kind":"Name","value":"ConsoleApiToken"}}]}}]}},{"kind":"FragmentSpread","name":{"kind":"Name","value":"ConsoleError"}}]}}]}},{"kind":"FragmentDefinition","name":{"kind":"Name","value":"ConsoleApiToken"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"ApiToken"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"tokenId"}},{"kind":"Field","name":{"kind":"Name","value":"name"}},{"kind":"Field","name":{"kind":"Name","value":"kind"}},{"kind":"Field","name":{"kind":"Name","value":"agentId"}},{"kind":"Field","name":{"kind":"Name","value":"createdAt"}},{"kind":"Field","name":{"kind":"Name","value":"expiresAt"}},{"kind":"Field","name":{"kind":"Name","value":"lastUsedAt"}},{"kind":"Field","name":{"kind":"Name","value":"revokedAt"}},{"kind":"Field","name":{"kind":"Name","value":"active"}}]}},{"kind":"FragmentDefinition","name":{"kind":"Name","value":"ConsoleError"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"Error"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"code"}},{"kind":"Field","name":{"kind":"Name","value":"message"}},{"kind":"InlineFragment","typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"ValidationFailed"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"field"}},{"kind":"Field","name":{"kind":"Name","value":"limit"}}]}},{"kind":"InlineFragment","typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"AlreadyExists"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"resource"}},{"kind":"Field","name":{"kind":"Name","value":"resourceId"}}]}},{"kind":"InlineFragment","typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"RevisionConflict"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"expectedRevision"}},{"kind":"Field","name":{"kind":"Name","value":"currentRevision"}},{"kind":"Field","name":{"kind":"Name","value":"currentContent"}},{"kind":"Field","name":{"kind":"Name","value":"currentValue"}}]}}]}}]} as unknown as DocumentNode<ConsoleRevokeApiTokenMutation, ConsoleRevokeApiTokenMutationVariables>;