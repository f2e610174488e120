import { builder } from '../../schema/builder.js';
import { GLOBAL_ID_DESCRIPTION } from '../../schema/node-keys.js';
import { OWNED_RECORD_WRITE_ERRORS } from '../../schema/errors.js';
import { NotFoundError, ValidationError } from '../../lib/errors.js';
import { bindingOf, decodeTimeIdCursor, encodeTimeIdCursor, pageSize, toConnection } from '../../lib/cursor.js';
import { ActorRef, type Principal } from '../../schema/actor.js';
import { connectionType, pageArgs } from '../../schema/connections.js';
import { agentScopedKey, brainMemoryNodeKey, parseAgentScopedKey, parsePositionKey } from '../../schema/node-keys.js';
import { AgentRef, addAgentLink } from '../agents/agents.graphql.js';
import type { ImportSummary } from './brains.albdruck-import.js';
import { LIST_PAGE_MAX, listQuery } from './brains.listing.js';
import { DELETE_BATCH_MAX, type BrainMemoryRow, type BrainRevisionRow, type DeletionResult } from './brains.types.js';
import { QUERY_MAX_LENGTH, type BrainSearchHit, type BrainSearchResult } from './brains.search.js';
import { agentBrainSearchArgs, brainReadGraphqlArgs, brainRemoveGraphqlInput, brainSaveInput, brainSearchGraphqlArgs, brainUpdateGraphqlInput } from './brains.inputs.js';
import { argsFrom, inputFieldsFrom } from '../../schema/inputs.js';

const BrainOwnershipEnum = builder.enumType('BrainOwnership', {
  description: 'Who owns a memory: once an operator wrote it, agents can neither update nor remove it',
  values: {
    OPERATOR: { description: 'Last written by an operator: agents can read it but neither update nor remove it' },
    AGENT: { description: 'Written by its agent (or never touched by an operator): the agent may update and remove it' },
  } satisfies Record<Principal, object>,
});
const BrainRevisionActionEnum = builder.enumType('BrainRevisionAction', {
  description: 'What a revision of a memory did',
  values: {
    CREATED: { description: 'brainSave created the memory (revision 1)' },
    UPDATED: { description: 'brainUpdate changed title, content or source references' },
    REMOVED: { description: 'brainRemove or brainRemoveMany wrote the tombstone' },
    IMPORTED: { description: 'The Albdruck import created the memory' },
  },
});
const RetrievalModeEnum = builder.enumType('BrainRetrievalMode', {
  description: 'How a search ranked its hits',
  values: {
    LEXICAL: { description: 'Word matches only (embeddings not configured or unavailable: see fallback)' },
    HYBRID: { description: 'Word matches and cosine similarity of embeddings, merged' },
  },
});
const RetrievalFallbackEnum = builder.enumType('BrainRetrievalFallback', {
  description: 'Why a search that would have been hybrid answered with lexical results',
  values: {
    EMBEDDING_UNAVAILABLE: { description: 'Embeddings are configured but the provider failed or timed out: these are lexical results' },
    VECTOR_UNAVAILABLE: { description: 'Embeddings are configured but this database has no pgvector: these are lexical results' },
  },
});
const MatchKindEnum = builder.enumType('BrainMatchKind', {
  description: 'What made a memory a hit',
  values: {
    LEXICAL: { description: 'At least one query word occurs in title or content' },
    EMBEDDING: { description: 'Its embedding is similar to the query (cosine similarity above zero)' },
  },
});
const DeletionStatusEnum = builder.enumType('BrainDeletionStatus', {
  description: 'The outcome of one item of brainRemoveMany',
  values: {
    DELETED: { description: 'The tombstone was written; `memory` is the removed memory' },
    NOT_FOUND: { description: 'No live memory of this agent has this id (unknown or already removed)' },
    REVISION_CONFLICT: { description: 'The memory changed since expectedRevision; `currentRevision` says where it is now. Nothing was written' },
    FORBIDDEN: { description: 'An agent token selected an operator-owned memory. Nothing was written' },
    INVALID: { description: 'The item itself is invalid (expectedRevision below 1). Nothing was written' },
  },
});

const BrainRevisionRef = builder.objectRef<BrainRevisionRow>('BrainMemoryRevision');
builder.node(BrainRevisionRef, {
  description: 'One revision of a memory as it was written: revisions are never changed or removed',
  id: { description: GLOBAL_ID_DESCRIPTION, resolve: (r) => agentScopedKey(r.agentId, JSON.stringify([r.memoryId, r.revision])) },
  // Read as brainRead reads its memory: another agent's token gets AGENT_MISMATCH; a removed memory's revisions are null.
  loadOne: (key, ctx) => {
    const { agentId, recordId } = parseAgentScopedKey(key);
    const entry = parsePositionKey(recordId);
    return entry ? ctx.services.brains.readRevision(ctx.viewer, { agentId, memoryId: entry.id, revision: entry.position }) : null;
  },
  fields: (t) => ({
    memoryId: t.exposeString('memoryId', { description: 'The memory this revision belongs to (`BrainMemory.memoryId`)' }),
    agentId: t.exposeString('agentId', { description: "The owning agent's id" }),
    revision: t.exposeInt('revision', { description: 'The revision number, 1 for the first' }),
    action: t.field({ type: BrainRevisionActionEnum, description: 'What this revision did', resolve: (r) => r.action.toUpperCase() as 'CREATED' }),
    title: t.exposeString('title', { description: 'The title at this revision' }),
    content: t.exposeString('content', { description: 'The content at this revision' }),
    sourceRefs: t.exposeStringList('sourceRefs', { description: 'The source references at this revision' }),
    ownership: t.field({ type: BrainOwnershipEnum, description: 'The ownership after this revision', resolve: (r) => r.ownership as Principal }),
    actor: t.field({ type: ActorRef, description: 'Who wrote this revision', resolve: (r) => ({ kind: r.actorKind, id: r.actorId }) }),
    createdAt: t.expose('createdAt', { type: 'DateTime', description: 'When this revision was written' }),
  }),
});

interface LegacyDetails {
  source: string;
  knowledgeId: string;
  scope: string;
  legacyOwnerAgentId: string | null;
  status: string;
  operatorCorrected: boolean;
  operatorDeleted: boolean;
  importedAt: string;
  importedBy: { kind: string; id: string };
  truncated: { title: boolean; content: boolean; sourceRefs: boolean };
  evidence: unknown[];
  snapshots: unknown[];
}

const LegacyScopeEnum = builder.enumType('BrainLegacyScope', {
  description: 'The scope a legacy Albdruck record had',
  values: {
    AGENT: { description: 'Owned by one agent in Albdruck; imported to that agent' },
    GLOBAL: { description: 'Global in Albdruck; imported to the agent hatchet' },
  },
});

const BrainLegacyMigrationRef = builder.objectRef<LegacyDetails>('BrainLegacyMigration').implement({
  description: 'Legacy migration details of a memory imported from Albdruck',
  fields: (t) => ({
    source: t.exposeString('source', { description: 'Where the record came from (the legacy table)' }),
    legacyId: t.exposeString('knowledgeId', { description: 'The record id in Albdruck' }),
    legacyScope: t.field({
      type: LegacyScopeEnum,
      description: "The record's scope in Albdruck",
      resolve: (d) => (d.scope === 'global' ? 'GLOBAL' : 'AGENT'),
    }),
    legacyOwnerAgentId: t.exposeString('legacyOwnerAgentId', { nullable: true, description: 'The owning agent in Albdruck; null for global records' }),
    legacyStatus: t.exposeString('status', {
      description: "The record's status in Albdruck, verbatim: legacy data, whose set of values Burrow does not control",
    }),
    operatorCorrected: t.exposeBoolean('operatorCorrected', { description: 'An operator had corrected the record in Albdruck: the memory is operator-owned' }),
    operatorDeleted: t.exposeBoolean('operatorDeleted', { description: 'An operator had deleted the record in Albdruck: it was imported as removed' }),
    importedAt: t.field({ type: 'DateTime', description: 'When the import copied the record', resolve: (d) => new Date(d.importedAt) }),
    importedBy: t.field({ type: ActorRef, description: 'Who ran the import', resolve: (d) => d.importedBy }),
    truncated: t.boolean({
      description: 'Title, content or source references were cut to the Brains limits; the legacy tables keep the original',
      resolve: (d) => d.truncated.title || d.truncated.content || d.truncated.sourceRefs,
    }),
    evidenceCount: t.int({ description: 'How many evidence entries the legacy record had (in `details`)', resolve: (d) => d.evidence.length }),
    snapshotCount: t.int({ description: 'How many revision snapshots the legacy record had (in `details`)', resolve: (d) => d.snapshots.length }),
    details: t.field({ type: 'JSON', description: 'Everything preserved from the legacy record: evidence and revision snapshots', resolve: (d) => d }),
  }),
});

export const BrainMemoryRef = builder.objectRef<BrainMemoryRow>('BrainMemory');
builder.node(BrainMemoryRef, {
  description: 'An explicit saved memory: one owning agent, no TTL, never loaded into prompts automatically',
  id: { description: GLOBAL_ID_DESCRIPTION, resolve: brainMemoryNodeKey },
  // node(id) reads as brainRead does: an agent token of another agent gets AGENT_MISMATCH.
  loadOne: (key, ctx) => {
    const { agentId, recordId } = parseAgentScopedKey(key);
    return ctx.services.brains.read(ctx.viewer, { agentId, id: recordId });
  },
  fields: (t) => ({
    memoryId: t.exposeString('id', { description: 'The memory id every brain verb takes (`memoryId:`); generated, immutable, unique within its agent' }),
    agentId: t.exposeString('agentId', { description: "The owning agent's id" }),
    title: t.exposeString('title', { description: 'A short headline' }),
    content: t.exposeString('content', { description: 'The memory itself' }),
    sourceRefs: t.exposeStringList('sourceRefs', { description: 'References as given; a reference is not verification of current state' }),
    revision: t.exposeInt('revision', { description: 'The current revision; brainUpdate and brainRemove need it as expectedRevision' }),
    ownership: t.field({ type: BrainOwnershipEnum, description: 'Who owns it now', resolve: (m) => m.ownership as Principal }),
    labels: t.stringList({
      description: 'Labels of the memory: at most one today (the Albdruck import labels what it imported); a list so more can come without a breaking change',
      resolve: (m) => (m.label ? [m.label] : []),
    }),
    createdBy: t.field({ type: ActorRef, description: 'Who created it', resolve: (m) => ({ kind: m.createdByKind, id: m.createdById }) }),
    updatedBy: t.field({ type: ActorRef, description: 'Who wrote the current revision', resolve: (m) => ({ kind: m.updatedByKind, id: m.updatedById }) }),
    createdAt: t.expose('createdAt', { type: 'DateTime', description: 'When it was created' }),
    updatedAt: t.expose('updatedAt', { type: 'DateTime', description: 'When the current revision was written' }),
    deleted: t.boolean({
      description: 'True only on the result of a removal (removed memories are hidden everywhere else); kept so that result says what happened',
      resolve: (m) => m.deletedAt !== null,
    }),
    legacyMigration: t.field({
      type: BrainLegacyMigrationRef,
      nullable: true,
      description: 'Where an imported memory came from; null for memories saved in Burrow',
      resolve: (m) => (m.legacy as LegacyDetails | null) ?? null,
    }),
    revisions: t.loadableList({
      type: BrainRevisionRef,
      description: 'Every revision, newest first, with its actor (batched: one statement for a whole page)',
      args: { first: t.arg.int({ required: false, description: 'How many revisions: 1 to 500; 100 when absent' }) },
      byPath: true,
      load: (keys: string[], ctx, args) =>
        ctx.services.brains.revisionsFor(
          keys.map((key) => {
            const { agentId, recordId } = parseAgentScopedKey(key);
            return { agentId, memoryId: recordId };
          }),
          pageSize(args.first, 500, 100),
        ),
      resolve: (m) => agentScopedKey(m.agentId, m.id),
    }),
  }),
});
addAgentLink(BrainMemoryRef, (m) => m.agentId);
addAgentLink(BrainRevisionRef, (r) => r.agentId);

const BrainMemoryConnection = connectionType(BrainMemoryRef, 'BrainMemory');

const RetrievalRef = builder.objectRef<BrainSearchResult['retrieval']>('BrainRetrieval').implement({
  description: 'How a search ranked, and why it fell back to lexical when it did',
  fields: (t) => ({
    mode: t.field({ type: RetrievalModeEnum, description: 'Lexical or hybrid ranking', resolve: (r) => r.mode }),
    fallback: t.field({ type: RetrievalFallbackEnum, nullable: true, description: 'Set when a hybrid search answered lexically', resolve: (r) => r.fallback }),
    reason: t.exposeString('reason', { nullable: true, description: 'The provider or database problem behind the fallback, for operators' }),
  }),
});

const SearchHitRef = builder.objectRef<BrainSearchHit>('BrainSearchHit').implement({
  description: 'One memory found by a search, with how it matched',
  fields: (t) => ({
    memory: t.field({ type: BrainMemoryRef, description: 'The memory found', resolve: (h) => h.memory }),
    matchedBy: t.field({ type: [MatchKindEnum], description: 'What matched this memory', resolve: (h) => h.matchedBy }),
    matchedTerms: t.exposeStringList('matchedTerms', { description: 'Query terms found (case-insensitively) in title or content' }),
    lexicalScore: t.exposeFloat('lexicalScore', {
      description: 'Per query word: 2 for a title match plus 1 for a content match; with several words, 3 more when the whole phrase matches. 0 for embedding-only hits',
    }),
    similarity: t.exposeFloat('similarity', { nullable: true, description: 'Cosine similarity of the query and memory embeddings (-1 to 1); null when not compared' }),
    score: t.exposeFloat('score', { description: 'The ranking score: lexicalScore in lexical mode; similarity + 0.3 × lexicalScore / best lexicalScore in hybrid mode' }),
  }),
});

const BrainSearchResultRef = builder.objectRef<BrainSearchResult>('BrainSearchResult').implement({
  description: 'The hits of one search, best first',
  fields: (t) => ({
    agentId: t.exposeString('agentId', { description: 'The agent whose memories were searched' }),
    query: t.exposeString('query', { description: 'The query, trimmed' }),
    retrieval: t.field({ type: RetrievalRef, description: 'How the hits were ranked', resolve: (r) => r.retrieval }),
    hits: t.field({ type: [SearchHitRef], description: 'At most `first` hits, by score, then updatedAt newest first, then memoryId', resolve: (r) => r.hits }),
  }),
});
addAgentLink(BrainSearchResultRef, (r) => r.agentId);

const EmbeddingStatusRef = builder.simpleObject('BrainEmbeddingStatus', {
  description: "The embedding index of one agent's memories",
  fields: (t) => ({
    agentId: t.string({ description: 'The agent' }),
    enabled: t.boolean({ description: 'An embedding provider is configured (BURROW_EMBEDDINGS_*)' }),
    model: t.string({ nullable: true, description: 'The embedding model; null when not enabled' }),
    dimensions: t.int({ nullable: true, description: "Dimensions of the model's vectors; null when not enabled" }),
    vectorSearch: t.boolean({ description: 'Embedding ranking can run (enabled and pgvector present)' }),
    reason: t.string({ nullable: true, description: 'Why search is lexical only, when it is' }),
    indexed: t.int({ description: 'Live memories with an embedding of their current revision' }),
    pending: t.int({ description: 'Live memories whose current revision has not been tried yet' }),
    failed: t.int({ description: 'Live memories whose current revision failed to embed; they are retried with backoff until they succeed' }),
    backlog: t.int({ description: 'Live memories without a usable embedding of their current revision: pending + failed' }),
    nextRetryAt: t.field({
      type: 'DateTime',
      nullable: true,
      description: 'When the earliest failed memory is tried again (a time already past: the next indexer pass); null when none failed',
    }),
    lastError: t.string({ nullable: true, description: "The newest failure's message, for operators; null when none failed" }),
  }),
});

const DeletionResultRef = builder.objectRef<DeletionResult>('BrainDeletionResult').implement({
  description: 'What brainRemoveMany did with one selected memory',
  fields: (t) => ({
    memoryId: t.exposeString('id', { description: 'The memory id as selected' }),
    status: t.field({ type: DeletionStatusEnum, description: 'The outcome of this item', resolve: (r) => r.status }),
    message: t.exposeString('message', { description: 'The outcome in words' }),
    currentRevision: t.exposeInt('currentRevision', {
      nullable: true,
      description: "After DELETED: the tombstone's revision; after REVISION_CONFLICT: the current one; otherwise null",
    }),
    memory: t.field({ type: BrainMemoryRef, nullable: true, description: 'The removed memory (DELETED only)', resolve: (r) => r.memory }),
  }),
});

const ImportFailureRef = builder.objectRef<ImportSummary['failures'][number]>('AlbdruckImportFailure').implement({
  description: 'A legacy record the import could not copy',
  fields: (t) => ({
    legacyId: t.exposeString('legacyId', { description: 'The record id in Albdruck' }),
    reason: t.exposeString('reason', { description: 'Why it failed' }),
  }),
});
const ImportSummaryRef = builder.objectRef<ImportSummary>('AlbdruckImportSummary').implement({
  description: 'What one run of the Albdruck import did',
  fields: (t) => ({
    total: t.exposeInt('total', { description: 'Legacy records found' }),
    imported: t.exposeInt('imported', { description: 'New memories, including those imported as deleted' }),
    skipped: t.exposeInt('skipped', { description: 'Already imported earlier: left exactly as they are' }),
    deletedOnImport: t.exposeInt('deletedOnImport', { description: 'Records deleted in Albdruck, imported as removed memories' }),
    failed: t.exposeInt('failed', { description: 'Records that could not be imported (see failures); a later run tries them again' }),
    createdAgents: t.exposeStringList('createdAgents', { description: 'Agents the import created because legacy records named them' }),
    failures: t.field({ type: [ImportFailureRef], description: 'One entry per failed record', resolve: (s) => s.failures }),
  }),
});

const listQueryArg = (arg: Parameters<Parameters<typeof builder.queryFields>[0]>[0]['arg']) =>
  arg.string({
    required: false,
    description: `Only memories whose title or content contains this text (case-insensitive substring, any length up to ${QUERY_MAX_LENGTH} characters: "CI" and "Go" too); absent or blank lists every live memory`,
  });

builder.queryFields((t) => ({
  brainRead: t.field({
    type: BrainMemoryRef,
    nullable: true,
    description: 'A live memory of the acting agent; null when unknown or removed',
    args: argsFrom(t.arg, brainReadGraphqlArgs, {}),
    resolve: (_, args, ctx) => ctx.services.brains.read(ctx.viewer, { agentId: args.agentId, id: String(args.memoryId) }),
  }),
  brainSearch: t.field({
    type: BrainSearchResultRef,
    description:
      "Explicit search of the acting agent's memories: lexical, plus embedding ranking when configured. Never fails because of the embedding provider. " +
      'Lexical hits are ranked by lexicalScore (per word: title match 2, content match 1; with several words the whole phrase adds 3), then updatedAt newest first, then memoryId, exactly over every match.',
    args: argsFrom(t.arg, brainSearchGraphqlArgs, {}),
    resolve: (_, args, ctx) => ctx.services.brains.search(ctx.viewer, { agentId: args.agentId, query: args.query, limit: args.first }),
  }),
  brainMemories: t.field({
    type: BrainMemoryConnection,
    description: "An agent's live memories, newest first (createdAt, then memoryId), optionally filtered by substring. Cursors are bound to the agent and the query.",
    args: {
      agentId: t.arg.string({ required: true, description: 'The agent whose memories to list (an agent token: itself)' }),
      query: listQueryArg(t.arg),
      ...pageArgs(t.arg, LIST_PAGE_MAX),
    },
    resolve: async (_, args, ctx) => {
      const limit = pageSize(args.first, LIST_PAGE_MAX, 20);
      const query = listQuery(args.query);
      const binding = bindingOf('brainMemories', args.agentId, query);
      const position = decodeTimeIdCursor(args.after, binding);
      const after = position && { createdAt: position.at, id: position.id };
      const rows = await ctx.services.brains.list(ctx.viewer, { agentId: args.agentId, query, limit: limit + 1, after });
      return toConnection(rows, limit, (m) => encodeTimeIdCursor(binding, m.createdAt, m.id), args.after);
    },
  }),
  brainEmbeddingStatus: t.field({
    type: EmbeddingStatusRef,
    description: "How far the embedding indexer got with an agent's memories, and whether search can rank by embeddings",
    args: { agentId: t.arg.string({ required: true, description: 'The agent (an agent token: itself)' }) },
    resolve: (_, args, ctx) => ctx.services.brains.embeddingStatus(ctx.viewer, args.agentId),
  }),
}));

/**
 * Agent.brainMemories and Agent.brainSearch: one loader call for every agent of a response level,
 * one statement (search: one lexical statement, at most one embedding call and one vector
 * statement) whatever the number of agents. Each agent is authorized as the root field does; an
 * agent a token may not read gets its own error without failing the others.
 */
builder.objectFields(AgentRef, (t) => ({
  brainMemories: t.loadable({
    type: BrainMemoryConnection,
    description: "This agent's live memories, newest first: the same list and cursors as Query.brainMemories",
    args: { query: listQueryArg(t.arg), ...pageArgs(t.arg, LIST_PAGE_MAX) },
    byPath: true,
    load: async (agentIds: string[], ctx, args) => {
      const limit = pageSize(args.first, LIST_PAGE_MAX, 20);
      const query = listQuery(args.query);
      const results: (ReturnType<typeof toConnection<BrainMemoryRow>> | Error)[] = [];
      const readable: { index: number; agentId: string; binding: string }[] = [];
      let after: { createdAt: Date; id: string } | null = null;
      agentIds.forEach((agentId, index) => {
        try {
          const binding = bindingOf('brainMemories', agentId, query);
          // A cursor belongs to one agent's list: under another agent it is CURSOR_MISMATCH.
          const position = decodeTimeIdCursor(args.after, binding);
          after = position && { createdAt: position.at, id: position.id };
          readable.push({ index, agentId, binding });
        } catch (error) {
          results[index] = error as Error;
        }
      });
      const pages = await ctx.services.brains.listPages(
        ctx.viewer,
        readable.map((r) => r.agentId),
        { query, limit: limit + 1, after },
      );
      readable.forEach(({ index, binding }, i) => {
        results[index] = toConnection(pages[i], limit, (m) => encodeTimeIdCursor(binding, m.createdAt, m.id), args.after);
      });
      return results;
    },
    resolve: (agent) => agent.id,
  }),
  brainSearch: t.loadable({
    type: BrainSearchResultRef,
    description: "Search of this agent's memories, ranked exactly as Query.brainSearch",
    args: argsFrom(t.arg, agentBrainSearchArgs, {}),
    byPath: true,
    load: (agentIds: string[], ctx, args) => ctx.services.brains.searchMany(ctx.viewer, agentIds, { query: args.query, limit: args.first }),
    resolve: (agent) => agent.id,
  }),
}));

const BrainSaveInput = builder.inputType('BrainSaveInput', {
  description: 'A new memory of the acting agent',
  fields: (t) => inputFieldsFrom(t, brainSaveInput, {}),
});
const BrainUpdateInput = builder.inputType('BrainUpdateInput', {
  description: 'A revision-checked change of a memory: absent fields keep their value',
  fields: (t) => inputFieldsFrom(t, brainUpdateGraphqlInput, {}),
});
const BrainRemoveInput = builder.inputType('BrainRemoveInput', {
  description: 'A revision-checked removal (tombstone) of one memory',
  fields: (t) => inputFieldsFrom(t, brainRemoveGraphqlInput, {}),
});
const BrainRemoveManyItem = builder.inputType('BrainRemoveManyItem', {
  description: 'One memory selected for brainRemoveMany',
  fields: (t) => ({
    memoryId: t.string({ required: true, description: 'The memory id (`BrainMemory.memoryId`)' }),
    expectedRevision: t.int({ required: true, description: 'The revision last read; a changed memory is left alone (REVISION_CONFLICT for this item)' }),
  }),
});

builder.mutationFields((t) => ({
  brainSave: t.field({
    type: BrainMemoryRef,
    description: 'Saves a new memory (revision 1) for the acting agent',
    errors: { types: [ValidationError, NotFoundError], dataField: { name: 'memory' } },
    args: { input: t.arg({ type: BrainSaveInput, required: true, description: 'The memory' }) },
    resolve: (_, { input }, ctx) => ctx.services.brains.save(ctx.viewer, input),
  }),
  brainUpdate: t.field({
    type: BrainMemoryRef,
    description: 'Changes a memory if it is still at expectedRevision; agents cannot change operator-owned memories',
    errors: { types: OWNED_RECORD_WRITE_ERRORS, dataField: { name: 'memory' } },
    args: { input: t.arg({ type: BrainUpdateInput, required: true, description: 'The change' }) },
    resolve: (_, { input }, ctx) => {
      const { memoryId, ...rest } = input;
      return ctx.services.brains.update(ctx.viewer, { ...rest, id: String(memoryId) });
    },
  }),
  brainRemove: t.field({
    type: BrainMemoryRef,
    description: 'Writes a tombstone: the memory disappears from reads, search and lists; nothing is physically erased',
    errors: { types: OWNED_RECORD_WRITE_ERRORS, dataField: { name: 'memory' } },
    args: { input: t.arg({ type: BrainRemoveInput, required: true, description: 'The memory and its expected revision' }) },
    resolve: (_, { input }, ctx) => {
      const { memoryId, ...rest } = input;
      return ctx.services.brains.remove(ctx.viewer, { ...rest, id: String(memoryId) });
    },
  }),
  brainRemoveMany: t.field({
    type: [DeletionResultRef],
    description: `brainRemove for several memories of one agent: each is removed independently (not atomically) and reported in the order given. 1 to ${DELETE_BATCH_MAX} items.`,
    // Per-item refusals are statuses of the results, so the whole call fails only on its size.
    errors: { types: [ValidationError], dataField: { name: 'results' } },
    args: {
      agentId: t.arg.string({ required: true, description: 'The agent whose memories to remove (an agent token: itself)' }),
      items: t.arg({ type: [BrainRemoveManyItem], required: true, description: `The memories, 1 to ${DELETE_BATCH_MAX}` }),
    },
    resolve: (_, args, ctx) =>
      ctx.services.brains.deleteMany(ctx.viewer, { agentId: args.agentId, items: args.items.map((i) => ({ id: i.memoryId, expectedRevision: i.expectedRevision })) }),
  }),
  importAlbdruck: t.field({
    type: ImportSummaryRef,
    description: 'Operators: the repeat-safe legacy Albdruck import (same as `burrow import-albdruck`). A record that fails is counted in the summary, never fails the call.',
    resolve: (_, __, ctx) => ctx.services.brains.importAlbdruckAsOperator(ctx.viewer),
  }),
}));
