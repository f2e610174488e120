import { sql } from 'drizzle-orm';
import { boolean, check, index, jsonb, pgTable, primaryKey, text } from 'drizzle-orm/pg-core';
import { timestamptz } from '../../db/columns.js';

export const DATA_REMOVAL_KINDS = ['AGENT_ERASURE', 'MEMORY_PURGE'] as const;
export type DataRemovalKind = (typeof DATA_REMOVAL_KINDS)[number];

/**
 * The kept record of a removal (an agent erased, a memory's content purged): who, when, how
 * many rows per store and a SHA-256 over what was removed, never the content itself. It has no
 * foreign key to agents on purpose: it must outlive the agent it describes. agent_id still
 * leads the key, so the table distributes by agent like every other.
 */
export const dataRemovalReceipts = pgTable(
  'data_removal_receipts',
  {
    agentId: text('agent_id').notNull(),
    id: text('id').notNull(),
    kind: text('kind').$type<DataRemovalKind>().notNull(),
    /** The memory a purge removed the content of; null for an agent erasure. */
    subjectId: text('subject_id'),
    actorKind: text('actor_kind').notNull(),
    actorId: text('actor_id').notNull(),
    /** An erasure that went ahead although a runtime owner was live. */
    forced: boolean('forced').notNull().default(false),
    startedAt: timestamptz('started_at').notNull(),
    /** Null while the removal is still running (a crash leaves it so; a re-run finishes it). */
    completedAt: timestamptz('completed_at'),
    /** Rows removed per store, e.g. {"brain_memories": 12, "conversation_entries": 4000}. */
    counts: jsonb('counts').$type<Record<string, number>>().notNull().default({}),
    /**
     * SHA-256 (hex) chained over the removed batches in the order they were removed: each batch
     * that commits also folds its rows in here, so a removal resumed after a crash continues
     * the same chain. Final once completed_at is set.
     */
    contentHash: text('content_hash').notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.agentId, t.id] }),
    check('data_removal_receipts_kind', sql`${t.kind} IN ('AGENT_ERASURE', 'MEMORY_PURGE')`),
    check('data_removal_receipts_subject', sql`(${t.kind} = 'MEMORY_PURGE') = (${t.subjectId} IS NOT NULL)`),
    check('data_removal_receipts_hash_format', sql`${t.contentHash} ~ '^[0-9a-f]{64}$'`),
    index('data_removal_receipts_started_idx').on(t.startedAt.desc(), t.id.desc()),
  ],
);
