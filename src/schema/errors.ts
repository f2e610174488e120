/** The expected-failure members of mutation result unions. */
import { AlreadyExistsError, BurrowError, ForbiddenError, NotFoundError, RevisionConflictError, ValidationError } from '../lib/errors.js';
import { ERROR_CODES, type ErrorCode } from '../lib/error-codes.js';
import { builder } from './builder.js';

export const ErrorCodeEnum = builder.enumType('ErrorCode', {
  description:
    'Every code the API answers with: the `code` of a result-union member, and `extensions.code` of a request error. ' +
    'Upper case, except the two continuity scope codes the continuity contract spells in lower case.',
  values: Object.fromEntries(Object.entries(ERROR_CODES).map(([code, description]) => [code, { description }])) as Record<ErrorCode, { description: string }>,
});

export const ErrorInterface = builder.interfaceRef<BurrowError>('Error').implement({
  description: 'An expected failure: nothing was changed',
  fields: (t) => ({
    message: t.exposeString('message', { description: 'What went wrong, for people; match on `code`, not on this text' }),
    code: t.field({ type: ErrorCodeEnum, description: 'What went wrong, for programs', resolve: (e) => e.code }),
  }),
});

builder.objectType(ValidationError, {
  name: 'ValidationFailed',
  interfaces: [ErrorInterface],
  fields: (t) => ({
    field: t.exposeString('field'),
    limit: t.exposeInt('limit', { nullable: true }),
  }),
});

builder.objectType(NotFoundError, {
  name: 'NotFound',
  interfaces: [ErrorInterface],
  fields: (t) => ({
    resource: t.exposeString('resource'),
    id: t.exposeString('id'),
  }),
});

builder.objectType(AlreadyExistsError, {
  name: 'AlreadyExists',
  interfaces: [ErrorInterface],
  fields: (t) => ({
    resource: t.exposeString('resource'),
    id: t.exposeString('id'),
  }),
});

builder.objectType(RevisionConflictError, {
  name: 'RevisionConflict',
  interfaces: [ErrorInterface],
  fields: (t) => ({
    expectedRevision: t.exposeInt('expectedRevision'),
    currentRevision: t.exposeInt('currentRevision'),
    currentContent: t.exposeString('currentContent', { nullable: true }),
    currentValue: t.field({ type: 'JSON', nullable: true, resolve: (e) => e.currentValue ?? null }),
  }),
});

builder.objectType(ForbiddenError, {
  name: 'Forbidden',
  interfaces: [ErrorInterface],
});

/** The usual members for a write: bad input, missing record, stale revision, ownership. */
export const WRITE_ERRORS = [ValidationError, NotFoundError, RevisionConflictError, ForbiddenError];
