/**
 * What retention removes of Tiddle's stores, by the same rules reads and appends use:
 * - rolling cards expired (refreshedAt + the agent's persisted TTL, or marked expired) before the
 *   cutoff the sweeper passes (its grace period after expiry);
 * - history entries older than 180 days, the window a history append prunes, so a scope that
 *   stops getting passes does not keep its history forever;
 * - residue older than the 24-hour window, the cutoff a residue append prunes (no pass reads it).
 */
import { and, eq, lt, or, sql } from 'drizzle-orm';
import { LockClass, lockForTransaction } from '../../db/locks.js';
import { daysBefore, daysBeforeSql } from '../../lib/expiry.js';
import { CARD_TTL_DEFAULT_DAYS, tiddleCards, tiddleEntries, tiddleSettings } from './tiddle.sql.js';
import { HISTORY_RETENTION_DAYS, residueCutoff, type TiddleDeps } from './tiddle.model.js';
import { markExpired, readTtlDays } from './tiddle.ttl.js';

/**
 * Removes cards that expired before `cutoff`. Per agent, under the agent's Tiddle lock (a TTL
 * change or a pass cannot interleave); cards no pass noticed yet are first marked and announced
 * (rolling_card.expired), so a subscriber learns of the expiry before the row is gone.
 */
export async function sweepExpiredCards(deps: TiddleDeps, cutoff: Date): Promise<number> {
  const ttl = sql`COALESCE(${tiddleSettings.cardTtlDays}, ${CARD_TTL_DEFAULT_DAYS})`;
  const agents = await deps.db
    .selectDistinct({ agentId: tiddleCards.agentId })
    .from(tiddleCards)
    .leftJoin(tiddleSettings, eq(tiddleSettings.agentId, tiddleCards.agentId))
    .where(or(lt(tiddleCards.expiredAt, cutoff), sql`${tiddleCards.refreshedAt} < ${daysBeforeSql(cutoff, ttl)}`));
  let removed = 0;
  for (const { agentId } of agents) {
    removed += await deps.db.transaction(async (tx) => {
      await lockForTransaction(tx, LockClass.agent, agentId);
      await markExpired(deps, tx, agentId, null, deps.clock.now());
      const days = await readTtlDays(tx, agentId);
      const deleted = await tx
        .delete(tiddleCards)
        .where(and(eq(tiddleCards.agentId, agentId), or(lt(tiddleCards.expiredAt, cutoff), lt(tiddleCards.refreshedAt, daysBefore(cutoff, days)))))
        .returning({ cardId: tiddleCards.cardId });
      return deleted.length;
    });
  }
  return removed;
}

/** Removes history entries older than the 180-day window; returns how many and the window's start. */
export async function sweepHistory(deps: TiddleDeps, now: Date): Promise<{ removed: number; olderThan: Date }> {
  const olderThan = daysBefore(now, HISTORY_RETENTION_DAYS);
  const deleted = await deps.db
    .delete(tiddleEntries)
    .where(and(eq(tiddleEntries.kind, 'history'), lt(tiddleEntries.createdAt, olderThan)))
    .returning({ id: tiddleEntries.id });
  return { removed: deleted.length, olderThan };
}

/** Removes residue older than the 24-hour window; returns how many and the window's start. */
export async function sweepResidue(deps: TiddleDeps, now: Date): Promise<{ removed: number; olderThan: Date }> {
  const olderThan = residueCutoff(now);
  const deleted = await deps.db
    .delete(tiddleEntries)
    .where(and(eq(tiddleEntries.kind, 'residue'), lt(tiddleEntries.createdAt, olderThan)))
    .returning({ id: tiddleEntries.id });
  return { removed: deleted.length, olderThan };
}
