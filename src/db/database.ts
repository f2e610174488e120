/**
 * One code path to the database: a pg.Pool with Drizzle over it. Embedded, the Pool is handed a
 * PGlite instance (one backend, so the Pool has size 1); external, it connects to a server;
 * managed (db/managed.ts), Burrow runs the server itself and connects over its private socket.
 */
import { mkdirSync } from 'node:fs';
import pg from 'pg';
import { drizzle, type NodePgDatabase } from 'drizzle-orm/node-postgres';
import type { PGlite } from '@electric-sql/pglite';
import type { DatabaseConfig, EmbeddedDatabaseConfig, ExternalDatabaseConfig } from '../config.js';
import type { ManagedSupervisor } from './managed.js';

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
  /** LISTEN on one dedicated connection (external) or PGlite's own listener (embedded). */
  listen(channel: string, onPayload: (payload: string) => void): Promise<() => Promise<void>>;
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

export async function openDatabase(config: DatabaseConfig): Promise<Database> {
  // Loaded on demand: managed.ts builds on openDatabase for its socket connection.
  if (config.lifecycle === 'managed') return (await import('./managed.js')).openManaged(config);
  return config.lifecycle === 'embedded' ? openEmbedded(config) : openExternal(config);
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
  return { db, statements };
}

async function openEmbedded(config: EmbeddedDatabaseConfig): Promise<Database> {
  const [{ PGlite }, { pg_trgm }, { vector }, { createPgConfig }] = await Promise.all([
    import('@electric-sql/pglite'),
    import('@electric-sql/pglite/contrib/pg_trgm'),
    import('@electric-sql/pglite-pgvector'),
    import('@electric-sql/pglite/node-postgres'),
  ]);
  const inMemory = config.dataDir.startsWith('memory://');
  if (!inMemory) mkdirSync(config.dataDir, { recursive: true, mode: 0o700 });
  let lite: PGlite;
  try {
    lite = await PGlite.create(config.dataDir, { extensions: { pg_trgm, vector } });
  } catch (error) {
    throw new StartupError(
      `BURROW_DATA_DIR="${config.dataDir}" could not be opened as an embedded database (${(error as Error).message}); is another Burrow process using it?`,
    );
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
  const { db, statements } = wrapDrizzle(pool);
  const version = (await lite.query<{ v: string }>("SELECT current_setting('server_version') AS v")).rows[0].v;
  return {
    lifecycle: 'embedded',
    description: `embedded PGlite (PostgreSQL ${version}) in ${inMemory ? 'memory' : config.dataDir}`,
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
    openDedicatedConnection: async () => null,
    close: async () => {
      await pool.end();
      if (!lite.closed) await lite.close();
    },
  };
}

async function openExternal(config: ExternalDatabaseConfig): Promise<Database> {
  const clientConfig: pg.ClientConfig = {
    connectionString: config.connectionString,
    ssl: config.tls === 'verify-full' ? { rejectUnauthorized: true, ...(config.caPem ? { ca: config.caPem } : {}) } : false,
    application_name: 'burrow',
  };
  const pool = new pg.Pool({ ...clientConfig, max: config.poolMax });
  // An idle client that errors (server restart, terminated backend) must not crash the process.
  pool.on('error', () => {});
  let serverVersion: string;
  let serverVersionNum: number;
  let vector: boolean;
  try {
    const result = await pool.query<{ v: string; n: string; vector: boolean }>(
      `SELECT current_setting('server_version') AS v, current_setting('server_version_num') AS n,
              EXISTS (SELECT 1 FROM pg_extension WHERE extname = 'vector') AS vector`,
    );
    serverVersion = result.rows[0].v;
    serverVersionNum = Number(result.rows[0].n);
    vector = result.rows[0].vector;
  } catch (error) {
    await pool.end().catch(() => {});
    throw new StartupError(
      `cannot connect to PostgreSQL at ${config.display} (${(error as Error).message}): check BURROW_POSTGRES_URL / DATABASE_URL or BURROW_POSTGRES_HOST/PORT/DATABASE/USER/PASSWORD and BURROW_POSTGRES_TLS`,
    );
  }
  const serverMajor = Math.floor(serverVersionNum / 10000);
  if (serverMajor < config.requiredMajor) {
    await pool.end().catch(() => {});
    throw new StartupError(
      `PostgreSQL at ${config.display} is version ${serverVersion} (major ${serverMajor}), below BURROW_POSTGRES_REQUIRED_MAJOR=${config.requiredMajor}: upgrade the server or set BURROW_POSTGRES_REQUIRED_MAJOR=${serverMajor} if you accept it`,
    );
  }
  const { db, statements } = wrapDrizzle(pool);
  return {
    lifecycle: 'external',
    description: `external PostgreSQL ${serverVersion} at ${config.display} (TLS ${config.tls})`,
    pool,
    db,
    statements,
    capabilities: {
      serverVersion,
      serverMajor,
      vector,
      vectorReason: vector ? null : `the vector extension is not installed in database ${config.display}; Brain search stays lexical`,
    },
    listen: async (channel, onPayload) => {
      const client = new pg.Client(clientConfig);
      client.on('error', () => {});
      await client.connect();
      client.on('notification', (message) => {
        if (message.channel === channel && message.payload) onPayload(message.payload);
      });
      await client.query(`LISTEN ${pg.escapeIdentifier(channel)}`);
      return async () => {
        await client.end().catch(() => {});
      };
    },
    openDedicatedConnection: async () => {
      const client = new pg.Client(clientConfig);
      client.on('error', () => {});
      await client.connect();
      return client;
    },
    close: async () => {
      await pool.end();
    },
  };
}
