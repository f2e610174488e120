/**
 * Cross-scope synthesis: once per UTC date and agent, cards that draw on live cards of at least
 * two scopes, stored under the reserved project "*".
 */
import { and, eq, sql } from 'drizzle-orm';
import type { DbOrTx } from '../../db/database.js';
import { LockClass, lockForTransaction } from '../../db/locks.js';
import { daysBefore } from '../../lib/expiry.js';
import { charLength } from '../../lib/text.js';
import type { RawProposal } from './tiddle.proposer.js';
import { CARD_BODY_LIMIT, CARD_EVIDENCE_LIMIT, CARD_TITLE_LIMIT, CARD_TTL_DEFAULT_DAYS, tiddleCards, tiddleEnvelopes, tiddleSettings } from './tiddle.sql.js';
import {
  CROSS_SCOPE_PROJECT,
  SYNTHESIS_WINDOW_DAYS,
  SYNTHESIS_CARD_BUDGET,
  isRecord,
  withoutNul,
  recordable,
  liveCard,
  cardView,
  type TiddleDeps,
  type CardIdentity,
  type CardDocument,
  type PassOutcome,
} from './tiddle.model.js';
import { liveCards, createCard } from './tiddle.cards.js';
import { markExpired } from './tiddle.ttl.js';
import { emptyOutcome, statusEvent, appendHistory } from './tiddle.outcomes.js';

const utcDate = (at: Date) => at.toISOString().slice(0, 10);
const nextUtcMidnight = (at: Date) => new Date(Date.UTC(at.getUTCFullYear(), at.getUTCMonth(), at.getUTCDate() + 1));

/**
 * At the first due pass of an agent on a UTC date it has not synthesised on, proposes
 * cross-scope cards from the last 21 days of cards. The date is claimed at commit under the
 * agent lock, so several instances synthesise once; a failure leaves the date unclaimed.
 */
export async function synthesizeIfNewDate(deps: TiddleDeps, agentId: string): Promise<PassOutcome | null> {
  const now = deps.clock.now();
  const today = utcDate(now);
  const [settings] = await deps.db.select().from(tiddleSettings).where(eq(tiddleSettings.agentId, agentId));
  if (settings?.lastSynthesisOn && settings.lastSynthesisOn >= today) return null;
  const outcome: PassOutcome = emptyOutcome(deps, agentId, CROSS_SCOPE_PROJECT, 'synthesis', 'schedule', 'SUCCEEDED', null);
  outcome.at = now;
  try {
    const windowStart = daysBefore(now, SYNTHESIS_WINDOW_DAYS);
    const cards = await liveCards(deps.db, agentId, null, now, SYNTHESIS_CARD_BUDGET, windowStart);
    const scopes = new Set(cards.map((c) => c.project));
    const proposals = cards.length >= 2 && scopes.size >= 2 ? await deps.proposer.propose({ mode: 'synthesis', agentId, date: today, cards: cards.map((c) => cardView(c)) }) : [];
    deps.faults('tiddle.synthesis.after_propose');
    return await deps.db.transaction(async (tx) => {
      await lockForTransaction(tx, LockClass.agent, agentId);
      await tx.insert(tiddleSettings).values({ agentId, cardTtlDays: CARD_TTL_DEFAULT_DAYS, updatedAt: now, updatedBy: 'tiddle' }).onConflictDoNothing();
      const claimed = await tx
        .update(tiddleSettings)
        .set({ lastSynthesisOn: today, lastSynthesisAt: now })
        .where(and(eq(tiddleSettings.agentId, agentId), sql`(${tiddleSettings.lastSynthesisOn} IS NULL OR ${tiddleSettings.lastSynthesisOn} < ${today}::date)`))
        .returning({ agentId: tiddleSettings.agentId });
      if (claimed.length === 0) return null;
      outcome.residueConsidered = 0;
      await applySynthesisProposals(deps, tx, outcome, proposals, now, windowStart);
      outcome.expired = (await markExpired(deps, tx, agentId, CROSS_SCOPE_PROJECT, now)).map((c) => c.cardId);
      await appendHistory(tx, outcome, []);
      await tx
        .insert(tiddleEnvelopes)
        .values({
          agentId,
          project: CROSS_SCOPE_PROJECT,
          nextRunAt: nextUtcMidnight(now),
          lastSuccessAt: now,
          lastAttemptAt: now,
          lastPassId: outcome.passId,
          createdAt: now,
          updatedAt: now,
        })
        .onConflictDoUpdate({
          target: [tiddleEnvelopes.agentId, tiddleEnvelopes.project],
          set: {
            nextRunAt: nextUtcMidnight(now),
            lastSuccessAt: now,
            lastAttemptAt: now,
            lastPassId: outcome.passId,
            lastError: null,
            lastErrorAt: null,
            consecutiveFailures: 0,
            updatedAt: now,
          },
        });
      await statusEvent(deps, tx, outcome);
      return outcome;
    });
  } catch (error) {
    const message = ((error as Error).message || String(error)).slice(0, 2000);
    deps.logger.warn('tiddle synthesis failed', { agentId, error: message });
    const failed: PassOutcome = { ...outcome, status: 'FAILED', error: message };
    try {
      await deps.db.transaction(async (tx) => {
        await lockForTransaction(tx, LockClass.agent, agentId);
        await tx
          .insert(tiddleEnvelopes)
          .values({
            agentId,
            project: CROSS_SCOPE_PROJECT,
            nextRunAt: nextUtcMidnight(now),
            lastAttemptAt: now,
            lastError: message,
            lastErrorAt: now,
            consecutiveFailures: 1,
            createdAt: now,
            updatedAt: now,
          })
          .onConflictDoUpdate({
            target: [tiddleEnvelopes.agentId, tiddleEnvelopes.project],
            set: { lastAttemptAt: now, lastError: message, lastErrorAt: now, consecutiveFailures: sql`${tiddleEnvelopes.consecutiveFailures} + 1`, updatedAt: now },
          });
        await statusEvent(deps, tx, failed);
      });
    } catch {
      // The failure is logged; the next due pass retries the synthesis anyway.
    }
    return failed;
  }
}

async function applySynthesisProposals(deps: TiddleDeps, tx: DbOrTx, outcome: PassOutcome, rawProposals: RawProposal[], now: Date, windowStart: Date) {
  const proposals = withoutNul(rawProposals);
  const { agentId } = outcome;
  const reject = (proposal: unknown, reason: string) => outcome.rejected.push({ proposal: recordable(proposal), reason });
  for (const proposal of proposals) {
    const action = typeof proposal.action === 'string' ? proposal.action.toLowerCase() : null;
    if (action === 'noop' || action === 'no-op' || action === 'none') {
      outcome.noops++;
      continue;
    }
    if (action !== 'create') {
      reject(proposal, `a synthesis proposes only create or noop (got ${JSON.stringify(proposal.action ?? null)})`);
      continue;
    }
    const title = typeof proposal.title === 'string' ? proposal.title.trim() : '';
    const body = typeof proposal.body === 'string' ? proposal.body.trim() : '';
    if (!title || charLength(title) > CARD_TITLE_LIMIT) {
      reject(proposal, `a card title is 1 to ${CARD_TITLE_LIMIT} characters`);
      continue;
    }
    if (!body || charLength(body) > CARD_BODY_LIMIT) {
      reject(proposal, `a card body is 1 to ${CARD_BODY_LIMIT} characters`);
      continue;
    }
    const rawSources = proposal.sources;
    if (!Array.isArray(rawSources) || rawSources.some((s) => !isRecord(s) || typeof s.agentId !== 'string' || typeof s.project !== 'string' || typeof s.cardId !== 'string')) {
      reject(proposal, 'sources must be a list of card identities { agentId, project, cardId }');
      continue;
    }
    const sources = [
      ...new Map(
        (rawSources as CardIdentity[]).map((s) => [`${s.agentId}\u0000${s.project}\u0000${s.cardId}`, { agentId: s.agentId, project: s.project, cardId: s.cardId }]),
      ).values(),
    ];
    if (sources.length < 2 || new Set(sources.map((s) => s.project)).size < 2) {
      reject(
        proposal,
        `a cross-scope card needs at least two source cards across at least two scopes (got ${sources.length} cards in ${new Set(sources.map((s) => s.project)).size} scopes)`,
      );
      continue;
    }
    if (sources.length > CARD_EVIDENCE_LIMIT) {
      reject(proposal, `a cross-scope card cites at most ${CARD_EVIDENCE_LIMIT} source cards`);
      continue;
    }
    let missing: CardIdentity | null = null;
    for (const source of sources) {
      const [exists] =
        source.agentId === agentId && source.project !== CROSS_SCOPE_PROJECT
          ? await tx
              .select({ cardId: tiddleCards.cardId })
              .from(tiddleCards)
              .where(
                and(
                  liveCard(agentId, now),
                  eq(tiddleCards.project, source.project),
                  eq(tiddleCards.cardId, source.cardId),
                  sql`${tiddleCards.refreshedAt} >= ${windowStart.toISOString()}::timestamptz`,
                ),
              )
          : [];
      if (!exists) {
        missing = source;
        break;
      }
    }
    if (missing) {
      reject(
        proposal,
        `source card ${missing.agentId}/${missing.project}/${missing.cardId} does not exist among this agent's live cards of the last ${SYNTHESIS_WINDOW_DAYS} days`,
      );
      continue;
    }
    const document: CardDocument = { evidence: [], metadata: {}, sources };
    await createCard(deps, tx, outcome, { project: CROSS_SCOPE_PROJECT, title, body, document }, now, { sources });
  }
}
