/**
 * The writes of working memory: create, revision-checked rewrite and state change, each one
 * statement that appends a `working` event in the same transaction, and the retention sweep.
 */
import { and, eq, lt, sql, type SQL } from 'drizzle-orm';
import type { DbOrTx } from '../../db/database.js';
import { expiryAfter, expiryAfterSql } from '../../lib/expiry.js';
import { ForbiddenError, NotFoundError, RevisionConflictError, ValidationError } from '../../lib/errors.js';
import { newId } from '../../lib/ids.js';
import { assertCleanText } from '../../lib/text-policy.js';
import { actorOf, type Actor, type Viewer } from '../../auth/viewer.js';
import { resolveRuntime, type RuntimeContext } from '../../auth/runtime.js';
import { appendEvent } from '../../events/events.service.js';
import { forExistingAgent } from '../../db/foreign-keys.js';
import { idempotent } from '../../db/idempotency.js';
import { globalIdOf, workingRecordNodeKey } from '../../schema/node-keys.js';
import { workingRecords } from './working-memory.sql.js';
import { inScope, visible, writableBy } from './working-memory.conditions.js';
import { validateMaterial, validateRevision, validateSupersedeLink } from './working-memory.validation.js';
import type { WorkingDeps, WorkingRecordRow, WorkingStateInput, WorkingWriteInput } from './working-memory.types.js';

export async function write(deps: WorkingDeps, viewer: Viewer | null, keyed: WorkingWriteInput): Promise<WorkingRecordRow> {
  const { idempotencyKey, ...input } = keyed;
  const runtime = resolveRuntime(viewer, input);
  validateMaterial(input);
  const { agentId, scope, sessionId, conversationId } = runtime;
  const request = { ...input, agentId, scope, sessionId, conversationId };
  return idempotent(deps.db, deps.clock, { key: idempotencyKey, operation: 'memoryWorkingWrite', agentId, tokenId: runtime.viewer.tokenId, request }, (db) =>
    createOrRewrite({ ...deps, db }, runtime, input),
  );
}

async function createOrRewrite(deps: WorkingDeps, runtime: RuntimeContext, input: WorkingWriteInput): Promise<WorkingRecordRow> {
  if (input.id == null) {
    if (input.expectedRevision != null) throw new ValidationError('expectedRevision', 'expectedRevision applies only to a rewrite (give recordId)');
    return create(deps, runtime, input);
  }
  if (input.expectedRevision == null) throw new ValidationError('expectedRevision', 'rewriting a record needs expectedRevision (its current revision)', 1);
  validateRevision(input.expectedRevision);
  return rewrite(deps, runtime, { ...input, id: input.id, expectedRevision: input.expectedRevision });
}

async function create(deps: WorkingDeps, runtime: RuntimeContext, input: WorkingWriteInput): Promise<WorkingRecordRow> {
  const now = deps.clock.now();
  const ttlDays = input.ttlDays ?? deps.defaultTtlDays;
  const state = input.state ?? 'ACTIVE';
  const actor = actorOf(runtime.viewer);
  const id = newId();
  return forExistingAgent(runtime.agentId, () =>
    deps.db.transaction(async (tx) => {
      if (state === 'SUPERSEDED') await requireSuperseding(tx, runtime, id, input.supersededById!, now);
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
      deps.faults('working.after_write');
      await event(deps, tx, row, 'working.created');
      return row;
    }),
  );
}

/**
 * One statement decides everything: whether the revision matches, whether the material
 * changed, and so whether expiry is kept (unchanged) or recomputed from ttlDays (changed).
 * An unchanged rewrite changes nothing at all: same revision, same timestamps, no event.
 */
async function rewrite(deps: WorkingDeps, runtime: RuntimeContext, input: WorkingWriteInput & { id: string; expectedRevision: number }): Promise<WorkingRecordRow> {
  const now = deps.clock.now();
  const actor = actorOf(runtime.viewer);
  const w = workingRecords;
  return deps.db.transaction(async (tx) => {
    const newState = sql`COALESCE(${input.state ?? null}::text, ${w.state})`;
    if (input.state === 'SUPERSEDED') await requireSuperseding(tx, runtime, input.id, input.supersededById!, now);
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
      .where(and(inScope(runtime), eq(w.id, input.id), eq(w.revision, input.expectedRevision), visible(now), writableBy(actor)))
      .returning();
    if (!updated) throw await explainMiss(tx, runtime, input.id, input.expectedRevision, now, actor);
    deps.faults('working.after_write');
    if (updated.revision !== input.expectedRevision) await event(deps, tx, updated, 'working.updated');
    return updated;
  });
}

/** An explicit state change (resolve, supersede with its link, or back to active). Expiry is kept. */
export async function setState(deps: WorkingDeps, viewer: Viewer | null, input: WorkingStateInput): Promise<WorkingRecordRow> {
  const runtime = resolveRuntime(viewer, input);
  validateRevision(input.expectedRevision);
  validateSupersedeLink(input.state, input.supersededById);
  assertCleanText('id', input.id);
  assertCleanText('supersededById', input.supersededById);
  const now = deps.clock.now();
  const actor = actorOf(runtime.viewer);
  const w = workingRecords;
  return deps.db.transaction(async (tx) => {
    if (input.state === 'SUPERSEDED') await requireSuperseding(tx, runtime, input.id, input.supersededById!, now);
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
      .where(and(inScope(runtime), eq(w.id, input.id), eq(w.revision, input.expectedRevision), visible(now), writableBy(actor)))
      .returning();
    if (!updated) throw await explainMiss(tx, runtime, input.id, input.expectedRevision, now, actor);
    const type = input.state === 'RESOLVED' ? 'working.resolved' : input.state === 'SUPERSEDED' ? 'working.superseded' : 'working.reactivated';
    await event(deps, tx, updated, type);
    return updated;
  });
}

/** Physically removes unpinned records whose expiry passed before `cutoff` (retention). */
export async function sweepExpired(deps: WorkingDeps, cutoff: Date): Promise<number> {
  const removed = await deps.db
    .delete(workingRecords)
    .where(and(eq(workingRecords.pinned, false), lt(workingRecords.expiresAt, cutoff)))
    .returning({ id: workingRecords.id });
  return removed.length;
}

async function requireSuperseding(tx: DbOrTx, runtime: RuntimeContext, id: string, supersededById: string, now: Date) {
  if (supersededById === id) throw new ValidationError('supersededById', 'a record cannot supersede itself');
  const [target] = await tx
    .select({ id: workingRecords.id })
    .from(workingRecords)
    .where(and(inScope(runtime), eq(workingRecords.id, supersededById), visible(now)));
  if (!target) throw new ValidationError('supersededById', `the superseding record ${supersededById} does not exist in this agent's scope`);
}

async function explainMiss(tx: DbOrTx, runtime: RuntimeContext, id: string, expectedRevision: number, now: Date, actor: Actor) {
  const [current] = await tx
    .select()
    .from(workingRecords)
    .where(and(inScope(runtime), eq(workingRecords.id, id), visible(now)));
  if (!current) return new NotFoundError('WorkingRecord', id);
  if (actor.kind === 'AGENT' && current.writtenByKind === 'OPERATOR') {
    return new ForbiddenError('OPERATOR_OWNED', `working record ${id} was written by an operator; an agent cannot change it`);
  }
  return new RevisionConflictError('WorkingRecord', id, expectedRevision, current.revision, current.content, serialize(current));
}

async function event(deps: WorkingDeps, tx: DbOrTx, row: WorkingRecordRow, type: string) {
  await appendEvent(tx, deps.clock, {
    agentId: row.agentId,
    stream: 'working',
    type,
    subjectId: row.id,
    project: row.project,
    payload: { revision: row.revision, kind: row.kind, state: row.state, pinned: row.pinned, expiresAt: row.expiresAt.toISOString(), supersededBy: row.supersededBy },
  });
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

/** A text[] built in SQL from one JSON parameter (Drizzle would spread a JS array into a list). */
function toTextArray(items: string[]): SQL {
  return sql`ARRAY(SELECT jsonb_array_elements_text(${JSON.stringify(items)}::jsonb))::text[]`;
}
