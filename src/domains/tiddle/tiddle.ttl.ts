/**
 * The persisted rolling card TTL: reading and changing it, and marking cards past it expired.
 */
import { and, eq, sql } from 'drizzle-orm';
import type { DbOrTx } from '../../db/database.js';
import { LockClass, lockForTransaction } from '../../db/locks.js';
import { appendEvent } from '../../events/events.service.js';
import { daysBefore } from '../../lib/expiry.js';
import { NotFoundError, ValidationError } from '../../lib/errors.js';
import { requireOperator, actorOf, type Viewer } from '../../auth/viewer.js';
import { CARD_TTL_DEFAULT_DAYS, CARD_TTL_MAX_DAYS, CARD_TTL_MIN_DAYS, tiddleCards, tiddleSettings } from './tiddle.sql.js';
import type { TiddleDeps } from './tiddle.model.js';

export async function readTtlDays(db: DbOrTx, agentId: string): Promise<number> {
  const [row] = await db.select({ days: tiddleSettings.cardTtlDays }).from(tiddleSettings).where(eq(tiddleSettings.agentId, agentId));
  return row?.days ?? CARD_TTL_DEFAULT_DAYS;
}

/** Operators change the persisted rolling TTL; cards now past it are marked expired in the same transaction. */
export async function setCardTtl(deps: TiddleDeps, viewer: Viewer | null, input: { agentId: string; days: number }) {
  const operator = requireOperator(viewer);
  if (!Number.isInteger(input.days) || input.days < CARD_TTL_MIN_DAYS || input.days > CARD_TTL_MAX_DAYS) {
    throw new ValidationError('days', `the rolling card TTL is ${CARD_TTL_MIN_DAYS} to ${CARD_TTL_MAX_DAYS} days`, CARD_TTL_MAX_DAYS);
  }
  const now = deps.clock.now();
  return deps.db.transaction(async (tx) => {
    await lockForTransaction(tx, LockClass.agent, input.agentId);
    const [agent] = await tx.execute<{ id: string }>(sql`SELECT id FROM agents WHERE id = ${input.agentId}`).then((r) => r.rows);
    if (!agent) throw new NotFoundError('Agent', input.agentId);
    await tx
      .insert(tiddleSettings)
      .values({ agentId: input.agentId, cardTtlDays: input.days, updatedAt: now, updatedBy: actorOf(operator).id })
      .onConflictDoUpdate({ target: tiddleSettings.agentId, set: { cardTtlDays: input.days, updatedAt: now, updatedBy: actorOf(operator).id } });
    const expired = await markExpired(deps, tx, input.agentId, null, now);
    return { agentId: input.agentId, cardTtlDays: input.days, expiredCards: expired.map((c) => `${c.project}/${c.cardId}`) };
  });
}

/** Marks cards past the persisted TTL as expired and announces each; reads filter them either way. */
export async function markExpired(deps: TiddleDeps, tx: DbOrTx, agentId: string, project: string | null, now: Date) {
  const ttl = await readTtlDays(tx, agentId);
  const conditions = [
    eq(tiddleCards.agentId, agentId),
    sql`${tiddleCards.expiredAt} IS NULL`,
    sql`${tiddleCards.refreshedAt} <= ${daysBefore(now, ttl).toISOString()}::timestamptz`,
  ];
  if (project !== null) conditions.push(eq(tiddleCards.project, project));
  const expired = await tx
    .update(tiddleCards)
    .set({ expiredAt: now })
    .where(and(...conditions))
    .returning({ project: tiddleCards.project, cardId: tiddleCards.cardId, refreshedAt: tiddleCards.refreshedAt });
  for (const card of expired) {
    await appendEvent(tx, deps.clock, {
      agentId,
      stream: 'rolling_card',
      type: 'rolling_card.expired',
      subjectId: `${card.project}/${card.cardId}`,
      project: card.project,
      payload: { agentId, project: card.project, cardId: card.cardId, ttlDays: ttl, refreshedAt: card.refreshedAt.toISOString() },
    });
  }
  return expired;
}
