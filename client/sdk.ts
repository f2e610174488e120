/**
 * The runtime SDK: typed methods (generated from client/operations) over HTTP, with
 * subscriptions (and, on request, any operation) over graphql-ws. The continuity scope, session
 * and conversation are the runtime's choice and travel as headers / connectionParams.
 */
import { print, type DocumentNode } from 'graphql';
import { createClient, type Client as WsClient } from 'graphql-ws';
import WebSocket from 'ws';
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

  async function overHttp<R>(query: string, variables: unknown): Promise<R> {
    const response = await fetch(options.url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/graphql-response+json, application/json', ...headersOf(options) },
      body: JSON.stringify({ query, variables }),
    });
    const body = (await response.json()) as { data?: R; errors?: GraphQLErrorShape[] };
    if (body.errors?.length) throw new BurrowRequestError(body.errors, response.status);
    return body.data as R;
  }

  async function overWs<R>(query: string, variables: unknown): Promise<R> {
    for await (const result of iterate<R>(query, variables)) return result;
    throw new Error('the server closed the operation without a result');
  }

  /**
   * A plain iterator rather than an async generator: a generator suspended in `await` cannot be
   * returned early, so a consumer that stops listening would hang until the next event.
   */
  function iterate<R>(query: string, variables: unknown): AsyncIterableIterator<R> {
    const results = socket().iterate<R>({ query, variables: variables as Record<string, unknown> });
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

  const printed = new WeakMap<DocumentNode, string>();
  const requester: Requester<CallOptions> = <R, V>(document: DocumentNode, variables?: V, call?: CallOptions) => {
    let query = printed.get(document);
    if (query === undefined) printed.set(document, (query = print(document)));
    if (/^\s*subscription\b/.test(query)) return iterate<R>(query, variables);
    return call?.transport === 'ws' ? overWs<R>(query, variables) : overHttp<R>(query, variables);
  };

  return {
    ...getSdk(requester),
    /** Any operation by text, for what the generated methods do not cover. */
    request: <R = unknown>(query: string, variables?: Record<string, unknown>, call?: CallOptions) =>
      call?.transport === 'ws' ? overWs<R>(query, variables) : overHttp<R>(query, variables),
    subscribe: <R = unknown>(query: string, variables?: Record<string, unknown>) => iterate<R>(query, variables),
    options,
    async close() {
      await ws?.dispose();
      ws = null;
    },
  };
}

export type BurrowClient = ReturnType<typeof createBurrowClient>;
