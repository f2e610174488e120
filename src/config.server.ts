/**
 * The server's edge settings: request limits, security (introspection, CORS, trusted
 * documents) and operations (shutdown, metrics, tracing).
 */
import { isHttpUrl, type EnvReaders } from './config.env.js';

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
  /** The largest agent archive POST /agents/{id}/archive accepts (docs/agent-archive.md). */
  archiveBytes: number;
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
  // 1 GiB: an upload is spooled to a temporary file and read twice, never held in memory.
  archiveBytes: 1_073_741_824,
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

export function readOps(read: EnvReaders['read'], int: EnvReaders['int'], problems: string[]): OpsConfig {
  const metricsPort = read('BURROW_METRICS_PORT') === undefined ? null : int('BURROW_METRICS_PORT', 0, 0, 65535);
  const otlp = read('OTEL_EXPORTER_OTLP_ENDPOINT');
  if (otlp && !isHttpUrl(otlp)) problems.push(`OTEL_EXPORTER_OTLP_ENDPOINT="${otlp}" must be the http(s) URL of an OTLP/HTTP collector (e.g. http://localhost:4318)`);
  return {
    shutdownGraceMs: int('BURROW_SHUTDOWN_GRACE_MS', 10_000, 0, 600_000),
    metrics: metricsPort === null ? null : { port: metricsPort, host: read('BURROW_METRICS_HOST') ?? read('BURROW_HOST') ?? '127.0.0.1' },
    tracing: otlp ? { endpoint: otlp, serviceName: read('OTEL_SERVICE_NAME') ?? 'burrow' } : null,
  };
}

export function readSecurity(read: EnvReaders['read'], int: EnvReaders['int'], bool: EnvReaders['bool'], problems: string[]): { limits: LimitsConfig; security: SecurityConfig } {
  const production = read('NODE_ENV') === 'production';
  const d = DEFAULT_LIMITS;
  const limits: LimitsConfig = {
    bodyBytes: int('BURROW_MAX_BODY_BYTES', d.bodyBytes, 1024, 1_073_741_824),
    archiveBytes: int('BURROW_ARCHIVE_MAX_BYTES', d.archiveBytes, 1024, 1_099_511_627_776),
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
