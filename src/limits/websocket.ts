/**
 * graphql-ws limits: the Origin of the upgrade, the size of every message (ws maxPayload, close
 * 1009) and of connection_init, operations open on one socket, and parse/validation failures
 * answered as errors of that operation instead of a socket close.
 */
import type { IncomingMessage } from 'node:http';
import { GraphQLError, type DocumentNode, type ExecutionResult, type FormattedExecutionResult, type GraphQLFormattedError, type GraphQLSchema } from 'graphql';
import type { WebSocket, WebSocketServer } from 'ws';
import type { LimitsConfig } from '../config.server.js';
import { limitExceeded } from './errors.js';
import { originAllowed } from './origins.js';

/** Close code for a connection_init larger than BURROW_WS_CONNECTION_INIT_BYTES. */
export const CLOSE_INIT_TOO_LARGE = 4413;

export function webSocketServerOptions(limits: LimitsConfig, corsOrigins: readonly string[]) {
  return {
    maxPayload: limits.wsMaxPayloadBytes,
    // The callback form, to answer 403 (ws answers 401 to a plain false).
    verifyClient: ({ origin, req }: { origin: string; req: IncomingMessage }, done: (ok: boolean, code?: number, message?: string) => void) =>
      originAllowed(origin, req.headers.host, corsOrigins) ? done(true) : done(false, 403, 'Origin not allowed (BURROW_CORS_ORIGINS)'),
  };
}

const oversizedInit = new WeakSet<WebSocket>();

/**
 * Must be registered before graphql-ws's own connection handler: measures the first message
 * (connection_init) and closes the socket when it is too large; onConnect then refuses it.
 */
export function guardConnectionInit(wsServer: WebSocketServer, limits: LimitsConfig) {
  wsServer.on('connection', (socket) => {
    socket.once('message', (data: Buffer | ArrayBuffer | Buffer[]) => {
      const size = Array.isArray(data) ? data.reduce((n, b) => n + b.length, 0) : data instanceof ArrayBuffer ? data.byteLength : data.length;
      if (size > limits.connectionInitBytes) {
        oversizedInit.add(socket);
        socket.close(CLOSE_INIT_TOO_LARGE, `connection_init larger than ${limits.connectionInitBytes} bytes`);
      }
    });
  });
}

export const connectionInitTooLarge = (socket: WebSocket) => oversizedInit.has(socket);

/** graphql-ws lists every open operation of the socket in ctx.subscriptions, this one included. */
export function socketOperationsRefusal(subscriptions: Record<string, unknown>, limits: LimitsConfig): GraphQLError | null {
  const open = Object.keys(subscriptions).length;
  return open > limits.subscriptionsPerSocket
    ? limitExceeded('BURROW_SUBSCRIPTIONS_PER_SOCKET', `at most ${limits.subscriptionsPerSocket} operations may be open on one socket`, limits.subscriptionsPerSocket)
    : null;
}

/**
 * Parses and validates through the envelop pipeline (so every document limit applies). Whatever
 * goes wrong, including an unexpected throw, is returned as errors for this operation.
 */
export function parseAndValidate(
  enveloped: { parse: (source: string) => DocumentNode; validate: (schema: GraphQLSchema, document: DocumentNode) => readonly GraphQLError[]; schema: GraphQLSchema },
  source: string,
  mask: (error: unknown) => GraphQLError,
): DocumentNode | readonly GraphQLError[] {
  try {
    const document = enveloped.parse(source);
    const errors = enveloped.validate(enveloped.schema, document);
    return errors.length > 0 ? errors : document;
  } catch (error) {
    return [mask(error)];
  }
}

/**
 * An error as graphql-ws sends it, without the `http` extension (status, headers): that one is
 * for the HTTP transport, which Yoga strips from HTTP and SSE answers; graphql-ws would send it
 * as it is, so the same refusal would read differently on a WebSocket.
 */
export function wsFormattedError(error: GraphQLError): GraphQLFormattedError {
  const formatted = error.toJSON();
  if (!formatted.extensions || !('http' in formatted.extensions)) return formatted;
  const { http: _http, ...extensions } = formatted.extensions;
  return { ...formatted, extensions };
}

/** graphql-ws's onNext for a result with errors: the payload with each error as wsFormattedError; otherwise nothing (graphql-ws formats it). */
export function wsNextPayload(result: ExecutionResult): FormattedExecutionResult | undefined {
  if (!result.errors?.some((error) => error.extensions && 'http' in error.extensions)) return undefined;
  const { errors, ...rest } = result;
  return { ...rest, errors: errors.map(wsFormattedError) };
}
