/**
 * One code path to the database: a pg.Pool with Drizzle over it. Embedded, the Pool is handed a
 * PGlite instance (one backend, so the Pool has size 1); external, it connects to a server;
 * managed (db/managed.ts), Burrow runs the server itself and connects over its private socket.
 */
import { mkdirSync } from 'node:fs';
import v8 from 'node:v8';
import pg from 'pg';
import { drizzle, type NodePgDatabase } from 'drizzle-orm/node-postgres';
import type { PGlite } from '@electric-sql/pglite';
import type { DatabaseConfig, EmbeddedDatabaseConfig, ExternalDatabaseConfig } from '../config.js';
import { isConnectionLoss } from '../lib/connection-errors.js';
import type { ManagedSupervisor } from './managed.js';
import { sharedListener } from './listener.js';
import { installNotifyAfterCommit } from './notify-after-commit.js';

export type Db = NodePgDatabase<Record<string, never>>;
/** A Drizzle handle that is either the database or an open transaction. */
export type DbOrTx = Db | Parameters<Parameters<Db['transaction']>[0]>[0];

export interface Capabilities {
  serverVersion: string;
  serverMajor: number;
  /** pgvector is installed in this database, so embedding ranking can run. */
  vector: boolean;
  vectorReason: string | null;
}

export interface Database {
  lifecycle: 'embedded' | 'external' | 'managed';
  /** Human description for banners: never contains a password. */
  description: string;
  pool: pg.Pool;
  db: Db;
  capabilities: Capabilities;
  /** Counts SQL statements issued through Drizzle; tests read it to prove constant query counts. */
  statements: { count: number; onQuery?: (query: string, params: unknown[]) => void };
  /**
   * LISTEN on the instance's one listening connection, shared by all channels (external, see
   * db/listener.ts) or PGlite's own listener (embedded). `onLost` is called once if that
   * connection dies; the caller re-listens (see events/hub.ts, auth/token-watch.ts).
   */
  listen(channel: string, onPayload: (payload: string) => void, onLost?: (error: Error) => void): Promise<() => Promise<void>>;
  /** This process's own notifications (db/notify-after-commit.ts), heard at commit; returns the removal. */
  hearLocally(channel: string, onPayload: (payload: string) => void): () => void;
  /**
   * A connection of its own for a session-level lock that must live as long as something else
   * (continuity owners). Null embedded: there is only one backend.
   */
  openDedicatedConnection(): Promise<pg.Client | null>;
  /** Managed only: the postmaster's supervisor; readiness fails while it is not running. */
  supervisor?: ManagedSupervisor;
  close(): Promise<void>;
}

export class StartupError extends Error {}

export interface OpenOptions {
  /** Called once when the first connection attempt fails and startup starts retrying. */
  onWaiting?: (reason: string) => void;
  /**
   * A CLI command that runs a few statements and exits. Embedded, PostgreSQL then starts with a
   * small buffer cache: PGlite zeroes all of its shared memory at every start, and the 128 MB
   * default cache (plus the lock and process tables sized for 100 connections, where PGlite has
   * one backend) was ~0.4 s of every command (docs/performance.md). The server keeps the cache.
   */
  oneShot?: boolean;
  /**
   * The database is Burrow's own (the managed cluster): its migrations create pg_trgm, as the
   * embedded database's do. Only an operator's external database must already have it.
   */
  ownDatabase?: boolean;
}

/** PostgreSQL settings for a one-shot command's embedded start (see OpenOptions.oneShot). */
const ONE_SHOT_SETTINGS = ['-c', 'shared_buffers=16MB', '-c', 'max_connections=5'];
/**
 * V8 recompiles a WebAssembly function with its optimizing compiler once it has run about this
 * many bytes of code (V8's default: 1.8 million). PostgreSQL's start alone makes hundreds of its
 * functions "hot", and those compilations ran on both cores for ~0.3 s of a one-shot command: the
 * process waited for them at its next module import and again at exit. A command that runs long
 * (an import of a large export) still gets its hottest functions optimized.
 */
const ONE_SHOT_WASM_TIERING_BUDGET = 500_000_000;

export async function openDatabase(config: DatabaseConfig, options: OpenOptions = {}): Promise<Database> {
  // Loaded on demand: managed.ts builds on openDatabase for its socket connection.
  if (config.lifecycle === 'managed') return (await import('./managed.js')).openManaged(config);
  return config.lifecycle === 'embedded' ? openEmbedded(config, options) : openExternal(config, options);
}

/**
 * A connection that errors while nobody is waiting on it (idle in the pool, checked out between
 * two statements of a transaction, a dedicated connection) emits 'error'; unheard, that kills the
 * process. The statement that next uses it fails instead, and the masker makes that a
 * DATABASE_UNAVAILABLE; pg-pool discards the broken client when it is released.
 */
const ignoreConnectionError = () => {};

/** A ROLLBACK (or ROLLBACK TO SAVEPOINT) statement, as Drizzle and the migrator send it. */
const ROLLBACK = /^\s*rollback\b/i;

/**
 * Clients whose ROLLBACK failed since they were checked out. Such a connection is in an unknown
 * state (still inside a transaction, or half gone), so it is discarded at release instead of
 * going back to the pool: Drizzle's transaction() releases its client the same way whether or not
 * its rollback worked, and every other holder would too.
 */
const failedRollback = new WeakSet<pg.ClientBase>();

/** Marks `client` when a ROLLBACK it sends fails; the caller still sees the failure. */
function watchRollbacks(client: pg.PoolClient): void {
  const query = client.query.bind(client) as (...args: unknown[]) => unknown;
  client.query = ((...args: unknown[]) => {
    const first = args[0] as string | { text?: unknown } | undefined;
    const text = typeof first === 'string' ? first : first?.text;
    const result = query(...args);
    if (typeof text === 'string' && ROLLBACK.test(text) && result && typeof (result as Promise<unknown>).then === 'function') {
      (result as Promise<unknown>).then(undefined, () => failedRollback.add(client));
    }
    return result;
  }) as typeof client.query;
}

function guardPool(pool: pg.Pool): void {
  pool.on('error', ignoreConnectionError);
  // pg-pool removes its own idle listener while a client is checked out: this one stays.
  pool.on('connect', (client) => {
    client.on('error', ignoreConnectionError);
    watchRollbacks(client as pg.PoolClient);
  });
  // A checked-out client whose connection dies goes back to the pool (and out of it) at once.
  // Drizzle's transaction() sends BEGIN before its try/finally, so a connection lost at BEGIN
  // would otherwise never be released: each fault would leak a pool slot until none is left.
  // A later release() by the holder is then a no-op. (pool.query uses the callback form and
  // releases by itself.)
  const connect = pool.connect.bind(pool) as (cb?: unknown) => unknown;
  pool.connect = ((callback?: unknown) => {
    if (callback) return connect(callback);
    return (connect() as Promise<pg.PoolClient>).then((client) => {
      const release = client.release.bind(client);
      let released = false;
      const onEnd = () => {
        if (released) return;
        released = true;
        release(new Error('the connection ended while checked out'));
      };
      client.once('end', onEnd);
      client.release = ((error?: Error | boolean) => {
        client.removeListener('end', onEnd);
        if (released) return;
        released = true;
        // A truthy argument makes pg-pool end the connection rather than reuse it.
        release(error || (failedRollback.has(client) ? new Error('its ROLLBACK failed: discarded') : undefined));
      }) as pg.PoolClient['release'];
      return client;
    });
  }) as typeof pool.connect;
}

function wrapDrizzle(pool: pg.Pool) {
  // onQuery lets the bench capture the statements a request issued, to EXPLAIN them.
  const statements: Database['statements'] = { count: 0 };
  const db = drizzle(pool, {
    logger: {
      logQuery: (query, params) => {
        statements.count++;
        statements.onQuery?.(query, params);
      },
    },
  }) as unknown as Db;
  const notifications = installNotifyAfterCommit(db, pool);
  return { db, statements, notifications };
}

async function openEmbedded(config: EmbeddedDatabaseConfig, options: OpenOptions): Promise<Database> {
  const [{ PGlite }, { pg_trgm }, { vector }, { createPgConfig }] = await Promise.all([
    import('@electric-sql/pglite'),
    import('@electric-sql/pglite/contrib/pg_trgm'),
    import('@electric-sql/pglite-pgvector'),
    import('@electric-sql/pglite/node-postgres'),
  ]);
  // Before PGlite compiles its WebAssembly: the budget is read when the module is compiled.
  if (options.oneShot) v8.setFlagsFromString(`--wasm-tiering-budget=${ONE_SHOT_WASM_TIERING_BUDGET}`);
  const inMemory = config.dataDir.startsWith('memory://');
  if (!inMemory) mkdirSync(config.dataDir, { recursive: true, mode: 0o700 });
  let lite: PGlite;
  try {
    lite = await PGlite.create(config.dataDir, {
      extensions: { pg_trgm, vector },
      ...(options.oneShot ? { startParams: [...PGlite.defaultStartParams, ...ONE_SHOT_SETTINGS] } : {}),
    });
  } catch (error) {
    throw new StartupError(`BURROW_DATA_DIR="${config.dataDir}" could not be opened as an embedded database (${(error as Error).message}); is another Burrow process using it?`);
  }
  // The embedded database is ours alone, so we may install what it ships.
  await lite.exec('CREATE EXTENSION IF NOT EXISTS vector;');
  const pgConfig = createPgConfig(lite);
  // pg 8.2x hands its per-query type *parsers* (which Drizzle sets) to Parse as parameter type
  // OIDs; the real protocol serializer ignores a non-array there, PGlite's calls forEach on it.
  const connection = pgConfig.connection as unknown as { parse(query: { types?: unknown }): void };
  const parse = connection.parse.bind(connection);
  connection.parse = (query) => parse({ ...query, types: Array.isArray(query.types) ? query.types : undefined });
  const pool = new pg.Pool({ ...(pgConfig as unknown as pg.PoolConfig), max: 1 });
  guardPool(pool);
  // pg-pool's query() releases its client *with the error* when a statement fails, which ends
  // the client; every client of this Pool shares PGlite's one connection object, so ending one
  // breaks the next query ("Connection terminated unexpectedly"). A failed statement leaves the
  // session usable, so release normally instead.
  const runOnClient = async (...args: unknown[]) => {
    const client = await pool.connect();
    try {
      return await (client.query as (...a: unknown[]) => Promise<unknown>)(...args);
    } finally {
      client.release();
    }
  };
  pool.query = runOnClient as unknown as typeof pool.query;
  const { db, statements, notifications } = wrapDrizzle(pool);
  const version = (await lite.query<{ v: string }>("SELECT current_setting('server_version') AS v")).rows[0].v;
  return {
    lifecycle: 'embedded',
    // PGlite carries its own PostgreSQL (compiled to WASM), whose major is not the pinned 17 of managed.
    description: `embedded PGlite: its own PostgreSQL ${version} (WASM), not the PostgreSQL 17 of managed, in ${inMemory ? 'memory' : config.dataDir}`,
    pool,
    db,
    statements,
    capabilities: { serverVersion: version, serverMajor: Number.parseInt(version, 10), vector: true, vectorReason: null },
    listen: async (channel, onPayload) => {
      const unlisten = await lite.listen(channel, onPayload);
      return async () => {
        if (!lite.closed) await unlisten();
      };
    },
    hearLocally: notifications.hearLocally,
    openDedicatedConnection: async () => null,
    close: async () => {
      await notifications.drain();
      await pool.end();
      if (!lite.closed) await lite.close();
    },
  };
}

async function openExternal(config: ExternalDatabaseConfig, options: OpenOptions): Promise<Database> {
  const clientConfig: pg.ClientConfig = {
    connectionString: config.connectionString,
    ssl: config.tls === 'verify-full' ? { rejectUnauthorized: true, ...(config.caPem ? { ca: config.caPem } : {}) } : false,
    application_name: 'burrow',
    // Notice a peer that vanished without closing (failover, network partition).
    keepAlive: true,
  };
  const pool = new pg.Pool({ ...clientConfig, max: config.poolMax });
  guardPool(pool);
  let serverVersion: string;
  let serverVersionNum: number;
  let vector: boolean;
  let trgm: boolean;
  // A server that is not up yet (containers starting together, a failover in progress) is
  // waited for; one that refuses us (password, missing database, TLS) fails at once.
  const deadline = Date.now() + config.connectTimeoutSeconds * 1000;
  for (let attempt = 0; ; attempt++) {
    try {
      const result = await pool.query<{ v: string; n: string; vector: boolean; trgm: boolean }>(
        `SELECT current_setting('server_version') AS v, current_setting('server_version_num') AS n,
                EXISTS (SELECT 1 FROM pg_extension WHERE extname = 'vector') AS vector,
                EXISTS (SELECT 1 FROM pg_extension WHERE extname = 'pg_trgm') AS trgm`,
      );
      serverVersion = result.rows[0].v;
      serverVersionNum = Number(result.rows[0].n);
      vector = result.rows[0].vector;
      trgm = result.rows[0].trgm;
      break;
    } catch (error) {
      const reason = (error as Error).message || (error as { code?: string }).code || String(error);
      const waitMs = Math.min(2000, 250 * 2 ** attempt);
      if (isConnectionLoss(error) && Date.now() + waitMs < deadline) {
        if (attempt === 0)
          options.onWaiting?.(
            `PostgreSQL at ${config.display} is not reachable yet (${reason}); retrying for up to ${config.connectTimeoutSeconds} s (BURROW_POSTGRES_CONNECT_TIMEOUT_S)`,
          );
        await new Promise((resolve) => setTimeout(resolve, waitMs));
        continue;
      }
      await pool.end().catch(() => {});
      const waited = isConnectionLoss(error) ? ` after trying for ${config.connectTimeoutSeconds} s (BURROW_POSTGRES_CONNECT_TIMEOUT_S)` : '';
      throw new StartupError(
        `cannot connect to PostgreSQL at ${config.display}${waited} (${reason}): check BURROW_POSTGRES_URL / DATABASE_URL or BURROW_POSTGRES_HOST/PORT/DATABASE/USER/PASSWORD and BURROW_POSTGRES_TLS`,
      );
    }
  }
  const serverMajor = Math.floor(serverVersionNum / 10000);
  if (serverMajor < config.requiredMajor) {
    await pool.end().catch(() => {});
    throw new StartupError(
      `PostgreSQL at ${config.display} is version ${serverVersion} (major ${serverMajor}), below BURROW_POSTGRES_REQUIRED_MAJOR=${config.requiredMajor}: upgrade the server or set BURROW_POSTGRES_REQUIRED_MAJOR=${serverMajor} if you accept it`,
    );
  }
  // The external lifecycle creates no database, role or extension in the operator's database:
  // pg_trgm (search) must be there before the migrations that index with it.
  if (!trgm && !options.ownDatabase) {
    await pool.end().catch(() => {});
    throw new StartupError(
      `the pg_trgm extension is not installed in database ${config.display}; Burrow's search needs it and an external database gets no extension from Burrow: have an administrator (or the database owner: pg_trgm is a trusted extension) run \`CREATE EXTENSION pg_trgm;\` in that database, then start again`,
    );
  }
  const { db, statements, notifications } = wrapDrizzle(pool);
  return {
    lifecycle: 'external',
    description: `external PostgreSQL ${serverVersion} (the server you point it at; at least ${config.requiredMajor} required) at ${config.display} (TLS ${config.tls})`,
    pool,
    db,
    statements,
    capabilities: {
      serverVersion,
      serverMajor,
      vector,
      vectorReason: vector ? null : `the vector extension is not installed in database ${config.display}; Brain search stays lexical`,
    },
    // Every channel on one connection (db/listener.ts): the sizing rule counts one per instance.
    listen: sharedListener(() => new pg.Client(clientConfig)),
    hearLocally: notifications.hearLocally,
    openDedicatedConnection: async () => {
      const client = new pg.Client(clientConfig);
      // The owner of the connection adds its own listeners; this one keeps an error unheard
      // before then (or after they are removed) from ending the process.
      client.on('error', ignoreConnectionError);
      try {
        await client.connect();
      } catch (error) {
        await client.end().catch(() => {});
        throw error;
      }
      return client;
    },
    close: async () => {
      await notifications.drain();
      await pool.end();
    },
  };
}
