import { builder } from '../../schema/builder.js';
import { WRITE_ERRORS } from '../../schema/errors.js';
import { ForbiddenError, NotFoundError, ValidationError, badRequest } from '../../lib/errors.js';
import { bindingOf, decodeTimeIdCursor, encodeTimeIdCursor, pageSize, toConnection } from '../../lib/cursor.js';
import { ActorRef, type Principal } from '../../schema/actor.js';
import type { ImportSummary } from './brains.albdruck-import.js';
import { LIST_PAGE_MAX, listQuery } from './brains.listing.js';
import type { BrainMemoryRow, BrainRevisionRow, DeletionResult } from './brains.memories.js';
import type { BrainSearchHit, BrainSearchResult } from './brains.search.js';
import { brainReadArgs, brainRemoveInput, brainSaveInput, brainSearchArgs, brainUpdateInput } from './brains.inputs.js';
import { argsFrom, inputFieldsFrom } from '../../schema/inputs.js';

const BrainOwnershipEnum = builder.enumType('BrainOwnership', {
  description: 'OPERATOR once an operator wrote the memory: agents can then neither update nor remove it',
  values: ['OPERATOR', 'AGENT'] as const,
});
const BrainRevisionActionEnum = builder.enumType('BrainRevisionAction', { values: ['CREATED', 'UPDATED', 'REMOVED', 'IMPORTED'] as const });
const RetrievalModeEnum = builder.enumType('BrainRetrievalMode', { values: ['LEXICAL', 'HYBRID'] as const });
const RetrievalFallbackEnum = builder.enumType('BrainRetrievalFallback', {
  values: {
    EMBEDDING_UNAVAILABLE: { description: 'Embeddings are configured but the provider failed or timed out: these are lexical results' },
    VECTOR_UNAVAILABLE: { description: 'Embeddings are configured but this database has no pgvector: these are lexical results' },
  },
});
const MatchKindEnum = builder.enumType('BrainMatchKind', { values: ['LEXICAL', 'EMBEDDING'] as const });
const DeletionStatusEnum = builder.enumType('BrainDeletionStatus', {
  values: ['DELETED', 'NOT_FOUND', 'REVISION_CONFLICT', 'FORBIDDEN', 'INVALID'] as const,
});


const BrainRevisionRef = builder.objectRef<BrainRevisionRow>('BrainMemoryRevision').implement({
  fields: (t) => ({
    revision: t.exposeInt('revision'),
    action: t.field({ type: BrainRevisionActionEnum, resolve: (r) => r.action.toUpperCase() as 'CREATED' }),
    title: t.exposeString('title'),
    content: t.exposeString('content'),
    sourceRefs: t.exposeStringList('sourceRefs'),
    ownership: t.field({ type: BrainOwnershipEnum, resolve: (r) => r.ownership as Principal }),
    actor: t.field({ type: ActorRef, resolve: (r) => ({ kind: r.actorKind, id: r.actorId }) }),
    createdAt: t.expose('createdAt', { type: 'DateTime' }),
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

const BrainLegacyMigrationRef = builder.objectRef<LegacyDetails>('BrainLegacyMigration').implement({
  description: 'Legacy migration details of a memory imported from Albdruck',
  fields: (t) => ({
    source: t.exposeString('source'),
    legacyId: t.exposeString('knowledgeId'),
    legacyScope: t.string({ description: 'agent or global (global records are owned by hatchet)', resolve: (d) => d.scope }),
    legacyOwnerAgentId: t.exposeString('legacyOwnerAgentId', { nullable: true }),
    legacyStatus: t.exposeString('status'),
    operatorCorrected: t.exposeBoolean('operatorCorrected'),
    operatorDeleted: t.exposeBoolean('operatorDeleted'),
    importedAt: t.field({ type: 'DateTime', resolve: (d) => new Date(d.importedAt) }),
    importedBy: t.field({ type: ActorRef, resolve: (d) => d.importedBy }),
    truncated: t.boolean({ description: 'Title, content or source references were cut to the Brains limits; the legacy tables keep the original', resolve: (d) => d.truncated.title || d.truncated.content || d.truncated.sourceRefs }),
    evidenceCount: t.int({ resolve: (d) => d.evidence.length }),
    snapshotCount: t.int({ resolve: (d) => d.snapshots.length }),
    details: t.field({ type: 'JSON', description: 'Everything preserved from the legacy record: evidence and revision snapshots', resolve: (d) => d }),
  }),
});

export const BrainMemoryRef = builder.objectRef<BrainMemoryRow>('BrainMemory').implement({
  description: 'An explicit saved memory: one owning agent, no TTL, never loaded into prompts automatically',
  fields: (t) => ({
    id: t.exposeID('id', { description: 'Generated, immutable; the id every brain verb takes' }),
    agentId: t.exposeString('agentId'),
    title: t.exposeString('title'),
    content: t.exposeString('content'),
    sourceRefs: t.exposeStringList('sourceRefs', { description: 'References as given; a reference is not verification of current state' }),
    revision: t.exposeInt('revision'),
    ownership: t.field({ type: BrainOwnershipEnum, resolve: (m) => m.ownership as Principal }),
    labels: t.stringList({ resolve: (m) => (m.label ? [m.label] : []) }),
    createdBy: t.field({ type: ActorRef, resolve: (m) => ({ kind: m.createdByKind, id: m.createdById }) }),
    updatedBy: t.field({ type: ActorRef, resolve: (m) => ({ kind: m.updatedByKind, id: m.updatedById }) }),
    createdAt: t.expose('createdAt', { type: 'DateTime' }),
    updatedAt: t.expose('updatedAt', { type: 'DateTime' }),
    deleted: t.boolean({ description: 'True only on the result of a removal (removed memories are hidden everywhere else)', resolve: (m) => m.deletedAt !== null }),
    legacyMigration: t.field({ type: BrainLegacyMigrationRef, nullable: true, resolve: (m) => (m.legacy as LegacyDetails | null) ?? null }),
    revisions: t.loadableList({
      type: BrainRevisionRef,
      description: 'Every revision, newest first, with its actor (batched: one statement for a whole page)',
      args: { first: t.arg.int({ required: false, description: 'At most 500; default 100' }) },
      byPath: true,
      load: (keys: string[], ctx, args) =>
        ctx.services.brains.revisionsFor(
          keys.map((key) => {
            const [agentId, memoryId] = key.split('/');
            return { agentId, memoryId };
          }),
          pageSize(args.first, 500, 100),
        ),
      resolve: (m) => `${m.agentId}/${m.id}`,
    }),
  }),
});

const RetrievalRef = builder.objectRef<BrainSearchResult['retrieval']>('BrainRetrieval').implement({
  fields: (t) => ({
    mode: t.field({ type: RetrievalModeEnum, resolve: (r) => r.mode }),
    fallback: t.field({ type: RetrievalFallbackEnum, nullable: true, resolve: (r) => r.fallback }),
    reason: t.exposeString('reason', { nullable: true }),
  }),
});

const SearchHitRef = builder.objectRef<BrainSearchHit>('BrainSearchHit').implement({
  fields: (t) => ({
    memory: t.field({ type: BrainMemoryRef, resolve: (h) => h.memory }),
    matchedBy: t.field({ type: [MatchKindEnum], description: 'What matched this memory', resolve: (h) => h.matchedBy }),
    matchedTerms: t.exposeStringList('matchedTerms', { description: 'Query terms found (case-insensitively) in title or content' }),
    lexicalScore: t.exposeFloat('lexicalScore'),
    similarity: t.exposeFloat('similarity', { nullable: true, description: 'Cosine similarity of the query and memory embeddings' }),
    score: t.exposeFloat('score'),
  }),
});

const BrainSearchResultRef = builder.objectRef<BrainSearchResult>('BrainSearchResult').implement({
  fields: (t) => ({
    agentId: t.exposeString('agentId'),
    query: t.exposeString('query'),
    retrieval: t.field({ type: RetrievalRef, resolve: (r) => r.retrieval }),
    hits: t.field({ type: [SearchHitRef], resolve: (r) => r.hits }),
  }),
});

const EmbeddingStatusRef = builder.simpleObject('BrainEmbeddingStatus', {
  fields: (t) => ({
    agentId: t.string(),
    enabled: t.boolean(),
    model: t.string({ nullable: true }),
    dimensions: t.int({ nullable: true }),
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
    lastError: t.string({ nullable: true }),
  }),
});

const DeletionResultRef = builder.objectRef<DeletionResult>('BrainDeletionResult').implement({
  fields: (t) => ({
    id: t.exposeID('id'),
    status: t.field({ type: DeletionStatusEnum, resolve: (r) => r.status }),
    message: t.exposeString('message'),
    currentRevision: t.exposeInt('currentRevision', { nullable: true }),
    memory: t.field({ type: BrainMemoryRef, nullable: true, resolve: (r) => r.memory }),
  }),
});

const ImportFailureRef = builder.objectRef<ImportSummary['failures'][number]>('AlbdruckImportFailure').implement({
  fields: (t) => ({ legacyId: t.exposeString('legacyId'), reason: t.exposeString('reason') }),
});
const ImportSummaryRef = builder.objectRef<ImportSummary>('AlbdruckImportSummary').implement({
  fields: (t) => ({
    total: t.exposeInt('total'),
    imported: t.exposeInt('imported', { description: 'New memories, including those imported as deleted' }),
    skipped: t.exposeInt('skipped', { description: 'Already imported earlier: left exactly as they are' }),
    deletedOnImport: t.exposeInt('deletedOnImport'),
    failed: t.exposeInt('failed'),
    createdAgents: t.exposeStringList('createdAgents'),
    failures: t.field({ type: [ImportFailureRef], resolve: (s) => s.failures }),
  }),
});

builder.queryFields((t) => ({
  brainRead: t.field({
    type: BrainMemoryRef,
    nullable: true,
    description: 'A live memory of the acting agent; null when unknown or removed',
    args: argsFrom(t.arg, brainReadArgs, {}),
    resolve: (_, args, ctx) => ctx.services.brains.read(ctx.viewer, { agentId: args.agentId, id: String(args.id) }),
  }),
  brainSearch: t.field({
    type: BrainSearchResultRef,
    description:
      'Explicit search of the acting agent\'s memories: lexical, plus embedding ranking when configured. Never fails because of the embedding provider. ' +
      'Lexical hits are ranked by lexicalScore (per word: title match 2, content match 1; with several words the whole phrase adds 3), then updatedAt newest first, then id, exactly over every match.',
    args: argsFrom(t.arg, brainSearchArgs, {}),
    resolve: (_, args, ctx) => ctx.services.brains.search(ctx.viewer, args),
  }),
  brainMemories: t.connection({
    type: BrainMemoryRef,
    description:
      'An agent\'s live memories, newest first, optionally filtered by case-insensitive substring over title and content (at least 3 characters). Cursors are bound to the agent and the query. Page size at most 100.',
    args: { agentId: t.arg.string({ required: true }), query: t.arg.string({ required: false }) },
    resolve: async (_, args, ctx) => {
      if (args.last != null || args.before != null) throw badRequest('brainMemories pages forward only: use first/after');
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
    args: { agentId: t.arg.string({ required: true }) },
    resolve: (_, args, ctx) => ctx.services.brains.embeddingStatus(ctx.viewer, args.agentId),
  }),
}));

const BrainSaveInput = builder.inputType('BrainSaveInput', { fields: (t) => inputFieldsFrom(t, brainSaveInput, {}) });
const BrainUpdateInput = builder.inputType('BrainUpdateInput', { fields: (t) => inputFieldsFrom(t, brainUpdateInput, {}) });
const BrainRemoveInput = builder.inputType('BrainRemoveInput', { fields: (t) => inputFieldsFrom(t, brainRemoveInput, {}) });
const BrainDeletionItem = builder.inputType('BrainDeletionItem', {
  fields: (t) => ({ id: t.id({ required: true }), expectedRevision: t.int({ required: true }) }),
});

builder.mutationFields((t) => ({
  brainSave: t.field({
    type: BrainMemoryRef,
    errors: { types: [ValidationError, NotFoundError], dataField: { name: 'memory' } },
    args: { input: t.arg({ type: BrainSaveInput, required: true }) },
    resolve: (_, { input }, ctx) => ctx.services.brains.save(ctx.viewer, input),
  }),
  brainUpdate: t.field({
    type: BrainMemoryRef,
    errors: { types: WRITE_ERRORS, dataField: { name: 'memory' } },
    args: { input: t.arg({ type: BrainUpdateInput, required: true }) },
    resolve: (_, { input }, ctx) => ctx.services.brains.update(ctx.viewer, { ...input, id: String(input.id) }),
  }),
  brainRemove: t.field({
    type: BrainMemoryRef,
    description: 'Writes a tombstone: the memory disappears from reads, search and lists; nothing is physically erased',
    errors: { types: WRITE_ERRORS, dataField: { name: 'memory' } },
    args: { input: t.arg({ type: BrainRemoveInput, required: true }) },
    resolve: (_, { input }, ctx) => ctx.services.brains.remove(ctx.viewer, { ...input, id: String(input.id) }),
  }),
  deleteBrainMemories: t.field({
    type: [DeletionResultRef],
    description: 'Removes each selected memory independently (not atomically) and reports one result per item. At most 100 items.',
    errors: { types: [ValidationError, ForbiddenError], dataField: { name: 'results' } },
    args: { agentId: t.arg.string({ required: true }), items: t.arg({ type: [BrainDeletionItem], required: true }) },
    resolve: (_, args, ctx) =>
      ctx.services.brains.deleteMany(ctx.viewer, { agentId: args.agentId, items: args.items.map((i) => ({ id: String(i.id), expectedRevision: i.expectedRevision })) }),
  }),
  importAlbdruck: t.field({
    type: ImportSummaryRef,
    description: 'Operators: the repeat-safe legacy Albdruck import (same as `burrow import-albdruck`)',
    errors: { types: [ValidationError], dataField: { name: 'summary' } },
    resolve: (_, __, ctx) => ctx.services.brains.importAlbdruckAsOperator(ctx.viewer),
  }),
}));
