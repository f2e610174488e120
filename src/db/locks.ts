/**
 * Advisory lock keys. Two-key form: the first key names the lock class, the second is
 * hashtext() of the subject, so classes never collide with each other.
 */
import { sql } from 'drizzle-orm';
import type { DbOrTx } from './database.js';

export const LockClass = {
  /** Tiddle writes of one agent (cards, history, per-scope success). */
  agent: 1001,
  /** Continuity: terminal finalization guard of one run. */
  continuityFinalize: 1002,
  /** Continuity: a runtime owner's liveness lock, held for the owner's whole session. */
  continuityOwner: 1003,
} as const;

/** Takes a transaction-scoped lock; released at commit or rollback. */
export async function lockForTransaction(tx: DbOrTx, lockClass: number, subject: string): Promise<void> {
  await tx.execute(sql`SELECT pg_advisory_xact_lock(${lockClass}::int, hashtext(${subject}))`);
}
