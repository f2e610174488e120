/**
 * A tool call is one logical call, however often it reaches the database (docs/idempotency.md).
 * A write tool that takes an idempotency key gets one when the caller gave none, fresh per call;
 * a call that loses its database connection (a failover, a restart: the write may or may not have
 * committed) runs again with the same key, after a jittered backoff, at most MCP_ATTEMPTS times in
 * all. The key makes the repeat answer the first result if the first attempt did commit. Reads are
 * repeated the same way; other writes (revision-checked updates and removals) are not, since
 * their repeat after a commit would answer REVISION_CONFLICT for the caller's own change.
 */
import { backoffDelay } from '../lib/backoff.js';
import { isConnectionLoss } from '../lib/connection-errors.js';
import { givenIdempotencyKey } from '../db/idempotency.js';
import { newId } from '../lib/ids.js';
import type { InputFields, InputOf } from '../lib/input-spec.js';
import type { ToolDefinition } from './tools.js';

export const MCP_ATTEMPTS = 4;

/** The arguments with their idempotency key: the caller's (checked), or a fresh one. */
export function keyedArguments(definition: ToolDefinition, args: InputOf<InputFields>): InputOf<InputFields> {
  if (!('idempotencyKey' in definition.input)) return args;
  const given = givenIdempotencyKey(args.idempotencyKey as string | null | undefined);
  return { ...args, idempotencyKey: given ?? `mcp-${newId()}` };
}

/** Runs one call, again after a lost connection when that cannot write twice. */
export async function withConnectionRetries<T>(definition: ToolDefinition, call: () => Promise<T>, wait = (ms: number) => new Promise((r) => setTimeout(r, ms))): Promise<T> {
  const repeatable = definition.readOnly || 'idempotencyKey' in definition.input;
  for (let attempt = 1; ; attempt++) {
    try {
      return await call();
    } catch (error) {
      if (!repeatable || attempt >= MCP_ATTEMPTS || !isConnectionLoss(error)) throw error;
      await wait(backoffDelay(attempt));
    }
  }
}
