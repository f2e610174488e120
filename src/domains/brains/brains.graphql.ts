/**
 * The Brains root fields: Query.brainRead, brainSearch, brainMemories and brainEmbeddingStatus,
 * Agent.brainMemories and Agent.brainSearch, the write mutations (with brainRemoveMany's results)
 * and the Albdruck import. The memory and search types are in brains.memories.graphql.ts and
 * brains.search.graphql.ts.
 */
import { builder } from '../../schema/builder.js';
import { OWNED_RECORD_WRITE_ERRORS } from '../../schema/errors.js';
import { NotFoundError, RequestError, ValidationError } from '../../lib/errors.js';
import { bindingOf, decodeCursor, decodeTimeIdCursor, encodeCursor, encodeTimeIdCursor, malformedCursor, pageSize, toConnection } from '../../lib/cursor.js';
import { pageArgs, type CountedConnection } from '../../schema/connections.js';
import { AgentRef } from '../agents/agents.graphql.js';
import type { ImportSummary } from './brains.albdruck-import.js';
import { LIST_PAGE_MAX, listQuery, type ListSort } from './brains.listing.js';
import { DELETE_BATCH_MAX, type BrainMemoryRow, type DeletionResult } from './brains.types.js';
import { QUERY_MAX_LENGTH } from './brains.search.js';
import { agentBrainSearchArgs, brainReadGraphqlArgs, brainRemoveGraphqlInput, brainSaveInput, brainSearchGraphqlArgs, brainUpdateGraphqlInput } from './brains.inputs.js';
import { argsFrom, inputFieldsFrom } from '../../schema/inputs.js';
import { idempotencyKeyOf } from '../../schema/idempotency.js';
import { BrainMemoryConnection, BrainMemoryRef } from './brains.memories.graphql.js';
import { BrainSearchResultRef, EmbeddingStatusRef } from './brains.search.graphql.js';

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

const listAsOfArg = (arg: Parameters<Parameters<typeof builder.queryFields>[0]>[0]['arg']) =>
  arg({
    type: 'DateTime',
    required: false,
    description:
      'List the memories as they were at this instant (each at its latest revision written at or before it; a time the API showed includes the revision written then): memories created later are absent, removed ones are listed as tombstones (deleted, deletedAt). Absent: the live memories now.',
  });

/** A list's cursors are bound to its agent, query, asOf, order and filter: a page of another list cannot continue this one. */
const listBinding = (agentId: string, query: string | null, asOf: Date | null | undefined, sort: ListSort = 'CREATED_AT_DESC', ownership: string | null = null) =>
  asOf
    ? bindingOf('brainMemories', agentId, query, asOf.toISOString())
    : sort === 'CREATED_AT_DESC' && !ownership
      ? bindingOf('brainMemories', agentId, query)
      : bindingOf('brainMemories', agentId, query, sort, ownership);

const ListSortEnum = builder.enumType('BrainMemorySort', {
  description: 'The order of the operator list of memories; each ends with memoryId, so pages never skip or repeat a memory',
  values: {
    CREATED_AT_DESC: { description: 'Newest created first (the default)' },
    UPDATED_AT_DESC: { description: 'Most recently written first' },
    TITLE_ASC: { description: "By title, in the database's collation" },
  } satisfies Record<ListSort, object>,
});
const ListOwnershipEnum = builder.enumType('BrainOwnershipFilter', {
  description: 'Which memories the operator list keeps, by who owns them',
  values: { OPERATOR: { description: 'Only operator-owned memories' }, AGENT: { description: 'Only agent-owned memories' } },
});

/** The cursor of a sorted list: the last row's sort key (a time, or a title) and its id. */
function decodeListCursor(cursor: string | null | undefined, binding: string, sort: ListSort): { key: Date | string; id: string } | null {
  if (sort !== 'TITLE_ASC') {
    const position = decodeTimeIdCursor(cursor, binding);
    return position && { key: position.at, id: position.id };
  }
  const position = decodeCursor(cursor, binding);
  if (!position) return null;
  const [title, id] = position;
  if (position.length !== 2 || typeof title !== 'string' || typeof id !== 'string') throw malformedCursor();
  return { key: title, id };
}
const encodeListCursor = (binding: string, sort: ListSort, m: BrainMemoryRow) =>
  sort === 'TITLE_ASC' ? encodeCursor(binding, [m.title, m.id]) : encodeTimeIdCursor(binding, sort === 'UPDATED_AT_DESC' ? m.updatedAt : m.createdAt, m.id);
/** totalCount is the live list's; as of an instant it is not offered. */
const asOfCountRefused = () => {
  throw new RequestError('BAD_REQUEST', 'totalCount is not offered with asOf');
};

builder.queryFields((t) => ({
  brainRead: t.field({
    type: BrainMemoryRef,
    nullable: true,
    description:
      'A live memory of the acting agent; null when unknown or removed. With `asOf`: the memory as it was then (from its revisions), null when it did not exist yet, its tombstone when it had been removed.',
    args: argsFrom(t.arg, brainReadGraphqlArgs, {}),
    resolve: (_, args, ctx) =>
      args.asOf
        ? ctx.services.brains.readAsOf(ctx.viewer, { agentId: args.agentId, id: String(args.memoryId), asOf: args.asOf })
        : ctx.services.brains.read(ctx.viewer, { agentId: args.agentId, id: String(args.memoryId) }),
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
    description:
      "An agent's live memories, newest first (createdAt, then memoryId) or in `sort` order, optionally filtered by substring and ownership, with totalCount. With `asOf`: the memories as they were then, tombstones of that time included (default order, no ownership filter or totalCount). Cursors are bound to the agent, the query, asOf, sort and ownership.",
    args: {
      agentId: t.arg.string({ required: true, description: 'The agent whose memories to list (an agent token: itself)' }),
      query: listQueryArg(t.arg),
      asOf: listAsOfArg(t.arg),
      sort: t.arg({ type: ListSortEnum, required: false, description: 'The order; CREATED_AT_DESC when absent. With asOf only the default' }),
      ownership: t.arg({ type: ListOwnershipEnum, required: false, description: 'Only memories of this ownership; every memory when absent. Not with asOf' }),
      ...pageArgs(t.arg, LIST_PAGE_MAX),
    },
    resolve: async (_, args, ctx) => {
      const limit = pageSize(args.first, LIST_PAGE_MAX, 20);
      const query = listQuery(args.query);
      const sort = args.sort ?? 'CREATED_AT_DESC';
      const ownership = args.ownership ?? null;
      if (args.asOf && (sort !== 'CREATED_AT_DESC' || ownership)) throw new RequestError('BAD_REQUEST', 'a list asOf an instant takes neither sort nor ownership');
      const binding = listBinding(args.agentId, query, args.asOf, sort, ownership);
      const after = decodeListCursor(args.after, binding, sort);
      if (args.asOf) {
        const asOfAfter = after && { createdAt: after.key as Date, id: after.id };
        const rows = (await ctx.services.brains.listPagesAsOf(ctx.viewer, [args.agentId], { query, limit: limit + 1, after: asOfAfter, asOf: args.asOf }))[0];
        return { ...toConnection(rows, limit, (m) => encodeTimeIdCursor(binding, m.createdAt, m.id), args.after), totalCount: asOfCountRefused };
      }
      const rows = await ctx.services.brains.list(ctx.viewer, { agentId: args.agentId, query, limit: limit + 1, after, sort, ownership });
      const page = toConnection(rows, limit, (m) => encodeListCursor(binding, sort, m), args.after);
      return { ...page, totalCount: () => ctx.services.brains.count(ctx.viewer, { agentId: args.agentId, query, ownership }) };
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
    description: "This agent's live memories, newest first (with `asOf`: as they were then): the same list and cursors as Query.brainMemories",
    args: { query: listQueryArg(t.arg), asOf: listAsOfArg(t.arg), ...pageArgs(t.arg, LIST_PAGE_MAX) },
    byPath: true,
    load: async (agentIds: string[], ctx, args) => {
      const limit = pageSize(args.first, LIST_PAGE_MAX, 20);
      const query = listQuery(args.query);
      const results: ((ReturnType<typeof toConnection<BrainMemoryRow>> & CountedConnection) | Error)[] = [];
      const readable: { index: number; agentId: string; binding: string }[] = [];
      let after: { createdAt: Date; id: string } | null = null;
      agentIds.forEach((agentId, index) => {
        try {
          const binding = listBinding(agentId, query, args.asOf);
          // A cursor belongs to one agent's list: under another agent it is CURSOR_MISMATCH.
          const position = decodeTimeIdCursor(args.after, binding);
          after = position && { createdAt: position.at, id: position.id };
          readable.push({ index, agentId, binding });
        } catch (error) {
          results[index] = error as Error;
        }
      });
      const ids = readable.map((r) => r.agentId);
      const pages = args.asOf
        ? await ctx.services.brains.listPagesAsOf(ctx.viewer, ids, { query, limit: limit + 1, after, asOf: args.asOf })
        : await ctx.services.brains.listPages(ctx.viewer, ids, { query, limit: limit + 1, after });
      readable.forEach(({ index, binding }, i) => {
        const page = toConnection(pages[i], limit, (m) => encodeTimeIdCursor(binding, m.createdAt, m.id), args.after);
        results[index] = { ...page, totalCount: args.asOf ? asOfCountRefused : () => ctx.services.brains.count(ctx.viewer, { agentId: ids[i], query }) };
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
    resolve: (_, { input }, ctx, info) => ctx.services.brains.save(ctx.viewer, { ...input, idempotencyKey: idempotencyKeyOf(ctx, info, input) }),
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
