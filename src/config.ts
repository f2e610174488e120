/**
 * The only reader of process.env. Every variable is parsed here; every problem is reported at
 * once, each naming the variable and what would fix it.
 */
import { readFileSync } from 'node:fs';
import { z } from 'zod';
import type { LogLevel } from './lib/logger.js';
import { parseSettingsKey, type SettingsKey } from './domains/settings/settings.crypto.js';

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
  /** How long startup keeps retrying an unreachable server before giving up. */
  connectTimeoutSeconds: number;
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

export interface BurrowConfig {
  port: number;
  host: string;
  graphiql: boolean;
  logLevel: LogLevel;
  database: DatabaseConfig;
  /** subscriberBufferEvents: events queued for one subscriber that has not taken them yet; past it the subscriber catches up from the log on its own. */
  events: { retentionDays: number; subscriberBufferEvents: number };
  workingMemory: { defaultTtlDays: number };
  retention: { graceDays: number; intervalSeconds: number };
  /** indexIntervalMs: how often the background indexer looks for unembedded Brain memories (0: never). */
  embeddings: { url: string; model: string; apiKey: string | null; timeoutMs: number; indexIntervalMs: number } | null;
  tiddle: {
    scheduler: boolean;
    proposer: { kind: 'noop' } | { kind: 'openai'; url: string; model: string; apiKey: string | null; timeoutMs: number };
  };
  continuity: { reconcileIntervalSeconds: number };
  limits: LimitsConfig;
  security: SecurityConfig;
  ops: OpsConfig;
  /** BURROW_SETTINGS_KEY (current) and BURROW_SETTINGS_NEW_KEY (only `burrow settings rotate-key` reads it). */
  settings: { key: SettingsKey | null; newKey: SettingsKey | null };
  dreamDiary: { retentionDays: number };
  /** Ownership sessions (runtimeOwnership): live owners per agent, and owner connections on the database (0: max_connections / 4). */
  owners: { perAgent: number; max: number };
  /**
   * last_used_at is written at most once per interval per token; open connections' tokens are
   * rechecked every recheckSeconds; verified tokens are cached for cacheSeconds (0 = off), at most
   * cacheMax of them (revocation empties the entry at once: auth/token-cache.ts).
   */
  tokens: { lastUsedIntervalSeconds: number; recheckSeconds: number; cacheSeconds: number; cacheMax: number };
  /** Per-token token bucket, per instance: perSecond refill (0: off), burst capacity. */
  rateLimit: { perSecond: number; burst: number };
}

/** The server's edges (src/ops/): shutdown, metrics, tracing. */
export interface OpsConfig {
  /** How long in-flight requests may take to finish after SIGTERM/SIGINT. */
  shutdownGraceMs: number;
  /** A separate, token-less listener for /metrics (null: only the main port, with an operator token). */
  metrics: { port: number; host: string } | null;
  /** OpenTelemetry tracing over OTLP/HTTP when an endpoint is configured. */
  tracing: { endpoint: string; serviceName: string } | null;
}

/** Request limits, enforced in src/limits on every transport (docs/security.md lists them). */
export interface LimitsConfig {
  bodyBytes: number;
  maxTokens: number;
  maxDepth: number;
  maxAliases: number;
  maxDirectives: number;
  maxCost: number;
  maxMutationFields: number;
  wsMaxPayloadBytes: number;
  connectionInitBytes: number;
  subscriptionsPerSocket: number;
  subscriptionsPerToken: number;
}

export interface SecurityConfig {
  /** Who may run introspection queries. */
  introspection: 'all' | 'operators' | 'none';
  /** "Did you mean …" in validation errors. */
  fieldSuggestions: boolean;
  /** Origins allowed by CORS and on WebSocket upgrades (besides the server's own origin). */
  corsOrigins: string[];
  /** `agents`: agent tokens may only run documents from the trusted-documents manifest. */
  trustedDocuments: 'off' | 'agents';
}

export const DEFAULT_LIMITS: LimitsConfig = {
  // 4 MiB: the largest content limit (a conversation payload or summary, 1,000,000 characters)
  // still fits when every character takes four bytes of UTF-8, with room for the request around it.
  bodyBytes: 4_194_304,
  maxTokens: 2000,
  maxDepth: 12,
  maxAliases: 15,
  maxDirectives: 20,
  maxCost: 100_000,
  maxMutationFields: 10,
  // The same over graphql-ws: every content limit is reachable on every transport.
  wsMaxPayloadBytes: 4_194_304,
  connectionInitBytes: 16_384,
  subscriptionsPerSocket: 100,
  subscriptionsPerToken: 200,
};

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

  const settingsKey = (name: string): SettingsKey | null => {
    const raw = read(name);
    if (raw === undefined) return null;
    const parsed = parseSettingsKey(raw);
    // Never echo the value: it is the key.
    if (typeof parsed === 'string') problems.push(`${name} ${parsed} (e.g. \`openssl rand -base64 32\`)`);
    return typeof parsed === 'string' ? null : parsed;
  };

  const config: BurrowConfig = {
    port: int('BURROW_PORT', 4000, 0, 65535),
    host: read('BURROW_HOST') ?? '127.0.0.1',
    graphiql: bool('BURROW_GRAPHIQL', read('NODE_ENV') !== 'production'),
    logLevel,
    database: database as DatabaseConfig,
    events: {
      retentionDays: int('BURROW_EVENT_RETENTION_DAYS', 30, 1, 36_500),
      subscriberBufferEvents: int('BURROW_SUBSCRIBER_BUFFER_EVENTS', 1000, 1, 100_000),
    },
    workingMemory: { defaultTtlDays: int('BURROW_WORKING_TTL_DAYS', 90, 1, 36_500) },
    retention: {
      graceDays: int('BURROW_RETENTION_GRACE_DAYS', 7, 0, 36_500),
      intervalSeconds: int('BURROW_RETENTION_INTERVAL_SECONDS', 3600, 0, 7 * 86_400),
    },
    embeddings,
    tiddle: { scheduler: bool('BURROW_TIDDLE_SCHEDULER', true), proposer },
    continuity: { reconcileIntervalSeconds: int('BURROW_CONTINUITY_RECONCILE_INTERVAL_SECONDS', 30, 0, 86_400) },
    ops: readOps(read, int, problems),
    ...readSecurity(read, int, bool, problems),
    settings: { key: settingsKey('BURROW_SETTINGS_KEY'), newKey: settingsKey('BURROW_SETTINGS_NEW_KEY') },
    dreamDiary: { retentionDays: int('BURROW_DREAM_DIARY_RETENTION_DAYS', 365, 1, 36_500) },
    owners: { perAgent: int('BURROW_OWNERS_PER_AGENT', 4, 1, 1000), max: int('BURROW_OWNERS_MAX', 0, 0, 100_000) },
    tokens: {
      lastUsedIntervalSeconds: int('BURROW_TOKEN_LAST_USED_INTERVAL_SECONDS', 60, 0, 86_400),
      recheckSeconds: int('BURROW_TOKEN_RECHECK_SECONDS', 10, 1, 3600),
      cacheSeconds: int('BURROW_TOKEN_CACHE_SECONDS', 30, 0, 3600),
      cacheMax: int('BURROW_TOKEN_CACHE_MAX', 10_000, 1, 1_000_000),
    },
    rateLimit: { perSecond: int('BURROW_RATE_LIMIT_PER_SECOND', 50, 0, 1_000_000), burst: int('BURROW_RATE_LIMIT_BURST', 500, 1, 10_000_000) },
  };
  if (problems.length > 0) throw new ConfigError(problems);
  return config;
}

function readOps(read: (name: string) => string | undefined, int: (name: string, fallback: number, min: number, max: number) => number, problems: string[]): OpsConfig {
  const metricsPort = read('BURROW_METRICS_PORT') === undefined ? null : int('BURROW_METRICS_PORT', 0, 0, 65535);
  const otlp = read('OTEL_EXPORTER_OTLP_ENDPOINT');
  if (otlp && !isHttpUrl(otlp)) problems.push(`OTEL_EXPORTER_OTLP_ENDPOINT="${otlp}" must be the http(s) URL of an OTLP/HTTP collector (e.g. http://localhost:4318)`);
  return {
    shutdownGraceMs: int('BURROW_SHUTDOWN_GRACE_MS', 10_000, 0, 600_000),
    metrics: metricsPort === null ? null : { port: metricsPort, host: read('BURROW_METRICS_HOST') ?? read('BURROW_HOST') ?? '127.0.0.1' },
    tracing: otlp ? { endpoint: otlp, serviceName: read('OTEL_SERVICE_NAME') ?? 'burrow' } : null,
  };
}

function readSecurity(
  read: (name: string) => string | undefined,
  int: (name: string, fallback: number, min: number, max: number) => number,
  bool: (name: string, fallback: boolean) => boolean,
  problems: string[],
): Pick<BurrowConfig, 'limits' | 'security'> {
  const production = read('NODE_ENV') === 'production';
  const d = DEFAULT_LIMITS;
  const limits: LimitsConfig = {
    bodyBytes: int('BURROW_MAX_BODY_BYTES', d.bodyBytes, 1024, 1_073_741_824),
    maxTokens: int('BURROW_MAX_TOKENS', d.maxTokens, 10, 1_000_000),
    maxDepth: int('BURROW_MAX_DEPTH', d.maxDepth, 1, 1000),
    maxAliases: int('BURROW_MAX_ALIASES', d.maxAliases, 0, 100_000),
    maxDirectives: int('BURROW_MAX_DIRECTIVES', d.maxDirectives, 0, 100_000),
    maxCost: int('BURROW_MAX_COST', d.maxCost, 1, 1_000_000_000),
    maxMutationFields: int('BURROW_MAX_MUTATION_FIELDS', d.maxMutationFields, 1, 10_000),
    wsMaxPayloadBytes: int('BURROW_WS_MAX_PAYLOAD_BYTES', d.wsMaxPayloadBytes, 1024, 1_073_741_824),
    connectionInitBytes: int('BURROW_WS_CONNECTION_INIT_BYTES', d.connectionInitBytes, 256, 1_073_741_824),
    subscriptionsPerSocket: int('BURROW_SUBSCRIPTIONS_PER_SOCKET', d.subscriptionsPerSocket, 1, 1_000_000),
    subscriptionsPerToken: int('BURROW_SUBSCRIPTIONS_PER_TOKEN', d.subscriptionsPerToken, 1, 1_000_000),
  };
  const introspection = (read('BURROW_INTROSPECTION') ?? (production ? 'operators' : 'all')).toLowerCase();
  if (!['all', 'operators', 'none'].includes(introspection)) problems.push(`BURROW_INTROSPECTION="${introspection}" must be all, operators or none`);
  const trusted = (read('BURROW_TRUSTED_DOCUMENTS') ?? 'off').toLowerCase();
  if (!['off', 'agents'].includes(trusted)) problems.push(`BURROW_TRUSTED_DOCUMENTS="${trusted}" must be off or agents`);
  const corsOrigins: string[] = [];
  for (const entry of (read('BURROW_CORS_ORIGINS') ?? '')
    .split(',')
    .map((o) => o.trim())
    .filter(Boolean)) {
    let origin: string | null = null;
    try {
      const url = new URL(entry);
      if ((url.protocol === 'http:' || url.protocol === 'https:') && url.origin === entry.replace(/\/$/, '')) origin = url.origin;
    } catch {
      origin = null;
    }
    if (origin) corsOrigins.push(origin);
    else problems.push(`BURROW_CORS_ORIGINS entry "${entry}" must be an origin such as https://app.example.com (scheme, host and port only; no wildcard)`);
  }
  return {
    limits,
    security: {
      introspection: (['all', 'operators', 'none'].includes(introspection) ? introspection : 'operators') as SecurityConfig['introspection'],
      fieldSuggestions: bool('BURROW_FIELD_SUGGESTIONS', !production),
      corsOrigins,
      trustedDocuments: trusted === 'agents' ? 'agents' : 'off',
    },
  };
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
        problems.push(`${urlVar} has ${param}=${value}, which conflicts with BURROW_POSTGRES_TLS=${tls}: remove it from the URL and choose TLS with BURROW_POSTGRES_TLS`);
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
    ...serverSettings(),
    connectTimeoutSeconds: int('BURROW_POSTGRES_CONNECT_TIMEOUT_S', 30, 0, 3600),
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
    throw new ConfigError([`${MCP_STDIO_VARIABLES.token} is unset: set it to the agent's token (npm run burrow -- token create --agent AGENT_ID --name NAME)`]);
  }
  return {
    token,
    scope: read(MCP_STDIO_VARIABLES.scope),
    sessionId: read(MCP_STDIO_VARIABLES.sessionId),
    conversationId: read(MCP_STDIO_VARIABLES.conversationId),
  };
}
