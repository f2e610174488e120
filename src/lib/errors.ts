/**
 * Domain errors. Expected failures of a mutation become members of its result union
 * (see schema/errors.ts); request-level failures (auth, scope, cursors) become GraphQL errors
 * with `extensions.code`. This file must not import graphql: services throw these.
 */
import type { ErrorCode } from './error-codes.js';

export class BurrowError extends Error {
  constructor(
    readonly code: ErrorCode,
    message: string,
  ) {
    super(message);
    this.name = new.target.name;
  }
}

/** Input outside a documented limit. `limit` is the bound that was crossed, when there is one. */
export class ValidationError extends BurrowError {
  constructor(
    readonly field: string,
    message: string,
    readonly limit: number | null = null,
  ) {
    super('VALIDATION_FAILED', message);
  }
}

export class NotFoundError extends BurrowError {
  constructor(
    readonly resource: string,
    readonly resourceId: string,
  ) {
    super('NOT_FOUND', `${resource} ${resourceId} was not found`);
  }
}

/** A create named an id that is already taken; nothing was changed. */
export class AlreadyExistsError extends BurrowError {
  constructor(
    readonly resource: string,
    readonly resourceId: string,
  ) {
    super('ALREADY_EXISTS', `${resource} ${resourceId} already exists`);
  }
}

/** A write named a revision that is no longer current; nothing was changed. */
export class RevisionConflictError extends BurrowError {
  constructor(
    readonly resource: string,
    readonly id: string,
    readonly expectedRevision: number,
    readonly currentRevision: number,
    readonly currentContent: string | null,
    readonly currentValue: unknown,
  ) {
    super('REVISION_CONFLICT', `${resource} ${id} is at revision ${currentRevision}, not ${expectedRevision}; reload and retry deliberately`);
  }
}

/** An authenticated caller may not do this to this record (e.g. OPERATOR_OWNED). */
export class ForbiddenError extends BurrowError {}

/**
 * A failure of the request itself rather than of one mutation's business rule: authentication,
 * agent binding, continuity scope, cursor binding, malformed arguments. Surfaces as a GraphQL
 * error whose `extensions.code` is `code`.
 */
export class RequestError extends BurrowError {}

export const unauthenticated = (message = 'a valid bearer token is required') => new RequestError('UNAUTHENTICATED', message);
export const forbidden = (message: string) => new RequestError('FORBIDDEN', message);
export const agentMismatch = () => new RequestError('AGENT_MISMATCH', 'this token acts only as its own agent');
export const scopeRequired = () => new RequestError('continuity_scope_required', 'this operation needs a continuity scope (Burrow-Continuity-Scope header or connectionParams)');
export const scopeMismatch = (requested: string, current: string) =>
  new RequestError('continuity_scope_mismatch', `requested project "${requested}" differs from the runtime continuity scope "${current}"`);
export const badRequest = (message: string) => new RequestError('BAD_REQUEST', message);
