import { sql } from 'drizzle-orm';
import { boolean, check, foreignKey, index, integer, jsonb, pgTable, primaryKey, real, text, uniqueIndex, type AnyPgColumn } from 'drizzle-orm/pg-core';
import { timestamptz } from '../../db/columns.js';
import { belongsToAgent } from '../agents/agents.sql.js';

export const BRAIN_TITLE_LIMIT = 240;
export const BRAIN_CONTENT_LIMIT = 24_000;
export const BRAIN_SOURCE_REFS_LIMIT = 12;
export const BRAIN_SOURCE_REF_LENGTH_LIMIT = 2_000;
export const MIGRATED_ALBDRUCK = 'migrated_albdruck';

/**
 * Explicit saved memories. One owning agent, no TTL. Removal is a tombstone (deleted_at), never
 * a physical delete, so the row and its revision history stay.
 */
export const brainMemories = pgTable(
  'brain_memories',
  {
    agentId: text('agent_id').notNull(),
    id: text('id').notNull(),
    title: text('title').notNull(),
    content: text('content').notNull(),
    sourceRefs: text('source_refs')
      .array()
      .notNull()
      .default(sql`'{}'::text[]`),
    revision: integer('revision').notNull(),
    /** OPERATOR once an operator wrote it: agents may then neither update nor remove it. */
    ownership: text('ownership').notNull(),
    createdByKind: text('created_by_kind').notNull(),
    createdById: text('created_by_id').notNull(),
    updatedByKind: text('updated_by_kind').notNull(),
    updatedById: text('updated_by_id').notNull(),
    createdAt: timestamptz('created_at').notNull(),
    updatedAt: timestamptz('updated_at').notNull(),
    deletedAt: timestamptz('deleted_at'),
    /** e.g. migrated_albdruck for imported memories. */
    label: text('label'),
    /** The legacy record an imported memory came from: the import's idempotency key. */
    legacyKnowledgeId: text('legacy_knowledge_id'),
    /** Revision the import wrote; a higher revision means someone edited it since. */
    importedRevision: integer('imported_revision'),
    legacy: jsonb('legacy'),
    /**
     * Set when an operator purged a tombstone: title, content and source refs of the memory and
     * of every revision are emptied; the fact of the memory (id, times, actors) stays.
     */
    purgedAt: timestamptz('purged_at'),
    purgedByKind: text('purged_by_kind'),
    purgedById: text('purged_by_id'),
  },
  (t) => [
    primaryKey({ columns: [t.agentId, t.id] }),
    belongsToAgent('brain_memories', t.agentId),
    // A purged memory keeps no title; every other memory has one.
    check('brain_memories_title_length', sql`char_length(${t.title}) BETWEEN 1 AND 240 OR (${t.purgedAt} IS NOT NULL AND ${t.title} = '')`),
    check('brain_memories_purged_tombstone', sql`${t.purgedAt} IS NULL OR ${t.deletedAt} IS NOT NULL`),
    check('brain_memories_content_length', sql`char_length(${t.content}) <= 24000`),
    check('brain_memories_source_refs_count', sql`cardinality(${t.sourceRefs}) <= 12`),
    check('brain_memories_revision_positive', sql`${t.revision} >= 1`),
    check('brain_memories_ownership', sql`${t.ownership} IN ('OPERATOR', 'AGENT')`),
    // brainSearch's tie-break order: its probe reads the most recently updated memories first.
    index('brain_memories_live_updated_idx')
      .on(t.agentId, t.updatedAt.desc().nullsFirst(), t.id.asc().nullsLast())
      .where(sql`${t.deletedAt} IS NULL`),
    index('brain_memories_live_newest_idx')
      .on(t.agentId, t.createdAt.desc().nullsFirst(), t.id.desc().nullsFirst())
      .where(sql`${t.deletedAt} IS NULL`),
    // Case-insensitive substring search (ILIKE '%q%') over title and content, one index each so
    // a match never spans the boundary between them. New entries wait in a pending list that
    // every search reads in full: up to 4 MB by default (~500 pages, ~3 ms per pattern and
    // index), 256 kB here (~32 pages). Single saves still only append to the list and merge it in
    // batches at the same rate (fastupdate off would halve it); bulk inserts merge more often
    // and take longer (the search bench's 1,000,000-row seed: ~2.5×).
    index('brain_memories_title_trgm_idx').using('gin', t.title.op('gin_trgm_ops')).with({ gin_pending_list_limit: 256 }),
    index('brain_memories_content_trgm_idx').using('gin', t.content.op('gin_trgm_ops')).with({ gin_pending_list_limit: 256 }),
    uniqueIndex('brain_memories_legacy_idx')
      .on(t.agentId, t.legacyKnowledgeId)
      .where(sql`${t.legacyKnowledgeId} IS NOT NULL`),
  ],
);

/** Rows about one memory reference it by (agent_id, memory_id); memories are tombstoned, never deleted. */
const memoryOf = (table: string, agentId: AnyPgColumn, memoryId: AnyPgColumn) =>
  foreignKey({ name: `${table}_memory_fk`, columns: [agentId, memoryId], foreignColumns: [brainMemories.agentId, brainMemories.id] }).onDelete('restrict');

/** Every revision of every memory with its actor (created, updated, removed, imported). */
export const brainMemoryRevisions = pgTable(
  'brain_memory_revisions',
  {
    agentId: text('agent_id').notNull(),
    memoryId: text('memory_id').notNull(),
    revision: integer('revision').notNull(),
    action: text('action').notNull(),
    title: text('title').notNull(),
    content: text('content').notNull(),
    sourceRefs: text('source_refs').array().notNull(),
    ownership: text('ownership').notNull(),
    actorKind: text('actor_kind').notNull(),
    actorId: text('actor_id').notNull(),
    createdAt: timestamptz('created_at').notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.agentId, t.memoryId, t.revision] }),
    memoryOf('brain_memory_revisions', t.agentId, t.memoryId),
    check('brain_memory_revisions_action', sql`${t.action} IN ('created', 'updated', 'removed', 'imported')`),
    // Empty only after a purge emptied the memory's revisions (brain_memories.purged_at).
    check('brain_memory_revisions_title_length', sql`char_length(${t.title}) <= 240`),
    check('brain_memory_revisions_content_length', sql`char_length(${t.content}) <= 24000`),
    check('brain_memory_revisions_source_refs_count', sql`cardinality(${t.sourceRefs}) <= 12`),
  ],
);

/**
 * Embeddings of memories, one row per memory (the latest revision indexed). A plain real[]
 * keeps the schema free of the vector extension: ranking casts to vector only where pgvector
 * is installed, and a server without it still works lexically.
 */
export const brainEmbeddings = pgTable(
  'brain_embeddings',
  {
    agentId: text('agent_id').notNull(),
    memoryId: text('memory_id').notNull(),
    /** The memory revision this row describes; older than the memory means re-index. */
    revision: integer('revision').notNull(),
    model: text('model').notNull(),
    status: text('status').notNull(),
    dimensions: integer('dimensions'),
    embedding: real('embedding').array(),
    attempts: integer('attempts').notNull().default(0),
    lastError: text('last_error'),
    updatedAt: timestamptz('updated_at').notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.agentId, t.memoryId] }),
    memoryOf('brain_embeddings', t.agentId, t.memoryId),
    check('brain_embeddings_status', sql`${t.status} IN ('indexed', 'failed')`),
    check('brain_embeddings_vector_shape', sql`${t.status} <> 'indexed' OR (${t.embedding} IS NOT NULL AND cardinality(${t.embedding}) = ${t.dimensions})`),
  ],
);

/**
 * Legacy Albdruck tables, kept for the repeat-safe import and internal compatibility only; they
 * are not the operator API. owner_agent_id NULL means a global record.
 */
export const albdruckKnowledge = pgTable(
  'albdruck_knowledge',
  {
    id: text('id').primaryKey(),
    ownerAgentId: text('owner_agent_id'),
    title: text('title').notNull(),
    body: text('body').notNull(),
    status: text('status').notNull().default('active'),
    operatorCorrected: boolean('operator_corrected').notNull().default(false),
    operatorDeleted: boolean('operator_deleted').notNull().default(false),
    createdBy: text('created_by'),
    createdAt: timestamptz('created_at').notNull(),
    updatedAt: timestamptz('updated_at').notNull(),
  },
  (t) => [check('albdruck_knowledge_status', sql`${t.status} IN ('active', 'archived', 'superseded', 'deleted')`)],
);

export const albdruckEvidence = pgTable(
  'albdruck_evidence',
  {
    id: text('id').primaryKey(),
    knowledgeId: text('knowledge_id').notNull(),
    reference: text('reference').notNull(),
    excerpt: text('excerpt'),
    createdAt: timestamptz('created_at').notNull(),
  },
  (t) => [index('albdruck_evidence_knowledge_idx').on(t.knowledgeId, t.createdAt)],
);

export const albdruckRevisions = pgTable(
  'albdruck_revisions',
  {
    knowledgeId: text('knowledge_id').notNull(),
    revision: integer('revision').notNull(),
    title: text('title').notNull(),
    body: text('body').notNull(),
    status: text('status').notNull(),
    changedBy: text('changed_by'),
    changedAt: timestamptz('changed_at').notNull(),
  },
  (t) => [primaryKey({ columns: [t.knowledgeId, t.revision] })],
);
