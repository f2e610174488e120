/**
 * The external lifecycle: a PostgreSQL server the operator runs, reached over TCP (optionally
 * TLS). Also how the managed lifecycle connects, over its private socket (db/managed.ts).
 */
import pg from 'pg';
import type { ExternalDatabaseConfig } from '../config.database.js';
import { isConnectionLoss } from '../lib/connection-errors.js';
import { StartupError, type Database, type OpenOptions } from './database.js';
import { guardPool, ignoreConnectionError, wrapDrizzle } from './database.pool.js';
import { sharedListener } from './listener.js';
import { sendUnnamedStatements } from './pooler.js';
import { PrimaryRouter } from './primary-router.js';
import { logTokenCommits } from './read-your-writes.js';
import { openReplicaReads } from './replicas.js';

export async function openExternal(config: ExternalDatabaseConfig, options: OpenOptions): Promise<Database> {
  const clientConfig: pg.ClientConfig = {
    connectionString: config.connectionString,
    ssl: config.tls === 'verify-full' ? { rejectUnauthorized: true, ...(config.caPem ? { ca: config.caPem } : {}) } : false,
    application_name: 'burrow',
    // Notice a peer that vanished without closing (failover, network partition).
    keepAlive: true,
  };
  // Every connection (pooled, LISTEN, owner locks) goes to the read-write server among the
  // configured hosts, and finds the new one by itself after a failover.
  // Behind a transaction pooler the hosts are poolers: each is asked, not trusted (db/primary-router.ts).
  const Client = new PrimaryRouter(config.hosts ?? [], clientConfig, { pooler: Boolean(config.topology?.direct) }).clientClass();
  const pool = new pg.Pool({ ...clientConfig, max: config.poolMax, Client });
  guardPool(pool);
  // Behind a transaction pooler (db/pooler.ts): what must keep a session goes to the server itself.
  const direct = config.topology?.direct ?? null;
  const directConfig: pg.ClientConfig = direct ? { ...clientConfig, connectionString: direct.connectionString } : clientConfig;
  // The direct servers get the same read-write routing (a standby is never written or locked
  // through), so LISTEN, owner locks and migrations follow a failover as the pooled ones do.
  const DirectClient = direct ? new PrimaryRouter(direct.hosts ?? [], directConfig).clientClass() : Client;
  if (direct) sendUnnamedStatements(pool);
  // Before the first connection opens: each of them must report its commits (db/read-your-writes.ts).
  const commits = config.topology?.replicas.length ? logTokenCommits(pool) : null;
  // One connection, opened for the migrations at start and closed once idle.
  const migrationPool = direct ? new pg.Pool({ ...directConfig, max: 1, idleTimeoutMillis: 1000, Client: DirectClient }) : undefined;
  if (migrationPool) guardPool(migrationPool);
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
  const reads = commits && config.topology ? openReplicaReads({ db, pool, commits }, config.topology, clientConfig, config.poolMax) : undefined;
  return {
    lifecycle: 'external',
    description: `external PostgreSQL ${serverVersion} (the server you point it at; at least ${config.requiredMajor} required) at ${config.display}${direct ? ` through a transaction pooler (direct: ${direct.display})` : ''} (TLS ${config.tls})`,
    pool,
    migrationPool,
    reads,
    db,
    statements,
    capabilities: {
      serverVersion,
      serverMajor,
      vector,
      vectorReason: vector ? null : `the vector extension is not installed in database ${config.display}; Brain search stays lexical`,
    },
    // Every channel on one connection (db/listener.ts): the sizing rule counts one per instance.
    listen: sharedListener(() => new DirectClient(directConfig)),
    hearLocally: notifications.hearLocally,
    openDedicatedConnection: async () => {
      const client = new DirectClient(directConfig);
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
      await reads?.close();
      await pool.end();
      await migrationPool?.end();
    },
  };
}
