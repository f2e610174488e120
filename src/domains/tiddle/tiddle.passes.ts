/**
 * The pass: the scheduler's due scopes and an operator's pass now. A claimed scope's pass asks
 * the proposer outside any transaction, then commits card changes, expiry, history and the
 * scope's success mark in one transaction under the agent lock, if the claim is still its own.
 */
import { and, asc, eq, ne, sql } from 'drizzle-orm';
import { LockClass, lockForTransaction } from '../../db/locks.js';
import { NotFoundError, ValidationError } from '../../lib/errors.js';
import { newId } from '../../lib/ids.js';
import { requireOperator, type Viewer } from '../../auth/viewer.js';
import { tiddleEnvelopes } from './tiddle.sql.js';
import { CROSS_SCOPE_PROJECT, PASS_INTERVAL_MS, RETRY_DELAY_MS, PASS_CARD_BUDGET, cardView, type TiddleDeps, type PassOutcome } from './tiddle.model.js';
import { liveCards } from './tiddle.cards.js';
import { markExpired } from './tiddle.ttl.js';
import { requireAgent } from './tiddle.status.js';
import { claimDue, claimScope } from './tiddle.claims.js';
import { emptyOutcome, statusEvent, appendHistory } from './tiddle.outcomes.js';
import { selectResidue } from './tiddle.residue.js';
import { applyPassProposals } from './tiddle.proposals.js';
import { synthesizeIfNewDate } from './tiddle.synthesis.js';

class ClaimLost extends Error {}

/** One scheduler tick: claims and runs due scopes until none is left (bounded), then synthesis when a new UTC date began. */
export async function runDuePasses(deps: TiddleDeps, maxScopes = 1000): Promise<PassOutcome[]> {
  const outcomes: PassOutcome[] = [];
  for (let i = 0; i < maxScopes; i++) {
    const claim = await claimDue(deps);
    if (!claim) break;
    outcomes.push(await runClaimedPass(deps, claim.agentId, claim.project, claim.token, 'schedule'));
    const synthesis = await synthesizeIfNewDate(deps, claim.agentId);
    if (synthesis) outcomes.push(synthesis);
  }
  return outcomes;
}

/** An operator's pass now, for one scope or every scope of the agent. Does not move the synthesis date. */
export async function runPassNow(deps: TiddleDeps, viewer: Viewer | null, input: { agentId: string; project?: string | null }): Promise<PassOutcome[]> {
  requireOperator(viewer);
  await requireAgent(deps, input.agentId);
  if (input.project === CROSS_SCOPE_PROJECT) {
    throw new ValidationError('project', `"${CROSS_SCOPE_PROJECT}" is the cross-scope synthesis, which runs at the first due pass of a UTC date`);
  }
  const projects =
    input.project != null
      ? [input.project]
      : (
          await deps.db
            .select({ project: tiddleEnvelopes.project })
            .from(tiddleEnvelopes)
            .where(and(eq(tiddleEnvelopes.agentId, input.agentId), ne(tiddleEnvelopes.project, CROSS_SCOPE_PROJECT)))
            .orderBy(asc(tiddleEnvelopes.project))
        ).map((r) => r.project);
  const outcomes: PassOutcome[] = [];
  for (const project of projects) {
    const token = await claimScope(deps, input.agentId, project);
    if (token === null) {
      const [exists] = await deps.db
        .select({ project: tiddleEnvelopes.project })
        .from(tiddleEnvelopes)
        .where(and(eq(tiddleEnvelopes.agentId, input.agentId), eq(tiddleEnvelopes.project, project)));
      if (!exists) throw new NotFoundError('TiddleScope', `${input.agentId}/${project}`);
      outcomes.push(emptyOutcome(deps, input.agentId, project, 'pass', 'operator', 'SKIPPED', 'another pass of this scope is running'));
      continue;
    }
    outcomes.push(await runClaimedPass(deps, input.agentId, project, token, 'operator'));
  }
  return outcomes;
}

/** Runs a claimed scope's pass. Never throws: a failure is recorded on the scope and reported. */
async function runClaimedPass(deps: TiddleDeps, agentId: string, project: string, token: string, trigger: PassOutcome['trigger']): Promise<PassOutcome> {
  const passId = newId();
  const now = deps.clock.now();
  try {
    const residue = await selectResidue(deps, agentId, project, now);
    const cards = await liveCards(deps.db, agentId, project, now, PASS_CARD_BUDGET);
    const proposals = residue.length ? await deps.proposer.propose({ mode: 'pass', agentId, project, residue, cards: cards.map((c) => cardView(c)) }) : [];
    deps.faults('tiddle.pass.after_propose');
    return await deps.db.transaction(async (tx) => {
      await lockForTransaction(tx, LockClass.agent, agentId);
      const [claim] = await tx
        .select({ project: tiddleEnvelopes.project })
        .from(tiddleEnvelopes)
        .where(and(eq(tiddleEnvelopes.agentId, agentId), eq(tiddleEnvelopes.project, project), eq(tiddleEnvelopes.claimToken, token)))
        .for('update');
      if (!claim) throw new ClaimLost();
      const outcome: PassOutcome = { ...emptyOutcome(deps, agentId, project, 'pass', trigger, 'SUCCEEDED', null), passId, at: now };
      outcome.residueConsidered = residue.length;
      await applyPassProposals(deps, tx, outcome, proposals, residue, now);
      outcome.expired = (await markExpired(deps, tx, agentId, project, now)).map((c) => c.cardId);
      deps.faults('tiddle.pass.after_cards');
      await appendHistory(
        tx,
        outcome,
        residue.map((r) => r.reference),
      );
      deps.faults('tiddle.pass.after_history');
      const nextRunAt = new Date(now.getTime() + PASS_INTERVAL_MS);
      await tx
        .update(tiddleEnvelopes)
        .set({
          nextRunAt,
          lastSuccessAt: now,
          lastPassId: passId,
          lastError: null,
          lastErrorAt: null,
          consecutiveFailures: 0,
          claimToken: null,
          claimedUntil: null,
          updatedAt: now,
        })
        .where(and(eq(tiddleEnvelopes.agentId, agentId), eq(tiddleEnvelopes.project, project)));
      outcome.nextRunAt = nextRunAt;
      await statusEvent(deps, tx, outcome);
      deps.faults('tiddle.pass.before_commit');
      return outcome;
    });
  } catch (error) {
    if (error instanceof ClaimLost) {
      return emptyOutcome(deps, agentId, project, 'pass', trigger, 'SKIPPED', 'the claim on this scope passed to another instance');
    }
    const message = (error as Error).message || String(error);
    deps.logger.warn('tiddle pass failed', { agentId, project, error: message });
    return recordFailure(deps, agentId, project, token, passId, trigger, message);
  }
}

async function recordFailure(deps: TiddleDeps, agentId: string, project: string, token: string, passId: string, trigger: PassOutcome['trigger'], message: string) {
  const now = deps.clock.now();
  const outcome: PassOutcome = { ...emptyOutcome(deps, agentId, project, 'pass', trigger, 'FAILED', message.slice(0, 2000)), passId, at: now };
  const nextRunAt = new Date(now.getTime() + RETRY_DELAY_MS);
  try {
    await deps.db.transaction(async (tx) => {
      await lockForTransaction(tx, LockClass.agent, agentId);
      const updated = await tx
        .update(tiddleEnvelopes)
        .set({
          lastError: outcome.error,
          lastErrorAt: now,
          consecutiveFailures: sql`${tiddleEnvelopes.consecutiveFailures} + 1`,
          nextRunAt,
          claimToken: null,
          claimedUntil: null,
          updatedAt: now,
        })
        .where(and(eq(tiddleEnvelopes.agentId, agentId), eq(tiddleEnvelopes.project, project), eq(tiddleEnvelopes.claimToken, token)))
        .returning({ project: tiddleEnvelopes.project });
      if (updated.length === 0) return;
      outcome.nextRunAt = nextRunAt;
      await statusEvent(deps, tx, outcome);
    });
  } catch (error) {
    deps.logger.error('tiddle could not record a failed pass; the claim lease will expire', { agentId, project, error: (error as Error).message });
  }
  return outcome;
}
