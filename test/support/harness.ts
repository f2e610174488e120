/**
 * Test servers: the real app (buildApp) listening on a real port, on a real database, driven
 * through the generated client. Embedded by default (PGlite in memory); set
 * BURROW_TEST_DATABASE_URL to run a whole pass against a real PostgreSQL server, where each server
 * gets a fresh database (dropped afterwards) and several instances can share one.
 */
import pg from 'pg';
import { randomBytes } from 'node:crypto';
import { buildApp, type App } from '../../src/app.js';
import type { BurrowConfig } from '../../src/config.js';
import type { DatabaseConfig } from '../../src/config.database.js';
import { SINGLE_SERVER } from '../../src/config.topology.js';
import { DEFAULT_LIMITS } from '../../src/config.server.js';
import type { Database } from '../../src/db/database.js';
import { openDatabase } from '../../src/db/database.open.js';
import { migrate } from '../../src/db/migrator.js';
import { ManualClock } from '../../src/lib/clock.js';
import { InjectedFault, noFaults, type FaultInjector } from '../../src/lib/faults.js';
import { createLogger, type Logger } from '../../src/lib/logger.js';
import { loadTracing } from '../../src/ops/tracing.js';
import { BurrowRequestError, createBurrowClient, type BurrowClient } from '../../clients/typescript/sdk.js';
import { scaled } from './load.js';

export { scaled };

/** The pass's database: a real server for every test (BURROW_TEST_DATABASE_URL), or null in the embedded pass. */
export const REAL_DATABASE_URL = process.env.BURROW_TEST_DATABASE_URL?.trim() || null;
export const onRealServer = REAL_DATABASE_URL !== null;
/**
 * A real PostgreSQL for the tests that need several real connections (races, several instances,
 * faults), in either pass: the pass's own server, else BURROW_TEST_REAL_SERVER_URL, which
 * test/support/global-setup.ts sets to the PostgreSQL 17 it starts for a plain `npm test`.
 */
export const REAL_SERVER_URL = REAL_DATABASE_URL ?? (process.env.BURROW_TEST_REAL_SERVER_URL?.trim() || null);
export const hasRealServer = REAL_SERVER_URL !== null;
/**
 * A transaction pooler in front of REAL_DATABASE_URL's server (scripts/test-pgbouncer.sh prints
 * both): each test database is then created on the server directly and the server under test
 * connects through the pooler (BURROW_POSTGRES_URL), with BURROW_POSTGRES_DIRECT_URL for LISTEN,
 * owner locks and migrations. Test code's own connections (`TestDatabase.url`) stay direct.
 */
export const POOLER_URL = process.env.BURROW_TEST_POOLER_URL?.trim() || null;
export const TEST_REQUIRED_MAJOR = Number(process.env.BURROW_TEST_REQUIRED_MAJOR?.trim() || 17);
/** For describe/it names of tests that need several real connections; says why when they are skipped. */
export const NEEDS_REAL_SERVER = hasRealServer
  ? 'on a real PostgreSQL: several real connections'
  : `skipped: needs a real PostgreSQL, and ${process.env.BURROW_TEST_REAL_SERVER_SKIP || 'none was started'}`;

export interface TestDatabase {
  config: DatabaseConfig;
  /** The database name on the real server, or null embedded. */
  name: string | null;
  url: string | null;
  /** The same database through BURROW_TEST_POOLER_URL, when the pass runs through a pooler. */
  pooledUrl?: string;
  drop(): Promise<void>;
}

/**
 * A fresh database: in-memory PGlite, or a new database on the real server. `real`: on the real
 * server in either pass (REAL_SERVER_URL), for the tests that need several real connections;
 * `embedded`: in-memory PGlite in either pass, for what only it always has (pgvector); `server`:
 * on that server, of that major (test/settings-cli.test.ts's pg_dump needs one of its own major).
 * A real server's database gets pg_trgm, as an administrator creates it for the external
 * lifecycle; `withTrgm: false` leaves it out (the startup check's test).
 */
export async function createTestDatabase(
  options: { real?: boolean; embedded?: boolean; withTrgm?: boolean; server?: { url: string; requiredMajor: number } } = {},
): Promise<TestDatabase> {
  const server = options.server?.url ?? (options.embedded ? null : options.real ? REAL_SERVER_URL : REAL_DATABASE_URL);
  if (options.real && !server) throw new Error(NEEDS_REAL_SERVER);
  if (!server) {
    return { config: { lifecycle: 'embedded', dataDir: 'memory://' }, name: null, url: null, drop: async () => {} };
  }
  const name = `burrow_t_${randomBytes(6).toString('hex')}`;
  const admin = new pg.Client({ connectionString: server });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name}`);
  await admin.end();
  const url = new URL(server);
  url.pathname = `/${name}`;
  // What an administrator does before an external start (README): Burrow creates no extension there.
  if (options.withTrgm !== false) {
    const owner = new pg.Client({ connectionString: url.toString() });
    await owner.connect();
    await owner.query('CREATE EXTENSION pg_trgm');
    await owner.end();
  }
  const pooled = POOLER_URL && server === REAL_DATABASE_URL ? new URL(POOLER_URL) : null;
  if (pooled) pooled.pathname = `/${name}`;
  const overrides = options.server ? { requiredMajor: options.server.requiredMajor } : {};
  return {
    config: pooled
      ? externalConfig(pooled.toString(), { ...overrides, topology: { ...SINGLE_SERVER, direct: { connectionString: url.toString(), display: url.pathname } } })
      : externalConfig(url.toString(), overrides),
    name,
    url: url.toString(),
    ...(pooled ? { pooledUrl: pooled.toString() } : {}),
    drop: async () => {
      const client = new pg.Client({ connectionString: server });
      await client.connect();
      await client.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await client.end();
    },
  };
}

export function externalConfig(connectionString: string, overrides: Partial<Extract<DatabaseConfig, { lifecycle: 'external' }>> = {}): DatabaseConfig {
  return {
    lifecycle: 'external',
    connectionString,
    display: new URL(connectionString).pathname,
    tls: 'disable',
    caPem: null,
    // The product's default (17): CI's real-server pass runs on PostgreSQL 17 (scripts/test-postgres17.sh).
    // On an older server set BURROW_TEST_REQUIRED_MAJOR (CI's PostgreSQL 15 step does).
    requiredMajor: TEST_REQUIRED_MAJOR,
    poolMax: 25,
    connectTimeoutSeconds: 5,
    ...overrides,
  };
}

export function testConfig(database: DatabaseConfig, overrides: Partial<BurrowConfig> = {}): BurrowConfig {
  return {
    port: 0,
    host: '127.0.0.1',
    graphiql: false,
    logLevel: 'silent',
    database,
    events: { retentionDays: 30, subscriberBufferEvents: 1000 },
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
    tokens: { lastUsedIntervalSeconds: 60, recheckSeconds: 10, cacheSeconds: 30, cacheMax: 10_000 },
    // Off: the manual clock never refills a bucket by itself (test/rate-limit.test.ts turns it on).
    rateLimit: { perSecond: 0, burst: 500 },
    ...overrides,
  };
}

export interface TestServer {
  url: string;
  app: App;
  database: Database;
  testDatabase: TestDatabase;
  clock: ManualClock;
  /** A client holding an operator token. */
  operator: BurrowClient;
  /** A client for a new token: operator, or bound to an agent, with runtime scope headers. */
  client(options?: { agentId?: string; scope?: string | null; session?: string | null; conversation?: string | null }): Promise<BurrowClient>;
  /** Creates an agent (through the API) and returns a client bound to it. */
  agentClient(agentId: string, options?: { scope?: string | null; session?: string | null; conversation?: string | null }): Promise<BurrowClient>;
  stop(): Promise<void>;
}

export interface StartOptions {
  /** Share another server's database (a second instance). Real server only. */
  database?: TestDatabase;
  /** A fresh database on the real server even in the embedded pass (createTestDatabase's `real`). */
  realServer?: boolean;
  clock?: ManualClock;
  faults?: FaultInjector;
  config?: Partial<BurrowConfig>;
  /** The server's logger (default: silent); tests that assert what is logged pass their own. */
  logger?: Logger;
}

export async function startServer(options: StartOptions = {}): Promise<TestServer> {
  const owned = !options.database;
  const testDatabase = options.database ?? (await createTestDatabase({ real: options.realServer }));
  const clock = options.clock ?? new ManualClock('2026-06-01T12:00:00.000Z');
  const config = testConfig(testDatabase.config, options.config);
  const database = await openDatabase(config.database);
  await migrate(database.migrationPool ?? database.pool);
  const tracing = await loadTracing(config.ops.tracing);
  const app = buildApp({ config, database, clock, logger: options.logger ?? createLogger('silent'), faults: options.faults ?? noFaults, tracing });
  const port = await app.start(0, '127.0.0.1');
  const url = `http://127.0.0.1:${port}/graphql`;
  const clients: BurrowClient[] = [];
  const track = (client: BurrowClient) => (clients.push(client), client);

  const client: TestServer['client'] = async (opts = {}) => {
    const { token } = await app.services.tokens.create(
      opts.agentId ? { kind: 'agent', name: `agent-${opts.agentId}`, agentId: opts.agentId } : { kind: 'operator', name: 'test-operator' },
    );
    // No resending: a test sees every answer the server gave (test/idempotency-client.test.ts tests the client's retries).
    return track(createBurrowClient({ url, token, scope: opts.scope ?? null, session: opts.session ?? null, conversation: opts.conversation ?? null, retry: false }));
  };
  const operator = await client();

  return {
    url,
    app,
    database,
    testDatabase,
    clock,
    operator,
    client,
    agentClient: async (agentId, opts = {}) => {
      const existing = await operator.agent({ id: agentId });
      if (!existing.agent) {
        const created = await operator.createAgent({ input: { agentId: agentId, name: agentId } });
        if (created.createAgent.__typename !== 'CreateAgentSuccess') throw new Error(`createAgent failed: ${JSON.stringify(created)}`);
      }
      return client({ agentId, ...opts });
    },
    stop: async () => {
      await Promise.all(clients.map((c) => c.close()));
      await app.stop();
      await database.close();
      if (owned) await testDatabase.drop();
    },
  };
}

/** The request-level error a call fails with (auth, scope, cursors); fails the test otherwise. */
export async function requestError(promise: Promise<unknown>): Promise<BurrowRequestError> {
  try {
    await promise;
  } catch (error) {
    if (error instanceof BurrowRequestError) return error;
    throw error;
  }
  throw new Error('expected a request error');
}

/** A fault injector that a test arms at one named point at a time (see src/lib/faults.ts). */
export function faultSwitch() {
  let armed: string | null = null;
  return {
    inject: ((point) => {
      if (point === armed) throw new InjectedFault(point);
    }) as FaultInjector,
    arm(point: string | null) {
      armed = point;
    },
  };
}

/** Collects `count` items from an async iterable, failing after `timeoutMs` (scaled by the machine's load). */
export async function take<T>(iterable: AsyncIterable<T>, count: number, timeoutMs = 10_000): Promise<T[]> {
  const items: T[] = [];
  const iterator = iterable[Symbol.asyncIterator]();
  const deadline = Date.now() + scaled(timeoutMs);
  try {
    while (items.length < count) {
      const remaining = deadline - Date.now();
      if (remaining <= 0) throw new Error(`timed out after ${items.length} of ${count} items`);
      const next = await Promise.race([
        iterator.next(),
        new Promise<never>((_, reject) => setTimeout(() => reject(new Error(`timed out after ${items.length} of ${count} items`)), remaining)),
      ]);
      if (next.done) break;
      items.push(next.value);
    }
  } finally {
    void iterator.return?.();
  }
  return items;
}

/**
 * What a writer leaves behind when it stops between its commit and its batch of announcements
 * (db/notify-after-commit.ts): the agent's bumped sequence and a SOUL `profile.updated` row, no
 * NOTIFY. Returns the event's sequence.
 */
export async function logUnannouncedEvent(server: TestServer, agentId: string, revision: number): Promise<number> {
  const { rows } = await server.database.pool.query(
    `WITH bumped AS (UPDATE agents SET last_event_sequence = last_event_sequence + 1 WHERE id = $1 RETURNING last_event_sequence AS seq)
     INSERT INTO agent_events (agent_id, sequence, stream, type, subject_id, project, payload, occurred_at)
     SELECT $1, seq, 'profile', 'profile.updated', 'postgres:agent_profile_documents/' || $1 || '/SOUL', NULL,
            jsonb_build_object('kind', 'SOUL', 'revision', $2::int, 'reason', 'updated', 'actor', 'OPERATOR'), now() FROM bumped
     RETURNING sequence`,
    [agentId, revision],
  );
  return Number(rows[0].sequence);
}

/** Opens a subscription and returns a reader that collects items in the background. */
export function collect<T>(iterable: AsyncIterable<T>) {
  const items: T[] = [];
  const iterator = iterable[Symbol.asyncIterator]();
  let error: unknown = null;
  const done = (async () => {
    try {
      for (;;) {
        const next = await iterator.next();
        if (next.done) return;
        items.push(next.value);
      }
    } catch (e) {
      error = e;
    }
  })();
  return {
    items,
    get error() {
      return error;
    },
    /** Waits until at least `count` items arrived (or fails after `timeoutMs`, scaled by the machine's load). */
    async waitFor(count: number, timeoutMs = 10_000) {
      const deadline = Date.now() + scaled(timeoutMs);
      while (items.length < count) {
        if (error) throw error;
        if (Date.now() > deadline) throw new Error(`timed out waiting for ${count} items; have ${items.length}`);
        await new Promise((r) => setTimeout(r, 20));
      }
      return items;
    },
    async stop() {
      await iterator.return?.();
      await done;
    },
  };
}

/**
 * Waits until `condition` holds, checking every `stepMs`; fails naming `what` after `timeoutMs`
 * (stretched by the machine's load). The deadline catches a hang; it is not a measure of speed.
 */
export async function waitUntil(condition: () => boolean | Promise<boolean>, what: string, timeoutMs = 10_000, stepMs = 20): Promise<void> {
  const deadline = Date.now() + scaled(timeoutMs);
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting until ${what}`);
    await new Promise((resolve) => setTimeout(resolve, stepMs));
  }
}

/**
 * Proves that a live-only subscription (no `after`) is registered: makes a change it must deliver
 * (`poke` returns how to recognise that change's item), again after each short wait, until the
 * newest poke's item arrives. Items arrive in commit order, so every earlier poke has then arrived
 * or never will; returns the index after the newest poke's item. A readiness barrier: the wait
 * between pokes decides nothing.
 */
export async function untilLive<T>(stream: { items: T[] }, poke: () => Promise<(item: T) => boolean>, timeoutMs = 10_000): Promise<number> {
  const deadline = Date.now() + scaled(timeoutMs);
  for (;;) {
    const isPoke = await poke();
    const retryAt = Date.now() + 250;
    while (Date.now() < retryAt) {
      const index = stream.items.findIndex(isPoke);
      if (index >= 0) return index + 1;
      await new Promise((r) => setTimeout(r, 10));
    }
    if (Date.now() > deadline) throw new Error('the subscription never delivered a poke: not live');
  }
}

/** A logger that keeps what it is given, for tests of what the server logs. */
export function recordingLogger() {
  const lines: { level: string; msg: string; fields: Record<string, unknown> }[] = [];
  const make = (base: Record<string, unknown>): Logger => {
    const at =
      (level: string) =>
      (msg: string, fields: Record<string, unknown> = {}) =>
        void lines.push({ level, msg, fields: { ...base, ...fields } });
    return { debug: at('debug'), info: at('info'), warn: at('warn'), error: at('error'), child: (fields) => make({ ...base, ...fields }) };
  };
  return { logger: make({}), lines };
}
