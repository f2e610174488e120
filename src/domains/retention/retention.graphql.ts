import { builder } from '../../schema/builder.js';
import type { RetentionReport } from './retention.service.js';

const RetentionStoreReport = builder.objectRef<RetentionReport['stores'][number]>('RetentionStoreReport').implement({
  fields: (t) => ({
    store: t.exposeString('store'),
    removed: t.exposeInt('removed'),
  }),
});

const RetentionReportRef = builder.objectRef<RetentionReport>('RetentionReport').implement({
  description: 'What one retention sweep physically removed, per store. Brains and conversation originals are never swept.',
  fields: (t) => ({
    ranAt: t.expose('ranAt', { type: 'DateTime' }),
    graceDays: t.exposeInt('graceDays'),
    cutoff: t.expose('cutoff', { type: 'DateTime', description: 'Records that expired before this instant were removed' }),
    stores: t.field({ type: [RetentionStoreReport], resolve: (r) => r.stores }),
  }),
});

builder.mutationFields((t) => ({
  runRetention: t.field({
    type: RetentionReportRef,
    description: 'Operators only: runs one retention sweep now (the server also runs it every BURROW_RETENTION_INTERVAL_SECONDS)',
    resolve: (_, __, ctx) => ctx.services.retention.runAsOperator(ctx.viewer),
  }),
}));
