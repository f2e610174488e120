/**
 * buildApp(deps) -> { yoga, start, stop }. HTTP, SSE and graphql-ws share one port, one
 * context factory and one envelop pipeline (graphql-ws runs through yoga.getEnveloped).
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createGraphQLError, createYoga, type YogaInitialContext } from 'graphql-yoga';
import { GraphQLError } from 'graphql';
import { WebSocketServer } from 'ws';
import { useServer } from 'graphql-ws/use/ws';
import type { BurrowConfig } from './config.js';
import type { Context } from './context.js';
import type { Database } from './db/database.js';
import { bearerSecret, scopeFromHeaders } from './auth/tokens.service.js';
import { rateLimitedError } from './limits/rate-limit.js';
import { TOKEN_ENDED_CLOSE_CODE, useEndStreamsWithToken } from './auth/token-watch.js';
import type { Viewer } from './auth/viewer.js';
import { systemClock, type Clock } from './lib/clock.js';
import { errorMasker, unauthenticatedError, useTypedRequestParseErrors } from './lib/error-masking.js';
import { noFaults, type FaultInjector } from './lib/faults.js';
import { newId } from './lib/ids.js';
import type { Logger } from './lib/logger.js';
import { graphiqlOptions, renderBurrowGraphiQL } from './graphiql.js';
import { createMcpHttpHandler, isMcpPath } from './mcp/http.js';
import { schema } from './schema/index.js';
import { createServices, type Services } from './services.js';

export interface AppDeps {
  config: BurrowConfig;
  database: Database;
  logger: Logger;
  clock?: Clock;
  faults?: FaultInjector;
}

type WsExtra = { viewer: Viewer } & Record<PropertyKey, unknown>;

export function buildApp(deps: AppDeps) {
  const logger = deps.logger;
  const services: Services = createServices({
    config: deps.config,
    database: deps.database,
    clock: deps.clock ?? systemClock,
    logger,
    faults: deps.faults ?? noFaults,
  });

  const yoga = createYoga<Record<string, unknown>, Context>({
    schema,
    graphqlEndpoint: '/graphql',
    graphiql: deps.config.graphiql ? graphiqlOptions : false,
    renderGraphiQL: renderBurrowGraphiQL,
    landingPage: false,
    logging: false,
    maskedErrors: { isDev: false, maskError: errorMasker(logger) },
    plugins: [useTypedRequestParseErrors(), useEndStreamsWithToken(services.tokenWatch)],
    context: async (initial: YogaInitialContext & { viewer?: Viewer; transport?: 'ws' }): Promise<Context> => {
      const requestId = newId();
      let viewer: Viewer | null = initial.viewer ?? null;
      if (!viewer) {
        const secret = bearerSecret(initial.request.headers.get('authorization'));
        viewer = await services.tokens.authenticate(secret, scopeFromHeaders((name) => initial.request.headers.get(name)));
        if (!viewer) throw unauthenticatedError();
      } else if (services.tokenWatch.isEnded(viewer.tokenId)) {
        // A WebSocket operation racing its socket's close after the token ended.
        throw unauthenticatedError();
      }
      const retryAfter = services.rateLimiter.take(viewer.tokenId);
      if (retryAfter !== null) throw rateLimitedError(retryAfter);
      return { viewer, services, requestId, logger: logger.child({ requestId }), transport: initial.transport ?? 'http' };
    },
  });

  const mcp = createMcpHttpHandler({ services, logger: logger.child({ component: 'mcp' }) });
  // MCP (Streamable HTTP) shares the port: /mcp goes to the MCP server, everything else to Yoga.
  const server: Server = createServer((req, res) => (isMcpPath(req.url) ? void mcp(req, res) : yoga(req, res)));
  const wsServer = new WebSocketServer({ server, path: '/graphql' });
  useServer<Record<string, unknown> | undefined, WsExtra>(
    {
      onConnect: async (ctx) => {
        const params = ctx.connectionParams ?? {};
        const raw = String(params.authorization ?? params.Authorization ?? params.token ?? '');
        const secret = raw.toLowerCase().startsWith('bearer ') ? raw.slice(7).trim() : raw.trim();
        const viewer = await services.tokens.authenticate(
          secret,
          scopeFromHeaders((name) => {
            const value = Object.entries(params).find(([key]) => key.toLowerCase() === name)?.[1];
            return value == null ? null : String(value);
          }),
        );
        if (!viewer) return false;
        ctx.extra.viewer = viewer;
        const untrack = services.tokenWatch.track(viewer.tokenId, () => ctx.extra.socket.close(TOKEN_ENDED_CLOSE_CODE, 'Forbidden: the token was revoked or has expired'));
        ctx.extra.socket.once('close', untrack);
        return true;
      },
      execute: (args) => (args.rootValue as { execute: typeof import('graphql').execute }).execute(args),
      subscribe: (args) => (args.rootValue as { subscribe: typeof import('graphql').subscribe }).subscribe(args),
      onSubscribe: async (ctx, _id, payload) => {
        const { schema: envelopedSchema, execute, subscribe, contextFactory, parse, validate } = yoga.getEnveloped({
          ...ctx,
          req: ctx.extra.request,
          socket: ctx.extra.socket,
          params: payload,
          viewer: ctx.extra.viewer,
          transport: 'ws',
          request: new Request('http://burrow.local/graphql', { method: 'POST' }),
        });
        let document;
        try {
          document = parse(payload.query);
        } catch (error) {
          return [error as GraphQLError];
        }
        const errors = validate(envelopedSchema, document);
        if (errors.length > 0) return errors;
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
          document,
          variableValues: payload.variables,
          contextValue,
          rootValue: { execute, subscribe },
        };
      },
    },
    wsServer,
  );

  let started = false;
  return {
    yoga,
    server,
    services,
    /** Listens, starts LISTEN fan-out and background jobs. Returns the bound port. */
    async start(port = deps.config.port, host = deps.config.host): Promise<number> {
      await services.hub.start();
      await services.tokenWatch.start();
      await new Promise<void>((resolve, reject) => {
        server.once('error', reject);
        server.listen(port, host, () => resolve());
      });
      for (const job of services.background) job.start();
      started = true;
      return (server.address() as AddressInfo).port;
    },
    /** Stops background jobs, closes sockets and the HTTP server. Leaves the database open. */
    async stop(): Promise<void> {
      for (const job of services.background) await job.stop();
      for (const client of wsServer.clients) client.terminate();
      await new Promise<void>((resolve) => wsServer.close(() => resolve()));
      if (started) {
        server.closeAllConnections();
        await new Promise<void>((resolve) => server.close(() => resolve()));
      }
      await services.hub.stop();
      await services.tokenWatch.stop();
    },
  };
}

export type App = ReturnType<typeof buildApp>;
