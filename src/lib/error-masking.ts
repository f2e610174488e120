/**
 * What a client sees of an error. Domain errors keep their code and message; errors GraphQL
 * itself raised (syntax, validation, coercion) are the client's to see; PostgreSQL refusing the
 * client's data is a BAD_REQUEST; a lost or refused database connection is DATABASE_UNAVAILABLE
 * (retryable, HTTP 503); everything else is masked as INTERNAL_SERVER_ERROR and logged (by
 * SQLSTATE and constraint name, never SQL, parameters or the text of the error).
 * app.ts hands `maskError` to Yoga, which applies it on every transport (HTTP, SSE, graphql-ws).
 */
import { createGraphQLError, type Plugin } from 'graphql-yoga';
import { GraphQLError } from 'graphql';
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
