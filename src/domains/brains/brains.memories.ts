/**
 * Brains memories: one owning agent per memory, revision-checked edits in one statement,
 * tombstones instead of erasure, operator ownership, and the revision history of each memory.
 */
import { and, eq, inArray, sql, type SQL } from 'drizzle-orm';
import type { Db, DbOrTx } from '../../db/database.js';
import type { Clock } from '../../lib/clock.js';
import { ForbiddenError, NotFoundError, RevisionConflictError, ValidationError } from '../../lib/errors.js';
import type { FaultInjector } from '../../lib/faults.js';
import { newId } from '../../lib/ids.js';
import { actorOf, resolveActingAgent, type Actor, type Viewer } from '../../auth/viewer.js';
import { appendEvent, preparedEventWrite, type EventWriteBuilder } from '../../events/events.service.js';
import { idempotent } from '../../db/idempotency.js';
import { encodeResult, requestHash } from '../../db/idempotency.encoding.js';
import { brainMemories, brainMemoryRevisions } from './brains.sql.js';
import { forExistingAgent } from '../../db/foreign-keys.js';
import { brainMemoryNodeKey, globalIdOf } from '../../schema/node-keys.js';
import { DELETE_BATCH_MAX, type BrainMemoryRow, type BrainRevisionRow, type DeletionResult, type SaveInput, type UpdateInput } from './brains.types.js';
import { validateContent, validateRevision, validateSourceRefs, validateTitle } from './brains.validation.js';
import { SaveBatcher } from './brains.save-batch.js';
import { brainEvent, emitBrainEvent, insertNewMemory, insertRevision, recordRevision } from './brains.writes.js';

type SaveValue = 'agentId' | 'id' | 'title' | 'content' | 'sourceRefs' | 'ownership' | 'actorKind' | 'actorId' | 'now';

/**
 * The save's one statement: the memory, its first revision, the sequence bump and the event (the
 * wake-up follows its commit). The writes bench replays the same statement through pgbench.
 */
export const brainSaveStatement =
  (db: Db): EventWriteBuilder<SaveValue> =>
  (p) => {
    // What the memory and its first revision share, as the keyed save's transaction writes them too.
    const values = {
      agentId: p('agentId'),
      title: p('title'),
      content: p('content'),
      sourceRefs: p('sourceRefs'),
      ownership: p('ownership'),
      actorKind: p('actorKind'),
      actorId: p('actorId'),
    };
    return {
      alongside: [
        insertNewMemory(db, { ...values, id: p('id'), createdAt: p('now'), updatedAt: p('now') }).getSQL(),
        insertRevision(db, { ...values, memoryId: p('id'), revision: 1, action: 'created', createdAt: p('now') }).getSQL(),
      ],
      event: { agentId: p('agentId'), stream: 'brain', type: 'brain.created', subjectId: p('id'), project: null },
    };
  };

export class BrainMemories {
  /**
   * A lone save's one statement (the memory, its first revision, the sequence bump, the event and
   * the wake-up), built once: saves are the hottest write, and building it each time was a tenth
   * of a save's CPU. Used for the saves a batch leaves to be written alone. No BEGIN/COMMIT: one
   * statement is atomic by itself, and its NOTIFY is still delivered only once it has committed.
   */
  private readonly saveStatement;
  /** Saves that arrive together share a statement (brains.save-batch.ts); one its batch could not write runs as the one above. */
  readonly saves: SaveBatcher;

  constructor(
    private readonly db: Db,
    private readonly clock: Clock,
    private readonly faults: FaultInjector,
  ) {
    this.saveStatement = preparedEventWrite(db, 'burrow_brain_save', brainSaveStatement(db));
    this.saves = new SaveBatcher(db);
  }

  // ---------------------------------------------------------------- writes

  async save(viewer: Viewer | null, input: SaveInput): Promise<BrainMemoryRow> {
    const { viewer: v, agentId } = resolveActingAgent(viewer, input.agentId);
    const title = validateTitle(input.title);
    const content = validateContent(input.content);
    const sourceRefs = validateSourceRefs(input.sourceRefs ?? []);
    const actor = actorOf(v);
    const now = this.clock.now();
    const memory: BrainMemoryRow = {
      agentId,
      id: newId(),
      title,
      content,
      sourceRefs,
      revision: 1,
      ownership: actor.kind,
      createdByKind: actor.kind,
      createdById: actor.id,
      updatedByKind: actor.kind,
      updatedById: actor.id,
      createdAt: now,
      updatedAt: now,
      deletedAt: null,
      label: null,
      legacyKnowledgeId: null,
      importedRevision: null,
      legacy: null,
      purgedAt: null,
      purgedByKind: null,
      purgedById: null,
    };
    const event = brainEvent(memory, 'brain.created', actor);
    const request = { agentId, title, content, sourceRefs };
    const key = input.idempotencyKey;
    return this.saves.write({
      memory,
      payload: event.payload,
      claim: key == null ? null : { key, tokenId: v.tokenId, requestHash: requestHash('brainSave', request), result: encodeResult(memory) },
      alone: async () => {
        if (key != null) {
          // In the key's transaction (db/idempotency.ts): the same rows and event through it.
          return idempotent(this.db, this.clock, { key, operation: 'brainSave', agentId, tokenId: v.tokenId, request }, async (tx) => {
            const values = { agentId, title, content, sourceRefs, ownership: actor.kind, actorKind: actor.kind, actorId: actor.id };
            await appendEvent(tx, this.clock, event, [
              insertNewMemory(tx, { ...values, id: memory.id, createdAt: now, updatedAt: now }).getSQL(),
              insertRevision(tx, { ...values, memoryId: memory.id, revision: 1, action: 'created', createdAt: now }).getSQL(),
            ]);
            return memory;
          });
        }
        // Every value is known here, so nothing is read back (the revision's key to the memory is
        // checked at the statement's end, when both exist).
        await forExistingAgent(agentId, () =>
          this.saveStatement(this.clock, {
            agentId,
            id: memory.id,
            title,
            content,
            sourceRefs,
            ownership: actor.kind,
            actorKind: actor.kind,
            actorId: actor.id,
            now,
            payload: JSON.stringify(event.payload),
          }),
        );
        return memory;
      },
    });
  }

  async update(viewer: Viewer | null, input: UpdateInput): Promise<BrainMemoryRow> {
    const { viewer: v, agentId } = resolveActingAgent(viewer, input.agentId);
    validateRevision(input.expectedRevision);
    const changes: Partial<Pick<BrainMemoryRow, 'title' | 'content' | 'sourceRefs'>> = {};
    if (input.title != null) changes.title = validateTitle(input.title);
    if (input.content != null) changes.content = validateContent(input.content);
    if (input.sourceRefs != null) changes.sourceRefs = validateSourceRefs(input.sourceRefs);
    if (Object.keys(changes).length === 0) throw new ValidationError('input', 'an update needs at least one of title, content or sourceRefs');
    const actor = actorOf(v);
    return this.db.transaction(async (tx) => {
      const now = this.clock.now();
      const [memory] = await tx
        .update(brainMemories)
        .set({
          ...changes,
          revision: sql`${brainMemories.revision} + 1`,
          ownership: actor.kind === 'OPERATOR' ? 'OPERATOR' : sql`${brainMemories.ownership}`,
          updatedAt: now,
          updatedByKind: actor.kind,
          updatedById: actor.id,
        })
        .where(this.writable(agentId, input.id, input.expectedRevision, actor))
        .returning();
      if (!memory) throw await this.explainRejectedWrite(tx, agentId, input.id, input.expectedRevision, actor);
      await recordRevision(tx, memory, 'updated', actor);
      this.faults('brains.update.after_revision');
      await emitBrainEvent(tx, this.clock, memory, 'brain.updated', actor);
      return memory;
    });
  }

  async remove(viewer: Viewer | null, input: { agentId?: string | null; id: string; expectedRevision: number }): Promise<BrainMemoryRow> {
    const { viewer: v, agentId } = resolveActingAgent(viewer, input.agentId);
    validateRevision(input.expectedRevision);
    return this.removeOne(agentId, input.id, input.expectedRevision, actorOf(v));
  }

  /**
   * Each item is removed in its own transaction: a conflict on one never undoes another. A
   * selected page is exactly the ids given, never "all memories".
   */
  async deleteMany(viewer: Viewer | null, input: { agentId: string; items: { id: string; expectedRevision: number }[] }): Promise<DeletionResult[]> {
    const { viewer: v, agentId } = resolveActingAgent(viewer, input.agentId);
    if (input.items.length === 0) throw new ValidationError('items', 'select at least one memory to delete', 1);
    if (input.items.length > DELETE_BATCH_MAX) {
      throw new ValidationError('items', `at most ${DELETE_BATCH_MAX} memories per request (got ${input.items.length})`, DELETE_BATCH_MAX);
    }
    const actor = actorOf(v);
    const results: DeletionResult[] = [];
    for (const item of input.items) {
      try {
        validateRevision(item.expectedRevision);
        const memory = await this.removeOne(agentId, item.id, item.expectedRevision, actor);
        results.push({ id: item.id, status: 'DELETED', message: `removed at revision ${memory.revision}`, currentRevision: memory.revision, memory });
      } catch (error) {
        if (error instanceof NotFoundError) results.push({ id: item.id, status: 'NOT_FOUND', message: error.message, currentRevision: null, memory: null });
        else if (error instanceof RevisionConflictError) {
          results.push({ id: item.id, status: 'REVISION_CONFLICT', message: error.message, currentRevision: error.currentRevision, memory: null });
        } else if (error instanceof ForbiddenError) results.push({ id: item.id, status: 'FORBIDDEN', message: error.message, currentRevision: null, memory: null });
        else if (error instanceof ValidationError) results.push({ id: item.id, status: 'INVALID', message: error.message, currentRevision: null, memory: null });
        else throw error;
      }
    }
    return results;
  }

  private async removeOne(agentId: string, id: string, expectedRevision: number, actor: Actor): Promise<BrainMemoryRow> {
    return this.db.transaction(async (tx) => {
      const now = this.clock.now();
      const [memory] = await tx
        .update(brainMemories)
        .set({
          revision: sql`${brainMemories.revision} + 1`,
          deletedAt: now,
          ownership: actor.kind === 'OPERATOR' ? 'OPERATOR' : sql`${brainMemories.ownership}`,
          updatedAt: now,
          updatedByKind: actor.kind,
          updatedById: actor.id,
        })
        .where(this.writable(agentId, id, expectedRevision, actor))
        .returning();
      if (!memory) throw await this.explainRejectedWrite(tx, agentId, id, expectedRevision, actor);
      await recordRevision(tx, memory, 'removed', actor);
      this.faults('brains.remove.after_revision');
      await emitBrainEvent(tx, this.clock, memory, 'brain.removed', actor);
      return memory;
    });
  }

  /** The whole revision check (revision, tombstone, ownership) in the UPDATE's WHERE. */
  private writable(agentId: string, id: string, expectedRevision: number, actor: Actor): SQL {
    return and(
      eq(brainMemories.agentId, agentId),
      eq(brainMemories.id, id),
      eq(brainMemories.revision, expectedRevision),
      sql`${brainMemories.deletedAt} IS NULL`,
      actor.kind === 'AGENT' ? eq(brainMemories.ownership, 'AGENT') : undefined,
    )!;
  }

  /** Only after the UPDATE matched nothing: one read tells which rule refused it. */
  private async explainRejectedWrite(tx: DbOrTx, agentId: string, id: string, expectedRevision: number, actor: Actor): Promise<Error> {
    const [current] = await tx
      .select()
      .from(brainMemories)
      .where(and(eq(brainMemories.agentId, agentId), eq(brainMemories.id, id)));
    if (!current) return new NotFoundError('BrainMemory', id);
    if (current.deletedAt) {
      const error = new NotFoundError('BrainMemory', id);
      error.message = `BrainMemory ${id} was removed (tombstone at revision ${current.revision})`;
      return error;
    }
    if (actor.kind === 'AGENT' && current.ownership === 'OPERATOR') {
      return new ForbiddenError('OPERATOR_OWNED', `BrainMemory ${id} is operator-owned: an agent may not update or remove it`);
    }
    // The current memory under BrainMemory's names: `memoryId` the short id, `id` the global id.
    return new RevisionConflictError('BrainMemory', id, expectedRevision, current.revision, current.content, {
      id: globalIdOf('BrainMemory', brainMemoryNodeKey(current)),
      memoryId: current.id,
      title: current.title,
      content: current.content,
      sourceRefs: current.sourceRefs,
      revision: current.revision,
      ownership: current.ownership,
      updatedAt: current.updatedAt.toISOString(),
    });
  }

  // ---------------------------------------------------------------- reads

  /** A live memory of the acting agent, or null (unknown or removed). */
  async read(viewer: Viewer | null, input: { agentId?: string | null; id: string }): Promise<BrainMemoryRow | null> {
    const { agentId } = resolveActingAgent(viewer, input.agentId);
    const [row] = await this.db
      .select()
      .from(brainMemories)
      .where(and(eq(brainMemories.agentId, agentId), eq(brainMemories.id, input.id), sql`${brainMemories.deletedAt} IS NULL`));
    return row ?? null;
  }

  /** One revision of a live memory of the acting agent, or null (unknown, or its memory removed, as brainRead). */
  async readRevision(viewer: Viewer | null, input: { agentId: string; memoryId: string; revision: number }): Promise<BrainRevisionRow | null> {
    const { agentId } = resolveActingAgent(viewer, input.agentId);
    const [row] = await this.db
      .select({ revision: brainMemoryRevisions })
      .from(brainMemoryRevisions)
      .innerJoin(brainMemories, and(eq(brainMemories.agentId, brainMemoryRevisions.agentId), eq(brainMemories.id, brainMemoryRevisions.memoryId)))
      .where(
        and(
          eq(brainMemoryRevisions.agentId, agentId),
          eq(brainMemoryRevisions.memoryId, input.memoryId),
          eq(brainMemoryRevisions.revision, input.revision),
          sql`${brainMemories.deletedAt} IS NULL`,
        ),
      );
    return row?.revision ?? null;
  }

  /**
   * Revisions of many memories in one statement (the DataLoader batch), newest first: the newest
   * `limit` up to revision `upTo`, the revision of the memory as it was read (as of `asOf` too).
   */
  async revisionsFor(keys: readonly { agentId: string; memoryId: string; upTo: number }[], limit: number): Promise<BrainRevisionRow[][]> {
    if (keys.length === 0) return [];
    const r = brainMemoryRevisions;
    const [agentIds, memoryIds, upTo] = [keys.map((k) => k.agentId), keys.map((k) => k.memoryId), keys.map((k) => k.upTo)];
    // Revisions of a memory are gap-free (1..current), so "the newest N up to upTo" is a range on
    // revision; the IN lists let the primary key find the memories' rows.
    const rows = await this.db
      .select()
      .from(r)
      .where(
        and(
          inArray(r.agentId, [...new Set(agentIds)]),
          inArray(r.memoryId, [...new Set(memoryIds)]),
          sql`EXISTS (SELECT 1 FROM unnest(${sql.param(agentIds)}::text[], ${sql.param(memoryIds)}::text[], ${sql.param(upTo)}::int[]) AS k(agent_id, memory_id, up_to)
            WHERE k.agent_id = ${r.agentId} AND k.memory_id = ${r.memoryId} AND ${r.revision} <= k.up_to AND ${r.revision} > k.up_to - ${limit})`,
        ),
      );
    const byKey = new Map<string, BrainRevisionRow[]>();
    for (const row of rows) {
      const key = `${row.agentId}/${row.memoryId}`;
      if (!byKey.has(key)) byKey.set(key, []);
      byKey.get(key)!.push(row);
    }
    return keys.map((k) =>
      (byKey.get(`${k.agentId}/${k.memoryId}`) ?? []).filter((row) => row.revision <= k.upTo && row.revision > k.upTo - limit).sort((a, b) => b.revision - a.revision),
    );
  }
}
