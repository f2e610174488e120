/**
 * The console's only way to the server: graphql-request over HTTP for queries and mutations,
 * graphql-ws for subscriptions, both to this origin's /graphql with the token as a header (never
 * a cookie). Every document comes from ./graphql/generated.ts (codegen over ./graphql/*.graphql).
 */
import { ClientError, GraphQLClient } from 'graphql-request';
import { createClient, type Client } from 'graphql-ws';
import { print } from 'graphql';
import type { TypedDocumentNode } from '@graphql-typed-document-node/core';

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
  subscribe<R, V extends Record<string, unknown>>(document: TypedDocumentNode<R, V>, variables: V, onData: (data: R) => void, onError?: (error: ApiError) => void): () => void;
  close(): void;
}

export function createApi(token: string, onUnauthenticated: () => void): Api {
  const http = new GraphQLClient(new URL('/graphql', location.origin).href, { headers: { authorization: `Bearer ${token}` } });
  let ws: Client | null = null;
  const socket = () =>
    (ws ??= createClient({
      url: `${location.protocol === 'https:' ? 'wss' : 'ws'}://${location.host}/graphql`,
      connectionParams: { authorization: `Bearer ${token}` },
      lazy: true,
      retryAttempts: 8,
    }));

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
    subscribe(document, variables, onData, onError) {
      return socket().subscribe(
        { query: print(document), variables },
        {
          next: (result) => {
            if (result.errors?.length) onError?.(new ApiError(result.errors[0].message, (result.errors[0].extensions?.code as string) ?? null));
            else if (result.data) onData(result.data as never);
          },
          error: (error) => onError?.(toApiError(error)),
          complete: () => {},
        },
      );
    },
    close() {
      void ws?.dispose();
      ws = null;
    },
  };
}

export const describeError = (error: unknown) => (error instanceof ApiError && error.code ? `${error.code}: ${error.message}` : error instanceof Error ? error.message : String(error));
