/**
 * The runtime SDK: typed methods (generated from client/operations) over HTTP, with
 * subscriptions (and, on request, any operation) over graphql-ws. The continuity scope, session
 * and conversation are the runtime's choice and travel as headers / connectionParams.
 */
import type { DocumentNode } from 'graphql';
import { createClient, type Client as WsClient } from 'graphql-ws';
import WebSocket from 'ws';
import { documentHash, documentText } from './document-hash.js';
import { getSdk, type Requester } from './generated/sdk.js';
import { SCHEMA_HASH } from './generated/schema-hash.js';
import { planOf, planOfText, withRetries, type RetryOptions, type RetryPlan } from './retry.js';

export * from './generated/sdk.js';
export { SCHEMA_HASH };
export type { RetryOptions };

/** The response header (and graphql-ws connection_ack field `schemaHash`) naming the server's schema. */
export const SCHEMA_HASH_HEADER = 'burrow-schema-hash';

export interface SchemaMismatch {
  /** SHA-256 of the schema.graphql this client was generated from. */
  client: string;
  /** What the server announced. */
  server: string;
}

export interface BurrowClientOptions {
  /** The GraphQL endpoint, e.g. http://127.0.0.1:4000/graphql */
  url: string;
  token: string;
  /** Continuity scope (the seeds' `project`), chosen by the runtime. */
  scope?: string | null;
  session?: string | null;
  conversation?: string | null;
  /**
   * How the generated methods send their documents: `hash` (default) sends only the SHA-256 of
   * the text (persistedQuery extension), which a server with BURROW_TRUSTED_DOCUMENTS=agents
   * requires of agent tokens; `text` sends the document itself. `request` always sends text.
   */
  documents?: 'hash' | 'text';
  /**
   * Called once per client when the server's schema hash differs from SCHEMA_HASH (a server
   * newer or older than this package): operations may fail validation or miss new fields.
   * Default: one console.warn. `false`: no check.
   */
  onSchemaMismatch?: ((mismatch: SchemaMismatch) => void) | false;
  /**
   * Resending over HTTP after DATABASE_UNAVAILABLE (honouring Retry-After) or a lost connection:
   * queries, and mutations that take an idempotency key, each sent with one Idempotency-Key that
   * every attempt repeats (docs/idempotency.md). Default 4 attempts; `false`: never resend (and no key).
   */
  retry?: RetryOptions | false;
}

export interface CallOptions {
  /** Send a query or mutation over the WebSocket instead of HTTP. */
  transport?: 'http' | 'ws';
}

export interface GraphQLErrorShape {
  message: string;
  path?: (string | number)[];
  extensions?: { code?: string; [key: string]: unknown };
}

/** A request-level failure (authentication, scope, agent binding, cursor, bad input). */
export class BurrowRequestError extends Error {
  readonly code: string;
  /** Seconds to wait before retrying, when the server said (Retry-After); null otherwise. */
  readonly retryAfterSeconds: number | null;
  constructor(
    readonly errors: GraphQLErrorShape[],
    readonly status: number,
    retryAfterHeader: string | null = null,
  ) {
    super(errors.map((e) => e.message).join('; '));
    this.name = new.target.name;
    this.code = errors[0]?.extensions?.code ?? 'UNKNOWN';
    const fromExtensions = errors[0]?.extensions?.retryAfterSeconds;
    const seconds = typeof fromExtensions === 'number' ? fromExtensions : retryAfterHeader !== null ? Number(retryAfterHeader) : NaN;
    this.retryAfterSeconds = Number.isFinite(seconds) ? seconds : null;
  }
  /** Whether sending the same request again later can succeed (nothing was changed). */
  get retryable(): boolean {
    return false;
  }
}

/** DATABASE_UNAVAILABLE: the server lost its database for the moment; retry after retryAfterSeconds (default 1). */
export class DatabaseUnavailableError extends BurrowRequestError {
  override get retryable(): boolean {
    return true;
  }
}

/** RATE_LIMITED: this token exceeded its request rate; retry after retryAfterSeconds. */
export class RateLimitedError extends BurrowRequestError {
  override get retryable(): boolean {
    return true;
  }
}

/** The typed error for a failed request: a subclass for the codes a caller retries. */
export function requestErrorOf(errors: GraphQLErrorShape[], status: number, retryAfterHeader: string | null = null): BurrowRequestError {
  const code = errors[0]?.extensions?.code;
  if (code === 'DATABASE_UNAVAILABLE') return new DatabaseUnavailableError(errors, status, retryAfterHeader ?? '1');
  if (code === 'RATE_LIMITED') return new RateLimitedError(errors, status, retryAfterHeader);
  return new BurrowRequestError(errors, status, retryAfterHeader);
}

function headersOf(options: BurrowClientOptions): Record<string, string> {
  const headers: Record<string, string> = { authorization: `Bearer ${options.token}` };
  if (options.scope) headers['burrow-continuity-scope'] = options.scope;
  if (options.session) headers['burrow-session'] = options.session;
  if (options.conversation) headers['burrow-conversation'] = options.conversation;
  return headers;
}

export function createBurrowClient(options: BurrowClientOptions) {
  let schemaChecked = options.onSchemaMismatch === false;
  const checkSchema = (server: unknown) => {
    if (schemaChecked || typeof server !== 'string' || !server) return;
    schemaChecked = true;
    if (server === SCHEMA_HASH) return;
    const report =
      options.onSchemaMismatch ||
      ((m: SchemaMismatch) =>
        console.warn(`@burrow/client: the server's schema (${m.server.slice(0, 12)}…) differs from this client's (${m.client.slice(0, 12)}…); regenerate or upgrade the client`));
    report({ client: SCHEMA_HASH, server });
  };

  let ws: WsClient | null = null;
  const socket = () =>
    (ws ??= createClient({
      url: options.url.replace(/^http/, 'ws'),
      webSocketImpl: WebSocket,
      connectionParams: headersOf(options),
      lazy: true,
      retryAttempts: 0,
      on: { connected: (_socket, payload) => checkSchema((payload as { schemaHash?: unknown } | undefined)?.schemaHash) },
    }));

  /** What identifies the document on the wire: its text, or the hash of a trusted document. */
  type Operation = { query: string; hash?: string };
  const wire = (operation: Operation) => (operation.hash ? { query: '', extensions: { persistedQuery: { version: 1, sha256Hash: operation.hash } } } : { query: operation.query });
  // A server built from other operations does not know the hash: the text is the fallback.
  const unknownHash = (error: unknown) => error instanceof BurrowRequestError && error.code === 'PERSISTED_QUERY_NOT_FOUND';

  /**
   * One logical call over HTTP: every attempt sends the same Idempotency-Key (retry.ts). With
   * `retry: false` there is no resend and so no key: the call is sent exactly as written.
   */
  function overHttp<R>(operation: Operation, variables: unknown, plan: RetryPlan): Promise<R> {
    if (options.retry === false) return sendHttp<R>(operation, variables, null);
    return withRetries(plan, options.retry ?? {}, () => sendHttp<R>(operation, variables, plan.idempotencyKey));
  }

  async function sendHttp<R>(operation: Operation, variables: unknown, idempotencyKey: string | null): Promise<R> {
    const { query, ...rest } = wire(operation);
    const response = await fetch(options.url, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        accept: 'application/graphql-response+json, application/json',
        ...headersOf(options),
        ...(idempotencyKey ? { 'idempotency-key': idempotencyKey } : {}),
      },
      body: JSON.stringify({ ...(query ? { query } : {}), ...rest, variables }),
    });
    checkSchema(response.headers.get(SCHEMA_HASH_HEADER));
    const body = (await response.json()) as { data?: R; errors?: GraphQLErrorShape[] };
    if (body.errors?.length) {
      const error = requestErrorOf(body.errors, response.status, response.headers.get('retry-after'));
      if (operation.hash && unknownHash(error)) return sendHttp({ query: operation.query }, variables, idempotencyKey);
      throw error;
    }
    return body.data as R;
  }

  async function overWs<R>(operation: Operation, variables: unknown): Promise<R> {
    try {
      for await (const result of iterate<R>(operation, variables)) return result;
    } catch (error) {
      if (operation.hash && unknownHash(error)) return overWs({ query: operation.query }, variables);
      throw error;
    }
    throw new Error('the server closed the operation without a result');
  }

  /**
   * A plain iterator rather than an async generator: a generator suspended in `await` cannot be
   * returned early, so a consumer that stops listening would hang until the next event.
   */
  function iterate<R>(operation: Operation, variables: unknown): AsyncIterableIterator<R> {
    const results = socket().iterate<R>({ ...wire(operation), variables: variables as Record<string, unknown> });
    const iterator: AsyncIterableIterator<R> = {
      async next() {
        let next: IteratorResult<{ data?: unknown; errors?: readonly unknown[] }>;
        try {
          next = await results.next();
        } catch (error) {
          // An operation the server refused before running it (validation, rate limit) arrives
          // as a graphql-ws `error` message: the errors themselves, thrown.
          if (Array.isArray(error)) throw requestErrorOf(error as GraphQLErrorShape[], 200);
          throw error;
        }
        if (next.done) return { done: true, value: undefined };
        if (next.value.errors?.length) {
          await results.return?.(undefined);
          throw requestErrorOf(next.value.errors as GraphQLErrorShape[], 200);
        }
        return { done: false, value: next.value.data as R };
      },
      async return() {
        await results.return?.(undefined);
        return { done: true, value: undefined };
      },
      [Symbol.asyncIterator]: () => iterator,
    };
    return iterator;
  }

  const operations = new WeakMap<DocumentNode, Operation>();
  const requester: Requester<CallOptions> = <R, V>(document: DocumentNode, variables?: V, call?: CallOptions) => {
    let operation = operations.get(document);
    if (operation === undefined) {
      const query = documentText(document);
      operations.set(document, (operation = options.documents === 'text' ? { query } : { query, hash: documentHash(query) }));
    }
    if (/^\s*subscription\b/.test(operation.query)) return iterate<R>(operation, variables);
    return call?.transport === 'ws' ? overWs<R>(operation, variables) : overHttp<R>(operation, variables, planOf(document));
  };

  return {
    ...getSdk(requester),
    /** Any operation by text, for what the generated methods do not cover. */
    request: <R = unknown>(query: string, variables?: Record<string, unknown>, call?: CallOptions) =>
      call?.transport === 'ws' ? overWs<R>({ query }, variables) : overHttp<R>({ query }, variables, planOfText(query)),
    subscribe: <R = unknown>(query: string, variables?: Record<string, unknown>) => iterate<R>({ query }, variables),
    options,
    async close() {
      await ws?.dispose();
      ws = null;
    },
  };
}

export type BurrowClient = ReturnType<typeof createBurrowClient>;

/** Where an agent archive request goes: the GraphQL endpoint's server, with an operator token. */
export interface ArchiveTarget {
  /** The GraphQL endpoint, e.g. http://127.0.0.1:4000/graphql; archives live at /agents/{id}/archive beside it. */
  url: string;
  token: string;
}

/** What an import answers (docs/agent-archive.md). */
export interface AgentArchiveImport {
  agentId: string;
  fromAgentId: string;
  replaced: boolean;
  counts: Record<string, number>;
  rows: number;
}

/** A refused archive request: `code` is BAD_ARCHIVE, ALREADY_EXISTS, NOT_FOUND, LIMIT_EXCEEDED, FORBIDDEN, … */
export class AgentArchiveError extends Error {
  constructor(
    readonly code: string,
    readonly status: number,
    message: string,
  ) {
    super(message);
    this.name = 'AgentArchiveError';
  }
}

function archiveUrl(target: ArchiveTarget, agentId: string, query: Record<string, boolean | undefined>): URL {
  const url = new URL(target.url);
  url.pathname = `${url.pathname.replace(/\/graphql\/?$/, '')}/agents/${encodeURIComponent(agentId)}/archive`;
  url.search = '';
  for (const [name, value] of Object.entries(query)) if (value) url.searchParams.set(name, 'true');
  return url;
}

async function archiveErrorOf(response: Response): Promise<AgentArchiveError> {
  const text = await response.text();
  try {
    const { error } = JSON.parse(text) as { error: { code: string; message: string } };
    return new AgentArchiveError(error.code, response.status, error.message);
  } catch {
    return new AgentArchiveError('HTTP_ERROR', response.status, `HTTP ${response.status}: ${text.slice(0, 200)}`);
  }
}

/** Downloads one agent's archive (operators only) as a stream of the file's bytes, e.g. to pipe into a file. */
export async function exportAgentArchive(target: ArchiveTarget, agentId: string, options: { includeEvents?: boolean } = {}): Promise<ReadableStream<Uint8Array>> {
  const response = await fetch(archiveUrl(target, agentId, { includeEvents: options.includeEvents }), { headers: { authorization: `Bearer ${target.token}` } });
  if (!response.ok || !response.body) throw await archiveErrorOf(response);
  return response.body;
}

/** Uploads an archive (bytes or a stream of them) and imports it as `agentId`; `replace` overwrites an existing agent. */
export async function importAgentArchive(
  target: ArchiveTarget,
  agentId: string,
  body: Uint8Array | ReadableStream<Uint8Array>,
  options: { replace?: boolean } = {},
): Promise<AgentArchiveImport> {
  // A stream is sent as it is read (duplex: 'half', which Node's fetch requires for a stream body).
  const init = { method: 'POST', headers: { authorization: `Bearer ${target.token}`, 'content-type': 'application/gzip' }, body, duplex: 'half' };
  const response = await fetch(archiveUrl(target, agentId, { replace: options.replace }), init as RequestInit);
  if (!response.ok) throw await archiveErrorOf(response);
  return (await response.json()) as AgentArchiveImport;
}
