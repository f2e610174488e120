/**
 * Gating a pass's proposals: each is validated against the pass's residue and the scope's live
 * cards; a valid one becomes a card change or a preference signal, an invalid one is recorded
 * as rejected with its reason.
 */
import { and, eq, sql } from 'drizzle-orm';
import type { DbOrTx } from '../../db/database.js';
import { charLength } from '../../lib/text.js';
import type { RawProposal, ResidueView } from './tiddle.proposer.js';
import { CARD_BODY_LIMIT, CARD_EVIDENCE_LIMIT, CARD_TITLE_LIMIT, tiddleCards } from './tiddle.sql.js';
import { isRecord, withoutNul, recordable, liveCard, cardSelection, cardEvidence, type TiddleDeps, type CardDocument, type EvidenceRef, type PassOutcome } from './tiddle.model.js';
import { cardEvent, createCard } from './tiddle.cards.js';

const METADATA_LIMIT = 4_000;

export async function applyPassProposals(deps: TiddleDeps, tx: DbOrTx, outcome: PassOutcome, rawProposals: RawProposal[], residue: ResidueView[], now: Date) {
  const proposals = withoutNul(rawProposals);
  const { agentId, project } = outcome;
  const residueByRef = new Map(residue.map((r) => [r.reference, r]));
  const reject = (proposal: unknown, reason: string) => outcome.rejected.push({ proposal: recordable(proposal), reason });

  /** Evidence of a proposal: distinct residue references, every one of them from this pass's selection. */
  const evidenceOf = (proposal: RawProposal, minimum: number, what: string): EvidenceRef[] | string => {
    const raw = proposal.evidence;
    if (!Array.isArray(raw) || raw.some((r) => typeof r !== 'string')) return 'evidence must be a list of residue references';
    const distinct = [...new Set(raw as string[])];
    const unknown = distinct.filter((ref) => !residueByRef.has(ref));
    if (unknown.length) return `evidence cites residue references that are not in this pass's residue: ${unknown.slice(0, 5).join(', ')}`;
    if (distinct.length < minimum) {
      return minimum >= 2
        ? `one vivid exchange alone is not recurrence: ${what} must cite at least two distinct residue entries (got ${distinct.length})`
        : `${what} must cite at least one residue entry`;
    }
    return distinct.map((ref) => ({ reference: ref, sessionId: residueByRef.get(ref)!.sessionId, residueAt: residueByRef.get(ref)!.createdAt, passId: outcome.passId }));
  };

  for (const proposal of proposals) {
    const action = typeof proposal.action === 'string' ? proposal.action.toLowerCase() : null;
    if (action === 'noop' || action === 'no-op' || action === 'none') {
      outcome.noops++;
      continue;
    }
    if (action === 'preference_signal' || action === 'behavioural_correction' || action === 'behavioral_correction' || action === 'profile_update') {
      const statement = typeof proposal.statement === 'string' ? proposal.statement : typeof proposal.content === 'string' ? proposal.content : '';
      if (statement.trim().length < 1 || charLength(statement) > 2000) {
        reject(proposal, 'a preference signal needs a statement of 1 to 2,000 characters');
        continue;
      }
      const evidence = evidenceOf(proposal, 1, 'a preference signal');
      if (typeof evidence === 'string') {
        reject(proposal, evidence);
        continue;
      }
      // A behavioural correction is a signal for the PREFERENCES learning path, never a profile rewrite.
      const id = await deps.agents.preferences.recordPreferenceSignal(tx, {
        agentId,
        source: 'tiddle',
        project,
        statement: statement.trim(),
        evidence: evidence.map((e) => ({ reference: e.reference, sessionId: e.sessionId, residueAt: e.residueAt, passId: e.passId })),
      });
      outcome.preferenceSignals.push(id);
      continue;
    }
    if (action !== 'create' && action !== 'update') {
      reject(proposal, `unknown action ${JSON.stringify(proposal.action ?? null)}: expected create, update, preference_signal or noop`);
      continue;
    }
    const title = typeof proposal.title === 'string' ? proposal.title.trim() : undefined;
    const body = typeof proposal.body === 'string' ? proposal.body.trim() : undefined;
    const metadata = proposal.metadata;
    if (metadata !== undefined && metadata !== null && (!isRecord(metadata) || JSON.stringify(metadata).length > METADATA_LIMIT)) {
      reject(proposal, `metadata must be an object of at most ${METADATA_LIMIT} characters of JSON`);
      continue;
    }
    if (action === 'create') {
      if (!title || charLength(title) > CARD_TITLE_LIMIT) {
        reject(proposal, `a card title is 1 to ${CARD_TITLE_LIMIT} characters`);
        continue;
      }
      if (!body || charLength(body) > CARD_BODY_LIMIT) {
        reject(proposal, `a card body is 1 to ${CARD_BODY_LIMIT} characters`);
        continue;
      }
      const evidence = evidenceOf(proposal, 2, 'a new card');
      if (typeof evidence === 'string') {
        reject(proposal, evidence);
        continue;
      }
      if (evidence.length > CARD_EVIDENCE_LIMIT) {
        reject(proposal, `a card carries at most ${CARD_EVIDENCE_LIMIT} evidence references`);
        continue;
      }
      const document: CardDocument = { evidence, metadata: (metadata as Record<string, unknown>) ?? {} };
      await createCard(deps, tx, outcome, { project, title, body, document }, now, { evidence: evidence.map((e) => e.reference) });
      continue;
    }
    // update: the exact identity (agent, project, card id) of a live card of this scope.
    const identity = proposal.card;
    if (!isRecord(identity) || typeof identity.agentId !== 'string' || typeof identity.project !== 'string' || typeof identity.cardId !== 'string') {
      reject(proposal, 'an update must name the card identity exactly: card { agentId, project, cardId }');
      continue;
    }
    if (identity.agentId !== agentId || identity.project !== project) {
      reject(
        proposal,
        `an update must name a card of this agent and scope exactly (got ${identity.agentId}/${identity.project}/${identity.cardId}, pass is ${agentId}/${project})`,
      );
      continue;
    }
    const [current] = await tx
      .select(cardSelection(agentId))
      .from(tiddleCards)
      .where(and(liveCard(agentId, now), eq(tiddleCards.project, project), eq(tiddleCards.cardId, identity.cardId)))
      .for('update');
    if (!current) {
      reject(proposal, `no live card has the identity ${agentId}/${project}/${identity.cardId}`);
      continue;
    }
    if (title !== undefined && (title.length < 1 || charLength(title) > CARD_TITLE_LIMIT)) {
      reject(proposal, `a card title is 1 to ${CARD_TITLE_LIMIT} characters`);
      continue;
    }
    if (body !== undefined && (body.length < 1 || charLength(body) > CARD_BODY_LIMIT)) {
      reject(proposal, `a card body is 1 to ${CARD_BODY_LIMIT} characters`);
      continue;
    }
    const evidence = evidenceOf(proposal, 2, 'a changed card');
    if (typeof evidence === 'string') {
      reject(proposal, evidence);
      continue;
    }
    // Evidence references are preserved: the old ones stay, new ones are added.
    const previous = current.card as CardDocument;
    const known = new Set(cardEvidence(current).map((e) => e.reference));
    const merged = [...cardEvidence(current), ...evidence.filter((e) => !known.has(e.reference))];
    if (merged.length > CARD_EVIDENCE_LIMIT) {
      reject(proposal, `the card would carry ${merged.length} evidence references, more than ${CARD_EVIDENCE_LIMIT}; evidence is never dropped`);
      continue;
    }
    const document: CardDocument = {
      ...previous,
      evidence: merged,
      metadata: { ...(isRecord(previous.metadata) ? previous.metadata : {}), ...((metadata as Record<string, unknown>) ?? {}) },
    };
    const [updated] = await tx
      .update(tiddleCards)
      .set({
        title: title ?? current.title,
        body: body ?? current.body,
        card: document,
        revision: sql`${tiddleCards.revision} + 1`,
        updatedAt: now,
        refreshedAt: now,
      })
      .where(and(eq(tiddleCards.agentId, agentId), eq(tiddleCards.project, project), eq(tiddleCards.cardId, identity.cardId)))
      .returning({ revision: tiddleCards.revision, title: tiddleCards.title });
    await cardEvent(
      deps,
      tx,
      'rolling_card.updated',
      { agentId, project, cardId: identity.cardId },
      {
        title: updated.title,
        revision: updated.revision,
        passId: outcome.passId,
        evidence: merged.map((e) => e.reference),
      },
    );
    outcome.updated.push(identity.cardId);
  }
}
