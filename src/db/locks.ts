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
  /** Continuity: admission of new owners (the per-agent and overall caps), one at a time. */
  continuityOwnerAdmission: 1004,
} as const;

/** Takes a transaction-scoped lock; released at commit or rollback. */
export async function lockForTransaction(tx: DbOrTx, lockClass: number, subject: string): Promise<void> {
  await tx.execute(sql`SELECT pg_advisory_xact_lock(${lockClass}::int, hashtext(${subject}))`);
}

/** The minimal connection shape session-level locks need (a pg.Client or a pooled client). */
interface Queryable {
  query<R extends Record<string, unknown>>(text: string, values?: unknown[]): Promise<{ rows: R[] }>;
}

/**
 * Takes a session-level lock on `connection` and keeps it until that connection ends. Use a
 * dedicated connection: the lock's lifetime is the connection's, which is the point.
 */
export async function holdSessionLock(connection: Queryable, lockClass: number, subject: string): Promise<void> {
  await connection.query('SELECT pg_advisory_lock($1::int, hashtext($2))', [lockClass, subject]);
}

/** Like holdSessionLock, but returns false at once when another backend holds the key. */
export async function tryHoldSessionLock(connection: Queryable, lockClass: number, subject: string): Promise<boolean> {
  const { rows } = await connection.query<{ locked: boolean }>('SELECT pg_try_advisory_lock($1::int, hashtext($2)) AS locked', [lockClass, subject]);
  return rows[0]?.locked === true;
}
