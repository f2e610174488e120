/**
 * Session handoffs: a compact goal, outcome and evidence pointers, one current handoff per agent,
 * scope and session. Explicit handoffs (the agent's own tool call) win over automatic ones (the
 * runtime's curator): an automatic write never replaces an explicit handoff, live or expired;
 * only retention removes an explicit one.
 */
import { and, asc, desc, eq, getTableColumns, gt, inArray, lt, lte, or, sql } from 'drizzle-orm';
import type { Db, DbOrTx } from '../../db/database.js';
import type { Clock } from '../../lib/clock.js';
import { expiryAfter } from '../../lib/expiry.js';
import { ForbiddenError, ValidationError, forbidden } from '../../lib/errors.js';
import type { FaultInjector } from '../../lib/faults.js';
import { newId } from '../../lib/ids.js';
import { charLength } from '../../lib/text.js';
import { assertCleanText } from '../../lib/text-policy.js';
import { actorOf, type Viewer } from '../../auth/viewer.js';
import { requireSession, resolveRuntime, type RuntimeContext } from '../../auth/runtime.js';
import { appendEvent } from '../../events/events.service.js';
import { HANDOFF_LIMITS, sessionHandoffs, type HandoffEvidence, type HandoffOrigin, type HandoffSourceRef } from './handoffs.sql.js';
import { forExistingAgent } from '../../db/foreign-keys.js';
import { idempotent, type IdempotentWrite } from '../../db/idempotency.js';

export type HandoffRow = typeof sessionHandoffs.$inferSelect;

export interface HandoffInput {
  agentId?: string | null;
  project?: string | null;
  title: string;
  goal: string;
  outcome: string;
  body: string;
  sourceRefs?: { ref: string; evidence?: HandoffEvidence | null }[] | null;
  ttlDays?: number | null;
  /** A retry with the same key answers the first write (db/idempotency.ts). */
  idempotencyKey?: string | null;
}

export type AutomaticHandoffOutcome =
  { written: true; skippedReason: null; handoff: HandoffRow } | { written: false; skippedReason: 'TRIVIAL' | 'EXPLICIT_PRESENT' | 'EXPLICIT_EXPIRED'; handoff: HandoffRow | null };

export class HandoffsService {
  constructor(
    private readonly db: Db,
    private readonly clock: Clock,
    private readonly faults: FaultInjector,
  ) {}

  /** The agent's own handoff for its current session; replaces whatever the session had. */
  async writeExplicit(viewer: Viewer | null, input: HandoffInput): Promise<HandoffRow> {
    const runtime = resolveRuntime(viewer, input);
    const sessionId = requireSession(runtime);
    const refs = validate(input, 'ASSISTANT_ASSERTION');
    return idempotent(this.db, this.clock, this.keyed('sessionWriteHandoff', runtime, input), async (db) => {
      const [row] = await this.upsert(db, runtime, sessionId, 'EXPLICIT', input, refs);
      if (!row) throw new ForbiddenError('OPERATOR_OWNED', `the handoff of session ${sessionId} was written by an operator; an agent cannot replace it`);
      return row;
    });
  }

  /** A handoff write's idempotency: its key, scope and everything the write depends on. */
  private keyed(operation: string, runtime: RuntimeContext, { idempotencyKey, ...input }: HandoffInput): IdempotentWrite {
    const { agentId, scope, sessionId, conversationId } = runtime;
    return { key: idempotencyKey, operation, agentId, tokenId: runtime.viewer.tokenId, request: { ...input, agentId, scope, sessionId, conversationId } };
  }

  /**
   * The runtime's automatic handoff (agent tokens only). Trivial exchanges are skipped: no
   * successful tool evidence and fewer than 80 characters of goal, outcome and body together.
   * Substantive planning is kept even when no tool ran. An explicit handoff is never replaced,
   * not even once it has expired: it keeps the session's slot until retention removes it.
   */
  async recordAutomatic(viewer: Viewer | null, input: HandoffInput): Promise<AutomaticHandoffOutcome> {
    const runtime = resolveRuntime(viewer, input);
    if (runtime.viewer.principal !== 'AGENT') throw forbidden('automatic handoffs are written by the agent runtime (an agent token)');
    const sessionId = requireSession(runtime);
    const refs = validate(input, 'ASSISTANT_ASSERTION');
    const hasToolEvidence = refs.some((r) => r.evidence === 'TOOL_EVIDENCE');
    const text = `${input.goal.trim()}${input.outcome.trim()}${input.body.trim()}`;
    if (!hasToolEvidence && charLength(text) < HANDOFF_LIMITS.trivialText) return { written: false, skippedReason: 'TRIVIAL', handoff: null };
    return idempotent(this.db, this.clock, this.keyed('recordAutomaticHandoff', runtime, input), async (db): Promise<AutomaticHandoffOutcome> => {
      const [row] = await this.upsert(db, runtime, sessionId, 'AUTOMATIC', input, refs);
      if (row) return { written: true, skippedReason: null, handoff: row };
      const [explicit] = await db
        .select()
        .from(sessionHandoffs)
        .where(and(eq(sessionHandoffs.agentId, runtime.agentId), eq(sessionHandoffs.project, runtime.scope), eq(sessionHandoffs.sessionId, sessionId)));
      const expired = explicit !== undefined && explicit.expiresAt.getTime() <= this.clock.now().getTime();
      return { written: false, skippedReason: expired ? 'EXPLICIT_EXPIRED' : 'EXPLICIT_PRESENT', handoff: explicit ?? null };
    });
  }

  /**
   * One statement: an explicit write takes the session's slot unless an agent would replace a
   * live operator-written handoff; an automatic one only when the slot holds an automatic
   * handoff (an explicit one, even expired, stays until retention removes it). Otherwise no row
   * comes back and nothing changed.
   */
  private async upsert(db: Db, runtime: RuntimeContext, sessionId: string, origin: HandoffOrigin, input: HandoffInput, refs: HandoffSourceRef[]) {
    const now = this.clock.now();
    const ttlDays = input.ttlDays ?? HANDOFF_LIMITS.defaultTtlDays;
    const actor = actorOf(runtime.viewer);
    const h = sessionHandoffs;
    const values = {
      origin,
      conversationId: runtime.conversationId,
      title: input.title,
      goal: input.goal,
      outcome: input.outcome,
      body: input.body,
      sourceRefs: refs,
      ttlDays,
      expiresAt: expiryAfter(now, ttlDays),
      updatedAt: now,
      writtenByKind: actor.kind,
      writtenById: actor.id,
    };
    return forExistingAgent(runtime.agentId, () =>
      db.transaction(async (tx) => {
        const rows = await tx
          .insert(h)
          .values({ agentId: runtime.agentId, id: newId(), project: runtime.scope, sessionId, revision: 1, createdAt: now, ...values })
          .onConflictDoUpdate({
            target: [h.agentId, h.project, h.sessionId],
            set: { ...values, revision: sql`${h.revision} + 1` },
            setWhere:
              origin === 'AUTOMATIC' ? eq(h.origin, 'AUTOMATIC') : actor.kind === 'AGENT' ? or(sql`${h.writtenByKind} <> 'OPERATOR'`, sql`${h.expiresAt} <= ${now}`) : undefined,
          })
          .returning();
        this.faults('handoff.after_write');
        for (const row of rows) await this.event(tx, row);
        return rows;
      }),
    );
  }

  /**
   * Recent, unexpired handoffs of the agent's scope: explicit ones first, then the current
   * session's, then the newest. At most 10.
   */
  async readRecent(viewer: Viewer | null, input: { agentId?: string | null; project?: string | null; first?: number | null }): Promise<HandoffRow[]> {
    const runtime = resolveRuntime(viewer, input);
    const limit = input.first ?? HANDOFF_LIMITS.readDefault;
    if (!Number.isInteger(limit) || limit < 1 || limit > HANDOFF_LIMITS.read) {
      throw new ValidationError('first', `sessionReadHandoff returns 1 to ${HANDOFF_LIMITS.read} handoffs`, HANDOFF_LIMITS.read);
    }
    const h = sessionHandoffs;
    return this.db
      .select()
      .from(h)
      .where(and(eq(h.agentId, runtime.agentId), eq(h.project, runtime.scope), gt(h.expiresAt, this.clock.now())))
      .orderBy(desc(sql`(${h.origin} = 'EXPLICIT')`), desc(sql`(${h.sessionId} = ${runtime.sessionId ?? ''})`), desc(h.updatedAt), desc(h.id))
      .limit(limit);
  }

  /** One unexpired handoff of the agent's scope by id (node(id)), authorized as readRecent. */
  async get(viewer: Viewer | null, input: { agentId: string; id: string }): Promise<HandoffRow | null> {
    return this.getInScope(resolveRuntime(viewer, { agentId: input.agentId }), input.id);
  }

  /** One unexpired handoff of an already authorized agent and scope (node(id:) with a scoped id). */
  async getInScope(runtime: RuntimeContext, id: string): Promise<HandoffRow | null> {
    const h = sessionHandoffs;
    const [row] = await this.db
      .select()
      .from(h)
      .where(and(eq(h.agentId, runtime.agentId), eq(h.project, runtime.scope), eq(h.id, id), gt(h.expiresAt, this.clock.now())));
    return row ?? null;
  }

  /**
   * readRecent for several agents in one statement (Agent.handoffs): each agent authorized and
   * scoped as readRecent (an error in its place when it may not be read), a window per agent in
   * readRecent's order.
   */
  async readRecentMany(
    viewer: Viewer | null,
    agentIds: readonly string[],
    input: { project?: string | null; sessionId?: string | null; first?: number | null },
  ): Promise<(HandoffRow[] | Error)[]> {
    const limit = input.first ?? HANDOFF_LIMITS.readDefault;
    if (!Number.isInteger(limit) || limit < 1 || limit > HANDOFF_LIMITS.read) {
      throw new ValidationError('first', `handoffs returns 1 to ${HANDOFF_LIMITS.read} handoffs`, HANDOFF_LIMITS.read);
    }
    const results: (HandoffRow[] | Error)[] = [];
    const readable: { index: number; runtime: RuntimeContext }[] = [];
    agentIds.forEach((agentId, index) => {
      try {
        readable.push({ index, runtime: resolveRuntime(viewer, { agentId, project: input.project }) });
      } catch (error) {
        results[index] = error as Error;
      }
    });
    if (readable.length === 0) return results;
    const { scope, sessionId } = readable[0].runtime;
    const h = sessionHandoffs;
    const conditions = [
      inArray(
        h.agentId,
        readable.map((r) => r.runtime.agentId),
      ),
      eq(h.project, scope),
      gt(h.expiresAt, this.clock.now()),
    ];
    if (input.sessionId != null) conditions.push(eq(h.sessionId, input.sessionId));
    const order = sql`(${h.origin} = 'EXPLICIT') DESC, (${h.sessionId} = ${sessionId ?? ''}) DESC, ${h.updatedAt} DESC, ${h.id} DESC`;
    const ranked = this.db
      .select({ ...getTableColumns(h), position: sql<number>`row_number() OVER (PARTITION BY ${h.agentId} ORDER BY ${order})`.as('position') })
      .from(h)
      .where(and(...conditions))
      .as('ranked');
    const rows = await this.db.select().from(ranked).where(lte(ranked.position, limit)).orderBy(asc(ranked.position));
    for (const { index, runtime } of readable) {
      results[index] = rows.filter((r) => r.agentId === runtime.agentId).map(({ position: _position, ...row }) => row as HandoffRow);
    }
    return results;
  }

  async sweepExpired(cutoff: Date): Promise<number> {
    const removed = await this.db.delete(sessionHandoffs).where(lt(sessionHandoffs.expiresAt, cutoff)).returning({ id: sessionHandoffs.id });
    return removed.length;
  }

  private async event(tx: DbOrTx, row: HandoffRow) {
    await appendEvent(tx, this.clock, {
      agentId: row.agentId,
      stream: 'handoff',
      type: 'handoff.written',
      subjectId: row.id,
      project: row.project,
      payload: { origin: row.origin, sessionId: row.sessionId, revision: row.revision, expiresAt: row.expiresAt.toISOString() },
    });
  }
}

function validate(input: HandoffInput, defaultEvidence: HandoffEvidence): HandoffSourceRef[] {
  const bound = (field: 'title' | 'goal' | 'outcome' | 'body', value: string) => {
    const limit = HANDOFF_LIMITS[field];
    const length = charLength(value);
    if (length > limit) throw new ValidationError(field, `${field} is bounded to ${limit} characters (got ${length})`, limit);
  };
  for (const field of ['title', 'goal', 'outcome', 'body'] as const) assertCleanText(field, input[field]);
  input.sourceRefs?.forEach((r, index) => assertCleanText(`sourceRefs.${index}.ref`, r.ref));
  if (input.title.trim().length === 0) throw new ValidationError('title', 'title must not be empty', HANDOFF_LIMITS.title);
  bound('title', input.title);
  bound('goal', input.goal);
  bound('outcome', input.outcome);
  bound('body', input.body);
  if (input.ttlDays != null && (!Number.isInteger(input.ttlDays) || input.ttlDays < HANDOFF_LIMITS.ttlMin || input.ttlDays > HANDOFF_LIMITS.ttlMax)) {
    throw new ValidationError('ttlDays', `ttlDays must be a whole number from ${HANDOFF_LIMITS.ttlMin} to ${HANDOFF_LIMITS.ttlMax}`, HANDOFF_LIMITS.ttlMax);
  }
  const refs = input.sourceRefs ?? [];
  if (refs.length > HANDOFF_LIMITS.sourceRefs) {
    throw new ValidationError('sourceRefs', `at most ${HANDOFF_LIMITS.sourceRefs} source references (got ${refs.length})`, HANDOFF_LIMITS.sourceRefs);
  }
  return refs.map((r, index) => {
    if (r.ref.trim().length === 0 || charLength(r.ref) > HANDOFF_LIMITS.sourceRef) {
      throw new ValidationError(`sourceRefs.${index}.ref`, `each source reference is 1 to ${HANDOFF_LIMITS.sourceRef} characters`, HANDOFF_LIMITS.sourceRef);
    }
    return { ref: r.ref, evidence: r.evidence ?? defaultEvidence };
  });
}
