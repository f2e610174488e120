import { DEFAULT_LIMITS, type BurrowConfig } from '../src/config.js';

/** A throwaway embedded database with every background job off. */
export function testConfigForBench(): BurrowConfig {
  return {
    port: 0,
    host: '127.0.0.1',
    graphiql: false,
    logLevel: 'silent',
    database: { lifecycle: 'embedded', dataDir: 'memory://' },
    events: { retentionDays: 30 },
    workingMemory: { defaultTtlDays: 90 },
    retention: { graceDays: 7, intervalSeconds: 0 },
    embeddings: null,
    tiddle: { scheduler: false, proposer: { kind: 'noop' } },
    continuity: { reconcileIntervalSeconds: 0 },
    ops: { shutdownGraceMs: 10_000, metrics: null, tracing: null },
    limits: DEFAULT_LIMITS,
    security: { introspection: 'all', fieldSuggestions: true, corsOrigins: [], trustedDocuments: 'off' },
    settings: { key: null, newKey: null },
    dreamDiary: { retentionDays: 365 },
    owners: { perAgent: 4, max: 0 },
    tokens: { lastUsedIntervalSeconds: 60, recheckSeconds: 10 },
    // Off: the manual clock never refills a bucket by itself (test/rate-limit.test.ts turns it on).
    rateLimit: { perSecond: 0, burst: 500 },
  };
}
