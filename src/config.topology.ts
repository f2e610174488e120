/**
 * The external lifecycle's topology settings beyond the one primary URL: a direct connection for
 * what a transaction pooler cannot carry (BURROW_POSTGRES_DIRECT_URL), and hot standbys for the
 * reads that may lag (BURROW_POSTGRES_REPLICA_URLS). docs/scaling.md, "Through PgBouncer" and
 * "Read replicas".
 */
import type { EnvReaders } from './config.env.js';

export interface TopologyUrl {
  connectionString: string;
  /** host:port/database, never the password. */
  display: string;
}

export interface TopologyConfig {
  /**
   * Set: BURROW_POSTGRES_URL goes through a transaction pooler (PgBouncer `pool_mode =
   * transaction`). Pooled statements are then sent unnamed, and LISTEN, the owners' session
   * locks and migrations use this direct connection instead.
   */
  direct: TopologyUrl | null;
  /** Hot standbys for the reads that may lag (db/replicas.ts). Empty: every read on the primary. */
  replicas: TopologyUrl[];
  /** How long a read waits on a replica for the reading token's last commit before it reads on the primary. */
  replicaWaitMs: number;
  /** A replica whose replay is this far behind is skipped until it catches up. */
  replicaMaxLagSeconds: number;
  /** How often each replica's lag is read (and a dead one retried). */
  replicaProbeMs: number;
}

function parseUrl(variable: string, raw: string, problems: string[]): TopologyUrl | null {
  let url: URL;
  try {
    url = new URL(raw);
    if (url.protocol !== 'postgres:' && url.protocol !== 'postgresql:') throw new Error('protocol');
  } catch {
    problems.push(`${variable} has "${raw.replace(/:[^:@/]*@/, ':***@')}", which is not a postgres:// URL`);
    return null;
  }
  // One TLS setting for every connection: BURROW_POSTGRES_TLS (and its CA file) applies here too.
  for (const param of ['sslmode', 'ssl', 'sslrootcert', 'sslcert', 'sslkey']) {
    if (url.searchParams.has(param)) problems.push(`${variable} has ${param}: remove it; BURROW_POSTGRES_TLS chooses TLS for every connection`);
  }
  return { connectionString: url.toString(), display: `${url.hostname}:${url.port || 5432}${url.pathname}` };
}

export function readTopology(read: EnvReaders['read'], int: EnvReaders['int'], problems: string[]): TopologyConfig {
  const directRaw = read('BURROW_POSTGRES_DIRECT_URL');
  const replicasRaw = read('BURROW_POSTGRES_REPLICA_URLS');
  const replicas = (replicasRaw ?? '')
    .split(',')
    .map((part) => part.trim())
    .filter(Boolean)
    .map((raw) => parseUrl('BURROW_POSTGRES_REPLICA_URLS', raw, problems))
    .filter((url): url is TopologyUrl => url !== null);
  return {
    direct: directRaw ? parseUrl('BURROW_POSTGRES_DIRECT_URL', directRaw, problems) : null,
    replicas,
    replicaWaitMs: int('BURROW_POSTGRES_REPLICA_WAIT_MS', 250, 0, 10_000),
    replicaMaxLagSeconds: int('BURROW_POSTGRES_REPLICA_MAX_LAG_S', 30, 1, 3600),
    replicaProbeMs: int('BURROW_POSTGRES_REPLICA_PROBE_MS', 1000, 50, 60_000),
  };
}

/** No pooler, no replica: what every lifecycle but a configured external one has. */
export const SINGLE_SERVER: TopologyConfig = { direct: null, replicas: [], replicaWaitMs: 250, replicaMaxLagSeconds: 30, replicaProbeMs: 1000 };
