/**
 * Authentication, in one place: every transport (the HTTP gate, the direct JSON path, /metrics,
 * graphql-ws, MCP over HTTP and stdio) reads its credentials through a Credentials accessor and
 * calls authenticate(), which parses the secret, reads the runtime-owned scope and looks the
 * token up (TokensService.lookup).
 */
import type { IncomingHttpHeaders } from 'node:http';
import type { McpStdioIdentity } from '../config.mcp-stdio.js';
import type { TokensService } from './tokens.service.js';
import type { RuntimeScope, Viewer } from './viewer.js';
import { noteAuthenticated } from '../db/read-your-writes.js';

/**
 * How the secret is written in the 'authorization' credential: 'bearer' (an HTTP header, only
 * `Bearer <token>`), 'bearer-or-bare' (a graphql-ws connection param, with or without `Bearer `)
 * or 'bare' (the stdio identity's token, as is).
 */
export type SecretForm = 'bearer' | 'bearer-or-bare' | 'bare';

/** A transport's credentials: read by lower-case header name ('authorization', 'burrow-continuity-scope', 'burrow-session', 'burrow-conversation'). */
export interface Credentials {
  read(name: string): string | null | undefined;
  form: SecretForm;
}

/** The authentication a transport is given: credentials -> viewer, or null when refused. */
export type Authenticate = (credentials: Credentials) => Promise<Viewer | null>;

/** Credentials -> viewer, or null when there is no secret or it is unknown, revoked or expired. */
export function authenticate(tokens: Pick<TokensService, 'lookup'>, credentials: Credentials): Promise<Viewer | null> {
  return tokens.lookup(secretOf(credentials.read('authorization'), credentials.form), runtimeScope(credentials.read)).then((viewer) => {
    // The request's commits are this token's, for read-your-writes on replicas (db/read-your-writes.ts).
    if (viewer) noteAuthenticated(viewer.tokenId);
    return viewer;
  });
}

/** Credentials of HTTP headers, read by lower-case name (a fetch Request's `headers.get`, for one). */
export const headerCredentials = (get: (name: string) => string | null | undefined): Credentials => ({ read: get, form: 'bearer' });

/** Credentials of a node:http request's headers (repeated headers joined as a fetch Headers joins them). */
export const nodeHeaderCredentials = (headers: IncomingHttpHeaders): Credentials => headerCredentials(nodeHeader(headers));

/** A node:http header by lower-case name, as a fetch Headers reads it; null when absent. */
export const nodeHeader = (headers: IncomingHttpHeaders) => (name: string) => {
  const value = headers[name];
  return value === undefined ? null : Array.isArray(value) ? value.join(', ') : value;
};

/**
 * Credentials of graphql-ws's connection params: the secret in `authorization`, `Authorization`
 * or `token`, with or without `Bearer `; the scope params by name in any case.
 */
export function connectionParamCredentials(params: Record<string, unknown>): Credentials {
  return {
    form: 'bearer-or-bare',
    read: (name) => {
      const value =
        name === 'authorization' ? (params.authorization ?? params.Authorization ?? params.token ?? '') : Object.entries(params).find(([key]) => key.toLowerCase() === name)?.[1];
      return value == null ? null : String(value);
    },
  };
}

/** Credentials of `burrow mcp --stdio`: the token and the scope the runtime set in the environment. */
export function stdioCredentials(identity: McpStdioIdentity): Credentials {
  const values: Record<string, string | null> = {
    authorization: identity.token,
    'burrow-continuity-scope': identity.scope,
    'burrow-session': identity.sessionId,
    'burrow-conversation': identity.conversationId,
  };
  return { form: 'bare', read: (name) => values[name] };
}

function secretOf(value: string | null | undefined, form: SecretForm): string | null {
  if (value == null || form === 'bare') return value ?? null;
  if (value.toLowerCase().startsWith('bearer ')) return value.slice(7).trim();
  return form === 'bearer-or-bare' ? value.trim() : null;
}

/** The runtime-owned scope values; blank values count as absent. */
function runtimeScope(read: Credentials['read']): RuntimeScope {
  const value = (name: string) => read(name)?.trim() || null;
  return {
    scope: value('burrow-continuity-scope'),
    sessionId: value('burrow-session'),
    conversationId: value('burrow-conversation'),
  };
}
