/**
 * Trusted documents: the generated client's operations, by SHA-256 of their text, from the
 * manifest that `npm run codegen` writes (clients/typescript/generated/trusted-documents.json). Any token may
 * send a manifest hash instead of the text (Apollo's persistedQuery extension, which the SDK
 * uses); with BURROW_TRUSTED_DOCUMENTS=agents, agent tokens may send nothing else, while operator
 * tokens keep ad-hoc documents. HTTP and SSE go through Yoga's persisted-operations plugin;
 * graphql-ws and the direct JSON path (ops/direct-graphql.ts) call resolveOperationText with the
 * same manifest and rule.
 */
import { readFileSync } from 'node:fs';
import { usePersistedOperations } from '@graphql-yoga/plugin-persisted-operations';
import { createGraphQLError, type Plugin } from 'graphql-yoga';
import type { GraphQLError } from 'graphql';
import type { SecurityConfig } from '../config.server.js';
import type { Viewer } from '../auth/viewer.js';
import { packagePath } from '../lib/package-path.js';

export const TRUSTED_DOCUMENTS_PATH = packagePath('clients/typescript/generated/trusted-documents.json');

export type TrustedDocuments = ReadonlyMap<string, string>;

export function loadTrustedDocuments(path: URL | string = TRUSTED_DOCUMENTS_PATH): TrustedDocuments {
  return new Map(Object.entries(JSON.parse(readFileSync(path, 'utf8')) as Record<string, string>));
}

export const mayRunAdHoc = (viewer: Viewer | null | undefined, policy: SecurityConfig['trustedDocuments']) => policy === 'off' || viewer?.principal === 'OPERATOR';

const errors = {
  adHocRefused: () =>
    createGraphQLError('agent tokens may only run trusted documents (BURROW_TRUSTED_DOCUMENTS=agents): send extensions.persistedQuery.sha256Hash without a query', {
      extensions: { code: 'TRUSTED_DOCUMENT_REQUIRED', http: { status: 403 } },
    }),
  notFound: () =>
    createGraphQLError('no trusted document has this hash: the client is newer or older than the server', {
      extensions: { code: 'PERSISTED_QUERY_NOT_FOUND', http: { status: 400 } },
    }),
  missing: () =>
    createGraphQLError('a request needs a query or extensions.persistedQuery.sha256Hash', {
      extensions: { code: 'BAD_REQUEST', http: { status: 400 } },
    }),
};

function persistedHash(extensions: unknown): string | null {
  const persisted = (extensions as { persistedQuery?: { version?: unknown; sha256Hash?: unknown } } | null | undefined)?.persistedQuery;
  return persisted?.version === 1 && typeof persisted.sha256Hash === 'string' ? persisted.sha256Hash : null;
}

export function useTrustedDocuments(documents: TrustedDocuments, policy: SecurityConfig['trustedDocuments'], viewerOf: (request: Request) => Viewer | null): Plugin {
  return usePersistedOperations({
    getPersistedOperation: (hash) => documents.get(hash) ?? null,
    allowArbitraryOperations: (request) => mayRunAdHoc(viewerOf(request), policy),
    customErrors: { persistedQueryOnly: errors.adHocRefused, notFound: errors.notFound, keyNotFound: errors.missing },
  }) as Plugin;
}

/** graphql-ws: the text to run for a subscribe payload, or the refusal (same rule as HTTP). */
export function resolveOperationText(
  payload: { query?: unknown; extensions?: unknown },
  viewer: Viewer | null,
  documents: TrustedDocuments,
  policy: SecurityConfig['trustedDocuments'],
): string | GraphQLError {
  if (typeof payload.query === 'string' && payload.query !== '') return mayRunAdHoc(viewer, policy) ? payload.query : errors.adHocRefused();
  const hash = persistedHash(payload.extensions);
  if (hash === null) return errors.missing();
  return documents.get(hash) ?? errors.notFound();
}
