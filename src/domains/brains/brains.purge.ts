/**
 * Purging a tombstone (operators only): the memory's title, content and source references, and
 * those of every revision, are emptied; its embedding is deleted; the title is taken out of its
 * brain.* events; an imported memory's legacy copies (its `legacy` details and the Albdruck rows
 * it came from) lose their text. The fact of the memory stays: its id, revision, times, actors and
 * tombstone, with purged_at and the purging operator. Everything happens in one transaction with
 * its removal receipt, so a purge is either complete and receipted or did not happen.
 */
import { and, asc, eq, sql } from 'drizzle-orm';
import type { Db, DbOrTx } from '../../db/database.js';
import type { Clock } from '../../lib/clock.js';
import type { FaultInjector } from '../../lib/faults.js';
import { NotFoundError, ValidationError } from '../../lib/errors.js';
import { actorOf, requireOperator, type Actor, type Viewer } from '../../auth/viewer.js';
import { appendEvent } from '../../events/events.service.js';
import { agentEvents } from '../../events/events.sql.js';
import { completeReceipt, openReceipt, receiptOfSubject, recordRemovedBatch, type DataRemovalReceiptRow, type ReceiptKey } from '../data-rights/data-rights.receipts.js';
import { albdruckEvidence, albdruckKnowledge, albdruckRevisions, brainEmbeddings, brainMemories, brainMemoryRevisions } from './brains.sql.js';
import type { BrainMemoryRow } from './brains.types.js';

export interface PurgeResult {
  memory: BrainMemoryRow;
  receipt: DataRemovalReceiptRow;
  /** True when an earlier purge had done it: nothing changed, and `receipt` is that purge's. */
  alreadyPurged: boolean;
}

export class BrainPurge {
  constructor(
    private readonly db: Db,
    private readonly clock: Clock,
    private readonly faults: FaultInjector,
  ) {}

  async purge(viewer: Viewer | null, input: { agentId: string; memoryId: string }): Promise<PurgeResult> {
    const actor = actorOf(requireOperator(viewer));
    const { agentId, memoryId } = input;
    return this.db.transaction(async (tx) => {
      // The row lock orders two purges of one memory: the second reads the first's result.
      const [memory] = await tx
        .select()
        .from(brainMemories)
        .where(and(eq(brainMemories.agentId, agentId), eq(brainMemories.id, memoryId)))
        .for('update');
      if (!memory) throw new NotFoundError('BrainMemory', memoryId);
      if (memory.purgedAt) {
        const receipt = await receiptOfSubject(tx, agentId, 'MEMORY_PURGE', memoryId);
        // Written in the purge's own transaction: a purged memory without one is corrupt data.
        if (!receipt) throw new Error(`BrainMemory ${agentId}/${memoryId} is purged but has no MEMORY_PURGE receipt`);
        return { memory, receipt, alreadyPurged: true };
      }
      if (!memory.deletedAt) {
        throw new ValidationError('memoryId', `BrainMemory ${memoryId} is live: only a removed memory (a tombstone, brainRemove) can be purged`);
      }
      const now = this.clock.now();
      const opened = await openReceipt(tx, { agentId, kind: 'MEMORY_PURGE', subjectId: memoryId, actor, now });
      const key = { agentId, id: opened.id };
      const purged = await emptyMemory(tx, key, memory, actor, now);
      await emptyRevisions(tx, key, memory);
      await deleteEmbeddings(tx, key, memory);
      await scrubEvents(tx, key, memory);
      if (memory.legacyKnowledgeId) await emptyAlbdruckRecord(tx, key, memory.legacyKnowledgeId);
      await appendEvent(tx, this.clock, {
        agentId,
        stream: 'brain',
        type: 'brain.purged',
        subjectId: memoryId,
        // No title: the event says that, and by whom, never what.
        payload: { id: memoryId, revision: purged.revision, ownership: purged.ownership, actor, receiptId: opened.id },
      });
      // Everything is written but the receipt's completion: a failure here must undo it all.
      this.faults('brains.purge.before_complete');
      const receipt = await completeReceipt(tx, key, now);
      return { memory: purged, receipt, alreadyPurged: false };
    });
  }
}

const ofMemory = (memory: BrainMemoryRow) => ({ agentId: memory.agentId, memoryId: memory.id });

/** The memory row as it was is what the receipt hashes; the row keeps no text afterwards. */
async function emptyMemory(tx: DbOrTx, key: ReceiptKey, memory: BrainMemoryRow, actor: Actor, now: Date): Promise<BrainMemoryRow> {
  await recordRemovedBatch(tx, key, 'brain_memories', [memory]);
  const [purged] = await tx
    .update(brainMemories)
    .set({ title: '', content: '', sourceRefs: [], legacy: withoutLegacyText(memory.legacy), purgedAt: now, purgedByKind: actor.kind, purgedById: actor.id })
    .where(and(eq(brainMemories.agentId, memory.agentId), eq(brainMemories.id, memory.id)))
    .returning();
  return purged;
}

async function emptyRevisions(tx: DbOrTx, key: ReceiptKey, memory: BrainMemoryRow) {
  const r = brainMemoryRevisions;
  const { agentId, memoryId } = ofMemory(memory);
  const where = and(eq(r.agentId, agentId), eq(r.memoryId, memoryId));
  const rows = await tx.select().from(r).where(where).orderBy(asc(r.revision));
  await recordRemovedBatch(tx, key, 'brain_memory_revisions', rows);
  await tx.update(r).set({ title: '', content: '', sourceRefs: [] }).where(where);
}

async function deleteEmbeddings(tx: DbOrTx, key: ReceiptKey, memory: BrainMemoryRow) {
  const e = brainEmbeddings;
  const { agentId, memoryId } = ofMemory(memory);
  const rows = await tx
    .delete(e)
    .where(and(eq(e.agentId, agentId), eq(e.memoryId, memoryId)))
    .returning();
  await recordRemovedBatch(tx, key, 'brain_embeddings', rows);
}

/**
 * The memory's brain.* events stay (subscribers replay the log by sequence), without the title
 * they carried; an event's payload holds no other text of the memory (brains.writes.ts).
 */
async function scrubEvents(tx: DbOrTx, key: ReceiptKey, memory: BrainMemoryRow) {
  const e = agentEvents;
  const where = and(eq(e.agentId, memory.agentId), eq(e.stream, 'brain'), eq(e.subjectId, memory.id), sql`jsonb_exists(${e.payload}, 'title')`);
  const rows = await tx.select().from(e).where(where).orderBy(asc(e.sequence));
  await recordRemovedBatch(tx, key, 'agent_events', rows);
  if (rows.length)
    await tx
      .update(e)
      .set({ payload: sql`${e.payload} - 'title'` })
      .where(where);
}

/** The legacy record an imported memory came from keeps its ids, status and dates, not its text. */
async function emptyAlbdruckRecord(tx: DbOrTx, key: ReceiptKey, knowledgeId: string) {
  const k = albdruckKnowledge;
  const knowledge = await tx.select().from(k).where(eq(k.id, knowledgeId));
  await recordRemovedBatch(tx, key, 'albdruck_knowledge', knowledge);
  await tx.update(k).set({ title: '', body: '' }).where(eq(k.id, knowledgeId));

  const r = albdruckRevisions;
  const revisions = await tx.select().from(r).where(eq(r.knowledgeId, knowledgeId)).orderBy(asc(r.revision));
  await recordRemovedBatch(tx, key, 'albdruck_revisions', revisions);
  await tx.update(r).set({ title: '', body: '' }).where(eq(r.knowledgeId, knowledgeId));

  const v = albdruckEvidence;
  const evidence = await tx.select().from(v).where(eq(v.knowledgeId, knowledgeId)).orderBy(asc(v.createdAt), asc(v.id));
  await recordRemovedBatch(tx, key, 'albdruck_evidence', evidence);
  await tx.update(v).set({ reference: '', excerpt: null }).where(eq(v.knowledgeId, knowledgeId));
}

interface LegacyText {
  evidence?: Record<string, unknown>[];
  snapshots?: Record<string, unknown>[];
}

/** An imported memory's legacy details without the copied text: the counts, ids and dates stay. */
function withoutLegacyText(legacy: unknown): unknown {
  if (!legacy || typeof legacy !== 'object') return legacy;
  const details = legacy as LegacyText;
  return {
    ...details,
    evidence: (details.evidence ?? []).map((entry) => ({ ...entry, reference: '', excerpt: null })),
    snapshots: (details.snapshots ?? []).map((snapshot) => ({ ...snapshot, title: '', body: '' })),
  };
}
