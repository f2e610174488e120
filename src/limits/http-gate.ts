/**
 * The HTTP gate of the GraphQL endpoint, run in Yoga's onRequest: before the body is read, a
 * request must come from an allowed origin, carry a valid token, be a POST and declare a JSON body.
 * Nothing is parsed or validated for a request refused here.
 */
import type { Plugin } from 'graphql-yoga';
import { headerCredentials, type Authenticate } from '../auth/authenticate.js';
import type { Viewer } from '../auth/viewer.js';
import { databaseUnavailableError } from '../lib/error-masking.js';
import { isConnectionLoss } from '../lib/connection-errors.js';
import { refusal } from './errors.js';
import { originAllowed } from './origins.js';

/** Content types of the only bodies accepted: JSON. Form and multipart bodies need no CORS preflight. */
const JSON_TYPES = ['application/json', 'application/graphql-response+json'];

const mediaType = (header: string | null) => (header ?? '').split(';')[0].trim().toLowerCase();

const viewers = new WeakMap<Request, Viewer>();
/** The viewer the gate authenticated for this request (null when the gate did not pass it). */
export const viewerOfRequest = (request: Request): Viewer | null => viewers.get(request) ?? null;

/** Server context of a request whose headers were authenticated before Yoga got it (null: refused). */
export interface AuthenticatedContext {
  authenticatedViewer?: Viewer | null;
}

export interface HttpGateOptions {
  graphqlEndpoint: string;
  corsOrigins: string[];
  authenticate: Authenticate;
  unauthenticatedMessage: string;
}

export function useHttpGate(options: HttpGateOptions): Plugin {
  return {
    async onRequest({ request, url, serverContext, endResponse }) {
      if (url.pathname !== options.graphqlEndpoint) return;
      const origin = request.headers.get('origin');
      if (!originAllowed(origin, request.headers.get('host'), options.corsOrigins)) {
        return endResponse(refusal(403, 'FORBIDDEN_ORIGIN', `origin ${origin} is not allowed (BURROW_CORS_ORIGINS)`));
      }
      let viewer: Viewer | null;
      try {
        // The direct JSON path (ops/direct-graphql.ts) hands over what it already found for these headers.
        const known = (serverContext as AuthenticatedContext).authenticatedViewer;
        viewer = known !== undefined ? known : await options.authenticate(headerCredentials((name) => request.headers.get(name)));
      } catch (error) {
        // The token lookup lost its connection: a retryable refusal, like any request that needed the database.
        if (!isConnectionLoss(error)) throw error;
        const unavailable = databaseUnavailableError();
        return endResponse(refusal(503, 'DATABASE_UNAVAILABLE', unavailable.message, { 'retry-after': '1' }, { retryable: true }));
      }
      if (!viewer) return endResponse(refusal(401, 'UNAUTHENTICATED', options.unauthenticatedMessage));
      if (request.method !== 'POST') {
        return endResponse(refusal(405, 'METHOD_NOT_ALLOWED', 'GraphQL requests are POSTs with a JSON body', { allow: 'POST' }));
      }
      const type = mediaType(request.headers.get('content-type'));
      if (!JSON_TYPES.includes(type)) {
        return endResponse(refusal(415, 'UNSUPPORTED_MEDIA_TYPE', `content-type must be ${JSON_TYPES.join(' or ')}, not ${type || 'absent'}`));
      }
      viewers.set(request, viewer);
      // The context factory and the execution-time checks read the viewer from here.
      (serverContext as { viewer?: Viewer }).viewer = viewer;
    },
    onResponse({ response }) {
      // Yoga refused an oversized body before reading it: close instead of draining the rest.
      if (response.status === 413) response.headers.set('connection', 'close');
    },
    onRequestParse({ request, setRequestParser }) {
      // Yoga's JSON parser does not match this (equally JSON) content type.
      if (mediaType(request.headers.get('content-type')) === 'application/graphql-response+json') setRequestParser((req) => req.json());
    },
  };
}
