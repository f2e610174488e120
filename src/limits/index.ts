/**
 * Request limits, CSRF/CORS, production defaults and trusted documents: one place that every
 * transport passes. HTTP and SSE get them as Yoga options and plugins; graphql-ws runs the same
 * envelop plugins through yoga.getEnveloped and adds its socket-level checks from websocket.ts.
 */
import { useCSRFPrevention } from '@graphql-yoga/plugin-csrf-prevention';
import type { Plugin } from 'graphql-yoga';
import type { Authenticate } from '../auth/authenticate.js';
import type { BurrowConfig } from '../config.js';
import { useBodyLimit } from './body-limit.js';
import { documentLimitPlugins } from './document-limits.js';
import { useHttpGate, viewerOfRequest } from './http-gate.js';
import { useOperationPolicy } from './operation-policy.js';
import { corsOptions } from './origins.js';
import { useNoSuggestions } from './suggestions.js';
import { useNoValuesInVariableErrors } from './hidden-values.js';
import { loadTrustedDocuments, useTrustedDocuments, type TrustedDocuments } from './trusted-documents.js';

export { resolveOperationText, type TrustedDocuments } from './trusted-documents.js';
export { connectionInitTooLarge, guardConnectionInit, parseAndValidate, socketOperationsRefusal, webSocketServerOptions, wsFormattedError, wsNextPayload } from './websocket.js';

export interface LimitsDeps {
  config: Pick<BurrowConfig, 'limits' | 'security'>;
  graphqlEndpoint: string;
  authenticate: Authenticate;
  unauthenticatedMessage: string;
  documents?: TrustedDocuments;
}

/** Options to spread into createYoga, and the trusted documents graphql-ws needs too. */
export function yogaLimits(deps: LimitsDeps) {
  const { limits, security } = deps.config;
  const documents = deps.documents ?? loadTrustedDocuments();
  const plugins: Plugin[] = [
    useHttpGate({ graphqlEndpoint: deps.graphqlEndpoint, corsOrigins: security.corsOrigins, authenticate: deps.authenticate, unauthenticatedMessage: deps.unauthenticatedMessage }),
    useCSRFPrevention({ requestHeaders: ['x-graphql-yoga-csrf'] }),
    useTrustedDocuments(documents, security.trustedDocuments, viewerOfRequest),
    ...documentLimitPlugins(limits),
    ...(security.fieldSuggestions ? [] : [useNoSuggestions()]),
    // Always: a variable's value may hold a secret (settings, connections, exports).
    useNoValuesInVariableErrors(),
    useOperationPolicy(limits, security),
    // Last: it wraps whichever request parser the plugins above chose (the gate sets one).
    useBodyLimit(limits.bodyBytes),
  ];
  return { documents, options: { cors: corsOptions(security.corsOrigins), maxRequestBodySize: false as const, plugins } };
}
