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

export * from './generated/sdk.js';

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
  constructor(
    readonly errors: GraphQLErrorShape[],
    readonly status: number,
  ) {
    super(errors.map((e) => e.message).join('; '));
    this.code = errors[0]?.extensions?.code ?? 'UNKNOWN';
  }
}

function headersOf(options: BurrowClientOptions): Record<string, string> {
  const headers: Record<string, string> = { authorization: `Bearer ${options.token}` };
  if (options.scope) headers['burrow-continuity-scope'] = options.scope;
  if (options.session) headers['burrow-session'] = options.session;
  if (options.conversation) headers['burrow-conversation'] = options.conversation;
  return headers;
}

export function createBurrowClient(options: BurrowClientOptions) {
  let ws: WsClient | null = null;
  const socket = () =>
    (ws ??= createClient({
      url: options.url.replace(/^http/, 'ws'),
      webSocketImpl: WebSocket,
      connectionParams: headersOf(options),
      lazy: true,
      retryAttempts: 0,
    }));

  /** What identifies the document on the wire: its text, or the hash of a trusted document. */
  type Operation = { query: string; hash?: string };
  const wire = (operation: Operation) =>
    operation.hash ? { query: '', extensions: { persistedQuery: { version: 1, sha256Hash: operation.hash } } } : { query: operation.query };
  // A server built from other operations does not know the hash: the text is the fallback.
  const unknownHash = (error: unknown) => error instanceof BurrowRequestError && error.code === 'PERSISTED_QUERY_NOT_FOUND';

  async function overHttp<R>(operation: Operation, variables: unknown): Promise<R> {
    const { query, ...rest } = wire(operation);
    const response = await fetch(options.url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/graphql-response+json, application/json', ...headersOf(options) },
      body: JSON.stringify({ ...(query ? { query } : {}), ...rest, variables }),
    });
    const body = (await response.json()) as { data?: R; errors?: GraphQLErrorShape[] };
    if (body.errors?.length) {
      const error = new BurrowRequestError(body.errors, response.status);
      if (operation.hash && unknownHash(error)) return overHttp({ query: operation.query }, variables);
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
          if (Array.isArray(error)) throw new BurrowRequestError(error as GraphQLErrorShape[], 200);
          throw error;
        }
        if (next.done) return { done: true, value: undefined };
        if (next.value.errors?.length) {
          await results.return?.(undefined);
          throw new BurrowRequestError(next.value.errors as GraphQLErrorShape[], 200);
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
    return call?.transport === 'ws' ? overWs<R>(operation, variables) : overHttp<R>(operation, variables);
  };

  return {
    ...getSdk(requester),
    /** Any operation by text, for what the generated methods do not cover. */
    request: <R = unknown>(query: string, variables?: Record<string, unknown>, call?: CallOptions) =>
      call?.transport === 'ws' ? overWs<R>({ query }, variables) : overHttp<R>({ query }, variables),
    subscribe: <R = unknown>(query: string, variables?: Record<string, unknown>) => iterate<R>({ query }, variables),
    options,
    async close() {
      await ws?.dispose();
      ws = null;
    },
  };
}

export type BurrowClient = ReturnType<typeof createBurrowClient>;
