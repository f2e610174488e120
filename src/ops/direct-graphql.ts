/**
 * The direct path for the requests nearly every client sends: a POST of one JSON operation to
 * /graphql, with a token, without an Origin. It reads the body with node:http and runs the same
 * envelop pipeline Yoga runs (yoga.getEnveloped: parse cache, validation rules and cache,
 * compiled queries, operation policy, masked errors, observability), skipping only Yoga's HTTP
 * layer: the fetch Request and Response objects and the promise chains of its request, params
 * and result hooks, a quarter of the CPU of a one-agent read (docs/performance.md).
 *
 * Yoga stays the one authority on every answer that is not a plain executed result:
 * - a request that is not of that shape (another method, path, media type or Accept, an Origin,
 *   no content-length or one past the body limit, a token that does not authenticate) goes to
 *   Yoga before its body is read;
 * - a body that is not one plain operation (bad JSON, a batch, unknown or ill-typed params, a
 *   refused or unknown trusted document), a document that does not parse or validate, a
 *   subscription, or a context refused (rate limit, ended token) goes to Yoga with the body
 *   already read, before anything ran, so it answers exactly as it would have;
 * - an executed result with errors or HTTP extensions is written by Yoga's processRegularResult.
 * Each step here is the one Yoga's plugins do for these requests: the gate's authentication
 * (the same function), the trusted-documents rule (resolveOperationText, shared with
 * graphql-ws), the observability plugin's begin and settle, the schema-hash header.
 *
 * Not used with tracing: OpenTelemetry's HTTP spans come from Yoga's instrumentation.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { getOperationAST, type DocumentNode, type ExecutionResult, type GraphQLError } from 'graphql';
import { createGraphQLError, processRegularResult, type YogaServerInstance } from 'graphql-yoga';
import { UNEXPECTED_ERROR_MESSAGE } from '../lib/error-masking.js';
import { nodeHeader, nodeHeaderCredentials, type Authenticate } from '../auth/authenticate.js';
import type { Viewer } from '../auth/viewer.js';
import type { AuthenticatedContext } from '../limits/http-gate.js';
import type { SecurityConfig } from '../config.server.js';
import type { Context } from '../context.js';
import { parseAndValidate, resolveOperationText, type TrustedDocuments } from '../limits/index.js';
import { SCHEMA_HASH, SCHEMA_HASH_HEADER } from '../schema/hash.js';
import type { Metrics } from './metrics.js';
import type { Observability } from './observe.js';

type ResultMediaType = 'application/json' | 'application/graphql-response+json';

/**
 * Accept headers (without spaces, lower case) and the media type Yoga's result processors pick
 * for a single result; any other Accept goes to Yoga.
 */
const RESULT_MEDIA_TYPES = new Map<string, ResultMediaType>([
  ['', 'application/json'],
  ['*/*', 'application/json'],
  ['application/json', 'application/json'],
  ['application/graphql-response+json', 'application/graphql-response+json'],
  // The generated client's header: Yoga picks the last listed type that a processor serves.
  ['application/graphql-response+json,application/json', 'application/graphql-response+json'],
]);

const JSON_CONTENT_TYPES = new Set(['application/json', 'application/json;charset=utf-8']);
const PARAM_NAMES = new Set(['query', 'variables', 'operationName', 'extensions']);

export interface DirectGraphQLDeps {
  /** False with tracing: every request then goes through Yoga (and is counted so). */
  enabled: boolean;
  yoga: YogaServerInstance<Record<string, unknown>, Context>;
  graphqlEndpoint: string;
  /** The HTTP gate's authentication (auth/authenticate.ts, as limits/http-gate.ts calls it). */
  authenticate: Authenticate;
  documents: TrustedDocuments;
  trustedDocuments: SecurityConfig['trustedDocuments'];
  bodyBytes: number;
  observability: Observability;
  metrics: Pick<Metrics, 'recordHttpPath'>;
  maskError(error: unknown, message: string): Error;
}

interface Operation {
  query: string;
  operationName: string | null | undefined;
  variables: Record<string, unknown> | null | undefined;
  extensions: unknown;
}

const isPlainObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

/**
 * What the envelop context sees as `request` on this path: the method, URL and headers, which
 * is all the plugins read (Yoga's mutation-via-GET check reads the method).
 */
class NodeRequestView {
  readonly method = 'POST';
  readonly url: string;
  readonly headers: { get(name: string): string | null; has(name: string): boolean };
  constructor(req: IncomingMessage) {
    this.url = `http://${req.headers.host ?? 'localhost'}${req.url}`;
    const get = nodeHeader(req.headers);
    this.headers = { get: (name) => get(name.toLowerCase()), has: (name) => req.headers[name.toLowerCase()] !== undefined };
  }
}

export function createDirectGraphQL(deps: DirectGraphQLDeps) {
  const { yoga } = deps;

  /** The result media type when Yoga's gate would pass this request and the answer is JSON; null otherwise. */
  function resultMediaType(req: IncomingMessage): ResultMediaType | null {
    if (req.method !== 'POST' || req.url !== deps.graphqlEndpoint) return null;
    const { headers } = req;
    if (headers.origin !== undefined || headers['transfer-encoding'] !== undefined || headers['content-encoding'] !== undefined) return null;
    if (!JSON_CONTENT_TYPES.has((headers['content-type'] ?? '').replace(/\s/g, '').toLowerCase())) return null;
    const length = headers['content-length'];
    if (length === undefined || !/^\d{1,9}$/.test(length) || Number(length) > deps.bodyBytes) return null;
    return RESULT_MEDIA_TYPES.get((headers.accept ?? '').replace(/\s/g, '').toLowerCase()) ?? null;
  }

  /** The operation when the body is one plain operation Yoga would accept as is; null otherwise. */
  function operationOf(body: Buffer, viewer: Viewer): Operation | null {
    let params: unknown;
    try {
      params = JSON.parse(body.toString('utf8'));
    } catch {
      return null;
    }
    if (!isPlainObject(params)) return null;
    for (const key of Object.keys(params)) if (!PARAM_NAMES.has(key)) return null;
    const { query, variables, operationName, extensions } = params;
    if (!(variables == null || isPlainObject(variables))) return null;
    if (!(operationName == null || typeof operationName === 'string')) return null;
    // Either text and no extensions, or exactly Apollo's persistedQuery extension and no text.
    if (typeof query === 'string' ? extensions !== undefined : query != null || !isPersistedQueryOnly(extensions)) return null;
    const text = resolveOperationText({ query, extensions }, viewer, deps.documents, deps.trustedDocuments);
    if (typeof text !== 'string') return null;
    return { query: text, operationName, variables, extensions };
  }

  async function serve(req: IncomingMessage, res: ServerResponse, mediaType: ResultMediaType): Promise<void> {
    const serverContext: Record<string, unknown> = { req, res };
    deps.observability.begin(serverContext);
    let viewer: Viewer | null;
    try {
      viewer = await deps.authenticate(nodeHeaderCredentials(req.headers));
    } catch {
      // The lookup failed: the gate tries again and answers (DATABASE_UNAVAILABLE), body unread.
      return toYoga(req, res);
    }
    // Refused: the gate answers from this result, with the body still unread.
    if (!viewer) return toYoga(req, res, { authenticatedViewer: null });
    const body = await readBody(req);
    if (!body) return;
    const operation = operationOf(body, viewer);
    if (!operation) return viaYoga(req, res, body, viewer);

    Object.assign(serverContext, { viewer, request: new NodeRequestView(req), params: operation });
    const enveloped = yoga.getEnveloped(serverContext);
    const document = parseAndValidate(enveloped, operation.query, (error) => deps.maskError(error, UNEXPECTED_ERROR_MESSAGE) as GraphQLError);
    if (Array.isArray(document)) return viaYoga(req, res, body, viewer);
    const kind = getOperationAST(document as DocumentNode, operation.operationName)?.operation;
    if (kind !== 'query' && kind !== 'mutation') return viaYoga(req, res, body, viewer);
    let contextValue: unknown;
    try {
      contextValue = await enveloped.contextFactory();
    } catch {
      // Refusals take nothing (the rate limiter counts only what it admits), so Yoga refuses it again.
      return viaYoga(req, res, body, viewer);
    }

    let result: ExecutionResult;
    try {
      result = (await enveloped.execute({
        schema: enveloped.schema,
        document: document as DocumentNode,
        contextValue,
        variableValues: operation.variables,
        operationName: operation.operationName,
      })) as ExecutionResult;
    } catch (error) {
      result = thrownResult(error);
    }
    deps.observability.settle(serverContext, result);
    deps.metrics.recordHttpPath('direct');
    if (result.errors?.length || (result.extensions as { http?: unknown } | undefined)?.http) {
      return writeResponse(res, processRegularResult(result as never, yoga.fetchAPI, mediaType));
    }
    const text = ((result as { stringify?: (value: unknown) => string }).stringify ?? JSON.stringify)(result);
    res.writeHead(200, { 'Content-Type': `${mediaType}; charset=utf-8`, 'content-length': Buffer.byteLength(text), [SCHEMA_HASH_HEADER]: SCHEMA_HASH });
    res.end(text);
  }

  /** What Yoga's handleParams makes of an error thrown instead of returned: the masked error as the result's one error. */
  function thrownResult(error: unknown): ExecutionResult {
    const masked = deps.maskError(error, UNEXPECTED_ERROR_MESSAGE);
    return { errors: [masked.name === 'GraphQLError' ? (masked as GraphQLError) : createGraphQLError(masked.message, { originalError: masked })] };
  }

  /** Hands a request whose body was read to Yoga, which answers it as if it had read it itself. */
  async function viaYoga(req: IncomingMessage, res: ServerResponse, body: Buffer, viewer: Viewer): Promise<void> {
    const headers = new yoga.fetchAPI.Headers();
    const header = nodeHeader(req.headers);
    for (const name of Object.keys(req.headers)) {
      const value = header(name);
      if (value !== null) headers.set(name, value);
    }
    const request = new yoga.fetchAPI.Request(`http://${req.headers.host ?? 'localhost'}${req.url}`, { method: 'POST', headers, body: body as unknown as BodyInit });
    deps.metrics.recordHttpPath('yoga');
    const known: AuthenticatedContext = { authenticatedViewer: viewer };
    return writeResponse(res, await yoga.handleRequest(request, { req, res, ...known }), false);
  }

  function toYoga(req: IncomingMessage, res: ServerResponse, known?: AuthenticatedContext): void {
    if (req.url?.split('?')[0] === deps.graphqlEndpoint) deps.metrics.recordHttpPath('yoga');
    // requestListener merges further server-context parts into { req, res } (its type names two arguments).
    const listener = yoga.requestListener as (req: IncomingMessage, res: ServerResponse, ...context: object[]) => unknown;
    void (known ? listener(req, res, known) : listener(req, res));
  }

  return {
    /** Serves the request on the direct path when it qualifies, otherwise through Yoga. */
    handle(req: IncomingMessage, res: ServerResponse): void {
      const mediaType = deps.enabled ? resultMediaType(req) : null;
      if (!mediaType) return toYoga(req, res);
      serve(req, res, mediaType).catch(async (error: unknown) => {
        // Only a bug gets here: the masked error (logged by the masker), never a stack trace.
        if (res.headersSent) return void res.end();
        await writeResponse(res, processRegularResult(thrownResult(error) as never, yoga.fetchAPI, mediaType)).catch(() => res.destroy());
      });
    },
  };
}

function isPersistedQueryOnly(extensions: unknown): boolean {
  if (!isPlainObject(extensions) || Object.keys(extensions).length !== 1 || !isPlainObject(extensions.persistedQuery)) return false;
  const { version, sha256Hash } = extensions.persistedQuery;
  return version === 1 && typeof sha256Hash === 'string' && Object.keys(extensions.persistedQuery).length === 2;
}

/** The whole body (node:http stops at content-length); null when the client went away. */
function readBody(req: IncomingMessage): Promise<Buffer | null> {
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (chunk: Buffer) => {
      chunks.push(chunk);
      size += chunk.length;
    });
    req.once('end', () => resolve(chunks.length === 1 ? chunks[0] : Buffer.concat(chunks, size)));
    req.once('error', () => resolve(null));
    req.once('aborted', () => resolve(null));
  });
}

/** Writes a fetch Response Yoga made; `withSchemaHash`: what the schema-hash plugin adds on Yoga's own path. */
async function writeResponse(res: ServerResponse, response: Response, withSchemaHash = true): Promise<void> {
  const body = Buffer.from(await response.arrayBuffer());
  const headers: Record<string, string> = {};
  response.headers.forEach((value, name) => {
    headers[name] = value;
  });
  if (withSchemaHash) headers[SCHEMA_HASH_HEADER] = SCHEMA_HASH;
  headers['content-length'] = String(body.length);
  res.writeHead(response.status, headers);
  res.end(body);
}
