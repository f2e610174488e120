/**
 * buildApp(deps) -> { yoga, start, stop }. HTTP, SSE and graphql-ws share one port, one
 * context factory and one envelop pipeline (graphql-ws runs through yoga.getEnveloped).
 */
import { createServer, type Server } from 'node:http';
import { createGraphQLError, createYoga, type YogaInitialContext } from 'graphql-yoga';
import type { DocumentNode, FormattedExecutionResult, GraphQLError } from 'graphql';
import { WebSocketServer } from 'ws';
import { useServer } from 'graphql-ws/use/ws';
import { coalesceSocketWrites } from './events/socket-writes.js';
import { spliceSerializedPayloads } from './events/serialized-payloads.js';
import type { BurrowConfig } from './config.js';
import type { Context } from './context.js';
import type { Database } from './db/database.js';
import { authenticate as authenticateWith, connectionParamCredentials, nodeHeaderCredentials, type Credentials } from './auth/authenticate.js';
import { rateLimitedError } from './limits/rate-limit.js';
import { TOKEN_ENDED_CLOSE_CODE, useEndStreamsWithToken } from './auth/token-watch.js';
import { sharedNextPayload, useSharedEventExecution } from './events/shared-execution.js';
import type { Viewer } from './auth/viewer.js';
import { systemClock, type Clock } from './lib/clock.js';
import { errorMasker, maskedResult, UNEXPECTED_ERROR_MESSAGE, unauthenticatedError, useErrorMasking, useTypedRequestParseErrors } from './lib/error-masking.js';
import { noFaults, type FaultInjector } from './lib/faults.js';
import { newId } from './lib/ids.js';
import type { Logger } from './lib/logger.js';
import { graphiqlOptions, renderBurrowGraphiQL } from './graphiql.js';
import { createMcpHttpHandler, isMcpPath } from './mcp/http.js';
import { createConsoleHandler, isConsolePath } from './console.js';
import { createArchiveHttpHandler, isArchivePath } from './domains/agent-archive/agent-archive.http.js';
import { schema } from './schema/index.js';
import { useCompiledOperations } from './schema/compiled-operations.js';
import { useValidationCache } from './schema/validation-cache.js';
import { SCHEMA_HASH, useSchemaHashHeader } from './schema/hash.js';
import { createServices, type Services } from './services.js';
import { createEdge, createMetricsServer, listenOrExplain } from './ops/edge.js';
import { createHealth } from './ops/health.js';
import { createMetrics } from './ops/metrics.js';
import { createObservability } from './ops/observe.js';
import { createDirectGraphQL } from './ops/direct-graphql.js';
import type { Tracing } from './ops/tracing.js';
import { closeReason } from './lib/connection-errors.js';
import * as limits from './limits/index.js';
import { withRequestScope } from './db/read-your-writes.js';

export interface AppDeps {
  config: BurrowConfig;
  database: Database;
  logger: Logger;
  clock?: Clock;
  faults?: FaultInjector;
  /** The trusted-documents manifest; default: the one codegen wrote (clients/typescript/generated). */
  trustedDocuments?: limits.TrustedDocuments;
  /** `await loadTracing(config.ops.tracing)` (ops/tracing.ts): required when tracing is configured. */
  tracing?: Tracing | null;
}

type WsExtra = { viewer: Viewer } & Record<PropertyKey, unknown>;

/** How long an idle keep-alive connection stays open (announced as `Keep-Alive: timeout=65`). */
export const HTTP_KEEP_ALIVE_MS = 65_000;

export function buildApp(deps: AppDeps) {
  const logger = deps.logger;
  const services: Services = createServices({
    config: deps.config,
    database: deps.database,
    clock: deps.clock ?? systemClock,
    logger,
    faults: deps.faults ?? noFaults,
  });

  const metrics = createMetrics({ pool: deps.database.pool, hub: services.hub, reads: deps.database.reads, brainSaves: services.brains.saveBatches });
  if (deps.config.ops.tracing && !deps.tracing) throw new Error('tracing is configured: pass buildApp the result of loadTracing(config.ops.tracing)');
  const tracing = deps.tracing ?? null;
  const maskError = errorMasker(logger);
  const observability = createObservability(logger, metrics);
  // The one authentication (auth/authenticate.ts) of the HTTP gate, the direct path, /metrics and graphql-ws (MCP calls it too).
  const authenticate = (credentials: Credentials) => authenticateWith(services.tokens, credentials);
  const guards = limits.yogaLimits({
    config: deps.config,
    graphqlEndpoint: '/graphql',
    documents: deps.trustedDocuments,
    unauthenticatedMessage: unauthenticatedError().message,
    authenticate,
  });

  const yoga = createYoga<Record<string, unknown>, Context>({
    schema,
    graphqlEndpoint: '/graphql',
    graphiql: deps.config.graphiql ? graphiqlOptions : false,
    renderGraphiQL: renderBurrowGraphiQL,
    landingPage: false,
    logging: false,
    // Masked by useErrorMasking and the graphql-ws hooks below instead: Yoga's wraps every
    // subscription's stream twice (lib/error-masking.ts).
    maskedErrors: false,
    ...guards.options,
    // The limits' gate authenticates before anything is parsed; observability sees what passes it.
    plugins: [
      // Before the limits: the operation policy wraps the subscribe function it finds to release
      // the token's subscription slot when subscribing throws; set after it, this plugin's
      // function replaced that wrapper and a throwing subscribe kept its slot for good.
      useSharedEventExecution(),
      ...guards.options.plugins,
      useTypedRequestParseErrors(),
      useCompiledOperations(),
      useSchemaHashHeader(),
      useEndStreamsWithToken(services.tokenWatch),
      // Before observability: what it records of an answer is what the client gets.
      useErrorMasking(maskError),
      observability.plugin,
      ...(tracing ? [tracing.plugin] : []),
      // Last: it compares the validation rules every plugin above has added.
      useValidationCache(),
    ],
    // Parsing stays cached by Yoga; validation by useValidationCache.
    parserAndValidationCache: { validationCache: false },
    // The viewer was authenticated before parsing: by the HTTP gate, or by graphql-ws's onConnect.
    context: async (initial: YogaInitialContext & { viewer?: Viewer; transport?: 'ws' }): Promise<Context> => {
      const requestId = newId();
      const viewer = initial.viewer;
      // No viewer, or a WebSocket operation racing its socket's close after the token ended.
      if (!viewer || services.tokenWatch.isEnded(viewer.tokenId)) throw unauthenticatedError();
      const retryAfter = services.rateLimiter.take(viewer.tokenId);
      if (retryAfter !== null) throw rateLimitedError(retryAfter);
      // The header keys this request's create-type writes (schema/idempotency.ts); never a socket's.
      const idempotencyKey = initial.transport === 'ws' ? null : (initial.request?.headers.get('idempotency-key') ?? null);
      return { viewer, services, requestId, logger: logger.child({ requestId }), transport: initial.transport ?? 'http', idempotencyKey };
    },
  });

  // Plain JSON operations skip Yoga's HTTP layer (see ops/direct-graphql.ts); tracing needs that layer.
  const direct = createDirectGraphQL({
    enabled: !tracing,
    yoga,
    graphqlEndpoint: '/graphql',
    authenticate,
    documents: guards.documents,
    trustedDocuments: deps.config.security.trustedDocuments,
    bodyBytes: deps.config.limits.bodyBytes,
    observability,
    metrics,
    maskError,
  });
  const health = createHealth({ pool: deps.database.pool, hub: services.hub, isDraining: () => edge.draining, supervisor: deps.database.supervisor });
  const mcp = createMcpHttpHandler({ services, logger: logger.child({ component: 'mcp' }) });
  const operatorConsole = createConsoleHandler();
  const archives = createArchiveHttpHandler({ services, pool: deps.database.pool, logger: logger.child({ component: 'agent-archive' }) });
  const edge = createEdge({
    // MCP (Streamable HTTP), the operator console and agent archives share the port: /mcp goes to
    // the MCP server, /console to the console's built assets, /agents/{id}/archive to the
    // archive handler, everything else to the direct JSON path, which hands what it does not
    // serve to Yoga.
    // Each request in its own scope: what it commits is its token's (db/read-your-writes.ts).
    next: (req, res) =>
      withRequestScope(() =>
        isMcpPath(req.url)
          ? void mcp(req, res)
          : isConsolePath(req.url)
            ? void operatorConsole(req, res)
            : isArchivePath(req.url)
              ? void archives(req, res)
              : direct.handle(req, res),
      ),
    health,
    metrics,
    isOperator: async (headers) => (await authenticate(nodeHeaderCredentials(headers)))?.principal === 'OPERATOR',
  });
  const server: Server = createServer(edge.listener);
  // An idle keep-alive connection stays open longer than clients and load balancers keep theirs
  // (AWS ALB and most proxies: 60 s), so the server is never the side that closes a connection a
  // client is about to reuse; Node's 5 s default raced fetch's reuse after a few seconds idle
  // ("other side closed"). The header wait must outlast the keep-alive wait, as Node requires.
  server.keepAliveTimeout = HTTP_KEEP_ALIVE_MS;
  server.headersTimeout = HTTP_KEEP_ALIVE_MS + 1_000;
  const metricsServer = deps.config.ops.metrics ? createMetricsServer(metrics) : null;
  // noServer: the HTTP server's own errors (a port in use) stay with listenOrExplain instead of
  // being re-emitted on the WebSocket server, and upgrades are refused while draining.
  const wsServer = new WebSocketServer({ noServer: true, ...limits.webSocketServerOptions(deps.config.limits, deps.config.security.corsOrigins) });
  server.on('upgrade', (request, socket, head) => {
    if ((request.url ?? '').split('?')[0] !== '/graphql' || edge.draining) return void socket.destroy();
    wsServer.handleUpgrade(request, socket, head, (ws) => {
      coalesceSocketWrites(ws);
      spliceSerializedPayloads(ws);
      wsServer.emit('connection', ws, request);
    });
  });
  limits.guardConnectionInit(wsServer, deps.config.limits);
  // The `request` Yoga's context expects of every operation: a socket's operations have none of
  // their own, so they share one (no headers, no body; a Request per subscription was ~1 KB held).
  const wsRequest = new Request('http://burrow.local/graphql', { method: 'POST' });
  useServer<Record<string, unknown> | undefined, WsExtra>(
    {
      onConnect: async (ctx) => {
        if (limits.connectionInitTooLarge(ctx.extra.socket)) return false;
        const viewer = await authenticate(connectionParamCredentials(ctx.connectionParams ?? {})).catch(closeReason);
        if (!viewer) return false;
        ctx.extra.viewer = viewer;
        const untrack = services.tokenWatch.track(viewer.tokenId, () => ctx.extra.socket.close(TOKEN_ENDED_CLOSE_CODE, 'Forbidden: the token was revoked or has expired'));
        ctx.extra.socket.once('close', untrack);
        // The connection_ack payload: what the client compares with the schema it was built from.
        return { schemaHash: SCHEMA_HASH };
      },
      execute: (args) =>
        withRequestScope(() => (args.rootValue as { execute: typeof import('graphql').execute }).execute(args), (args.contextValue as Context).viewer?.tokenId ?? null),
      subscribe: (args) => (args.rootValue as { subscribe: typeof import('graphql').subscribe }).subscribe(args),
      // A subscription event's result shared by many subscribers goes out as JSON serialized once
      // (graphql-ws types what onNext returns as a result; it only stringifies it into the frame).
      // Every frame's errors are masked here (lib/error-masking.ts): an event's execution errors
      // in onNext, and in onError whatever graphql-ws sends as an error, a stream's throw included.
      onNext: (_ctx, _id, _payload, _args, result) => {
        if (!result.errors) return sharedNextPayload(result) as FormattedExecutionResult | undefined;
        const masked = maskedResult(result, maskError);
        return limits.wsNextPayload(masked) ?? (masked as FormattedExecutionResult);
      },
      onError: (_ctx, _id, _payload, errors) => errors.map((error) => limits.wsFormattedError(maskError(error, UNEXPECTED_ERROR_MESSAGE) as GraphQLError)),
      onSubscribe: async (ctx, _id, payload) => {
        const {
          schema: envelopedSchema,
          execute,
          subscribe,
          contextFactory,
          parse,
          validate,
        } = yoga.getEnveloped({
          ...ctx,
          req: ctx.extra.request,
          socket: ctx.extra.socket,
          params: payload,
          viewer: ctx.extra.viewer,
          transport: 'ws',
          request: wsRequest,
        });
        const tooMany = limits.socketOperationsRefusal(ctx.subscriptions, deps.config.limits);
        if (tooMany) return [tooMany];
        const text = limits.resolveOperationText(payload, ctx.extra.viewer ?? null, guards.documents, deps.config.security.trustedDocuments);
        if (typeof text !== 'string') return [text];
        const document = limits.parseAndValidate({ parse, validate, schema: envelopedSchema }, text, (error) => maskError(error, UNEXPECTED_ERROR_MESSAGE) as GraphQLError);
        if (Array.isArray(document)) return document;
        let contextValue;
        try {
          contextValue = await contextFactory();
        } catch (error) {
          // A typed refusal of this operation (rate limit, ended token) is its error, not the
          // socket's end; the HTTP status and headers mean nothing here.
          const { http: _http, ...extensions } = (error as GraphQLError).extensions ?? {};
          if (!extensions.code) throw error;
          // createGraphQLError: graphql-ws checks instanceof against the copy of graphql it loads.
          return [createGraphQLError((error as Error).message, { extensions })];
        }
        return {
          schema: envelopedSchema,
          operationName: payload.operationName,
          document: document as DocumentNode,
          variableValues: payload.variables,
          contextValue,
          rootValue: { execute, subscribe },
        };
      },
    },
    wsServer,
  );

  let started = false;
  let stopping: Promise<{ drained: boolean; inFlightAtStop: number }> | null = null;
  return {
    yoga,
    server,
    services,
    metrics,
    health,
    /** Listens, starts LISTEN fan-out and background jobs. Returns the bound port. */
    async start(port = deps.config.port, host = deps.config.host): Promise<number> {
      await services.hub.start();
      await services.tokenWatch.start();
      await services.erasingAgents.start();
      try {
        if (metricsServer && deps.config.ops.metrics) {
          await listenOrExplain(metricsServer, deps.config.ops.metrics.port, deps.config.ops.metrics.host, { port: 'BURROW_METRICS_PORT', host: 'BURROW_METRICS_HOST' });
        }
        // Last, and nothing awaited after it: a caller that prints its banner as soon as this
        // returns prints it before the first request is answered (requests are I/O callbacks,
        // which wait for this chain of promises to finish).
        const bound = await listenOrExplain(server, port, host);
        for (const job of services.background) job.start();
        started = true;
        return bound;
      } catch (error) {
        if (metricsServer?.listening) metricsServer.close();
        if (server.listening) server.close();
        await services.hub.stop();
        await services.tokenWatch.stop();
        await services.erasingAgents.stop();
        throw error;
      }
    },
    /** The port of the BURROW_METRICS_PORT listener, when there is one and it listens. */
    metricsPort: () => (metricsServer?.listening ? (metricsServer.address() as import('node:net').AddressInfo).port : null),
    /**
     * Graceful stop (see ops/shutdown.ts): readiness turns 503 and new connections are refused;
     * WebSockets close with 1001 (clients resume elsewhere with `after`) and SSE streams end;
     * in-flight requests get `graceMs` to finish; then background jobs stop and ownership
     * sessions end (locks released, close recorded). Leaves the database open.
     * Returns whether every in-flight request finished in time. Idempotent.
     */
    stop(graceMs = 0): Promise<{ drained: boolean; inFlightAtStop: number }> {
      return (stopping ??= stopGracefully(graceMs));
    },
  };

  async function stopGracefully(graceMs: number) {
    const inFlightAtStop = edge.inFlight;
    edge.drain();
    if (started) server.close();
    server.closeIdleConnections();
    for (const client of wsServer.clients) client.close(1001, 'server shutting down');
    await services.hub.stop();
    await services.tokenWatch.stop();
    await services.erasingAgents.stop();
    const drained = await edge.settled(graceMs);
    if (started) server.closeAllConnections();
    for (const client of wsServer.clients) client.terminate();
    await new Promise<void>((resolve) => wsServer.close(() => resolve()));
    for (const job of services.background) await job.stop();
    if (metricsServer?.listening) {
      metricsServer.closeAllConnections();
      await new Promise<void>((resolve) => metricsServer.close(() => resolve()));
    }
    await tracing?.shutdown();
    return { drained, inFlightAtStop };
  }
}

export type App = ReturnType<typeof buildApp>;
