/**
 * The console's only way to the server: graphql-request over HTTP for queries and mutations,
 * graphql-ws for subscriptions, both to this origin's /graphql with the token as a header (never
 * a cookie). Every document comes from ./graphql/generated.ts (codegen over ./graphql/*.graphql).
 * A subscription that fails or closes is reported as a sentence a person can read (the close code
 * by name, the server's reason) and whether trying again can help; the caller decides how to
 * resume (see ./events.ts), so graphql-ws itself never retries with stale variables.
 */
import { ClientError, GraphQLClient } from 'graphql-request';
import { createClient, type Client } from 'graphql-ws';
import { print } from 'graphql';
import type { TypedDocumentNode } from '@graphql-typed-document-node/core';
import { humanError } from './human-error';

const TOKEN_KEY = 'burrow.console.token';

/** sessionStorage only: the token ends with the tab, and no request carries it implicitly. */
export const tokenStore = {
  get: (): string | null => sessionStorage.getItem(TOKEN_KEY),
  set: (token: string) => sessionStorage.setItem(TOKEN_KEY, token),
  clear: () => sessionStorage.removeItem(TOKEN_KEY),
};

/**
 * A token handed over in the address (?token= or #token=) is taken once and removed from the URL
 * and the history entry, so it is not left in the address bar, bookmarks or a shared screenshot.
 */
export function takeTokenFromUrl(): string | null {
  const url = new URL(location.href);
  const fromQuery = url.searchParams.get('token');
  // The hash is also the page route (#/brains); a token there is one "token=" part of it.
  const parts = url.hash.replace(/^#/, '').split('&');
  const hashPart = parts.find((p) => p.startsWith('token='));
  if (!fromQuery && !hashPart) return null;
  url.searchParams.delete('token');
  const rest = parts.filter((p) => p !== hashPart && p !== '').join('&');
  history.replaceState(null, '', `${url.pathname}${url.search}${rest ? `#${rest}` : ''}`);
  const token = fromQuery ?? decodeURIComponent(hashPart!.slice('token='.length));
  return token.trim() || null;
}

export class ApiError extends Error {
  constructor(
    message: string,
    readonly code: string | null,
  ) {
    super(message);
  }
}

export interface Api {
  /** `scope`: the continuity scope header, which per-scope reads (working records, handoffs) take instead of an argument. */
  request<R, V extends Record<string, unknown>>(document: TypedDocumentNode<R, V>, variables?: V, options?: { scope?: string }): Promise<R>;
  /** One subscription on its own socket; returns how to stop it. */
  subscribe<R, V extends Record<string, unknown>>(document: TypedDocumentNode<R, V>, variables: V, sink: StreamSink<R>): () => void;
  close(): void;
}

export interface StreamSink<R> {
  next(data: R): void;
  /** The server acknowledged the socket (the token was accepted). */
  connected?(): void;
  /** `ended`: the subscription is over (the socket closed, or the server refused or completed it). */
  failed(failure: StreamFailure): void;
}

export interface StreamFailure {
  /** e.g. "Live stream closed (4403 Forbidden): Forbidden: the token was revoked or has expired" */
  message: string;
  /** Whether opening it again can help: not for a refused token or a request the server rejects. */
  retry: boolean;
  ended: boolean;
}

/** graphql-ws's and the WebSocket standard's close codes, by name. */
const CLOSE_NAMES: Record<number, string> = {
  1000: 'Normal closure',
  1001: 'Going away',
  1002: 'Protocol error',
  1005: 'No status',
  1006: 'Connection lost',
  1008: 'Policy violation',
  1009: 'Message too big',
  1011: 'Internal error',
  1012: 'Service restart',
  1013: 'Try again later',
  4400: 'Bad request',
  4401: 'Unauthorized',
  4403: 'Forbidden',
  4406: 'Subprotocol not acceptable',
  4408: 'Connection initialisation timeout',
  4409: 'Subscriber already exists',
  4413: 'connection_init too large',
  4429: 'Too many initialisation requests',
  4500: 'Internal server error',
};
/** The same request would be refused again: a token the server does not accept, a message it rejects. */
const FINAL_CLOSE_CODES = new Set([1002, 1008, 1009, 4400, 4401, 4403, 4406, 4413]);
/** Operation errors that can clear by themselves; any other (UNAUTHENTICATED, FORBIDDEN, BAD_CURSOR, …) stops. */
const TRANSIENT_CODES = new Set(['RATE_LIMITED', 'LIMIT_EXCEEDED', 'INTERNAL_SERVER_ERROR', 'DATABASE_UNAVAILABLE']);

const isCloseEvent = (value: unknown): value is { code: number; reason: string } =>
  typeof value === 'object' && value !== null && typeof (value as { code?: unknown }).code === 'number' && 'reason' in value;

type WireError = { message: string; extensions?: { code?: unknown } };
const operationFailure = (errors: readonly WireError[], ended: boolean): StreamFailure => {
  const code = typeof errors[0]?.extensions?.code === 'string' ? (errors[0].extensions.code as string) : null;
  const message = errors[0]?.message ?? 'unknown error';
  return { message: `Live stream refused: ${code ? `${code}: ` : ''}${message}`, retry: code !== null && TRANSIENT_CODES.has(code), ended };
};

/** What graphql-ws hands a sink's error (a CloseEvent, the operation's errors, a socket Event) in words. */
export function streamFailure(error: unknown): StreamFailure {
  if (isCloseEvent(error)) {
    const name = CLOSE_NAMES[error.code] ?? 'unknown code';
    return { message: `Live stream closed (${error.code} ${name})${error.reason ? `: ${error.reason}` : ''}`, retry: !FINAL_CLOSE_CODES.has(error.code), ended: true };
  }
  if (Array.isArray(error)) return operationFailure(error as WireError[], true);
  if (error instanceof Error) return { message: `Live stream failed: ${error.message}`, retry: true, ended: true };
  return { message: 'Live stream could not reach the server', retry: true, ended: true };
}

export function createApi(token: string, onUnauthenticated: () => void): Api {
  const http = new GraphQLClient(new URL('/graphql', location.origin).href, { headers: { authorization: `Bearer ${token}` } });
  const sockets = new Set<Client>();

  const toApiError = (error: unknown): ApiError => {
    if (error instanceof ClientError) {
      const first = error.response.errors?.[0];
      const code = (first?.extensions?.code as string | undefined) ?? null;
      if (code === 'UNAUTHENTICATED' || error.response.status === 401) onUnauthenticated();
      return new ApiError(first?.message ?? `HTTP ${error.response.status}`, code);
    }
    return new ApiError(error instanceof Error ? error.message : String(error), null);
  };

  return {
    async request<R, V extends Record<string, unknown>>(document: TypedDocumentNode<R, V>, variables?: V, options: { scope?: string } = {}): Promise<R> {
      try {
        return await http.request<R>(document as TypedDocumentNode<R, object>, variables as object, options.scope ? { 'burrow-continuity-scope': options.scope } : undefined);
      } catch (error) {
        throw toApiError(error);
      }
    },
    subscribe(document, variables, sink) {
      // retryAttempts 0: a closed socket ends the subscription here, and the caller opens a new
      // one with the position it reached (graphql-ws would resend the first variables).
      const client = createClient({
        url: `${location.protocol === 'https:' ? 'wss' : 'ws'}://${location.host}/graphql`,
        connectionParams: { authorization: `Bearer ${token}` },
        lazy: true,
        retryAttempts: 0,
        on: { connected: () => sink.connected?.() },
      });
      sockets.add(client);
      let over = false;
      const stop = () => {
        if (over) return;
        over = true;
        sockets.delete(client);
        void client.dispose();
      };
      const unsubscribe = client.subscribe(
        { query: print(document), variables },
        {
          next: (result) => {
            if (result.errors?.length) sink.failed(operationFailure(result.errors, false));
            else if (result.data) sink.next(result.data as never);
          },
          error: (error) => {
            if (over) return;
            stop();
            sink.failed(streamFailure(error));
          },
          complete: () => {
            if (over) return;
            stop();
            sink.failed({ message: 'Live stream ended by the server', retry: true, ended: true });
          },
        },
      );
      return () => {
        if (over) return;
        // Marked first: graphql-ws completes the sink when it is unsubscribed, which is no failure.
        over = true;
        unsubscribe();
        sockets.delete(client);
        void client.dispose();
      };
    },
    close() {
      for (const client of sockets) void client.dispose();
      sockets.clear();
    },
  };
}

/** Any failure as one sentence with its code (human-error.ts); a socket's close event by its code and reason, never "[object CloseEvent]". */
export const describeError = (error: unknown) =>
  error instanceof ApiError
    ? humanError(error)
    : isCloseEvent(error)
      ? streamFailure(error).message
      : error instanceof Error
        ? humanError(error)
        : humanError({ message: String(error) });

/**
 * An event handler for an async action: the action's failure is shown with `show` (as the page
 * shows its other errors) instead of becoming an unhandled rejection nobody sees.
 */
export function handled<A extends unknown[]>(action: (...args: A) => Promise<unknown>, show: (message: string) => void): (...args: A) => void {
  return (...args) => void action(...args).catch((error: unknown) => show(describeError(error)));
}
