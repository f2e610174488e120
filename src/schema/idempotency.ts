/**
 * The idempotency key of a create-type mutation field (docs/idempotency.md): the input's
 * `idempotencyKey`, or else the request's `Idempotency-Key` header with the field's response key
 * appended, so that two keyed fields of one request (aliases) never share a key.
 */
import type { GraphQLResolveInfo } from 'graphql';
import type { Context } from '../context.js';
import { givenIdempotencyKey } from '../db/idempotency.js';

export function idempotencyKeyOf(ctx: Context, info: GraphQLResolveInfo, input: { idempotencyKey?: string | null }): string | null {
  const given = givenIdempotencyKey(input.idempotencyKey);
  if (given !== null) return given;
  const header = givenIdempotencyKey(ctx.idempotencyKey);
  return header === null ? null : `${header}#${info.path.key}`;
}
