import { builder } from '../../schema/builder.js';
import type { RetentionReport, RetentionStore, RetentionStoreReport } from './retention.service.js';

const STORES: Record<RetentionStore, [name: string, description: string]> = {
  working_records: ['WORKING_RECORDS', 'Unpinned working records whose TTL ran out'],
  session_handoffs: ['SESSION_HANDOFFS', 'Session handoffs whose TTL ran out'],
  rolling_cards: ['ROLLING_CARDS', "Rolling cards not refreshed within the agent's rolling TTL"],
  tiddle_history: ['TIDDLE_HISTORY', "Tiddle's pass history past its window"],
  tiddle_residue: ['TIDDLE_RESIDUE', "Tiddle's residue past its window"],
  agent_events: ['AGENT_EVENTS', 'The per-agent event log past BURROW_EVENT_RETENTION_DAYS'],
  dream_diary_entries: ['DREAM_DIARY_ENTRIES', 'Dream diary entries past BURROW_DREAM_DIARY_RETENTION_DAYS'],
  idempotency_keys: ['IDEMPOTENCY_KEYS', 'Idempotency keys past their 24-hour window (docs/idempotency.md)'],
};

const RetentionStoreEnum = builder.enumType('RetentionStore', {
  description: 'The stores with a lifetime, each swept by retention (Brains, profiles and conversation originals have none)',
  values: Object.fromEntries(Object.entries(STORES).map(([value, [name, description]]) => [name, { value, description }])) as Record<
    string,
    { value: RetentionStore; description: string }
  >,
});

const RetentionStoreReportRef = builder.objectRef<RetentionStoreReport>('RetentionStoreReport').implement({
  description: 'What one sweep removed from one store',
  fields: (t) => ({
    store: t.field({ type: RetentionStoreEnum, description: 'The store swept', resolve: (r) => r.store }),
    removed: t.exposeInt('removed', { description: 'How many rows were physically removed' }),
    olderThan: t.expose('olderThan', {
      type: 'DateTime',
      description: 'Rows of this store that expired (records) or were written (history, residue, events) before this instant were removed',
    }),
    rule: t.exposeString('rule', { description: 'The lifetime this store was swept by, in words' }),
  }),
});

const RetentionReportRef = builder.objectRef<RetentionReport>('RetentionReport').implement({
  description: 'What one retention sweep physically removed, per store with a lifetime. Brains and conversation originals are never swept.',
  fields: (t) => ({
    ranAt: t.expose('ranAt', { type: 'DateTime', description: 'When the sweep ran (server clock)' }),
    graceDays: t.exposeInt('graceDays', { description: 'Days an expired record is kept before removal (BURROW_RETENTION_GRACE_DAYS)' }),
    cutoff: t.expose('cutoff', { type: 'DateTime', description: 'Records (working records, handoffs, rolling cards) that expired before this instant were removed' }),
    stores: t.field({ type: [RetentionStoreReportRef], description: 'One report per store, in sweep order', resolve: (r) => r.stores }),
  }),
});

builder.mutationFields((t) => ({
  runRetention: t.field({
    type: RetentionReportRef,
    description: 'Operators only: runs one retention sweep now (the server also runs it every BURROW_RETENTION_INTERVAL_SECONDS)',
    resolve: (_, __, ctx) => ctx.services.retention.runAsOperator(ctx.viewer),
  }),
}));
