/**
 * The external lifecycle's topology settings beyond the one primary URL: a direct connection for
 * what a transaction pooler cannot carry (BURROW_POSTGRES_DIRECT_URL), and hot standbys for the
 * reads that may lag (BURROW_POSTGRES_REPLICA_URLS). docs/scaling.md, "Through PgBouncer" and
 * "Read replicas".
 */
import type { EnvReaders } from './config.env.js';
import { describeHosts, splitHosts, WRITABLE_SESSION_ATTRS, type HostPort } from './db/multi-host.js';

export interface TopologyUrl {
  connectionString: string;
  /** host:port/database, never the password. */
  display: string;
  /** Several hosts (libpq's `h1:p1,h2:p2`, the direct URL only): connect to the read-write one. */
  hosts?: HostPort[];
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

function parseUrl(variable: string, raw: string, problems: string[], multiHost = false): TopologyUrl | null {
  // The direct URL names the same servers as BURROW_POSTGRES_URL does, so after a failover LISTEN,
  // the owners' locks and migrations follow the primary too (db/primary-router.ts). A standby
  // stays one server: each replica URL is probed on its own (db/replicas.ts).
  const split = multiHost ? splitHosts(raw) : { hosts: [], firstHostUrl: raw };
  let url: URL;
  try {
    if (!split) throw new Error('hosts');
    url = new URL(split.firstHostUrl);
    if (url.protocol !== 'postgres:' && url.protocol !== 'postgresql:') throw new Error('protocol');
  } catch {
    problems.push(`${variable} has "${raw.replace(/:[^:@/]*@/, ':***@')}", which is not a postgres:// URL`);
    return null;
  }
  // One TLS setting for every connection: BURROW_POSTGRES_TLS (and its CA file) applies here too.
  for (const param of ['sslmode', 'ssl', 'sslrootcert', 'sslcert', 'sslkey']) {
    if (url.searchParams.has(param)) problems.push(`${variable} has ${param}: remove it; BURROW_POSTGRES_TLS chooses TLS for every connection`);
  }
  const hosts = split.hosts;
  if (multiHost) {
    // As for BURROW_POSTGRES_URL: these connections lock and migrate, so only the read-write server will do.
    const sessionAttrs = url.searchParams.get('target_session_attrs');
    if (sessionAttrs !== null && !WRITABLE_SESSION_ATTRS.includes(sessionAttrs)) {
      problems.push(`${variable} has target_session_attrs=${sessionAttrs}, but Burrow writes and always connects to the read-write server: use read-write or leave it out`);
    }
    url.searchParams.delete('target_session_attrs');
  }
  const display = `${hosts.length > 0 ? describeHosts(hosts) : `${url.hostname}:${url.port || 5432}`}${url.pathname}`;
  return { connectionString: url.toString(), display, ...(hosts.length > 0 ? { hosts } : {}) };
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
    direct: directRaw ? parseUrl('BURROW_POSTGRES_DIRECT_URL', directRaw, problems, true) : null,
    replicas,
    replicaWaitMs: int('BURROW_POSTGRES_REPLICA_WAIT_MS', 250, 0, 10_000),
    replicaMaxLagSeconds: int('BURROW_POSTGRES_REPLICA_MAX_LAG_S', 30, 1, 3600),
    replicaProbeMs: int('BURROW_POSTGRES_REPLICA_PROBE_MS', 1000, 50, 60_000),
  };
}

/** No pooler, no replica: what every lifecycle but a configured external one has. */
export const SINGLE_SERVER: TopologyConfig = { direct: null, replicas: [], replicaWaitMs: 250, replicaMaxLagSeconds: 30, replicaProbeMs: 1000 };
