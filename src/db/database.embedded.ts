/**
 * The embedded lifecycle: PGlite (PostgreSQL compiled to WebAssembly) in this process, behind a
 * pg.Pool of size 1 (it has one backend).
 */
import { mkdirSync } from 'node:fs';
import v8 from 'node:v8';
import pg from 'pg';
import type { PGlite } from '@electric-sql/pglite';
import type { EmbeddedDatabaseConfig } from '../config.database.js';
import { StartupError, type Database, type OpenOptions } from './database.js';
import { guardPool, wrapDrizzle } from './database.pool.js';

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

export async function openEmbedded(config: EmbeddedDatabaseConfig, options: OpenOptions): Promise<Database> {
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
