/**
 * The only reader of process.env. Every variable is parsed here or in the config.*.ts files it
 * calls (database, server edges, the stdio MCP identity); every problem is reported at once, each
 * naming the variable and what would fix it.
 */
import type { LogLevel } from './lib/logger.js';
import { parseSettingsKey, type SettingsKey } from './domains/settings/settings.crypto.js';
import { readDatabase, type DatabaseConfig } from './config.database.js';
import { ConfigError, envReaders, isHttpUrl, type Env } from './config.env.js';
import { readOps, readSecurity, type LimitsConfig, type OpsConfig, type SecurityConfig } from './config.server.js';

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

/** Parses the environment. Throws ConfigError listing every problem found. */
export function loadConfig(env: Env = process.env): BurrowConfig {
  const problems: string[] = [];
  const { read, int, bool } = envReaders(env, problems);

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
