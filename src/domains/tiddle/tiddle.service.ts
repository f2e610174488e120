/**
 * Tiddle rolling continuity. The terminal append is cheap (no model call, no card change); the
 * scheduler claims due scopes (SKIP LOCKED lease), asks the proposer, validates every proposal and
 * commits card changes, history and the scope's success mark in one transaction under the
 * agent-scoped advisory lock. Success is tracked per scope, so a failed scope retries alone.
 */
import { assertCleanText } from '../../lib/text-policy.js';
import { and, asc, desc, eq, gte, lt, ne, sql, type SQL } from 'drizzle-orm';
import type { Db, DbOrTx } from '../../db/database.js';
import { LockClass, lockForTransaction } from '../../db/locks.js';
import { appendEvent } from '../../events/events.service.js';
import { DAY_MS, HOUR_MS, type Clock } from '../../lib/clock.js';
import { NotFoundError, RequestError, ValidationError, forbidden } from '../../lib/errors.js';
import type { FaultInjector } from '../../lib/faults.js';
import { newId } from '../../lib/ids.js';
import type { Logger } from '../../lib/logger.js';
import { charLength, escapeLike } from '../../lib/text.js';
import { IntervalJob } from '../../lib/interval.js';
import { assertAgentAccess, requireOperator, requireViewer, resolveScope, actorOf, type Viewer } from '../../auth/viewer.js';
import type { AgentsService } from '../agents/agents.service.js';
import type { CardView, Proposer, RawProposal, ResidueView } from './tiddle.proposer.js';
import {
  CARD_BODY_LIMIT,
  CARD_EVIDENCE_LIMIT,
  CARD_TITLE_LIMIT,
  CARD_TTL_DEFAULT_DAYS,
  CARD_TTL_MAX_DAYS,
  CARD_TTL_MIN_DAYS,
  RESIDUE_EXCERPT_COUNT_LIMIT,
  RESIDUE_EXCERPT_TEXT_LIMIT,
  RESIDUE_REFERENCE_LIMIT,
  tiddleCards,
  tiddleEntries,
  tiddleEnvelopes,
  tiddleSettings,
} from './tiddle.sql.js';

/** The project under which cross-scope (synthesis) cards live; no runtime scope may use it. */
export const CROSS_SCOPE_PROJECT = '*';
export const PASS_INTERVAL_MS = 4 * HOUR_MS;
export const RESIDUE_WINDOW_MS = 24 * HOUR_MS;
export const HISTORY_RETENTION_DAYS = 180;
/** A failed scope is due again after this long, on its own. */
export const RETRY_DELAY_MS = 5 * 60 * 1000;
export const SCHEDULER_INTERVAL_MS = 60 * 1000;
/** Selection budget of a pass: the newest residue of the last 24 hours, at most this many entries ... */
export const RESIDUE_SELECTION_LIMIT = 40;
/** ... and at most this many excerpt characters in total. */
export const RESIDUE_SELECTION_CHARS = 24_000;
/** Current cards of the scope shown to the proposer, most recently refreshed first. */
export const PASS_CARD_BUDGET = 100;
export const SYNTHESIS_WINDOW_DAYS = 21;
/** Selection budget of a synthesis: the most recently refreshed cards of the 21-day window. */
export const SYNTHESIS_CARD_BUDGET = 60;
const METADATA_LIMIT = 4_000;
const PROPOSAL_RECORD_LIMIT = 4_000;
const EXCERPT_ROLES = ['user', 'assistant', 'tool', 'system'] as const;

export type ResidueRow = typeof tiddleEntries.$inferSelect;
export type EnvelopeRow = typeof tiddleEnvelopes.$inferSelect;
export type CardRow = typeof tiddleCards.$inferSelect & { ttlDays: number };

export interface CardIdentity {
  agentId: string;
  project: string;
  cardId: string;
}

interface EvidenceRef {
  reference: string;
  sessionId: string | null;
  residueAt: string;
  passId: string;
}

interface CardDocument {
  evidence: EvidenceRef[];
  metadata: Record<string, unknown>;
  sources?: CardIdentity[];
  [legacy: string]: unknown;
}

export interface RejectedProposal {
  proposal: unknown;
  reason: string;
}

export type PassStatus = 'SUCCEEDED' | 'FAILED' | 'SKIPPED';

export interface PassOutcome {
  agentId: string;
  project: string;
  passId: string;
  kind: 'pass' | 'synthesis';
  trigger: 'schedule' | 'operator';
  status: PassStatus;
  error: string | null;
  residueConsidered: number;
  created: string[];
  updated: string[];
  expired: string[];
  preferenceSignals: string[];
  noops: number;
  rejected: RejectedProposal[];
  nextRunAt: Date | null;
  at: Date;
}

class ClaimLost extends Error {}

const utcDate = (at: Date) => at.toISOString().slice(0, 10);
const nextUtcMidnight = (at: Date) => new Date(Date.UTC(at.getUTCFullYear(), at.getUTCMonth(), at.getUTCDate() + 1));
const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);
const NUL = '\u0000';
/** PostgreSQL text and jsonb cannot hold NUL: model output loses it, API input is refused. */
function withoutNul<T>(value: T): T {
  if (typeof value === 'string') return value.split(NUL).join('') as T;
  if (Array.isArray(value)) return value.map((item) => withoutNul(item)) as T;
  if (isRecord(value)) return Object.fromEntries(Object.entries(value).map(([k, v]) => [withoutNul(k), withoutNul(v)])) as T;
  return value;
}
/** One scope's residue rows. */
const residueOf = (agentId: string, project: string) =>
  and(eq(tiddleEntries.agentId, agentId), eq(tiddleEntries.project, project), eq(tiddleEntries.kind, 'residue'))!;
/** The 24-hour cutoff: appends prune before it, passes consider what is after it. */
const residueCutoff = (now: Date) => new Date(now.getTime() - RESIDUE_WINDOW_MS);

function recordable(proposal: unknown): unknown {
  const text = JSON.stringify(proposal) ?? 'null';
  return text.length <= PROPOSAL_RECORD_LIMIT ? proposal : { truncated: text.slice(0, PROPOSAL_RECORD_LIMIT) };
}

/** The persisted rolling TTL of an agent, in SQL: the one setting reads, expiry and status share. */
const ttlDaysSql = (agentId: string) =>
  sql<number>`COALESCE((SELECT ${tiddleSettings.cardTtlDays} FROM ${tiddleSettings} WHERE ${tiddleSettings.agentId} = ${agentId}), ${CARD_TTL_DEFAULT_DAYS})`;

/** Cards that are live at `now`: not marked expired and refreshed within the persisted TTL. */
const liveCard = (agentId: string, now: Date): SQL =>
  and(
    eq(tiddleCards.agentId, agentId),
    sql`${tiddleCards.expiredAt} IS NULL`,
    sql`${tiddleCards.refreshedAt} > ${now.toISOString()}::timestamptz - make_interval(days => ${ttlDaysSql(agentId)})`,
  )!;

function cardSelection(agentId: string) {
  return {
    agentId: tiddleCards.agentId,
    project: tiddleCards.project,
    cardId: tiddleCards.cardId,
    title: tiddleCards.title,
    body: tiddleCards.body,
    card: tiddleCards.card,
    revision: tiddleCards.revision,
    createdAt: tiddleCards.createdAt,
    updatedAt: tiddleCards.updatedAt,
    refreshedAt: tiddleCards.refreshedAt,
    expiredAt: tiddleCards.expiredAt,
    ttlDays: sql<number>`${ttlDaysSql(agentId)}`.mapWith(Number),
  };
}

export const cardExpiresAt = (card: CardRow) => new Date(card.refreshedAt.getTime() + card.ttlDays * DAY_MS);
export const cardEvidence = (card: { card: unknown }) => ((card.card as CardDocument)?.evidence ?? []) as EvidenceRef[];

export class TiddleService {
  readonly scheduler: TiddleScheduler;

  constructor(
    private readonly db: Db,
    private readonly clock: Clock,
    private readonly faults: FaultInjector,
    private readonly agents: AgentsService,
    private proposer: Proposer,
    private readonly logger: Logger,
    private readonly proposerTimeoutMs: number,
  ) {
    this.scheduler = new TiddleScheduler(this, logger);
  }

  /** Replaces the proposer (tests of the service itself; the server uses the configured one). */
  useProposer(proposer: Proposer) {
    this.proposer = proposer;
  }

  // ---------------------------------------------------------------- residue

  /**
   * Stores one terminal turn's residue for the runtime's agent, scope and session. No model call,
   * no card change. Prunes the scope's residue older than 24 hours and replaces the same reference.
   */
  async appendResidue(
    viewer: Viewer | null,
    input: { project?: string | null; turnRef: string; excerpts: { role: string; text: string }[] },
  ): Promise<{ entry: ResidueRow; pruned: number; replaced: boolean }> {
    const v = requireViewer(viewer);
    if (v.principal !== 'AGENT') throw forbidden('tiddleAppendResidue is a runtime call: use the agent token of the runtime');
    const agentId = v.agentId!;
    const project = resolveScope(v, input.project);
    if (project === CROSS_SCOPE_PROJECT) throw new ValidationError('project', `"${CROSS_SCOPE_PROJECT}" is reserved for cross-scope cards`);
    if (charLength(project) > 200 || project.includes(NUL)) {
      throw new ValidationError('project', 'a continuity scope is 1 to 200 characters without NUL', 200);
    }
    if (!v.sessionId) throw new RequestError('continuity_session_required', 'residue belongs to a session: send the Burrow-Session header');
    const turnRef = input.turnRef.trim();
    assertCleanText('turnRef', turnRef);
    if (turnRef.length < 1 || charLength(turnRef) > RESIDUE_REFERENCE_LIMIT) {
      throw new ValidationError('turnRef', `turnRef must be 1 to ${RESIDUE_REFERENCE_LIMIT} characters`, RESIDUE_REFERENCE_LIMIT);
    }
    if (input.excerpts.length < 1 || input.excerpts.length > RESIDUE_EXCERPT_COUNT_LIMIT) {
      throw new ValidationError('excerpts', `a residue holds 1 to ${RESIDUE_EXCERPT_COUNT_LIMIT} message excerpts`, RESIDUE_EXCERPT_COUNT_LIMIT);
    }
    const excerpts = input.excerpts.map((excerpt, index) => {
      if (!(EXCERPT_ROLES as readonly string[]).includes(excerpt.role)) {
        throw new ValidationError(`excerpts.${index}.role`, `role must be one of ${EXCERPT_ROLES.join(', ')}`);
      }
      assertCleanText(`excerpts.${index}.text`, excerpt.text);
      const length = charLength(excerpt.text);
      if (length < 1 || length > RESIDUE_EXCERPT_TEXT_LIMIT) {
        throw new ValidationError(`excerpts.${index}.text`, `an excerpt is 1 to ${RESIDUE_EXCERPT_TEXT_LIMIT} characters (got ${length})`, RESIDUE_EXCERPT_TEXT_LIMIT);
      }
      return { role: excerpt.role, text: excerpt.text };
    });
    const now = this.clock.now();
    return this.db.transaction(async (tx) => {
      await lockForTransaction(tx, LockClass.agent, agentId);
      await tx
        .insert(tiddleEnvelopes)
        .values({ agentId, project, nextRunAt: new Date(now.getTime() + PASS_INTERVAL_MS), createdAt: now, updatedAt: now })
        .onConflictDoNothing();
      const pruned = await tx
        .delete(tiddleEntries)
        .where(
          and(residueOf(agentId, project), lt(tiddleEntries.createdAt, residueCutoff(now))),
        )
        .returning({ id: tiddleEntries.id });
      const id = newId();
      const [entry] = await tx
        .insert(tiddleEntries)
        .values({ agentId, id, project, kind: 'residue', reference: turnRef, sessionId: v.sessionId, excerpts, payload: {}, createdAt: now })
        .onConflictDoUpdate({
          target: [tiddleEntries.agentId, tiddleEntries.project, tiddleEntries.kind, tiddleEntries.reference],
          set: { sessionId: v.sessionId, excerpts, createdAt: now },
        })
        .returning();
      return { entry, pruned: pruned.length, replaced: entry.id !== id };
    });
  }

  /** The stored residue of a scope, newest first (what is stored, not only the 24-hour window). */
  async listResidue(viewer: Viewer | null, agentId: string, project: string, limit: number): Promise<ResidueRow[]> {
    this.checkScopedRead(viewer, agentId, project);
    return this.db
      .select()
      .from(tiddleEntries)
      .where(residueOf(agentId, project))
      .orderBy(desc(tiddleEntries.createdAt), desc(tiddleEntries.reference))
      .limit(limit);
  }

  /** Operators read any scope (or all); agent tokens read their runtime scope's history (or "*"). */
  async listHistory(viewer: Viewer | null, agentId: string, requestedProject: string | null, limit: number): Promise<ResidueRow[]> {
    const v = assertAgentAccess(viewer, agentId);
    const project = v.principal === 'AGENT' && requestedProject !== CROSS_SCOPE_PROJECT ? resolveScope(v, requestedProject) : requestedProject;
    const conditions = [eq(tiddleEntries.agentId, agentId), eq(tiddleEntries.kind, 'history')];
    if (project != null) conditions.push(eq(tiddleEntries.project, project));
    return this.db
      .select()
      .from(tiddleEntries)
      .where(and(...conditions))
      .orderBy(desc(tiddleEntries.createdAt), desc(tiddleEntries.id))
      .limit(limit);
  }

  /** Agent tokens read only their runtime scope (and its cross-scope cards); operators any. */
  private checkScopedRead(viewer: Viewer | null, agentId: string, project: string) {
    const v = assertAgentAccess(viewer, agentId);
    if (v.principal === 'AGENT' && project !== CROSS_SCOPE_PROJECT) resolveScope(v, project);
    return v;
  }

  // ---------------------------------------------------------------- cards

  async listCards(
    viewer: Viewer | null,
    agentId: string,
    project: string,
    page: { limit: number; after: { updatedAt: Date; cardId: string } | null },
  ): Promise<CardRow[]> {
    this.checkScopedRead(viewer, agentId, project);
    const conditions = [liveCard(agentId, this.clock.now()), eq(tiddleCards.project, project)];
    if (page.after) {
      conditions.push(
        sql`(${tiddleCards.updatedAt}, ${tiddleCards.cardId}) < (${page.after.updatedAt.toISOString()}::timestamptz, ${page.after.cardId})`,
      );
    }
    return this.db
      .select(cardSelection(agentId))
      .from(tiddleCards)
      .where(and(...conditions))
      .orderBy(desc(tiddleCards.updatedAt), desc(tiddleCards.cardId))
      .limit(page.limit);
  }

  /**
   * memory_rolling_search: the current agent's live cards in the current scope, matching any word
   * of the query in title or body, most words matched first. Bounded to 10 results.
   */
  async search(viewer: Viewer | null, input: { agentId?: string | null; project?: string | null; query: string; limit?: number | null }) {
    const v = requireViewer(viewer);
    const agentId = v.principal === 'AGENT' ? v.agentId! : input.agentId;
    if (v.principal === 'AGENT' && input.agentId && input.agentId !== v.agentId) assertAgentAccess(v, input.agentId);
    if (!agentId) throw forbidden('operators must choose the agent explicitly (agentId)');
    const project = resolveScope(v, input.project);
    const query = input.query.trim();
    assertCleanText('query', query);
    if (charLength(query) > 500) throw new ValidationError('query', 'a rolling search query is at most 500 characters', 500);
    const limit = input.limit ?? 10;
    if (!Number.isInteger(limit) || limit < 1 || limit > 10) throw new ValidationError('limit', 'rolling search returns 1 to 10 results', 10);
    const words = [...new Set(query.toLowerCase().split(/\s+/).filter(Boolean))].slice(0, 16);
    const matches = words.map((word) => {
      const pattern = `%${escapeLike(word)}%`;
      return sql`(CASE WHEN ${tiddleCards.title} ILIKE ${pattern} OR ${tiddleCards.body} ILIKE ${pattern} THEN 1 ELSE 0 END)`;
    });
    const score = matches.length ? sql.join(matches, sql` + `) : sql`0::int`;
    const rows = await this.db
      .select({ ...cardSelection(agentId), score: sql<number>`${score}`.mapWith(Number) })
      .from(tiddleCards)
      .where(and(liveCard(agentId, this.clock.now()), eq(tiddleCards.project, project), words.length ? sql`${score} > 0` : undefined))
      .orderBy(desc(sql`${score}`), desc(tiddleCards.refreshedAt), asc(tiddleCards.cardId))
      .limit(limit);
    return { owner: 'rolling_continuity' as const, entersPrompt: false as const, agentId, project, query, cards: rows as CardRow[] };
  }

  // ---------------------------------------------------------------- settings and status

  async readTtlDays(db: DbOrTx, agentId: string): Promise<number> {
    const [row] = await db.select({ days: tiddleSettings.cardTtlDays }).from(tiddleSettings).where(eq(tiddleSettings.agentId, agentId));
    return row?.days ?? CARD_TTL_DEFAULT_DAYS;
  }

  /** Operators change the persisted rolling TTL; cards now past it are marked expired in the same transaction. */
  async setCardTtl(viewer: Viewer | null, input: { agentId: string; days: number }) {
    const operator = requireOperator(viewer);
    if (!Number.isInteger(input.days) || input.days < CARD_TTL_MIN_DAYS || input.days > CARD_TTL_MAX_DAYS) {
      throw new ValidationError('days', `the rolling card TTL is ${CARD_TTL_MIN_DAYS} to ${CARD_TTL_MAX_DAYS} days`, CARD_TTL_MAX_DAYS);
    }
    const now = this.clock.now();
    return this.db.transaction(async (tx) => {
      await lockForTransaction(tx, LockClass.agent, input.agentId);
      const [agent] = await tx.execute<{ id: string }>(sql`SELECT id FROM agents WHERE id = ${input.agentId}`).then((r) => r.rows);
      if (!agent) throw new NotFoundError('Agent', input.agentId);
      await tx
        .insert(tiddleSettings)
        .values({ agentId: input.agentId, cardTtlDays: input.days, updatedAt: now, updatedBy: actorOf(operator).id })
        .onConflictDoUpdate({ target: tiddleSettings.agentId, set: { cardTtlDays: input.days, updatedAt: now, updatedBy: actorOf(operator).id } });
      const expired = await this.markExpired(tx, input.agentId, null, now);
      return { agentId: input.agentId, cardTtlDays: input.days, expiredCards: expired.map((c) => `${c.project}/${c.cardId}`) };
    });
  }

  async status(viewer: Viewer | null, agentId: string) {
    assertAgentAccess(viewer, agentId);
    await this.requireAgent(agentId);
    const [settings] = await this.db.select().from(tiddleSettings).where(eq(tiddleSettings.agentId, agentId));
    const scopes = await this.db
      .select()
      .from(tiddleEnvelopes)
      .where(eq(tiddleEnvelopes.agentId, agentId))
      .orderBy(asc(tiddleEnvelopes.project));
    return {
      agentId,
      cardTtlDays: settings?.cardTtlDays ?? CARD_TTL_DEFAULT_DAYS,
      lastSynthesisDate: settings?.lastSynthesisOn ?? null,
      lastSynthesisAt: settings?.lastSynthesisAt ?? null,
      scopes,
    };
  }

  private async requireAgent(agentId: string): Promise<void> {
    const [agent] = await this.agents.agentsByIds([agentId]);
    if (!agent) throw new NotFoundError('Agent', agentId);
  }

  // ---------------------------------------------------------------- passes

  /** One scheduler tick: claims and runs due scopes until none is left (bounded), then synthesis when a new UTC date began. */
  async runDuePasses(maxScopes = 1000): Promise<PassOutcome[]> {
    const outcomes: PassOutcome[] = [];
    for (let i = 0; i < maxScopes; i++) {
      const claim = await this.claimDue();
      if (!claim) break;
      outcomes.push(await this.runClaimedPass(claim.agentId, claim.project, claim.token, 'schedule'));
      const synthesis = await this.synthesizeIfNewDate(claim.agentId);
      if (synthesis) outcomes.push(synthesis);
    }
    return outcomes;
  }

  /** An operator's pass now, for one scope or every scope of the agent. Does not move the synthesis date. */
  async runPassNow(viewer: Viewer | null, input: { agentId: string; project?: string | null }): Promise<PassOutcome[]> {
    requireOperator(viewer);
    await this.requireAgent(input.agentId);
    if (input.project === CROSS_SCOPE_PROJECT) {
      throw new ValidationError('project', `"${CROSS_SCOPE_PROJECT}" is the cross-scope synthesis, which runs at the first due pass of a UTC date`);
    }
    const projects = input.project != null
      ? [input.project]
      : (
          await this.db
            .select({ project: tiddleEnvelopes.project })
            .from(tiddleEnvelopes)
            .where(and(eq(tiddleEnvelopes.agentId, input.agentId), ne(tiddleEnvelopes.project, CROSS_SCOPE_PROJECT)))
            .orderBy(asc(tiddleEnvelopes.project))
        ).map((r) => r.project);
    const outcomes: PassOutcome[] = [];
    for (const project of projects) {
      const token = await this.claimScope(input.agentId, project);
      if (token === null) {
        const [exists] = await this.db
          .select({ project: tiddleEnvelopes.project })
          .from(tiddleEnvelopes)
          .where(and(eq(tiddleEnvelopes.agentId, input.agentId), eq(tiddleEnvelopes.project, project)));
        if (!exists) throw new NotFoundError('TiddleScope', `${input.agentId}/${project}`);
        outcomes.push(this.emptyOutcome(input.agentId, project, 'pass', 'operator', 'SKIPPED', 'another pass of this scope is running'));
        continue;
      }
      outcomes.push(await this.runClaimedPass(input.agentId, project, token, 'operator'));
    }
    return outcomes;
  }

  private leaseUntil(now: Date) {
    return new Date(now.getTime() + this.proposerTimeoutMs + 60_000);
  }

  /** Claims the most overdue free scope: SKIP LOCKED, so concurrent instances never claim the same one. */
  private async claimDue(): Promise<{ agentId: string; project: string; token: string } | null> {
    const now = this.clock.now();
    const token = newId();
    const result = await this.db.execute<{ agent_id: string; project: string }>(sql`
      UPDATE ${tiddleEnvelopes} AS e
         SET claim_token = ${token}, claimed_until = ${this.leaseUntil(now).toISOString()}::timestamptz,
             last_attempt_at = ${now.toISOString()}::timestamptz, updated_at = ${now.toISOString()}::timestamptz
        FROM (SELECT agent_id, project FROM ${tiddleEnvelopes}
               WHERE next_run_at <= ${now.toISOString()}::timestamptz
                 AND project <> ${CROSS_SCOPE_PROJECT}
                 AND (claimed_until IS NULL OR claimed_until <= ${now.toISOString()}::timestamptz)
               ORDER BY next_run_at, agent_id, project
               LIMIT 1
               FOR UPDATE SKIP LOCKED) AS due
       WHERE e.agent_id = due.agent_id AND e.project = due.project
   RETURNING e.agent_id, e.project`);
    const row = result.rows[0];
    return row ? { agentId: row.agent_id, project: row.project, token } : null;
  }

  private async claimScope(agentId: string, project: string): Promise<string | null> {
    const now = this.clock.now();
    const token = newId();
    const claimed = await this.db
      .update(tiddleEnvelopes)
      .set({ claimToken: token, claimedUntil: this.leaseUntil(now), lastAttemptAt: now, updatedAt: now })
      .where(
        and(
          eq(tiddleEnvelopes.agentId, agentId),
          eq(tiddleEnvelopes.project, project),
          sql`(${tiddleEnvelopes.claimedUntil} IS NULL OR ${tiddleEnvelopes.claimedUntil} <= ${now.toISOString()}::timestamptz)`,
        ),
      )
      .returning({ project: tiddleEnvelopes.project });
    return claimed.length ? token : null;
  }

  private emptyOutcome(
    agentId: string,
    project: string,
    kind: PassOutcome['kind'],
    trigger: PassOutcome['trigger'],
    status: PassStatus,
    error: string | null,
  ): PassOutcome {
    return {
      agentId, project, passId: newId(), kind, trigger, status, error, residueConsidered: 0,
      created: [], updated: [], expired: [], preferenceSignals: [], noops: 0, rejected: [], nextRunAt: null, at: this.clock.now(),
    };
  }

  /** Selects residue of the last 24 hours within the selection budget, newest first. */
  private async selectResidue(agentId: string, project: string, now: Date): Promise<ResidueView[]> {
    const rows = await this.db
      .select()
      .from(tiddleEntries)
      .where(
        and(
          residueOf(agentId, project),
          gte(tiddleEntries.createdAt, residueCutoff(now)),
          sql`${tiddleEntries.createdAt} <= ${now.toISOString()}::timestamptz`,
        ),
      )
      .orderBy(desc(tiddleEntries.createdAt), asc(tiddleEntries.reference))
      .limit(RESIDUE_SELECTION_LIMIT);
    const selected: ResidueView[] = [];
    let budget = RESIDUE_SELECTION_CHARS;
    for (const row of rows) {
      const excerpts = row.excerpts as { role: string; text: string }[];
      const size = excerpts.reduce((sum, e) => sum + charLength(e.text), 0);
      if (size > budget) break;
      budget -= size;
      selected.push({ reference: row.reference, sessionId: row.sessionId, createdAt: row.createdAt.toISOString(), excerpts });
    }
    return selected;
  }

  private async liveCards(db: DbOrTx, agentId: string, project: string | null, now: Date, limit: number, since?: Date): Promise<CardRow[]> {
    const conditions = [liveCard(agentId, now)];
    if (project !== null) conditions.push(eq(tiddleCards.project, project));
    else conditions.push(ne(tiddleCards.project, CROSS_SCOPE_PROJECT));
    if (since) conditions.push(sql`${tiddleCards.refreshedAt} >= ${since.toISOString()}::timestamptz`);
    return db
      .select(cardSelection(agentId))
      .from(tiddleCards)
      .where(and(...conditions))
      .orderBy(desc(tiddleCards.refreshedAt), asc(tiddleCards.project), asc(tiddleCards.cardId))
      .limit(limit);
  }

  private cardView(card: CardRow): CardView {
    return {
      agentId: card.agentId,
      project: card.project,
      cardId: card.cardId,
      title: card.title,
      body: card.body,
      evidence: cardEvidence(card).map((e) => e.reference),
      updatedAt: card.updatedAt.toISOString(),
    };
  }

  /** Runs a claimed scope's pass. Never throws: a failure is recorded on the scope and reported. */
  private async runClaimedPass(agentId: string, project: string, token: string, trigger: PassOutcome['trigger']): Promise<PassOutcome> {
    const passId = newId();
    const now = this.clock.now();
    try {
      const residue = await this.selectResidue(agentId, project, now);
      const cards = await this.liveCards(this.db, agentId, project, now, PASS_CARD_BUDGET);
      const proposals = residue.length
        ? await this.proposer.propose({ mode: 'pass', agentId, project, residue, cards: cards.map((c) => this.cardView(c)) })
        : [];
      this.faults('tiddle.pass.after_propose');
      return await this.db.transaction(async (tx) => {
        await lockForTransaction(tx, LockClass.agent, agentId);
        const [claim] = await tx
          .select({ project: tiddleEnvelopes.project })
          .from(tiddleEnvelopes)
          .where(and(eq(tiddleEnvelopes.agentId, agentId), eq(tiddleEnvelopes.project, project), eq(tiddleEnvelopes.claimToken, token)))
          .for('update');
        if (!claim) throw new ClaimLost();
        const outcome: PassOutcome = { ...this.emptyOutcome(agentId, project, 'pass', trigger, 'SUCCEEDED', null), passId, at: now };
        outcome.residueConsidered = residue.length;
        await this.applyPassProposals(tx, outcome, proposals, residue, now);
        outcome.expired = (await this.markExpired(tx, agentId, project, now)).map((c) => c.cardId);
        this.faults('tiddle.pass.after_cards');
        await this.appendHistory(tx, outcome, residue.map((r) => r.reference));
        this.faults('tiddle.pass.after_history');
        const nextRunAt = new Date(now.getTime() + PASS_INTERVAL_MS);
        await tx
          .update(tiddleEnvelopes)
          .set({
            nextRunAt, lastSuccessAt: now, lastPassId: passId, lastError: null, lastErrorAt: null,
            consecutiveFailures: 0, claimToken: null, claimedUntil: null, updatedAt: now,
          })
          .where(and(eq(tiddleEnvelopes.agentId, agentId), eq(tiddleEnvelopes.project, project)));
        outcome.nextRunAt = nextRunAt;
        await this.statusEvent(tx, outcome);
        this.faults('tiddle.pass.before_commit');
        return outcome;
      });
    } catch (error) {
      if (error instanceof ClaimLost) {
        return this.emptyOutcome(agentId, project, 'pass', trigger, 'SKIPPED', 'the claim on this scope passed to another instance');
      }
      const message = (error as Error).message || String(error);
      this.logger.warn('tiddle pass failed', { agentId, project, error: message });
      return this.recordFailure(agentId, project, token, passId, trigger, message);
    }
  }

  private async recordFailure(agentId: string, project: string, token: string, passId: string, trigger: PassOutcome['trigger'], message: string) {
    const now = this.clock.now();
    const outcome: PassOutcome = { ...this.emptyOutcome(agentId, project, 'pass', trigger, 'FAILED', message.slice(0, 2000)), passId, at: now };
    const nextRunAt = new Date(now.getTime() + RETRY_DELAY_MS);
    try {
      await this.db.transaction(async (tx) => {
        await lockForTransaction(tx, LockClass.agent, agentId);
        const updated = await tx
          .update(tiddleEnvelopes)
          .set({
            lastError: outcome.error, lastErrorAt: now, consecutiveFailures: sql`${tiddleEnvelopes.consecutiveFailures} + 1`,
            nextRunAt, claimToken: null, claimedUntil: null, updatedAt: now,
          })
          .where(and(eq(tiddleEnvelopes.agentId, agentId), eq(tiddleEnvelopes.project, project), eq(tiddleEnvelopes.claimToken, token)))
          .returning({ project: tiddleEnvelopes.project });
        if (updated.length === 0) return;
        outcome.nextRunAt = nextRunAt;
        await this.statusEvent(tx, outcome);
      });
    } catch (error) {
      this.logger.error('tiddle could not record a failed pass; the claim lease will expire', { agentId, project, error: (error as Error).message });
    }
    return outcome;
  }

  private async statusEvent(tx: DbOrTx, outcome: PassOutcome) {
    await appendEvent(tx, this.clock, {
      agentId: outcome.agentId,
      stream: 'tiddle_status',
      type: `tiddle.${outcome.kind}.${outcome.status === 'SUCCEEDED' ? 'succeeded' : 'failed'}`,
      subjectId: `${outcome.agentId}/${outcome.project}`,
      project: outcome.project,
      payload: {
        passId: outcome.passId,
        kind: outcome.kind,
        trigger: outcome.trigger,
        status: outcome.status,
        error: outcome.error,
        residueConsidered: outcome.residueConsidered,
        created: outcome.created,
        updated: outcome.updated,
        expired: outcome.expired,
        preferenceSignals: outcome.preferenceSignals,
        rejected: outcome.rejected.length,
        nextRunAt: outcome.nextRunAt?.toISOString() ?? null,
      },
    });
  }

  private async appendHistory(tx: DbOrTx, outcome: PassOutcome, residueReferences: string[]) {
    await tx.insert(tiddleEntries).values({
      agentId: outcome.agentId,
      id: newId(),
      project: outcome.project,
      kind: 'history',
      reference: outcome.passId,
      sessionId: null,
      excerpts: [],
      payload: {
        passId: outcome.passId,
        kind: outcome.kind,
        trigger: outcome.trigger,
        status: outcome.status,
        residueConsidered: outcome.residueConsidered,
        residueReferences,
        created: outcome.created,
        updated: outcome.updated,
        expired: outcome.expired,
        preferenceSignals: outcome.preferenceSignals,
        noops: outcome.noops,
        rejected: outcome.rejected,
      },
      createdAt: outcome.at,
    });
    await tx
      .delete(tiddleEntries)
      .where(
        and(
          eq(tiddleEntries.agentId, outcome.agentId),
          eq(tiddleEntries.project, outcome.project),
          eq(tiddleEntries.kind, 'history'),
          lt(tiddleEntries.createdAt, new Date(outcome.at.getTime() - HISTORY_RETENTION_DAYS * DAY_MS)),
        ),
      );
  }

  /** Marks cards past the persisted TTL as expired and announces each; reads filter them either way. */
  private async markExpired(tx: DbOrTx, agentId: string, project: string | null, now: Date) {
    const ttl = await this.readTtlDays(tx, agentId);
    const conditions = [
      eq(tiddleCards.agentId, agentId),
      sql`${tiddleCards.expiredAt} IS NULL`,
      sql`${tiddleCards.refreshedAt} <= ${new Date(now.getTime() - ttl * DAY_MS).toISOString()}::timestamptz`,
    ];
    if (project !== null) conditions.push(eq(tiddleCards.project, project));
    const expired = await tx
      .update(tiddleCards)
      .set({ expiredAt: now })
      .where(and(...conditions))
      .returning({ project: tiddleCards.project, cardId: tiddleCards.cardId, refreshedAt: tiddleCards.refreshedAt });
    for (const card of expired) {
      await appendEvent(tx, this.clock, {
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

  // ---------------------------------------------------------------- validation and application

  private async applyPassProposals(tx: DbOrTx, outcome: PassOutcome, rawProposals: RawProposal[], residue: ResidueView[], now: Date) {
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
        const id = await this.agents.recordPreferenceSignal(tx, {
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
        const cardId = `card-${newId()}`;
        const document: CardDocument = { evidence, metadata: (metadata as Record<string, unknown>) ?? {} };
        await tx.insert(tiddleCards).values({
          agentId, project, cardId, title, body, card: document, revision: 1, createdAt: now, updatedAt: now, refreshedAt: now,
        });
        await this.cardEvent(tx, 'rolling_card.created', { agentId, project, cardId }, { title, revision: 1, passId: outcome.passId, evidence: evidence.map((e) => e.reference) });
        outcome.created.push(cardId);
        continue;
      }
      // update: the exact identity (agent, project, card id) of a live card of this scope.
      const identity = proposal.card;
      if (
        !isRecord(identity) ||
        typeof identity.agentId !== 'string' ||
        typeof identity.project !== 'string' ||
        typeof identity.cardId !== 'string'
      ) {
        reject(proposal, 'an update must name the card identity exactly: card { agentId, project, cardId }');
        continue;
      }
      if (identity.agentId !== agentId || identity.project !== project) {
        reject(proposal, `an update must name a card of this agent and scope exactly (got ${identity.agentId}/${identity.project}/${identity.cardId}, pass is ${agentId}/${project})`);
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
      await this.cardEvent(tx, 'rolling_card.updated', { agentId, project, cardId: identity.cardId }, {
        title: updated.title, revision: updated.revision, passId: outcome.passId, evidence: merged.map((e) => e.reference),
      });
      outcome.updated.push(identity.cardId);
    }
  }

  private async cardEvent(tx: DbOrTx, type: string, identity: CardIdentity, payload: Record<string, unknown>) {
    await appendEvent(tx, this.clock, {
      agentId: identity.agentId,
      stream: 'rolling_card',
      type,
      subjectId: `${identity.project}/${identity.cardId}`,
      project: identity.project,
      payload: { ...identity, ...payload },
    });
  }

  // ---------------------------------------------------------------- cross-scope synthesis

  /**
   * At the first due pass of an agent on a UTC date it has not synthesised on, proposes
   * cross-scope cards from the last 21 days of cards. The date is claimed at commit under the
   * agent lock, so several instances synthesise once; a failure leaves the date unclaimed.
   */
  private async synthesizeIfNewDate(agentId: string): Promise<PassOutcome | null> {
    const now = this.clock.now();
    const today = utcDate(now);
    const [settings] = await this.db.select().from(tiddleSettings).where(eq(tiddleSettings.agentId, agentId));
    if (settings?.lastSynthesisOn && settings.lastSynthesisOn >= today) return null;
    const outcome: PassOutcome = this.emptyOutcome(agentId, CROSS_SCOPE_PROJECT, 'synthesis', 'schedule', 'SUCCEEDED', null);
    outcome.at = now;
    try {
      const windowStart = new Date(now.getTime() - SYNTHESIS_WINDOW_DAYS * DAY_MS);
      const cards = await this.liveCards(this.db, agentId, null, now, SYNTHESIS_CARD_BUDGET, windowStart);
      const scopes = new Set(cards.map((c) => c.project));
      const proposals =
        cards.length >= 2 && scopes.size >= 2
          ? await this.proposer.propose({ mode: 'synthesis', agentId, date: today, cards: cards.map((c) => this.cardView(c)) })
          : [];
      this.faults('tiddle.synthesis.after_propose');
      return await this.db.transaction(async (tx) => {
        await lockForTransaction(tx, LockClass.agent, agentId);
        await tx
          .insert(tiddleSettings)
          .values({ agentId, cardTtlDays: CARD_TTL_DEFAULT_DAYS, updatedAt: now, updatedBy: 'tiddle' })
          .onConflictDoNothing();
        const claimed = await tx
          .update(tiddleSettings)
          .set({ lastSynthesisOn: today, lastSynthesisAt: now })
          .where(and(eq(tiddleSettings.agentId, agentId), sql`(${tiddleSettings.lastSynthesisOn} IS NULL OR ${tiddleSettings.lastSynthesisOn} < ${today}::date)`))
          .returning({ agentId: tiddleSettings.agentId });
        if (claimed.length === 0) return null;
        outcome.residueConsidered = 0;
        await this.applySynthesisProposals(tx, outcome, proposals, now, windowStart);
        outcome.expired = (await this.markExpired(tx, agentId, CROSS_SCOPE_PROJECT, now)).map((c) => c.cardId);
        await this.appendHistory(tx, outcome, []);
        await tx
          .insert(tiddleEnvelopes)
          .values({ agentId, project: CROSS_SCOPE_PROJECT, nextRunAt: nextUtcMidnight(now), lastSuccessAt: now, lastAttemptAt: now, lastPassId: outcome.passId, createdAt: now, updatedAt: now })
          .onConflictDoUpdate({
            target: [tiddleEnvelopes.agentId, tiddleEnvelopes.project],
            set: { nextRunAt: nextUtcMidnight(now), lastSuccessAt: now, lastAttemptAt: now, lastPassId: outcome.passId, lastError: null, lastErrorAt: null, consecutiveFailures: 0, updatedAt: now },
          });
        await this.statusEvent(tx, outcome);
        return outcome;
      });
    } catch (error) {
      const message = ((error as Error).message || String(error)).slice(0, 2000);
      this.logger.warn('tiddle synthesis failed', { agentId, error: message });
      const failed: PassOutcome = { ...outcome, status: 'FAILED', error: message };
      try {
        await this.db.transaction(async (tx) => {
          await lockForTransaction(tx, LockClass.agent, agentId);
          await tx
            .insert(tiddleEnvelopes)
            .values({ agentId, project: CROSS_SCOPE_PROJECT, nextRunAt: nextUtcMidnight(now), lastAttemptAt: now, lastError: message, lastErrorAt: now, consecutiveFailures: 1, createdAt: now, updatedAt: now })
            .onConflictDoUpdate({
              target: [tiddleEnvelopes.agentId, tiddleEnvelopes.project],
              set: { lastAttemptAt: now, lastError: message, lastErrorAt: now, consecutiveFailures: sql`${tiddleEnvelopes.consecutiveFailures} + 1`, updatedAt: now },
            });
          await this.statusEvent(tx, failed);
        });
      } catch {
        // The failure is logged; the next due pass retries the synthesis anyway.
      }
      return failed;
    }
  }

  private async applySynthesisProposals(tx: DbOrTx, outcome: PassOutcome, rawProposals: RawProposal[], now: Date, windowStart: Date) {
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
      if (
        !Array.isArray(rawSources) ||
        rawSources.some((s) => !isRecord(s) || typeof s.agentId !== 'string' || typeof s.project !== 'string' || typeof s.cardId !== 'string')
      ) {
        reject(proposal, 'sources must be a list of card identities { agentId, project, cardId }');
        continue;
      }
      const sources = [
        ...new Map((rawSources as CardIdentity[]).map((s) => [`${s.agentId}\u0000${s.project}\u0000${s.cardId}`, { agentId: s.agentId, project: s.project, cardId: s.cardId }])).values(),
      ];
      if (sources.length < 2 || new Set(sources.map((s) => s.project)).size < 2) {
        reject(proposal, `a cross-scope card needs at least two source cards across at least two scopes (got ${sources.length} cards in ${new Set(sources.map((s) => s.project)).size} scopes)`);
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
        reject(proposal, `source card ${missing.agentId}/${missing.project}/${missing.cardId} does not exist among this agent's live cards of the last ${SYNTHESIS_WINDOW_DAYS} days`);
        continue;
      }
      const cardId = `card-${newId()}`;
      const document: CardDocument = { evidence: [], metadata: {}, sources };
      await tx.insert(tiddleCards).values({
        agentId, project: CROSS_SCOPE_PROJECT, cardId, title, body, card: document, revision: 1, createdAt: now, updatedAt: now, refreshedAt: now,
      });
      await this.cardEvent(tx, 'rolling_card.created', { agentId, project: CROSS_SCOPE_PROJECT, cardId }, { title, revision: 1, passId: outcome.passId, sources });
      outcome.created.push(cardId);
    }
  }
}

/**
 * Checks every 60 seconds and ticks once immediately at start. tick() is public and serialised
 * within the instance, so a caller awaiting it knows every earlier tick has finished too.
 */
export class TiddleScheduler {
  readonly name = 'tiddle scheduler';
  private readonly job: IntervalJob;
  private chain: Promise<unknown> = Promise.resolve();

  constructor(
    private readonly service: TiddleService,
    logger: Logger,
  ) {
    this.job = new IntervalJob(this.name, SCHEDULER_INTERVAL_MS, async () => void (await this.tick()), logger);
  }

  tick(): Promise<PassOutcome[]> {
    const run = this.chain.then(() => this.service.runDuePasses());
    this.chain = run.catch(() => undefined);
    return run;
  }

  start(): void {
    this.job.start();
  }

  async stop(): Promise<void> {
    await this.job.stop();
    await this.chain;
  }
}

