/**
 * Removal receipts in the API: operators only (an agent token gets FORBIDDEN). A receipt names
 * the agent by id even after the agent is gone, so it links to no Agent object.
 */
import { builder } from '../../schema/builder.js';
import { ActorRef } from '../../schema/actor.js';
import { connectionType, pageArgs } from '../../schema/connections.js';
import { agentScopedKey, parseAgentScopedKey } from '../../schema/node-keys.js';
import { bindingOf, decodeTimeIdCursor, encodeTimeIdCursor, pageSize, toConnection } from '../../lib/cursor.js';
import type { DataRemovalReceiptRow } from './data-rights.receipts.js';

export const RECEIPTS_PAGE = { max: 100, default: 20 } as const;

export const DataRemovalKindEnum = builder.enumType('DataRemovalKind', {
  description: 'What a removal removed',
  values: {
    AGENT_ERASURE: { description: 'An agent and every store it had (agentErase)' },
    MEMORY_PURGE: { description: "A tombstoned Brains memory's content and every revision's content (brainPurge)" },
  },
});

export const StoreRowCountRef = builder.objectRef<{ store: string; rows: number }>('StoreRowCount').implement({
  description: 'How many rows a removal removed (or emptied) in one store',
  fields: (t) => ({
    store: t.exposeString('store', { description: 'The store: its table name, e.g. brain_memories' }),
    rows: t.exposeInt('rows', { description: 'Rows removed or emptied there' }),
  }),
});

export const DataRemovalReceiptRef = builder.objectRef<DataRemovalReceiptRow>('DataRemovalReceipt');
builder.node(DataRemovalReceiptRef, {
  description: 'The kept record of a removal: who, when, how many rows per store and a hash of what was removed. It never holds content.',
  id: { description: 'The global id (node(id:))', resolve: (r) => agentScopedKey(r.agentId, r.id) },
  loadOne: (key, ctx) => {
    const { agentId, recordId } = parseAgentScopedKey(key);
    return ctx.services.receipts.get(ctx.viewer, { agentId, id: recordId });
  },
  fields: (t) => ({
    receiptId: t.exposeString('id', { description: 'The receipt id within its agent' }),
    kind: t.field({ type: DataRemovalKindEnum, description: 'What was removed', resolve: (r) => r.kind }),
    agentId: t.exposeString('agentId', { description: 'The agent the removal was about (it may no longer exist)' }),
    memoryId: t.exposeString('subjectId', { nullable: true, description: 'The purged memory; null for an agent erasure' }),
    actor: t.field({ type: ActorRef, description: 'The operator who removed it', resolve: (r) => ({ kind: r.actorKind, id: r.actorId }) }),
    forced: t.exposeBoolean('forced', { description: 'An erasure that went ahead although a runtime owner was live' }),
    startedAt: t.expose('startedAt', { type: 'DateTime', description: 'When the removal started' }),
    completedAt: t.expose('completedAt', { type: 'DateTime', nullable: true, description: 'When it finished; null while it is still running (or a crash stopped it: re-run it)' }),
    counts: t.field({
      type: [StoreRowCountRef],
      description: 'Rows removed per store, by store name',
      resolve: (r) =>
        Object.entries(r.counts)
          .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
          .map(([store, rows]) => ({ store, rows })),
    }),
    contentHash: t.exposeString('contentHash', {
      description: 'SHA-256 (hex) chained over the removed rows, batch by batch in removal order; final once completedAt is set',
    }),
  }),
});
const DataRemovalReceiptConnection = connectionType(DataRemovalReceiptRef, 'DataRemovalReceipt');

builder.queryFields((t) => ({
  dataRemovalReceipts: t.field({
    type: DataRemovalReceiptConnection,
    description: 'Operators only. Removal receipts, newest first; of one agent (which may no longer exist) or of all.',
    args: {
      agentId: t.arg.string({ required: false, description: 'Only this agent id' }),
      ...pageArgs(t.arg, RECEIPTS_PAGE.max, RECEIPTS_PAGE.default),
    },
    resolve: async (_, args, ctx) => {
      const limit = pageSize(args.first, RECEIPTS_PAGE.max, RECEIPTS_PAGE.default);
      const binding = bindingOf('removal-receipts', args.agentId);
      const after = decodeTimeIdCursor(args.after, binding);
      const rows = await ctx.services.receipts.list(ctx.viewer, { agentId: args.agentId, limit: limit + 1, after });
      return toConnection(rows, limit, (r) => encodeTimeIdCursor(binding, r.startedAt, r.id), args.after);
    },
  }),
}));
