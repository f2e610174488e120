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
import type { Viewer } from './auth/viewer.js';
import { systemClock, type Clock } from './lib/clock.js';
import { BurrowError } from './lib/errors.js';
import { clientDataRefusal } from './lib/db-refusal.js';
import { noFaults, type FaultInjector } from './lib/faults.js';
import { newId } from './lib/ids.js';
import type { Logger } from './lib/logger.js';
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

const unauthenticatedError = () =>
  createGraphQLError('a valid bearer token is required (Authorization: Bearer <token>)', {
    extensions: { code: 'UNAUTHENTICATED', http: { status: 401 } },
  });

// Subclasses (e.g. Pothos' validation errors) and other copies of graphql share the shape.
const isGraphQLErrorLike = (value: unknown): value is GraphQLError =>
  typeof value === 'object' &&
  value !== null &&
  (value instanceof GraphQLError || (value as Error).name === 'GraphQLError' || ('extensions' in value && 'locations' in value && 'path' in value));

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
    graphiql: deps.config.graphiql ? { title: 'Burrow', subscriptionsProtocol: 'WS' } : false,
    landingPage: false,
    logging: false,
    maskedErrors: {
      isDev: false,
      maskError: (error, message) => {
        // Executors may wrap a resolver's error more than once, with GraphQLError classes from more
        // than one copy of graphql (ESM and CJS), so unwrap by shape rather than instanceof.
        let cause: unknown = error;
        while (isGraphQLErrorLike(cause) && cause.originalError) cause = cause.originalError;
        const located = isGraphQLErrorLike(error) ? error : null;
        const at = { nodes: located?.nodes, path: located?.path };
        if (cause instanceof BurrowError) return createGraphQLError(cause.message, { ...at, extensions: { code: cause.code } });
        // Errors GraphQL itself raised (syntax, validation, coercion, bad global ids) are the
        // client's to see; every error carries a code.
        if (isGraphQLErrorLike(cause)) {
          return cause.extensions?.code ? cause : createGraphQLError(cause.message, { nodes: cause.nodes, path: cause.path, extensions: { ...cause.extensions, code: 'BAD_REQUEST' } });
        }
        // The database refused the client's data (e.g. U+0000 in text, a value out of range)
        // where no earlier check caught it: still the client's mistake, and nothing was written.
        const refusal = clientDataRefusal(cause);
        if (refusal) return createGraphQLError(refusal, { ...at, extensions: { code: 'BAD_REQUEST' } });
        logger.error('unexpected error', { error: (cause as Error)?.message ?? String(cause) });
        return createGraphQLError(message, { path: located?.path, extensions: { code: 'INTERNAL_SERVER_ERROR' } });
      },
    },
    context: async (initial: YogaInitialContext & { viewer?: Viewer }): Promise<Context> => {
      const requestId = newId();
      let viewer: Viewer | null = initial.viewer ?? null;
      if (!viewer) {
        const secret = bearerSecret(initial.request.headers.get('authorization'));
        viewer = await services.tokens.authenticate(secret, scopeFromHeaders((name) => initial.request.headers.get(name)));
        if (!viewer) throw unauthenticatedError();
      }
      return { viewer, services, requestId, logger: logger.child({ requestId }) };
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
        return {
          schema: envelopedSchema,
          operationName: payload.operationName,
          document,
          variableValues: payload.variables,
          contextValue: await contextFactory(),
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
    },
  };
}

export type App = ReturnType<typeof buildApp>;
