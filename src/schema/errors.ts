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
  description: 'An input was outside a documented rule or limit; nothing was changed',
  interfaces: [ErrorInterface],
  fields: (t) => ({
    field: t.exposeString('field', { description: 'The input field (a dotted path inside lists and documents)' }),
    limit: t.exposeInt('limit', { nullable: true, description: 'The bound that was crossed, when there is one' }),
  }),
});

builder.objectType(NotFoundError, {
  name: 'NotFound',
  description: 'A record the input named does not exist (or is not visible to this token); nothing was changed',
  interfaces: [ErrorInterface],
  fields: (t) => ({
    resource: t.exposeString('resource', { description: 'The kind of record: its GraphQL type name, e.g. Agent' }),
    resourceId: t.exposeString('resourceId', { description: 'The short id the input named (not a global id)' }),
  }),
});

builder.objectType(AlreadyExistsError, {
  name: 'AlreadyExists',
  description: 'A create named an id that is taken; nothing was changed',
  interfaces: [ErrorInterface],
  fields: (t) => ({
    resource: t.exposeString('resource', { description: 'The kind of record: its GraphQL type name, e.g. Agent' }),
    resourceId: t.exposeString('resourceId', { description: 'The short id that is taken' }),
  }),
});

builder.objectType(RevisionConflictError, {
  name: 'RevisionConflict',
  description: 'The record is no longer at the revision the write named; nothing was changed. Reload and retry deliberately.',
  interfaces: [ErrorInterface],
  fields: (t) => ({
    expectedRevision: t.exposeInt('expectedRevision', { description: 'The revision the write named' }),
    currentRevision: t.exposeInt('currentRevision', { description: 'The revision the record is at' }),
    currentContent: t.exposeString('currentContent', { nullable: true, description: 'The current text content, for records that have one' }),
    currentValue: t.field({ type: 'JSON', nullable: true, description: 'The current record as JSON (never secrets)', resolve: (e) => e.currentValue ?? null }),
  }),
});

builder.objectType(ForbiddenError, {
  name: 'Forbidden',
  description: 'This token may not make this change to this record (e.g. an operator-owned record); nothing was changed',
  interfaces: [ErrorInterface],
});

/**
 * The errors of a revision-checked write to a record an operator may own: bad input, a missing
 * record, a stale revision, an agent touching an operator-owned record. Only for mutations whose
 * service can return all four (test/unions-memory.test.ts produces each one for each of them).
 */
export const OWNED_RECORD_WRITE_ERRORS = [ValidationError, NotFoundError, RevisionConflictError, ForbiddenError];
