/**
 * Read replicas (BURROW_POSTGRES_REPLICA_URLS): hot standbys that serve the reads that may lag
 * (Brain search and lists, conversation search, operator lists), with read-your-writes for the
 * token that just wrote (db/read-your-writes.ts). docs/scaling.md, "Read replicas".
 *
 * - Each replica is probed every BURROW_POSTGRES_REPLICA_PROBE_MS: is it in recovery, where its
 *   replay stands, how far behind the primary it is (bytes of WAL, and seconds since the last
 *   replayed commit while it is behind). /metrics shows them.
 * - A read goes to the next healthy replica (up, in recovery, at most
 *   BURROW_POSTGRES_REPLICA_MAX_LAG_S behind). When the reading token committed something, the
 *   replica must have replayed that commit's position: the read waits up to
 *   BURROW_POSTGRES_REPLICA_WAIT_MS for it, else reads on the primary.
 * - A replica that fails (connection lost, a query cancelled by recovery) is marked down until its
 *   next good probe and the read is run on the primary: never an error to the client.
 */
import pg from 'pg';
import type { TopologyConfig } from '../config.topology.js';
import { isConnectionLoss } from '../lib/connection-errors.js';
import type { Db, ReplicaStatus, RoutedReader, RoutedReads } from './database.js';
import { guardPool, wrapDrizzle } from './database.pool.js';
import { currentTokenId, parseLsn, type CommitLog } from './read-your-writes.js';

/** Without replicas: every read on the primary. */
export function primaryReads(db: Db): RoutedReads {
  return {
    per: (build) => {
      const reader = build(db);
      return { run: (read) => read(reader) };
    },
    status: () => [],
    primaryFallbacks: () => 0,
    close: async () => {},
  };
}

interface Replica {
  name: string;
  pool: pg.Pool;
  db: Db;
  up: boolean;
  replayed: bigint;
  lagBytes: number;
  lagSeconds: number;
  reads: number;
}

/** A replica's statement that failed because of the replica, not the read: retried on the primary. */
function replicaFault(error: unknown): boolean {
  const code = (error as { code?: string }).code;
  // 40001: cancelled by a conflict with recovery; 57014: cancelled (a standby's max_standby_streaming_delay).
  return isConnectionLoss(error) || code === '40001' || code === '57014';
}

const POLL_MS = 10;

export function openReplicaReads(primary: { db: Db; pool: pg.Pool; commits: CommitLog }, topology: TopologyConfig, clientConfig: pg.ClientConfig, poolMax: number): RoutedReads {
  const replicas: Replica[] = topology.replicas.map((url) => {
    const pool = new pg.Pool({ ...clientConfig, connectionString: url.connectionString, max: poolMax, connectionTimeoutMillis: 2000 });
    guardPool(pool);
    return { name: url.display, pool, db: wrapDrizzle(pool).db, up: false, replayed: 0n, lagBytes: 0, lagSeconds: 0, reads: 0 };
  });
  let fallbacks = 0;

  const healthy = (replica: Replica) => replica.up && replica.lagSeconds <= topology.replicaMaxLagSeconds;

  async function probe(replica: Replica, primaryLsn: bigint | null): Promise<void> {
    try {
      const { rows } = await replica.pool.query<{ recovering: boolean; replayed: string | null; since: number | null }>(
        `SELECT pg_is_in_recovery() AS recovering, pg_last_wal_replay_lsn()::text AS replayed,
                EXTRACT(EPOCH FROM now() - pg_last_xact_replay_timestamp())::float8 AS since`,
      );
      const row = rows[0];
      replica.up = row.recovering && row.replayed !== null;
      replica.replayed = row.replayed ? parseLsn(row.replayed) : 0n;
      const behind = primaryLsn !== null && primaryLsn > replica.replayed ? primaryLsn - replica.replayed : 0n;
      replica.lagBytes = Number(behind);
      replica.lagSeconds = behind > 0n ? Math.max(0, row.since ?? 0) : 0;
    } catch {
      replica.up = false;
    }
  }

  let stopped = false;
  let timer: NodeJS.Timeout | null = null;
  let probing: Promise<void> = Promise.resolve();
  const probeAll = async () => {
    let primaryLsn: bigint | null = null;
    try {
      const { rows } = await primary.pool.query<{ lsn: string }>('SELECT pg_current_wal_lsn()::text AS lsn');
      primaryLsn = parseLsn(rows[0].lsn);
    } catch {
      // The primary is unreachable: the replicas' lag is unknown, their own state still is.
    }
    await Promise.all(replicas.map((replica) => probe(replica, primaryLsn)));
  };
  const schedule = () => {
    if (stopped) return;
    timer = setTimeout(() => {
      probing = probeAll().finally(schedule);
    }, topology.replicaProbeMs);
    timer.unref();
  };
  probing = probeAll().finally(schedule);

  /** Waits until `replica` has replayed `lsn`, for at most the configured bound. */
  async function caughtUp(replica: Replica, lsn: bigint): Promise<boolean> {
    if (replica.replayed >= lsn) return true;
    const deadline = Date.now() + topology.replicaWaitMs;
    for (;;) {
      const { rows } = await replica.pool.query<{ replayed: string | null }>('SELECT pg_last_wal_replay_lsn()::text AS replayed');
      const replayed = rows[0].replayed ? parseLsn(rows[0].replayed) : 0n;
      if (replayed > replica.replayed) replica.replayed = replayed;
      if (replayed >= lsn) return true;
      if (Date.now() + POLL_MS > deadline) return false;
      await new Promise((resolve) => setTimeout(resolve, POLL_MS));
    }
  }

  let next = 0;
  /** The replica this read should use, or null for the primary. */
  async function choose(): Promise<Replica | null> {
    const tokenId = currentTokenId();
    const lsn = tokenId === null ? undefined : primary.commits.lastCommit(tokenId);
    for (let tried = 0; tried < replicas.length; tried++) {
      const replica = replicas[next++ % replicas.length];
      if (!healthy(replica)) continue;
      if (lsn === undefined) return replica;
      try {
        if (await caughtUp(replica, lsn)) return replica;
      } catch (error) {
        if (!replicaFault(error)) throw error;
        replica.up = false;
        continue;
      }
      // Not caught up within the bound: the primary has the write; waiting on another replica would double the bound.
      return null;
    }
    return null;
  }

  return {
    per<R>(build: (db: Db) => R): RoutedReader<R> {
      const onPrimary = build(primary.db);
      const onReplica = new Map(replicas.map((replica) => [replica, build(replica.db)]));
      return {
        async run<T>(read: (reader: R) => Promise<T>): Promise<T> {
          const replica = replicas.length ? await choose() : null;
          if (replica) {
            try {
              const result = await read(onReplica.get(replica)!);
              replica.reads++;
              return result;
            } catch (error) {
              if (!replicaFault(error)) throw error;
              replica.up = false;
            }
          }
          fallbacks++;
          return read(onPrimary);
        },
      };
    },
    status: () => replicas.map(({ name, up, lagBytes, lagSeconds, reads }) => ({ name, up, lagBytes, lagSeconds, reads })),
    primaryFallbacks: () => fallbacks,
    close: async () => {
      stopped = true;
      if (timer) clearTimeout(timer);
      await probing.catch(() => {});
      await Promise.all(replicas.map((replica) => replica.pool.end().catch(() => {})));
    },
  };
}
