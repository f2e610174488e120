/**
 * What a client sees of an error. Domain errors keep their code and message; errors GraphQL
 * itself raised (syntax, validation, coercion) are the client's to see; PostgreSQL refusing the
 * client's data is a BAD_REQUEST; a lost or refused database connection is DATABASE_UNAVAILABLE
 * (retryable, HTTP 503); everything else is masked as INTERNAL_SERVER_ERROR and logged (by
 * SQLSTATE and constraint name, never SQL, parameters or the text of the error).
 * useErrorMasking applies it to every result of HTTP and SSE and to what graphql-ws's own path
 * raises; app.ts's graphql-ws hooks mask every frame (see useErrorMasking for why not Yoga's).
 */
import { createGraphQLError, isAsyncIterable, mapAsyncIterator, type Plugin } from 'graphql-yoga';
import { GraphQLError, type ExecutionResult } from 'graphql';
import { describeError, isConnectionLoss } from './connection-errors.js';
import { BurrowError, ValidationError } from './errors.js';
import type { Logger } from './logger.js';

export const unauthenticatedError = () =>
  createGraphQLError('a valid bearer token is required (Authorization: Bearer <token>)', {
    extensions: { code: 'UNAUTHENTICATED', http: { status: 401 } },
  });

// Subclasses (e.g. Pothos' validation errors) and other copies of graphql share the shape.
const isGraphQLErrorLike = (value: unknown): value is GraphQLError =>
  typeof value === 'object' &&
  value !== null &&
  (value instanceof GraphQLError || (value as Error).name === 'GraphQLError' || ('extensions' in value && 'locations' in value && 'path' in value));

/**
 * A PostgreSQL error caused by the data a client sent (SQLSTATE class 22, data exception, or a
 * CHECK violation), found anywhere in the cause chain: Drizzle wraps driver errors. Returns a
 * message safe to show (no SQL, no parameters), or null.
 */
export function clientDataRefusal(error: unknown): string | null {
  for (let current = error, depth = 0; current && depth < 5; current = (current as { cause?: unknown }).cause, depth++) {
    const code = (current as { code?: unknown }).code;
    if (typeof code !== 'string') continue;
    if (code === '22021' || code === '22P05') return 'text must not contain the NUL character (U+0000) or invalid Unicode';
    if (code === '23514') return `a value breaks the limit "${(current as { constraint?: string }).constraint ?? 'check'}"`;
    if (code.startsWith('22')) return 'a value is out of range or not of the expected form';
  }
  return null;
}

/**
 * The request needed the database and its connection was lost or refused. Only the requests
 * that used that connection see it; retrying after a moment is the right reaction.
 */
export const databaseUnavailableError = (at: { path?: readonly (string | number)[] } = {}) =>
  createGraphQLError('the database is unavailable right now (connection lost or refused); retry shortly', {
    path: at.path,
    extensions: { code: 'DATABASE_UNAVAILABLE', retryable: true, http: { status: 503, headers: { 'Retry-After': '1' } } },
  });

/** Yoga's `maskedErrors.maskError`, logging what it masks. */
export function errorMasker(logger: Logger) {
  return (error: unknown, message: string): Error => {
    // Executors may wrap a resolver's error more than once, with GraphQLError classes from more
    // than one copy of graphql (ESM and CJS), so unwrap by shape rather than instanceof.
    let cause: unknown = error;
    while (isGraphQLErrorLike(cause) && cause.originalError) cause = cause.originalError;
    const located = isGraphQLErrorLike(error) ? error : null;
    const at = { nodes: located?.nodes, path: located?.path };
    if (cause instanceof ValidationError) {
      return createGraphQLError(cause.message, { ...at, extensions: { code: cause.code, field: cause.field, limit: cause.limit } });
    }
    if (cause instanceof BurrowError) return createGraphQLError(cause.message, { ...at, extensions: { code: cause.code } });
    // Errors GraphQL itself raised (syntax, validation, coercion, bad global ids) are the
    // client's to see; every error carries a code.
    if (isGraphQLErrorLike(cause)) {
      return cause.extensions?.code ? cause : createGraphQLError(cause.message, { nodes: cause.nodes, path: cause.path, extensions: { ...cause.extensions, code: 'BAD_REQUEST' } });
    }
    // The database refused the client's data (e.g. U+0000 in text, a value out of range)
    // where no earlier check caught it: still the client's mistake, and nothing was written.
    if (isConnectionLoss(cause)) {
      logger.warn('request failed: database unavailable', describeError(cause));
      return databaseUnavailableError({ path: located?.path });
    }
    const refusal = clientDataRefusal(cause);
    if (refusal) return createGraphQLError(refusal, { ...at, extensions: { code: 'BAD_REQUEST' } });
    logger.error('unexpected error', describeError(cause));
    return createGraphQLError(message, { path: located?.path, extensions: { code: 'INTERNAL_SERVER_ERROR' } });
  };
}

/** What every masked unexpected error says. */
export const UNEXPECTED_ERROR_MESSAGE = 'Unexpected error.';

type MaskError = ReturnType<typeof errorMasker>;

/**
 * The result with every error masked; the very result when it has none. Masking a masked error
 * returns it unchanged (it carries a code), so a result may pass here more than once.
 */
export function maskedResult<R extends ExecutionResult>(result: R, maskError: MaskError): R {
  if (!result.errors?.length) return result;
  return { ...result, errors: result.errors.map((error) => maskError(error, UNEXPECTED_ERROR_MESSAGE) as GraphQLError) };
}

/**
 * Error masking in place of Yoga's `maskedErrors` (which app.ts turns off). Yoga's wraps every
 * subscription's stream twice, once to map its events and once to catch what it throws: at 10,000
 * held subscriptions those two layers were ~3.5 KB of heap each and a third of an event's
 * delivery p99 (docs/performance.md). Here nothing wraps a subscription's stream:
 * - results of queries and mutations, a subscription refused before its stream (a resolver's
 *   error) and the context factory's errors are masked here, on every transport;
 * - every HTTP and SSE answer is masked once more as it is sent (onResultProcess): what Yoga's
 *   request handling raised outside execution (it hands on a thrown error's own message when its
 *   masking is off), and each event of an SSE stream, are masked there;
 * - graphql-ws frames are masked by app.ts's onNext and onError hooks, which see every event
 *   and every error graphql-ws sends, including a stream's thrown error.
 */
export function useErrorMasking(maskError: MaskError): Plugin {
  const maskResult = ({ result, setResult }: { result: unknown; setResult(result: never): void }) => {
    if (isAsyncIterable(result)) return;
    const masked = maskedResult(result as ExecutionResult, maskError);
    if (masked !== result) setResult(masked as never);
  };
  return {
    onPluginInit({ registerContextErrorHandler }) {
      registerContextErrorHandler(({ error, setError }) => setError(maskError(error, UNEXPECTED_ERROR_MESSAGE)));
    },
    onExecute: () => ({ onExecuteDone: maskResult }),
    onSubscribe: () => ({ onSubscribeResult: maskResult }),
    onResultProcess({ result, setResult }) {
      if (!isAsyncIterable(result)) return maskResult({ result, setResult });
      // An SSE stream: one layer for HTTP's streams alone, where graphql-ws's need none.
      setResult(mapAsyncIterator(result, (event) => maskedResult(event as ExecutionResult, maskError)) as never);
    },
  };
}

/**
 * A Yoga plugin: request parameters that are not what GraphQL-over-HTTP asks for (a GET whose
 * `variables` or `extensions` is not JSON) are the client's mistake, answered 400 BAD_REQUEST,
 * rather than a JSON.parse failure deep in the request parser masked as an internal error.
 */
export function useTypedRequestParseErrors(): Plugin {
  return {
    onRequestParse({ requestParser, setRequestParser }) {
      if (!requestParser) return;
      setRequestParser(async (request) => {
        try {
          return await requestParser(request);
        } catch (error) {
          if (!(error instanceof SyntaxError)) throw error;
          throw createGraphQLError(`the request's variables or extensions are not JSON: ${error.message}`, {
            extensions: { code: 'BAD_REQUEST', http: { status: 400 } },
          });
        }
      });
    },
  };
}
