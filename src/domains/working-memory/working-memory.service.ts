/**
 * Operational working memory: decisions, findings, blockers, handoffs and tasks of one agent in
 * one continuity scope. Every read hides expired records (pinned ones never expire when read);
 * every change is revision-checked in one statement and appends a `working` event in the same
 * transaction.
 */
import { and, asc, desc, eq, getTableColumns, gt, inArray, lt, lte, or, sql, type SQL } from 'drizzle-orm';
import type { Db, DbOrTx } from '../../db/database.js';
import type { Clock } from '../../lib/clock.js';
import { expiryAfter, expiryAfterSql } from '../../lib/expiry.js';
import { ForbiddenError, NotFoundError, RevisionConflictError, ValidationError } from '../../lib/errors.js';
import type { FaultInjector } from '../../lib/faults.js';
import { newId } from '../../lib/ids.js';
import { charLength, escapeLike } from '../../lib/text.js';
import { assertCleanText } from '../../lib/text-policy.js';
import { actorOf, type Actor, type Viewer } from '../../auth/viewer.js';
import { resolveRuntime, type RuntimeContext } from '../../auth/runtime.js';
import { appendEvent } from '../../events/events.service.js';
import { WORKING_LIMITS, workingRecords, type WorkingKind, type WorkingState } from './working-memory.sql.js';
import { forExistingAgent } from '../../db/foreign-keys.js';
import { globalIdOf, workingRecordNodeKey } from '../../schema/node-keys.js';

export type WorkingRecordRow = typeof workingRecords.$inferSelect;

export interface ScopeArgs {
  agentId?: string | null;
  project?: string | null;
}

export interface WorkingWriteInput extends ScopeArgs {
  /** Rewrite this record (with expectedRevision); absent: create a new one. */
  id?: string | null;
  expectedRevision?: number | null;
  kind: WorkingKind;
  state?: WorkingState | null;
  title: string;
  content: string;
  sourceRefs?: string[] | null;
  pinned?: boolean | null;
  ttlDays?: number | null;
  supersededById?: string | null;
}

export interface WorkingStateInput extends ScopeArgs {
  id: string;
  expectedRevision: number;
  state: WorkingState;
  supersededById?: string | null;
}

export interface WorkingListFilter extends ScopeArgs {
  kind?: WorkingKind | null;
  state?: WorkingState | null;
  /** Any of these kinds (the list's filter); empty or absent: every kind. */
  kinds?: readonly WorkingKind[] | null;
  states?: readonly WorkingState[] | null;
}

export class WorkingMemoryService {
  constructor(
    private readonly db: Db,
    private readonly clock: Clock,
    private readonly faults: FaultInjector,
    private readonly defaultTtlDays: number,
  ) {}

  /** Pinned records bypass expiry; others are visible until their expiry instant. */
  private visible(now: Date): SQL {
    return or(eq(workingRecords.pinned, true), gt(workingRecords.expiresAt, now))!;
  }

  /** Operator-written records are operator-owned: agents cannot rewrite them or change their state. */
  private writableBy(actor: Actor): SQL | undefined {
    return actor.kind === 'AGENT' ? sql`${workingRecords.writtenByKind} <> 'OPERATOR'` : undefined;
  }

  private inScope(runtime: RuntimeContext): SQL {
    return and(eq(workingRecords.agentId, runtime.agentId), eq(workingRecords.project, runtime.scope))!;
  }

  async write(viewer: Viewer | null, input: WorkingWriteInput): Promise<WorkingRecordRow> {
    const runtime = resolveRuntime(viewer, input);
    validateMaterial(input);
    if (input.id == null) {
      if (input.expectedRevision != null) throw new ValidationError('expectedRevision', 'expectedRevision applies only to a rewrite (give recordId)');
      return this.create(runtime, input);
    }
    if (input.expectedRevision == null) throw new ValidationError('expectedRevision', 'rewriting a record needs expectedRevision (its current revision)', 1);
    validateRevision(input.expectedRevision);
    return this.rewrite(runtime, { ...input, id: input.id, expectedRevision: input.expectedRevision });
  }

  private async create(runtime: RuntimeContext, input: WorkingWriteInput): Promise<WorkingRecordRow> {
    const now = this.clock.now();
    const ttlDays = input.ttlDays ?? this.defaultTtlDays;
    const state = input.state ?? 'ACTIVE';
    const actor = actorOf(runtime.viewer);
    const id = newId();
    return forExistingAgent(runtime.agentId, () =>
      this.db.transaction(async (tx) => {
        if (state === 'SUPERSEDED') await this.requireSuperseding(tx, runtime, id, input.supersededById!, now);
        const [row] = await tx
          .insert(workingRecords)
          .values({
            agentId: runtime.agentId,
            id,
            project: runtime.scope,
            sessionId: runtime.sessionId,
            conversationId: runtime.conversationId,
            kind: input.kind,
            state,
            title: input.title,
            content: input.content,
            sourceRefs: input.sourceRefs ?? [],
            pinned: input.pinned ?? false,
            ttlDays,
            expiresAt: expiryAfter(now, ttlDays),
            supersededBy: state === 'SUPERSEDED' ? input.supersededById! : null,
            revision: 1,
            createdAt: now,
            updatedAt: now,
            writtenByKind: actor.kind,
            writtenById: actor.id,
          })
          .returning();
        this.faults('working.after_write');
        await this.event(tx, row, 'working.created');
        return row;
      }),
    );
  }

  /**
   * One statement decides everything: whether the revision matches, whether the material
   * changed, and so whether expiry is kept (unchanged) or recomputed from ttlDays (changed).
   * An unchanged rewrite changes nothing at all: same revision, same timestamps, no event.
   */
  private async rewrite(runtime: RuntimeContext, input: WorkingWriteInput & { id: string; expectedRevision: number }): Promise<WorkingRecordRow> {
    const now = this.clock.now();
    const actor = actorOf(runtime.viewer);
    const w = workingRecords;
    return this.db.transaction(async (tx) => {
      const newState = sql`COALESCE(${input.state ?? null}::text, ${w.state})`;
      if (input.state === 'SUPERSEDED') await this.requireSuperseding(tx, runtime, input.id, input.supersededById!, now);
      const newRefs = input.sourceRefs == null ? sql`${w.sourceRefs}` : sql`${toTextArray(input.sourceRefs)}`;
      const newPinned = sql`COALESCE(${input.pinned ?? null}::boolean, ${w.pinned})`;
      const newSuperseded = sql`CASE WHEN ${newState} = 'SUPERSEDED' THEN COALESCE(${input.supersededById ?? null}::text, ${w.supersededBy}) ELSE NULL END`;
      const newTtl = sql`COALESCE(${input.ttlDays ?? null}::integer, ${w.ttlDays})`;
      const changed = sql`((${input.kind}::text, ${input.title}::text, ${input.content}::text, ${newState}, ${newRefs}, ${newPinned}, ${newSuperseded}, ${newTtl})
        IS DISTINCT FROM (${w.kind}, ${w.title}, ${w.content}, ${w.state}, ${w.sourceRefs}, ${w.pinned}, ${w.supersededBy}, ${w.ttlDays}))`;
      const [updated] = await tx
        .update(w)
        .set({
          kind: input.kind,
          title: input.title,
          content: input.content,
          state: sql`${newState}`,
          sourceRefs: sql`${newRefs}`,
          pinned: sql`${newPinned}`,
          supersededBy: sql`${newSuperseded}`,
          ttlDays: sql`${newTtl}`,
          expiresAt: sql`CASE WHEN ${changed} THEN ${expiryAfterSql(now, newTtl)} ELSE ${w.expiresAt} END`,
          revision: sql`CASE WHEN ${changed} THEN ${w.revision} + 1 ELSE ${w.revision} END`,
          updatedAt: sql`CASE WHEN ${changed} THEN ${now}::timestamptz ELSE ${w.updatedAt} END`,
          writtenByKind: sql`CASE WHEN ${changed} THEN ${actor.kind}::text ELSE ${w.writtenByKind} END`,
          writtenById: sql`CASE WHEN ${changed} THEN ${actor.id}::text ELSE ${w.writtenById} END`,
        })
        .where(and(this.inScope(runtime), eq(w.id, input.id), eq(w.revision, input.expectedRevision), this.visible(now), this.writableBy(actor)))
        .returning();
      if (!updated) throw await this.explainMiss(tx, runtime, input.id, input.expectedRevision, now, actor);
      this.faults('working.after_write');
      if (updated.revision !== input.expectedRevision) await this.event(tx, updated, 'working.updated');
      return updated;
    });
  }

  /** An explicit state change (resolve, supersede with its link, or back to active). Expiry is kept. */
  async setState(viewer: Viewer | null, input: WorkingStateInput): Promise<WorkingRecordRow> {
    const runtime = resolveRuntime(viewer, input);
    validateRevision(input.expectedRevision);
    validateSupersedeLink(input.state, input.supersededById);
    assertCleanText('id', input.id);
    assertCleanText('supersededById', input.supersededById);
    const now = this.clock.now();
    const actor = actorOf(runtime.viewer);
    const w = workingRecords;
    return this.db.transaction(async (tx) => {
      if (input.state === 'SUPERSEDED') await this.requireSuperseding(tx, runtime, input.id, input.supersededById!, now);
      const [updated] = await tx
        .update(w)
        .set({
          state: input.state,
          supersededBy: input.state === 'SUPERSEDED' ? input.supersededById! : null,
          revision: sql`${w.revision} + 1`,
          updatedAt: now,
          writtenByKind: actor.kind,
          writtenById: actor.id,
        })
        .where(and(this.inScope(runtime), eq(w.id, input.id), eq(w.revision, input.expectedRevision), this.visible(now), this.writableBy(actor)))
        .returning();
      if (!updated) throw await this.explainMiss(tx, runtime, input.id, input.expectedRevision, now, actor);
      const type = input.state === 'RESOLVED' ? 'working.resolved' : input.state === 'SUPERSEDED' ? 'working.superseded' : 'working.reactivated';
      await this.event(tx, updated, type);
      return updated;
    });
  }

  async get(viewer: Viewer | null, input: ScopeArgs & { id: string }): Promise<WorkingRecordRow | null> {
    return this.getInScope(resolveRuntime(viewer, input), input.id);
  }

  /** One visible record of an already authorized agent and scope (node(id:)). */
  async getInScope(runtime: RuntimeContext, id: string): Promise<WorkingRecordRow | null> {
    assertCleanText('id', id);
    const [row] = await this.db
      .select()
      .from(workingRecords)
      .where(and(this.inScope(runtime), eq(workingRecords.id, id), this.visible(this.clock.now())));
    return row ?? null;
  }

  /**
   * Lexical search over title and content of the current agent and scope: every whitespace-
   * separated term must occur (case-insensitive substring); title hits rank first, then the most
   * recently updated. At most 10 results.
   */
  async search(viewer: Viewer | null, input: WorkingListFilter & { query?: string | null; first?: number | null }): Promise<WorkingRecordRow[]> {
    const runtime = resolveRuntime(viewer, input);
    const limit = input.first ?? WORKING_LIMITS.search;
    if (!Number.isInteger(limit) || limit < 1 || limit > WORKING_LIMITS.search) {
      throw new ValidationError('first', `search returns 1 to ${WORKING_LIMITS.search} results`, WORKING_LIMITS.search);
    }
    const query = (input.query ?? '').trim();
    assertCleanText('query', query);
    if (charLength(query) > WORKING_LIMITS.query) throw new ValidationError('query', `the query is bounded to ${WORKING_LIMITS.query} characters`, WORKING_LIMITS.query);
    const terms = query.split(/\s+/).filter(Boolean).slice(0, 16);
    const text = sql`(${workingRecords.title} || ' ' || ${workingRecords.content})`;
    const conditions: SQL[] = [this.inScope(runtime), this.visible(this.clock.now()), ...this.filters(input)];
    for (const term of terms) conditions.push(sql`${text} ILIKE ${`%${escapeLike(term)}%`}`);
    const order = [desc(workingRecords.updatedAt), desc(workingRecords.id)];
    if (query) order.unshift(desc(sql`(${workingRecords.title} ILIKE ${`%${escapeLike(query)}%`})`));
    return this.db
      .select()
      .from(workingRecords)
      .where(and(...conditions))
      .orderBy(...order)
      .limit(limit);
  }

  /** Newest first, keyset on (created_at, id); the caller fetches limit + 1 to know about a next page. */
  async list(
    viewer: Viewer | null,
    input: WorkingListFilter & { limit: number; after: { createdAt: Date; id: string } | null },
  ): Promise<{ runtime: RuntimeContext; rows: WorkingRecordRow[] }> {
    const runtime = resolveRuntime(viewer, input);
    const conditions: SQL[] = [this.inScope(runtime), this.visible(this.clock.now()), ...this.filters(input)];
    if (input.after) {
      conditions.push(or(lt(workingRecords.createdAt, input.after.createdAt), and(eq(workingRecords.createdAt, input.after.createdAt), lt(workingRecords.id, input.after.id)))!);
    }
    const rows = await this.db
      .select()
      .from(workingRecords)
      .where(and(...conditions))
      .orderBy(desc(workingRecords.createdAt), desc(workingRecords.id))
      .limit(input.limit);
    return { runtime, rows };
  }

  /**
   * The same list for several agents in one statement (Agent.workingRecords): each agent is
   * authorized and scoped as `list` does (an error in its place when it may not be read), then a
   * window per agent keeps `limit` rows of each (callers pass +1).
   */
  async listPages(
    viewer: Viewer | null,
    agentIds: readonly string[],
    input: Omit<WorkingListFilter, 'agentId'> & { limit: number; afterOf: (runtime: RuntimeContext) => { createdAt: Date; id: string } | null },
  ): Promise<({ runtime: RuntimeContext; rows: WorkingRecordRow[] } | Error)[]> {
    const results: ({ runtime: RuntimeContext; rows: WorkingRecordRow[] } | Error)[] = [];
    const readable: { index: number; runtime: RuntimeContext; after: { createdAt: Date; id: string } | null }[] = [];
    agentIds.forEach((agentId, index) => {
      try {
        const runtime = resolveRuntime(viewer, { agentId, project: input.project });
        readable.push({ index, runtime, after: input.afterOf(runtime) });
      } catch (error) {
        results[index] = error as Error;
      }
    });
    if (readable.length === 0) return results;
    const w = workingRecords;
    // Every readable agent shares the viewer's scope, and one `after` cursor belongs to one agent.
    const { scope } = readable[0].runtime;
    const after = readable.find((r) => r.after)?.after ?? null;
    const conditions: SQL[] = [
      inArray(
        w.agentId,
        readable.map((r) => r.runtime.agentId),
      ),
      eq(w.project, scope),
      this.visible(this.clock.now()),
      ...this.filters(input),
    ];
    if (after) conditions.push(or(lt(w.createdAt, after.createdAt), and(eq(w.createdAt, after.createdAt), lt(w.id, after.id)))!);
    const ranked = this.db
      .select({ ...getTableColumns(w), position: sql<number>`row_number() OVER (PARTITION BY ${w.agentId} ORDER BY ${w.createdAt} DESC, ${w.id} DESC)`.as('position') })
      .from(w)
      .where(and(...conditions))
      .as('ranked');
    const rows = await this.db.select().from(ranked).where(lte(ranked.position, input.limit)).orderBy(asc(ranked.position));
    for (const { index, runtime } of readable) {
      results[index] = { runtime, rows: rows.filter((r) => r.agentId === runtime.agentId).map(({ position: _position, ...row }) => row as WorkingRecordRow) };
    }
    return results;
  }

  /** Records by agent and id, visible ones only, in the order asked (the supersededBy link). */
  async byKeys(keys: readonly { agentId: string; id: string }[]): Promise<(WorkingRecordRow | null)[]> {
    if (keys.length === 0) return [];
    const w = workingRecords;
    const rows = await this.db
      .select()
      .from(w)
      .where(and(or(...keys.map((k) => and(eq(w.agentId, k.agentId), eq(w.id, k.id)))), this.visible(this.clock.now())));
    return keys.map((k) => rows.find((r) => r.agentId === k.agentId && r.id === k.id) ?? null);
  }

  /** Physically removes unpinned records whose expiry passed before `cutoff` (retention). */
  async sweepExpired(cutoff: Date): Promise<number> {
    const removed = await this.db
      .delete(workingRecords)
      .where(and(eq(workingRecords.pinned, false), lt(workingRecords.expiresAt, cutoff)))
      .returning({ id: workingRecords.id });
    return removed.length;
  }

  private filters(input: WorkingListFilter): SQL[] {
    const conditions: SQL[] = [];
    if (input.kind) conditions.push(eq(workingRecords.kind, input.kind));
    if (input.state) conditions.push(eq(workingRecords.state, input.state));
    if (input.kinds?.length) conditions.push(inArray(workingRecords.kind, [...input.kinds]));
    if (input.states?.length) conditions.push(inArray(workingRecords.state, [...input.states]));
    return conditions;
  }

  private async requireSuperseding(tx: DbOrTx, runtime: RuntimeContext, id: string, supersededById: string, now: Date) {
    if (supersededById === id) throw new ValidationError('supersededById', 'a record cannot supersede itself');
    const [target] = await tx
      .select({ id: workingRecords.id })
      .from(workingRecords)
      .where(and(this.inScope(runtime), eq(workingRecords.id, supersededById), this.visible(now)));
    if (!target) throw new ValidationError('supersededById', `the superseding record ${supersededById} does not exist in this agent's scope`);
  }

  private async explainMiss(tx: DbOrTx, runtime: RuntimeContext, id: string, expectedRevision: number, now: Date, actor: Actor) {
    const [current] = await tx
      .select()
      .from(workingRecords)
      .where(and(this.inScope(runtime), eq(workingRecords.id, id), this.visible(now)));
    if (!current) return new NotFoundError('WorkingRecord', id);
    if (actor.kind === 'AGENT' && current.writtenByKind === 'OPERATOR') {
      return new ForbiddenError('OPERATOR_OWNED', `working record ${id} was written by an operator; an agent cannot change it`);
    }
    return new RevisionConflictError('WorkingRecord', id, expectedRevision, current.revision, current.content, serialize(current));
  }

  private async event(tx: DbOrTx, row: WorkingRecordRow, type: string) {
    await appendEvent(tx, this.clock, {
      agentId: row.agentId,
      stream: 'working',
      type,
      subjectId: row.id,
      project: row.project,
      payload: { revision: row.revision, kind: row.kind, state: row.state, pinned: row.pinned, expiresAt: row.expiresAt.toISOString(), supersededBy: row.supersededBy },
    });
  }
}

/** A conflict's current record, under WorkingRecord's names: `recordId` the short id, `id` the global id. */
function serialize(row: WorkingRecordRow) {
  return {
    id: globalIdOf('WorkingRecord', workingRecordNodeKey(row)),
    recordId: row.id,
    kind: row.kind,
    state: row.state,
    title: row.title,
    content: row.content,
    sourceRefs: row.sourceRefs,
    pinned: row.pinned,
    revision: row.revision,
    expiresAt: row.expiresAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
  };
}

function validateMaterial(input: WorkingWriteInput) {
  assertCleanText('title', input.title);
  assertCleanText('content', input.content);
  assertCleanText('id', input.id);
  assertCleanText('supersededById', input.supersededById);
  input.sourceRefs?.forEach((ref, index) => assertCleanText(`sourceRefs.${index}`, ref));
  const title = charLength(input.title);
  if (input.title.trim().length === 0) throw new ValidationError('title', 'title must not be empty', WORKING_LIMITS.title);
  if (title > WORKING_LIMITS.title) throw new ValidationError('title', `title is bounded to ${WORKING_LIMITS.title} characters (got ${title})`, WORKING_LIMITS.title);
  const content = charLength(input.content);
  if (content > WORKING_LIMITS.content) throw new ValidationError('content', `content is bounded to ${WORKING_LIMITS.content} characters (got ${content})`, WORKING_LIMITS.content);
  validateRefs(input.sourceRefs);
  if (input.ttlDays != null && (!Number.isInteger(input.ttlDays) || input.ttlDays < WORKING_LIMITS.ttlMin || input.ttlDays > WORKING_LIMITS.ttlMax)) {
    throw new ValidationError('ttlDays', `ttlDays must be a whole number from ${WORKING_LIMITS.ttlMin} to ${WORKING_LIMITS.ttlMax} (got ${input.ttlDays})`, WORKING_LIMITS.ttlMax);
  }
  if (input.state != null || input.supersededById != null) validateSupersedeLink(input.state ?? 'ACTIVE', input.supersededById);
}

function validateRefs(refs: string[] | null | undefined) {
  if (refs == null) return;
  if (refs.length > WORKING_LIMITS.sourceRefs) {
    throw new ValidationError('sourceRefs', `at most ${WORKING_LIMITS.sourceRefs} source references (got ${refs.length})`, WORKING_LIMITS.sourceRefs);
  }
  refs.forEach((ref, index) => {
    const length = charLength(ref);
    if (ref.trim().length === 0 || length > WORKING_LIMITS.sourceRef) {
      throw new ValidationError(`sourceRefs.${index}`, `each source reference is 1 to ${WORKING_LIMITS.sourceRef} characters`, WORKING_LIMITS.sourceRef);
    }
  });
}

function validateSupersedeLink(state: WorkingState, supersededById: string | null | undefined) {
  if (state === 'SUPERSEDED' && !supersededById) {
    throw new ValidationError('supersededById', 'superseding a record needs the id of the record that supersedes it');
  }
  if (state !== 'SUPERSEDED' && supersededById) {
    throw new ValidationError('supersededById', 'supersededById is only valid with state SUPERSEDED');
  }
}

function validateRevision(revision: number) {
  if (!Number.isInteger(revision) || revision < 1) throw new ValidationError('expectedRevision', 'expectedRevision must be a positive integer', 1);
}

/** A text[] built in SQL from one JSON parameter (Drizzle would spread a JS array into a list). */
function toTextArray(items: string[]): SQL {
  return sql`ARRAY(SELECT jsonb_array_elements_text(${JSON.stringify(items)}::jsonb))::text[]`;
}
