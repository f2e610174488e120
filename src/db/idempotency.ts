/**
 * Retries that never duplicate (docs/idempotency.md). A create-type write made with an
 * idempotency key runs in one transaction that first claims the key and last records the answer:
 *
 * - The claim is an INSERT of (agent, token, key). A concurrent duplicate's INSERT waits on the
 *   primary key until the first transaction ends; if it committed, the duplicate finds its row and
 *   answers from it (having written nothing); if it rolled back, the duplicate goes ahead.
 * - A row older than the window is replaced by the claim, as if it were absent (the retention
 *   sweep removes such rows; until it runs they must not answer).
 * - The write itself runs on the same transaction (`run(tx)`), so a crash or a lost connection
 *   leaves either the write with its row or neither. A write that fails leaves no row either: only
 *   a successful answer is remembered, and a retry after an error runs again.
 * - The same key with another operation or other input is refused (IDEMPOTENCY_KEY_REUSED) and
 *   changes nothing.
 * Without a key, `run` gets the database handle and nothing here costs a statement.
 */
import { and, eq, sql, type SQL } from 'drizzle-orm';
import type { Clock } from '../lib/clock.js';
import { RequestError, ValidationError } from '../lib/errors.js';
import { charLength } from '../lib/text.js';
import type { Db } from './database.js';
import { forExistingAgent } from './foreign-keys.js';
import { decodeResult, encodeResult, requestHash, type StoredResult } from './idempotency.encoding.js';
import { IDEMPOTENCY_KEY_LIMIT, idempotencyKeys } from './idempotency.sql.js';

/** How long a key answers with its first result. */
export const IDEMPOTENCY_WINDOW_HOURS = 24;
const WINDOW_MS = IDEMPOTENCY_WINDOW_HOURS * 3_600_000;

/** The input field every create-type verb takes (GraphQL and MCP): one definition. */
export const idempotencyKeyField = {
  type: 'string',
  minLength: 1,
  maxLength: IDEMPOTENCY_KEY_LIMIT,
  description:
    `Makes a retry safe: a repeat with the same key within ${IDEMPOTENCY_WINDOW_HOURS} hours answers the first result and writes nothing; ` +
    `the same key with other input is refused (IDEMPOTENCY_KEY_REUSED). 1 to ${IDEMPOTENCY_KEY_LIMIT} characters, e.g. a UUID, new for each logical write. ` +
    'Over HTTP the Idempotency-Key header does the same.',
} as const;

/** A key as a caller gave it (input field or header): 1 to IDEMPOTENCY_KEY_LIMIT characters. */
export function givenIdempotencyKey(key: string | null | undefined): string | null {
  if (key == null) return null;
  if (charLength(key) < 1 || charLength(key) > IDEMPOTENCY_KEY_LIMIT) {
    throw new ValidationError('idempotencyKey', `idempotencyKey is 1 to ${IDEMPOTENCY_KEY_LIMIT} characters`, IDEMPOTENCY_KEY_LIMIT);
  }
  return key;
}

export class IdempotencyKeyReusedError extends RequestError {
  constructor(readonly key: string) {
    super('IDEMPOTENCY_KEY_REUSED', `idempotency key "${key}" was used within the last ${IDEMPOTENCY_WINDOW_HOURS} hours for another write; use a new key for a new write`);
  }
}

export interface IdempotentWrite {
  /** The key, when the caller gave one (checked by givenIdempotencyKey). */
  key: string | null | undefined;
  /** The verb, e.g. brainSave: a key used for one verb is refused by another. */
  operation: string;
  /** The agent written to, and the token writing: the key's scope. */
  agentId: string;
  tokenId: string;
  /** Everything the write depends on (input and runtime scope): a retry must repeat it exactly. */
  request: unknown;
}

/** Thrown out of the claiming transaction (rolling it back) when the key already has an answer. */
class Answered {
  constructor(readonly row: { operation: string; requestHash: string; result: unknown }) {}
}

export async function idempotent<T>(db: Db, clock: Clock, write: IdempotentWrite, run: (db: Db) => Promise<T>): Promise<T> {
  if (write.key == null) return run(db);
  const key = write.key;
  const hash = requestHash(write.operation, write.request);
  const now = clock.now();
  const k = idempotencyKeys;
  const scope = and(eq(k.agentId, write.agentId), eq(k.tokenId, write.tokenId), eq(k.key, key));
  try {
    return await forExistingAgent(write.agentId, () =>
      db.transaction(async (tx) => {
        // The key's advisory lock first, held to the end of the transaction: brainSave's batches
        // claim only keys whose lock they can take at once, so a batch never waits on this claim.
        const claimed = await tx.execute(sql`
          INSERT INTO idempotency_keys (agent_id, token_id, key, operation, request_hash, result, created_at)
          SELECT ${write.agentId}, ${write.tokenId}, ${key}, ${write.operation}, ${hash}, NULL, ${now}
            FROM (SELECT pg_advisory_xact_lock(${KEY_LOCK(sql`${write.agentId}`, sql`${write.tokenId}`, sql`${key}`)})) AS locked
          ON CONFLICT (agent_id, token_id, key) DO UPDATE
             SET operation = EXCLUDED.operation, request_hash = EXCLUDED.request_hash, result = NULL, created_at = EXCLUDED.created_at
           WHERE idempotency_keys.created_at <= ${idempotencyCutoff(now)}
          RETURNING 1`);
        if (claimed.rows.length === 0) {
          const [row] = await tx.select({ operation: k.operation, requestHash: k.requestHash, result: k.result }).from(k).where(scope);
          throw new Answered(row);
        }
        // The transaction stands in for the database: the write's own transaction becomes a
        // savepoint inside this one, and its notifications still go out after this commit.
        const result = await run(tx as unknown as Db);
        await tx
          .update(k)
          .set({ result: encodeResult(result) })
          .where(scope);
        return result;
      }),
    );
  } catch (error) {
    if (!(error instanceof Answered)) throw error;
    if (error.row.operation !== write.operation || error.row.requestHash !== hash) throw new IdempotencyKeyReusedError(key);
    return decodeResult<T>(error.row.result as StoredResult);
  }
}

/** Removes keys older than the window (the retention sweep); returns how many. */
export async function pruneIdempotencyKeys(db: Db, olderThan: Date): Promise<number> {
  const removed = await db.delete(idempotencyKeys).where(sql`${idempotencyKeys.createdAt} <= ${olderThan}`);
  return removed.rowCount ?? 0;
}

/**
 * The advisory lock of a key (one bigint from the agent, the token and the key; a collision only
 * makes two keys wait for each other). Every claim holds it to its commit.
 */
export const KEY_LOCK = (agentId: SQL, tokenId: SQL, key: SQL) => sql`hashtextextended(${agentId}::text || chr(1) || ${tokenId}::text || chr(1) || ${key}::text, 0)`;

/** The instant before which keys no longer answer. */
export const idempotencyCutoff = (now: Date) => new Date(now.getTime() - WINDOW_MS);
