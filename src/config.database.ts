/**
 * The database settings: which lifecycle (embedded, external, managed) and what it needs.
 */
import { readFileSync } from 'node:fs';
import type { EnvReaders } from './config.env.js';
import { readTopology, type TopologyConfig } from './config.topology.js';
import { describeHosts, splitHosts, WRITABLE_SESSION_ATTRS, type HostPort } from './db/multi-host.js';

export type Lifecycle = 'embedded' | 'external' | 'managed';
export type TlsMode = 'disable' | 'verify-full';

export interface ExternalDatabaseConfig {
  lifecycle: 'external';
  /** Connection string without TLS parameters; TLS is carried by `ssl`. */
  connectionString: string;
  /**
   * Several hosts (libpq's `postgresql://h1:p1,h2:p2/db`): the connection string names the first,
   * and each connection goes to whichever of them is the read-write primary (db/primary-router.ts).
   * Absent or empty: the connection string's own host.
   */
  hosts?: HostPort[];
  /** What the banner and errors may show: never the password. */
  display: string;
  tls: TlsMode;
  caPem: string | null;
  requiredMajor: number;
  poolMax: number;
  /** How long startup keeps retrying an unreachable server before giving up. */
  connectTimeoutSeconds: number;
  /** A pooler's direct URL and read replicas (config.topology.ts); absent: one server for everything. */
  topology?: TopologyConfig;
}

export interface EmbeddedDatabaseConfig {
  lifecycle: 'embedded';
  /** A directory, or `memory://` for a throwaway database. */
  dataDir: string;
}

export interface ManagedDatabaseConfig {
  lifecycle: 'managed';
  /** Burrow's own cluster: `postgres/` (PGDATA), `socket/` (the private Unix socket), `postgres.log`. */
  dataDir: string;
  requiredMajor: number;
  poolMax: number;
  /** Restarts of a postmaster that died, allowed within MANAGED_RESTART_WINDOW_MS, before Burrow exits. */
  restartLimit: number;
}

export type DatabaseConfig = ExternalDatabaseConfig | EmbeddedDatabaseConfig | ManagedDatabaseConfig;

const LIFECYCLES = ['embedded', 'external', 'managed'] as const;

export function readDatabase(read: EnvReaders['read'], int: EnvReaders['int'], problems: string[]): DatabaseConfig | null {
  const lifecycleVar = read('BURROW_POSTGRES_LIFECYCLE') !== undefined ? 'BURROW_POSTGRES_LIFECYCLE' : 'BURROW_POSTGRES_MODE';
  const lifecycle = read(lifecycleVar)?.toLowerCase();
  if (lifecycle === undefined || lifecycle === 'disabled') {
    problems.push(
      'BURROW_POSTGRES_LIFECYCLE is unset, which means "disabled": set it to embedded (PGlite in ./.burrow/data, what `npm start` uses), external (an existing PostgreSQL server) or managed',
    );
    return null;
  }
  if (!(LIFECYCLES as readonly string[]).includes(lifecycle)) {
    problems.push(`${lifecycleVar}="${lifecycle}" must be one of embedded, external, managed`);
    return null;
  }
  // Shared by external and managed: the version floor and the pool size.
  const serverSettings = () => ({
    requiredMajor: int('BURROW_POSTGRES_REQUIRED_MAJOR', 17, 9, 99),
    poolMax: int('BURROW_POSTGRES_POOL_MAX', 10, 1, 200),
  });
  if (lifecycle === 'managed') {
    // The seed: managed startup uses the current OS user and the postgres database over the
    // private socket, so URL, host, user and password settings are deliberately not read here.
    return {
      lifecycle: 'managed',
      dataDir: read('BURROW_DATA_DIR') ?? './.burrow/managed',
      ...serverSettings(),
      restartLimit: int('BURROW_POSTGRES_RESTART_LIMIT', 3, 0, 100),
    };
  }
  if (lifecycle === 'embedded') {
    return { lifecycle: 'embedded', dataDir: read('BURROW_DATA_DIR') ?? './.burrow/data' };
  }

  const tlsRaw = (read('BURROW_POSTGRES_TLS') ?? 'disable').toLowerCase();
  let tls: TlsMode = 'disable';
  if (tlsRaw === 'disable' || tlsRaw === 'verify-full') tls = tlsRaw;
  else problems.push(`BURROW_POSTGRES_TLS="${tlsRaw}" must be disable or verify-full`);

  let caPem: string | null = null;
  const caFile = read('BURROW_POSTGRES_CA_FILE');
  if (caFile) {
    if (tls !== 'verify-full') problems.push('BURROW_POSTGRES_CA_FILE is only valid with BURROW_POSTGRES_TLS=verify-full');
    else {
      try {
        caPem = readFileSync(caFile, 'utf8');
        if (!caPem.includes('-----BEGIN CERTIFICATE-----')) problems.push(`BURROW_POSTGRES_CA_FILE="${caFile}" is not a PEM certificate`);
      } catch {
        problems.push(`BURROW_POSTGRES_CA_FILE="${caFile}" cannot be read`);
      }
    }
  }

  const urlVar = read('BURROW_POSTGRES_URL') !== undefined ? 'BURROW_POSTGRES_URL' : read('DATABASE_URL') !== undefined ? 'DATABASE_URL' : null;
  let url: URL;
  let hosts: HostPort[] = [];
  if (urlVar) {
    const split = splitHosts(read(urlVar)!);
    if (!split) {
      problems.push(`${urlVar} is not a postgres:// URL (several hosts are written host1:port1,host2:port2)`);
      return null;
    }
    hosts = split.hosts;
    const raw = split.firstHostUrl;
    try {
      url = new URL(raw);
      if (url.protocol !== 'postgres:' && url.protocol !== 'postgresql:') throw new Error('protocol');
    } catch {
      problems.push(`${urlVar} is not a postgres:// URL`);
      return null;
    }
    const sslParams = ['sslmode', 'ssl', 'sslrootcert', 'sslcert', 'sslkey'].filter((p) => url.searchParams.has(p));
    for (const param of sslParams) {
      const value = url.searchParams.get(param)!;
      const agrees =
        (param === 'sslmode' && value === tls) ||
        (param === 'ssl' && ((tls === 'disable' && ['0', 'false'].includes(value)) || (tls === 'verify-full' && ['1', 'true'].includes(value))));
      if (!agrees) {
        problems.push(`${urlVar} has ${param}=${value}, which conflicts with BURROW_POSTGRES_TLS=${tls}: remove it from the URL and choose TLS with BURROW_POSTGRES_TLS`);
      }
      url.searchParams.delete(param);
    }
    // Burrow writes: whatever the URL says, it connects only to a read-write server.
    const sessionAttrs = url.searchParams.get('target_session_attrs');
    if (sessionAttrs !== null && !WRITABLE_SESSION_ATTRS.includes(sessionAttrs)) {
      problems.push(`${urlVar} has target_session_attrs=${sessionAttrs}, but Burrow writes and always connects to the read-write server: use read-write or leave it out`);
    }
    url.searchParams.delete('target_session_attrs');
  } else {
    url = new URL('postgres://localhost');
    url.hostname = read('BURROW_POSTGRES_HOST') ?? 'localhost';
    url.port = String(int('BURROW_POSTGRES_PORT', 5432, 1, 65535));
    url.pathname = `/${encodeURIComponent(read('BURROW_POSTGRES_DATABASE') ?? 'postgres')}`;
    url.username = encodeURIComponent(read('BURROW_POSTGRES_USER') ?? 'postgres');
    const password = read('BURROW_POSTGRES_PASSWORD');
    if (password) url.password = encodeURIComponent(password);
  }
  const display = `${hosts.length > 0 ? describeHosts(hosts) : `${url.hostname}:${url.port || 5432}`}${url.pathname}`;
  return {
    lifecycle: 'external',
    connectionString: url.toString(),
    ...(hosts.length > 0 ? { hosts } : {}),
    display,
    tls,
    caPem,
    ...serverSettings(),
    connectTimeoutSeconds: int('BURROW_POSTGRES_CONNECT_TIMEOUT_S', 30, 0, 3600),
    topology: readTopology(read, int, problems),
  };
}
