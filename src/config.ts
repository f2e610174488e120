/**
 * The only reader of process.env. Every variable is parsed here; every problem is reported at
 * once, each naming the variable and what would fix it.
 */
import { readFileSync } from 'node:fs';
import { z } from 'zod';
import type { LogLevel } from './lib/logger.js';

export type Lifecycle = 'embedded' | 'external' | 'managed';
export type TlsMode = 'disable' | 'verify-full';

export interface ExternalDatabaseConfig {
  lifecycle: 'external';
  /** Connection string without TLS parameters; TLS is carried by `ssl`. */
  connectionString: string;
  /** What the banner and errors may show: never the password. */
  display: string;
  tls: TlsMode;
  caPem: string | null;
  requiredMajor: number;
  poolMax: number;
}

export interface EmbeddedDatabaseConfig {
  lifecycle: 'embedded';
  /** A directory, or `memory://` for a throwaway database. */
  dataDir: string;
}

export type DatabaseConfig = ExternalDatabaseConfig | EmbeddedDatabaseConfig;

export interface BurrowConfig {
  port: number;
  host: string;
  graphiql: boolean;
  logLevel: LogLevel;
  database: DatabaseConfig;
  events: { retentionDays: number };
  workingMemory: { defaultTtlDays: number };
  retention: { graceDays: number; intervalSeconds: number };
  /** indexIntervalMs: how often the background indexer looks for unembedded Brain memories (0: never). */
  embeddings: { url: string; model: string; apiKey: string | null; timeoutMs: number; indexIntervalMs: number } | null;
  tiddle: {
    scheduler: boolean;
    proposer: { kind: 'noop' } | { kind: 'openai'; url: string; model: string; apiKey: string | null; timeoutMs: number };
  };
  continuity: { reconcileIntervalSeconds: number };
  /** Ownership sessions (runtimeOwnership): live owners per agent, and owner connections on the database (0: max_connections / 4). */
  owners: { perAgent: number; max: number };
  /** last_used_at is written at most once per interval per token; open connections' tokens are rechecked every recheckSeconds. */
  tokens: { lastUsedIntervalSeconds: number; recheckSeconds: number };
  /** Per-token token bucket, per instance: perSecond refill (0: off), burst capacity. */
  rateLimit: { perSecond: number; burst: number };
}

export class ConfigError extends Error {
  constructor(readonly problems: string[]) {
    super(`Burrow cannot start:\n${problems.map((p) => `  - ${p}`).join('\n')}`);
  }
}

type Env = Record<string, string | undefined>;

const LIFECYCLES = ['embedded', 'external', 'managed'] as const;

/** Parses the environment. Throws ConfigError listing every problem found. */
export function loadConfig(env: Env = process.env): BurrowConfig {
  const problems: string[] = [];
  const read = (name: string): string | undefined => {
    const value = env[name];
    return value === undefined || value.trim() === '' ? undefined : value.trim();
  };
  const int = (name: string, fallback: number, min: number, max: number): number => {
    const raw = read(name);
    if (raw === undefined) return fallback;
    const parsed = z.coerce.number().int().min(min).max(max).safeParse(raw);
    if (!parsed.success) {
      problems.push(`${name}="${raw}" must be a whole number from ${min} to ${max}`);
      return fallback;
    }
    return parsed.data;
  };
  const bool = (name: string, fallback: boolean): boolean => {
    const raw = read(name)?.toLowerCase();
    if (raw === undefined) return fallback;
    if (['1', 'true', 'yes', 'on'].includes(raw)) return true;
    if (['0', 'false', 'no', 'off'].includes(raw)) return false;
    problems.push(`${name}="${raw}" must be true or false`);
    return fallback;
  };

  const logLevelRaw = read('BURROW_LOG_LEVEL') ?? 'info';
  const logLevel = (['debug', 'info', 'warn', 'error', 'silent'].includes(logLevelRaw) ? logLevelRaw : 'info') as LogLevel;
  if (logLevel !== logLevelRaw) problems.push(`BURROW_LOG_LEVEL="${logLevelRaw}" must be one of debug, info, warn, error, silent`);

  const database = readDatabase(read, int, problems);

  let embeddings: BurrowConfig['embeddings'] = null;
  const embeddingsUrl = read('BURROW_EMBEDDINGS_URL');
  if (embeddingsUrl) {
    if (!isHttpUrl(embeddingsUrl)) problems.push(`BURROW_EMBEDDINGS_URL="${embeddingsUrl}" must be an http(s) URL of an OpenAI-compatible API (…/v1)`);
    const model = read('BURROW_EMBEDDINGS_MODEL');
    if (!model) problems.push('BURROW_EMBEDDINGS_MODEL is required when BURROW_EMBEDDINGS_URL is set (the embedding model name)');
    embeddings = {
      url: embeddingsUrl,
      model: model ?? '',
      apiKey: read('BURROW_EMBEDDINGS_KEY') ?? null,
      timeoutMs: int('BURROW_EMBEDDINGS_TIMEOUT_MS', 5000, 50, 120_000),
      indexIntervalMs: int('BURROW_EMBEDDINGS_INDEX_INTERVAL_MS', 5000, 0, 86_400_000),
    };
  }

  const proposerKind = read('BURROW_TIDDLE_PROPOSER') ?? 'noop';
  let proposer: BurrowConfig['tiddle']['proposer'] = { kind: 'noop' };
  if (proposerKind === 'openai') {
    const url = read('BURROW_TIDDLE_URL');
    const model = read('BURROW_TIDDLE_MODEL');
    if (!url || !isHttpUrl(url)) problems.push('BURROW_TIDDLE_URL must be the http(s) URL of an OpenAI-compatible API (…/v1) when BURROW_TIDDLE_PROPOSER=openai');
    if (!model) problems.push('BURROW_TIDDLE_MODEL is required when BURROW_TIDDLE_PROPOSER=openai');
    proposer = { kind: 'openai', url: url ?? '', model: model ?? '', apiKey: read('BURROW_TIDDLE_KEY') ?? null, timeoutMs: int('BURROW_TIDDLE_TIMEOUT_MS', 30_000, 100, 600_000) };
  } else if (proposerKind !== 'noop') {
    problems.push(`BURROW_TIDDLE_PROPOSER="${proposerKind}" must be noop (default) or openai`);
  }

  const config: BurrowConfig = {
    port: int('BURROW_PORT', 4000, 0, 65535),
    host: read('BURROW_HOST') ?? '127.0.0.1',
    graphiql: bool('BURROW_GRAPHIQL', read('NODE_ENV') !== 'production'),
    logLevel,
    database: database as DatabaseConfig,
    events: { retentionDays: int('BURROW_EVENT_RETENTION_DAYS', 30, 1, 36_500) },
    workingMemory: { defaultTtlDays: int('BURROW_WORKING_TTL_DAYS', 90, 1, 36_500) },
    retention: {
      graceDays: int('BURROW_RETENTION_GRACE_DAYS', 7, 0, 36_500),
      intervalSeconds: int('BURROW_RETENTION_INTERVAL_SECONDS', 3600, 0, 7 * 86_400),
    },
    embeddings,
    tiddle: { scheduler: bool('BURROW_TIDDLE_SCHEDULER', true), proposer },
    continuity: { reconcileIntervalSeconds: int('BURROW_CONTINUITY_RECONCILE_INTERVAL_SECONDS', 30, 0, 86_400) },
    owners: { perAgent: int('BURROW_OWNERS_PER_AGENT', 4, 1, 1000), max: int('BURROW_OWNERS_MAX', 0, 0, 100_000) },
    tokens: {
      lastUsedIntervalSeconds: int('BURROW_TOKEN_LAST_USED_INTERVAL_SECONDS', 60, 0, 86_400),
      recheckSeconds: int('BURROW_TOKEN_RECHECK_SECONDS', 10, 1, 3600),
    },
    rateLimit: { perSecond: int('BURROW_RATE_LIMIT_PER_SECOND', 50, 0, 1_000_000), burst: int('BURROW_RATE_LIMIT_BURST', 500, 1, 10_000_000) },
  };
  if (problems.length > 0) throw new ConfigError(problems);
  return config;
}

function isHttpUrl(value: string): boolean {
  try {
    const url = new URL(value);
    return url.protocol === 'http:' || url.protocol === 'https:';
  } catch {
    return false;
  }
}

function readDatabase(
  read: (name: string) => string | undefined,
  int: (name: string, fallback: number, min: number, max: number) => number,
  problems: string[],
): DatabaseConfig | null {
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
  if (lifecycle === 'managed') {
    problems.push(
      `${lifecycleVar}=managed is not available in this release (Burrow does not yet initialise its own PostgreSQL cluster); use embedded or external`,
    );
    return null;
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
  if (urlVar) {
    const raw = read(urlVar)!;
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
        problems.push(
          `${urlVar} has ${param}=${value}, which conflicts with BURROW_POSTGRES_TLS=${tls}: remove it from the URL and choose TLS with BURROW_POSTGRES_TLS`,
        );
      }
      url.searchParams.delete(param);
    }
  } else {
    url = new URL('postgres://localhost');
    url.hostname = read('BURROW_POSTGRES_HOST') ?? 'localhost';
    url.port = String(int('BURROW_POSTGRES_PORT', 5432, 1, 65535));
    url.pathname = `/${encodeURIComponent(read('BURROW_POSTGRES_DATABASE') ?? 'postgres')}`;
    url.username = encodeURIComponent(read('BURROW_POSTGRES_USER') ?? 'postgres');
    const password = read('BURROW_POSTGRES_PASSWORD');
    if (password) url.password = encodeURIComponent(password);
  }
  const display = `${url.hostname}:${url.port || 5432}${url.pathname}`;
  return {
    lifecycle: 'external',
    connectionString: url.toString(),
    display,
    tls,
    caPem,
    requiredMajor: int('BURROW_POSTGRES_REQUIRED_MAJOR', 17, 9, 99),
    poolMax: int('BURROW_POSTGRES_POOL_MAX', 10, 1, 200),
  };
}

/** The runtime identity of `burrow mcp --stdio`: what the HTTP transport reads from headers. */
export interface McpStdioIdentity {
  /** The agent's bearer token. */
  token: string;
  scope: string | null;
  sessionId: string | null;
  conversationId: string | null;
}

export const MCP_STDIO_VARIABLES = {
  token: 'BURROW_TOKEN',
  scope: 'BURROW_CONTINUITY_SCOPE',
  sessionId: 'BURROW_SESSION',
  conversationId: 'BURROW_CONVERSATION',
} as const;

/** Reads the stdio MCP identity; the token is required, blank values count as absent (like headers). */
export function loadMcpStdioIdentity(env: Env = process.env): McpStdioIdentity {
  const read = (name: string) => {
    const value = env[name]?.trim();
    return value ? value : null;
  };
  const token = read(MCP_STDIO_VARIABLES.token);
  if (!token) {
    throw new ConfigError([
      `${MCP_STDIO_VARIABLES.token} is unset: set it to the agent's token (npm run burrow -- token create --agent AGENT_ID --name NAME)`,
    ]);
  }
  return {
    token,
    scope: read(MCP_STDIO_VARIABLES.scope),
    sessionId: read(MCP_STDIO_VARIABLES.sessionId),
    conversationId: read(MCP_STDIO_VARIABLES.conversationId),
  };
}
