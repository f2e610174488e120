import { mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { loadConfig } from '../src/config.js';
import { problems } from './support/config-problems.js';
import { ConfigError } from '../src/config.env.js';
import type { TopologyConfig } from '../src/config.topology.js';

describe('database lifecycle', () => {
  it('rejects an unset lifecycle, naming the choices', () => {
    expect(problems({})).toEqual([expect.stringMatching(/BURROW_POSTGRES_LIFECYCLE is unset.*embedded.*external.*managed/)]);
    expect(problems({ BURROW_POSTGRES_LIFECYCLE: 'disabled' })[0]).toMatch(/disabled/);
  });

  it('falls back to BURROW_POSTGRES_MODE', () => {
    expect(loadConfig({ BURROW_POSTGRES_MODE: 'embedded' }).database).toEqual({ lifecycle: 'embedded', dataDir: './.burrow/data' });
    expect(loadConfig({ BURROW_POSTGRES_MODE: 'external', BURROW_POSTGRES_LIFECYCLE: 'embedded' }).database.lifecycle).toBe('embedded');
  });

  it('managed: BURROW_DATA_DIR, required major 17, and no URL, user or password from the environment', () => {
    expect(loadConfig({ BURROW_POSTGRES_LIFECYCLE: 'managed' }).database).toEqual({
      lifecycle: 'managed',
      dataDir: './.burrow/managed',
      requiredMajor: 17,
      poolMax: 10,
      restartLimit: 3,
    });
    const overridden = loadConfig({
      BURROW_POSTGRES_LIFECYCLE: 'managed',
      BURROW_DATA_DIR: '/srv/burrow',
      BURROW_POSTGRES_URL: 'postgres://app:secret@db.example:5432/app',
      DATABASE_URL: 'postgres://other@elsewhere/x',
      BURROW_POSTGRES_USER: 'app',
      BURROW_POSTGRES_PASSWORD: 'secret',
      BURROW_POSTGRES_RESTART_LIMIT: '0',
    });
    expect(overridden.database).toEqual({ lifecycle: 'managed', dataDir: '/srv/burrow', requiredMajor: 17, poolMax: 10, restartLimit: 0 });
    expect(JSON.stringify(overridden.database)).not.toMatch(/secret|db\.example|app/);
    expect(problems({ BURROW_POSTGRES_LIFECYCLE: 'managed', BURROW_POSTGRES_RESTART_LIMIT: '101' })[0]).toMatch(
      /BURROW_POSTGRES_RESTART_LIMIT="101" must be a whole number from 0 to 100/,
    );
  });

  it('rejects an unknown lifecycle', () => {
    expect(problems({ BURROW_POSTGRES_LIFECYCLE: 'sqlite' })[0]).toMatch(/must be one of embedded, external, managed/);
  });

  it('prefers BURROW_POSTGRES_URL over DATABASE_URL over the individual fields', () => {
    const both = loadConfig({
      BURROW_POSTGRES_LIFECYCLE: 'external',
      BURROW_POSTGRES_URL: 'postgres://a@one:5432/db1',
      DATABASE_URL: 'postgres://b@two:5432/db2',
      BURROW_POSTGRES_HOST: 'three',
    });
    expect(both.database).toMatchObject({ lifecycle: 'external', connectionString: 'postgres://a@one:5432/db1' });
    const onlyDatabaseUrl = loadConfig({ BURROW_POSTGRES_LIFECYCLE: 'external', DATABASE_URL: 'postgres://b@two:5432/db2', BURROW_POSTGRES_HOST: 'three' });
    expect(onlyDatabaseUrl.database).toMatchObject({ connectionString: 'postgres://b@two:5432/db2' });
    const fields = loadConfig({
      BURROW_POSTGRES_LIFECYCLE: 'external',
      BURROW_POSTGRES_HOST: 'db.internal',
      BURROW_POSTGRES_PORT: '6543',
      BURROW_POSTGRES_DATABASE: 'burrow',
      BURROW_POSTGRES_USER: 'svc',
      BURROW_POSTGRES_PASSWORD: 'p@ss word',
    });
    expect(fields.database).toMatchObject({ connectionString: 'postgres://svc:p%40ss%20word@db.internal:6543/burrow', display: 'db.internal:6543/burrow' });
    expect(JSON.stringify((fields.database as { display: string }).display)).not.toContain('p@ss');
  });

  it('defaults the required major to 17 and treats it as a number', () => {
    expect(loadConfig({ BURROW_POSTGRES_LIFECYCLE: 'external' }).database).toMatchObject({ requiredMajor: 17, tls: 'disable' });
    expect(loadConfig({ BURROW_POSTGRES_LIFECYCLE: 'external', BURROW_POSTGRES_REQUIRED_MAJOR: '15' }).database).toMatchObject({ requiredMajor: 15 });
    expect(problems({ BURROW_POSTGRES_LIFECYCLE: 'external', BURROW_POSTGRES_REQUIRED_MAJOR: 'seventeen' })[0]).toMatch(/BURROW_POSTGRES_REQUIRED_MAJOR/);
  });
});

describe('TLS', () => {
  const ca = join(mkdtempSync(join(tmpdir(), 'burrow-ca-')), 'ca.pem');
  writeFileSync(ca, '-----BEGIN CERTIFICATE-----\nMIIB\n-----END CERTIFICATE-----\n');

  it('accepts disable and verify-full only', () => {
    expect(loadConfig({ BURROW_POSTGRES_LIFECYCLE: 'external', BURROW_POSTGRES_TLS: 'verify-full' }).database).toMatchObject({ tls: 'verify-full' });
    expect(problems({ BURROW_POSTGRES_LIFECYCLE: 'external', BURROW_POSTGRES_TLS: 'require' })[0]).toMatch(/BURROW_POSTGRES_TLS="require" must be disable or verify-full/);
  });

  it('accepts a CA file only with verify-full', () => {
    expect(problems({ BURROW_POSTGRES_LIFECYCLE: 'external', BURROW_POSTGRES_CA_FILE: ca })[0]).toMatch(/only valid with BURROW_POSTGRES_TLS=verify-full/);
    expect(loadConfig({ BURROW_POSTGRES_LIFECYCLE: 'external', BURROW_POSTGRES_TLS: 'verify-full', BURROW_POSTGRES_CA_FILE: ca }).database).toMatchObject({
      caPem: expect.stringContaining('BEGIN CERTIFICATE'),
    });
    expect(problems({ BURROW_POSTGRES_LIFECYCLE: 'external', BURROW_POSTGRES_TLS: 'verify-full', BURROW_POSTGRES_CA_FILE: '/nope.pem' })[0]).toMatch(/cannot be read/);
  });

  it('rejects URL SSL parameters that conflict with the explicit mode, and strips agreeing ones', () => {
    expect(problems({ BURROW_POSTGRES_LIFECYCLE: 'external', BURROW_POSTGRES_URL: 'postgres://h/db?sslmode=require' })[0]).toMatch(
      /sslmode=require, which conflicts with BURROW_POSTGRES_TLS=disable/,
    );
    expect(problems({ BURROW_POSTGRES_LIFECYCLE: 'external', BURROW_POSTGRES_TLS: 'verify-full', DATABASE_URL: 'postgres://h/db?ssl=false' })[0]).toMatch(
      /DATABASE_URL has ssl=false/,
    );
    const agreeing = loadConfig({ BURROW_POSTGRES_LIFECYCLE: 'external', BURROW_POSTGRES_TLS: 'verify-full', BURROW_POSTGRES_URL: 'postgres://h/db?sslmode=verify-full' });
    expect(agreeing.database).toMatchObject({ tls: 'verify-full', connectionString: 'postgres://h/db' });
  });
});

describe('every problem at once', () => {
  it('reports all bad variables in one error', () => {
    const found = problems({
      BURROW_POSTGRES_LIFECYCLE: 'external',
      BURROW_POSTGRES_TLS: 'maybe',
      BURROW_PORT: '99999',
      BURROW_LOG_LEVEL: 'loud',
      BURROW_EMBEDDINGS_URL: 'not a url',
      BURROW_TIDDLE_PROPOSER: 'magic',
    });
    expect(found).toHaveLength(6);
    for (const name of ['BURROW_POSTGRES_TLS', 'BURROW_PORT', 'BURROW_LOG_LEVEL', 'BURROW_EMBEDDINGS_URL', 'BURROW_EMBEDDINGS_MODEL', 'BURROW_TIDDLE_PROPOSER']) {
      expect(found.some((p) => p.includes(name))).toBe(true);
    }
  });

  it('uses port 4000 by default and BURROW_PORT when given', () => {
    expect(loadConfig({ BURROW_POSTGRES_LIFECYCLE: 'embedded' }).port).toBe(4000);
    expect(loadConfig({ BURROW_POSTGRES_LIFECYCLE: 'embedded', BURROW_PORT: '4555' }).port).toBe(4555);
  });
});

describe('security settings (docs/security.md)', () => {
  it('reads each from its variable and refuses values out of range', () => {
    const config = loadConfig({
      BURROW_POSTGRES_LIFECYCLE: 'embedded',
      BURROW_OWNERS_PER_AGENT: '2',
      BURROW_OWNERS_MAX: '20',
      BURROW_TOKEN_LAST_USED_INTERVAL_SECONDS: '300',
      BURROW_TOKEN_RECHECK_SECONDS: '5',
      BURROW_TOKEN_CACHE_SECONDS: '0',
      BURROW_TOKEN_CACHE_MAX: '50',
      BURROW_RATE_LIMIT_PER_SECOND: '0',
      BURROW_RATE_LIMIT_BURST: '10',
    });
    expect([config.owners, config.tokens, config.rateLimit]).toEqual([
      { perAgent: 2, max: 20 },
      { lastUsedIntervalSeconds: 300, recheckSeconds: 5, cacheSeconds: 0, cacheMax: 50 },
      { perSecond: 0, burst: 10 },
    ]);
    expect(problems({ BURROW_POSTGRES_LIFECYCLE: 'embedded', BURROW_OWNERS_PER_AGENT: '0', BURROW_RATE_LIMIT_BURST: '0', BURROW_TOKEN_RECHECK_SECONDS: 'x' })).toEqual([
      'BURROW_OWNERS_PER_AGENT="0" must be a whole number from 1 to 1000',
      'BURROW_TOKEN_RECHECK_SECONDS="x" must be a whole number from 1 to 3600',
      'BURROW_RATE_LIMIT_BURST="0" must be a whole number from 1 to 10000000',
    ]);
  });
});

/**
 * The shipped defaults. The test harness writes its own config (testConfig), so without these
 * checks a changed default would pass every other test. The lifetimes that are constants rather
 * than configuration are pinned through behaviour elsewhere: handoffs 14 days
 * (handoffs.test.ts), rolling cards 90 days (tiddle-cards.test.ts).
 */
describe('shipped defaults', () => {
  it('gives every limit, lifetime and interval its default with nothing but the lifecycle set', () => {
    // Strict equality: a new setting fails here until its default is written down.
    expect(loadConfig({ BURROW_POSTGRES_LIFECYCLE: 'embedded' })).toStrictEqual({
      port: 4000,
      host: '127.0.0.1',
      graphiql: true,
      logLevel: 'info',
      database: { lifecycle: 'embedded', dataDir: './.burrow/data' },
      events: { retentionDays: 30, subscriberBufferEvents: 1000 },
      workingMemory: { defaultTtlDays: 90 },
      retention: { graceDays: 7, intervalSeconds: 3600 },
      embeddings: null,
      tiddle: { scheduler: true, proposer: { kind: 'noop' } },
      continuity: { reconcileIntervalSeconds: 30 },
      ops: { shutdownGraceMs: 10_000, metrics: null, tracing: null },
      limits: {
        bodyBytes: 4_194_304,
        archiveBytes: 1_073_741_824,
        maxTokens: 2000,
        maxDepth: 12,
        maxAliases: 15,
        maxDirectives: 20,
        maxCost: 100_000,
        maxMutationFields: 10,
        wsMaxPayloadBytes: 4_194_304,
        connectionInitBytes: 16_384,
        subscriptionsPerSocket: 100,
        subscriptionsPerToken: 200,
      },
      security: { introspection: 'all', fieldSuggestions: true, corsOrigins: [], trustedDocuments: 'off' },
      settings: { key: null, newKey: null },
      dreamDiary: { retentionDays: 365 },
      owners: { perAgent: 4, max: 0 },
      tokens: { lastUsedIntervalSeconds: 60, recheckSeconds: 10, cacheSeconds: 30, cacheMax: 10_000 },
      rateLimit: { perSecond: 50, burst: 500 },
    });
    // The only thing an empty environment lacks is the lifecycle.
    expect(problems({})).toHaveLength(1);
  });

  it('defaults the external database fields, pool and version gate', () => {
    expect(loadConfig({ BURROW_POSTGRES_LIFECYCLE: 'external' }).database).toStrictEqual({
      lifecycle: 'external',
      connectionString: 'postgres://postgres@localhost:5432/postgres',
      display: 'localhost:5432/postgres',
      tls: 'disable',
      caPem: null,
      requiredMajor: 17,
      poolMax: 10,
      connectTimeoutSeconds: 30,
      topology: { direct: null, replicas: [], replicaWaitMs: 250, replicaMaxLagSeconds: 30, replicaProbeMs: 1000 },
    });
  });

  it('defaults the embeddings and proposer timeouts and the indexing interval', () => {
    expect(loadConfig({ BURROW_POSTGRES_LIFECYCLE: 'embedded', BURROW_EMBEDDINGS_URL: 'http://e/v1', BURROW_EMBEDDINGS_MODEL: 'm' }).embeddings).toStrictEqual({
      url: 'http://e/v1',
      model: 'm',
      apiKey: null,
      timeoutMs: 5000,
      indexIntervalMs: 5000,
    });
    expect(
      loadConfig({ BURROW_POSTGRES_LIFECYCLE: 'embedded', BURROW_TIDDLE_PROPOSER: 'openai', BURROW_TIDDLE_URL: 'http://t/v1', BURROW_TIDDLE_MODEL: 'm' }).tiddle,
    ).toStrictEqual({
      scheduler: true,
      proposer: { kind: 'openai', url: 'http://t/v1', model: 'm', apiKey: null, timeoutMs: 30_000 },
    });
  });

  it('turns GraphiQL off in production unless asked for, and takes BURROW_HOST', () => {
    expect(loadConfig({ BURROW_POSTGRES_LIFECYCLE: 'embedded', NODE_ENV: 'production' }).graphiql).toBe(false);
    expect(loadConfig({ BURROW_POSTGRES_LIFECYCLE: 'embedded', NODE_ENV: 'production', BURROW_GRAPHIQL: 'true' }).graphiql).toBe(true);
    expect(loadConfig({ BURROW_POSTGRES_LIFECYCLE: 'embedded', BURROW_HOST: '0.0.0.0' }).host).toBe('0.0.0.0');
  });
});

describe('every numeric setting at its bounds', () => {
  const embedded = { BURROW_POSTGRES_LIFECYCLE: 'embedded' };
  const external = { BURROW_POSTGRES_LIFECYCLE: 'external' };
  const withEmbeddings = { ...embedded, BURROW_EMBEDDINGS_URL: 'http://e/v1', BURROW_EMBEDDINGS_MODEL: 'm' };
  const withProposer = { ...embedded, BURROW_TIDDLE_PROPOSER: 'openai', BURROW_TIDDLE_URL: 'http://t/v1', BURROW_TIDDLE_MODEL: 'm' };
  type Config = ReturnType<typeof loadConfig>;
  const bounds: { name: string; min: number; max: number; env: Record<string, string>; read: (c: Config) => number }[] = [
    { name: 'BURROW_PORT', min: 0, max: 65_535, env: embedded, read: (c) => c.port },
    { name: 'BURROW_EVENT_RETENTION_DAYS', min: 1, max: 36_500, env: embedded, read: (c) => c.events.retentionDays },
    { name: 'BURROW_SUBSCRIBER_BUFFER_EVENTS', min: 1, max: 100_000, env: embedded, read: (c) => c.events.subscriberBufferEvents },
    { name: 'BURROW_WORKING_TTL_DAYS', min: 1, max: 36_500, env: embedded, read: (c) => c.workingMemory.defaultTtlDays },
    { name: 'BURROW_RETENTION_GRACE_DAYS', min: 0, max: 36_500, env: embedded, read: (c) => c.retention.graceDays },
    { name: 'BURROW_RETENTION_INTERVAL_SECONDS', min: 0, max: 604_800, env: embedded, read: (c) => c.retention.intervalSeconds },
    { name: 'BURROW_CONTINUITY_RECONCILE_INTERVAL_SECONDS', min: 0, max: 86_400, env: embedded, read: (c) => c.continuity.reconcileIntervalSeconds },
    { name: 'BURROW_DREAM_DIARY_RETENTION_DAYS', min: 1, max: 36_500, env: embedded, read: (c) => c.dreamDiary.retentionDays },
    { name: 'BURROW_EMBEDDINGS_TIMEOUT_MS', min: 50, max: 120_000, env: withEmbeddings, read: (c) => c.embeddings!.timeoutMs },
    { name: 'BURROW_EMBEDDINGS_INDEX_INTERVAL_MS', min: 0, max: 86_400_000, env: withEmbeddings, read: (c) => c.embeddings!.indexIntervalMs },
    {
      name: 'BURROW_TIDDLE_TIMEOUT_MS',
      min: 100,
      max: 600_000,
      env: withProposer,
      read: (c) => (c.tiddle.proposer.kind === 'openai' ? c.tiddle.proposer.timeoutMs : NaN),
    },
    { name: 'BURROW_POSTGRES_PORT', min: 1, max: 65_535, env: external, read: (c) => Number(new URL((c.database as { connectionString: string }).connectionString).port) },
    { name: 'BURROW_POSTGRES_REQUIRED_MAJOR', min: 9, max: 99, env: external, read: (c) => (c.database as { requiredMajor: number }).requiredMajor },
    { name: 'BURROW_POSTGRES_POOL_MAX', min: 1, max: 200, env: external, read: (c) => (c.database as { poolMax: number }).poolMax },
    { name: 'BURROW_POSTGRES_CONNECT_TIMEOUT_S', min: 0, max: 3600, env: external, read: (c) => (c.database as { connectTimeoutSeconds: number }).connectTimeoutSeconds },
    { name: 'BURROW_POSTGRES_REPLICA_WAIT_MS', min: 0, max: 10_000, env: external, read: (c) => (c.database as { topology: TopologyConfig }).topology.replicaWaitMs },
    { name: 'BURROW_POSTGRES_REPLICA_MAX_LAG_S', min: 1, max: 3600, env: external, read: (c) => (c.database as { topology: TopologyConfig }).topology.replicaMaxLagSeconds },
    { name: 'BURROW_POSTGRES_REPLICA_PROBE_MS', min: 50, max: 60_000, env: external, read: (c) => (c.database as { topology: TopologyConfig }).topology.replicaProbeMs },
    { name: 'BURROW_SHUTDOWN_GRACE_MS', min: 0, max: 600_000, env: embedded, read: (c) => c.ops.shutdownGraceMs },
    { name: 'BURROW_METRICS_PORT', min: 0, max: 65_535, env: embedded, read: (c) => c.ops.metrics!.port },
    { name: 'BURROW_MAX_BODY_BYTES', min: 1024, max: 1_073_741_824, env: embedded, read: (c) => c.limits.bodyBytes },
    { name: 'BURROW_ARCHIVE_MAX_BYTES', min: 1024, max: 1_099_511_627_776, env: embedded, read: (c) => c.limits.archiveBytes },
    { name: 'BURROW_MAX_TOKENS', min: 10, max: 1_000_000, env: embedded, read: (c) => c.limits.maxTokens },
    { name: 'BURROW_MAX_DEPTH', min: 1, max: 1000, env: embedded, read: (c) => c.limits.maxDepth },
    { name: 'BURROW_MAX_ALIASES', min: 0, max: 100_000, env: embedded, read: (c) => c.limits.maxAliases },
    { name: 'BURROW_MAX_DIRECTIVES', min: 0, max: 100_000, env: embedded, read: (c) => c.limits.maxDirectives },
    { name: 'BURROW_MAX_COST', min: 1, max: 1_000_000_000, env: embedded, read: (c) => c.limits.maxCost },
    { name: 'BURROW_MAX_MUTATION_FIELDS', min: 1, max: 10_000, env: embedded, read: (c) => c.limits.maxMutationFields },
    { name: 'BURROW_WS_MAX_PAYLOAD_BYTES', min: 1024, max: 1_073_741_824, env: embedded, read: (c) => c.limits.wsMaxPayloadBytes },
    { name: 'BURROW_WS_CONNECTION_INIT_BYTES', min: 256, max: 1_073_741_824, env: embedded, read: (c) => c.limits.connectionInitBytes },
    { name: 'BURROW_SUBSCRIPTIONS_PER_SOCKET', min: 1, max: 1_000_000, env: embedded, read: (c) => c.limits.subscriptionsPerSocket },
    { name: 'BURROW_SUBSCRIPTIONS_PER_TOKEN', min: 1, max: 1_000_000, env: embedded, read: (c) => c.limits.subscriptionsPerToken },
    { name: 'BURROW_OWNERS_PER_AGENT', min: 1, max: 1000, env: embedded, read: (c) => c.owners.perAgent },
    { name: 'BURROW_OWNERS_MAX', min: 0, max: 100_000, env: embedded, read: (c) => c.owners.max },
    { name: 'BURROW_TOKEN_LAST_USED_INTERVAL_SECONDS', min: 0, max: 86_400, env: embedded, read: (c) => c.tokens.lastUsedIntervalSeconds },
    { name: 'BURROW_TOKEN_RECHECK_SECONDS', min: 1, max: 3600, env: embedded, read: (c) => c.tokens.recheckSeconds },
    { name: 'BURROW_TOKEN_CACHE_SECONDS', min: 0, max: 3600, env: embedded, read: (c) => c.tokens.cacheSeconds },
    { name: 'BURROW_TOKEN_CACHE_MAX', min: 1, max: 1_000_000, env: embedded, read: (c) => c.tokens.cacheMax },
    { name: 'BURROW_RATE_LIMIT_PER_SECOND', min: 0, max: 1_000_000, env: embedded, read: (c) => c.rateLimit.perSecond },
    { name: 'BURROW_RATE_LIMIT_BURST', min: 1, max: 10_000_000, env: embedded, read: (c) => c.rateLimit.burst },
    { name: 'BURROW_POSTGRES_RESTART_LIMIT', min: 0, max: 100, env: { BURROW_POSTGRES_LIFECYCLE: 'managed' }, read: (c) => (c.database as { restartLimit: number }).restartLimit },
  ];

  it('covers every whole-number variable config.ts and its parts (config.*.ts) read', () => {
    const dir = fileURLToPath(new URL('../src/', import.meta.url));
    const files = readdirSync(dir).filter((name) => /^config(\.[a-z-]+)?\.ts$/.test(name));
    const source = files.map((name) => readFileSync(join(dir, name), 'utf8')).join('\n');
    const read = [...source.matchAll(/\bint\('([A-Z0-9_]+)'/g)].map((m) => m[1]).sort();
    expect(bounds.map((b) => b.name).sort()).toEqual(read);
  });

  for (const { name, min, max, env, read } of bounds) {
    it(`${name}: ${min} and ${max} accepted, ${min - 1} and ${max + 1} refused naming it`, () => {
      expect(read(loadConfig({ ...env, [name]: String(min) }))).toBe(min);
      expect(read(loadConfig({ ...env, [name]: String(max) }))).toBe(max);
      for (const refused of [min - 1, max + 1, min + 0.5]) {
        expect(problems({ ...env, [name]: String(refused) })).toEqual([`${name}="${refused}" must be a whole number from ${min} to ${max}`]);
      }
    });
  }
});

describe('topology settings (BURROW_POSTGRES_DIRECT_URL, BURROW_POSTGRES_REPLICA_URLS)', () => {
  const external = { BURROW_POSTGRES_LIFECYCLE: 'external' };
  it('reads the direct URL and a comma-separated replica list, each shown without its password', () => {
    const database = loadConfig({
      ...external,
      BURROW_POSTGRES_DIRECT_URL: 'postgres://burrow:pw@db-primary:5432/burrow',
      BURROW_POSTGRES_REPLICA_URLS: ' postgres://burrow:pw@replica-a/burrow , postgres://burrow:pw@replica-b:6432/burrow ,',
    }).database as { topology: TopologyConfig };
    expect(database.topology.direct).toEqual({ connectionString: 'postgres://burrow:pw@db-primary:5432/burrow', display: 'db-primary:5432/burrow' });
    expect(database.topology.replicas.map((r) => r.display)).toEqual(['replica-a:5432/burrow', 'replica-b:6432/burrow']);
  });
  it('refuses a URL that is not postgres:// and TLS parameters in these URLs, naming the variable', () => {
    expect(problems({ ...external, BURROW_POSTGRES_DIRECT_URL: 'http://x', BURROW_POSTGRES_REPLICA_URLS: 'postgres://r/db?sslmode=require' })).toEqual([
      'BURROW_POSTGRES_REPLICA_URLS has sslmode: remove it; BURROW_POSTGRES_TLS chooses TLS for every connection',
      'BURROW_POSTGRES_DIRECT_URL has "http://x", which is not a postgres:// URL',
    ]);
  });
});
