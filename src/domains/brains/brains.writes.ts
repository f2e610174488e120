/**
 * The rows and the event every write of a memory leaves: the INSERT of a new memory (brainSave's
 * and the Albdruck import's, the one definition of both), the revision row of each change and the
 * brain.* event. Values are given, or placeholders when brainSave builds its prepared statement.
 */
import type { Placeholder } from 'drizzle-orm';
import type { DbOrTx } from '../../db/database.js';
import type { Clock } from '../../lib/clock.js';
import type { Actor } from '../../auth/viewer.js';
import { appendEvent } from '../../events/events.service.js';
import { brainMemories, brainMemoryRevisions } from './brains.sql.js';
import type { BrainMemoryRow } from './brains.types.js';

/** A column's value, or a placeholder of a prepared statement. */
type Value<T> = T | Placeholder;

type RevisionAction = 'created' | 'updated' | 'removed' | 'imported';

export interface NewMemory {
  agentId: Value<string>;
  id: Value<string>;
  title: Value<string>;
  content: Value<string>;
  sourceRefs: Value<string[]>;
  ownership: Value<string>;
  actorKind: Value<string>;
  actorId: Value<string>;
  createdAt: Value<Date>;
  updatedAt: Value<Date>;
}

/** The columns only the Albdruck import sets (a saved memory leaves them at their defaults). */
export type ImportedColumns = Pick<typeof brainMemories.$inferInsert, 'deletedAt' | 'label' | 'legacyKnowledgeId' | 'importedRevision' | 'legacy'>;

/** A new memory at revision 1, created and last written by the same actor. */
export function insertNewMemory(db: DbOrTx, memory: NewMemory, imported: ImportedColumns = {}) {
  return db.insert(brainMemories).values({
    agentId: memory.agentId,
    id: memory.id,
    title: memory.title,
    content: memory.content,
    sourceRefs: memory.sourceRefs,
    revision: 1,
    ownership: memory.ownership,
    createdByKind: memory.actorKind,
    createdById: memory.actorId,
    updatedByKind: memory.actorKind,
    updatedById: memory.actorId,
    createdAt: memory.createdAt,
    updatedAt: memory.updatedAt,
    ...imported,
  });
}

export interface NewRevision {
  agentId: Value<string>;
  memoryId: Value<string>;
  revision: Value<number>;
  action: RevisionAction;
  title: Value<string>;
  content: Value<string>;
  sourceRefs: Value<string[]>;
  ownership: Value<string>;
  actorKind: Value<string>;
  actorId: Value<string>;
  createdAt: Value<Date>;
}

/** One revision row: the memory as this change left it, with its actor. */
export function insertRevision(db: DbOrTx, revision: NewRevision) {
  return db.insert(brainMemoryRevisions).values(revision);
}

/**
 * One revision row per change (the Albdruck import records its own as 'imported'). Its time is
 * the memory's updatedAt, not another reading of the clock: a point-in-time read (asOf) at a
 * memory's updatedAt then finds exactly this revision.
 */
export async function recordRevision(tx: DbOrTx, memory: BrainMemoryRow, action: RevisionAction, actor: Actor) {
  await insertRevision(tx, {
    agentId: memory.agentId,
    memoryId: memory.id,
    revision: memory.revision,
    action,
    title: memory.title,
    content: memory.content,
    sourceRefs: memory.sourceRefs,
    ownership: memory.ownership,
    actorKind: actor.kind,
    actorId: actor.id,
    createdAt: memory.updatedAt,
  });
}

/** The brain.* event of a change, appended in the same transaction. */
export async function emitBrainEvent(tx: DbOrTx, clock: Clock, memory: BrainMemoryRow, type: string, actor: Actor, extra: Record<string, unknown> = {}) {
  await appendEvent(tx, clock, brainEvent(memory, type, actor, extra));
}

/** A brain.* event; only the memory's identity, revision, title and ownership go into it. */
export function brainEvent(memory: Pick<BrainMemoryRow, 'agentId' | 'id' | 'revision' | 'title' | 'ownership'>, type: string, actor: Actor, extra: Record<string, unknown> = {}) {
  return {
    agentId: memory.agentId,
    stream: 'brain' as const,
    type,
    subjectId: memory.id,
    payload: { id: memory.id, revision: memory.revision, title: memory.title, ownership: memory.ownership, actor, ...extra },
  };
}
