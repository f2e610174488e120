import { builder } from '../../schema/builder.js';
import type { RetentionReport, RetentionStoreReport } from './retention.service.js';

const RetentionStoreReportRef = builder.objectRef<RetentionStoreReport>('RetentionStoreReport').implement({
  fields: (t) => ({
    store: t.exposeString('store', {
      description: 'working_records, session_handoffs, rolling_cards, tiddle_history, tiddle_residue or agent_events',
    }),
    removed: t.exposeInt('removed'),
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
    ranAt: t.expose('ranAt', { type: 'DateTime' }),
    graceDays: t.exposeInt('graceDays'),
    cutoff: t.expose('cutoff', { type: 'DateTime', description: 'Records (working records, handoffs, rolling cards) that expired before this instant were removed' }),
    stores: t.field({ type: [RetentionStoreReportRef], resolve: (r) => r.stores }),
  }),
});

builder.mutationFields((t) => ({
  runRetention: t.field({
    type: RetentionReportRef,
    description: 'Operators only: runs one retention sweep now (the server also runs it every BURROW_RETENTION_INTERVAL_SECONDS)',
    resolve: (_, __, ctx) => ctx.services.retention.runAsOperator(ctx.viewer),
  }),
}));
