/**
 * Every error code the API answers with: the `code` of result-union members and `extensions.code`
 * of request errors. The schema declares them as `enum ErrorCode`; docs/errors.md has a row for each
 * (test/error-codes.test.ts compares both with the codes the source raises).
 */
export const ERROR_CODES = {
  VALIDATION_FAILED: 'input outside a documented limit or form; limit is the bound crossed',
  NOT_FOUND: 'the record does not exist or is hidden from this token; a per-agent subscription naming an unknown agent',
  ALREADY_EXISTS: 'a create named an id that is taken (createAgent)',
  REVISION_CONFLICT: 'a revision-checked write named a stale revision',
  OPERATOR_OWNED: 'an agent tried to change a record an operator wrote',
  OWNER_LIVE: 'agentErase without force while a runtime owner of the agent is live',
  OWNER_NOT_LIVE: "a continuity write named an ownership session that has ended (or another agent's)",
  RECEIPT_RECORDED: 'a continuity effect already has its receipt',
  STALE_GENERATION: 'a fenced continuity write from an older generation',
  NOT_OWNER: 'a fenced continuity write by an owner that does not hold the run',
  FORBIDDEN_TRANSITION: 'a run state change the state machine does not allow',
  SESSION_ARCHIVED: 'a write to an archived conversation session',
  SESSION_NOT_ARCHIVED: 'unarchiving a session that is not archived',
  SETTINGS_KEY_REQUIRED: 'a setting with a secret written while no settings key is configured',
  SECRET_UNREADABLE: 'a stored secret was encrypted with another key than the configured one',
  UNAUTHENTICATED: 'no bearer token, or an unknown, revoked or expired one; a WebSocket whose token is revoked or expires closes with 4403',
  FORBIDDEN: 'an operator-only field called with an agent token (createAgent, createApiToken, apiTokens, revokeApiToken, …), or an operator omitting the agent a verb needs',
  AGENT_MISMATCH: 'an agent token named another agent (arguments, node(id), connections, subscriptions)',
  continuity_scope_required: 'a scoped operation without a runtime scope (Burrow-Continuity-Scope header or connectionParams)',
  continuity_scope_mismatch: 'a project argument that differs from the runtime scope',
  CONTINUITY_SESSION_REQUIRED: "Tiddle residue without the runtime's session (Burrow-Session)",
  SESSION_REQUIRED: 'a conversation operation without a session',
  SESSION_MISMATCH: 'a session argument that differs from the runtime session',
  BAD_CURSOR: 'a pagination cursor that is not one this server issued',
  CURSOR_MISMATCH: "a cursor from another list or another agent's list",
  QUERY_REQUIRED: 'brainSearch with an empty query',
  QUERY_TOO_SHORT: 'a brainSearch query without a word of three or more characters (the operator list brainMemories takes any length)',
  QUERY_TOO_LONG: 'a Brain query above its maximum length',
  OWNERSHIP_REQUIRES_WEBSOCKET: 'runtimeOwnership opened over something other than graphql-ws',
  OWNERSHIP_UNAVAILABLE: 'an ownership session could not take its lock',
  OWNER_LIMIT_REACHED: 'an agent already has the most ownership sessions allowed',
  OWNER_CAPACITY_REACHED: 'the database already holds BURROW_OWNERS_MAX ownership connections',
  RATE_LIMITED: 'a token exceeded its request rate; over graphql-ws the socket stays open',
  LIMIT_EXCEEDED: 'a request beyond a configured limit (size, depth, aliases, tokens, …; an agent archive over BURROW_ARCHIVE_MAX_BYTES)',
  BAD_ARCHIVE: 'an agent archive upload that is not intact (does not decompress, truncated, changed, unknown table or column); nothing was written',
  TRUSTED_DOCUMENT_REQUIRED: 'trusted documents are enforced and the request sent a document that is not one of them',
  PERSISTED_QUERY_NOT_FOUND: 'a persisted-document hash the server does not know',
  DATABASE_UNAVAILABLE: 'the database connection is lost for the moment: retry',
  BAD_REQUEST: 'malformed GraphQL (syntax, validation, argument coercion), a bad global id, or data PostgreSQL refused (e.g. U+0000 in text)',
  INTERNAL_SERVER_ERROR: 'anything unexpected: masked (no stack, no SQL) and logged on the server',
} as const;

export type ErrorCode = keyof typeof ERROR_CODES;
