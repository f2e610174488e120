import { sql } from 'drizzle-orm';
import { boolean, check, index, integer, pgTable, primaryKey, text } from 'drizzle-orm/pg-core';
import { timestamptz } from '../../db/columns.js';
import { belongsToAgent } from '../agents/agents.sql.js';

export const WORKING_KINDS = ['DECISION', 'FINDING', 'BLOCKER', 'HANDOFF', 'TASK'] as const;
export type WorkingKind = (typeof WORKING_KINDS)[number];
export const WORKING_STATES = ['ACTIVE', 'RESOLVED', 'SUPERSEDED'] as const;
export type WorkingState = (typeof WORKING_STATES)[number];

export const WORKING_LIMITS = {
  title: 240,
  content: 6_000,
  sourceRefs: 12,
  sourceRef: 1_000,
  ttlMin: 1,
  ttlMax: 36_500,
  search: 10,
  list: 100,
  query: 500,
} as const;

/**
 * Operational working memory of one agent in one continuity scope (`project`). The session and
 * conversation are the runtime's at write time, kept as provenance. `expires_at` is always set;
 * pinned rows ignore it when read and when swept.
 */
export const workingRecords = pgTable(
  'working_records',
  {
    agentId: text('agent_id').notNull(),
    id: text('id').notNull(),
    project: text('project').notNull(),
    sessionId: text('session_id'),
    conversationId: text('conversation_id'),
    kind: text('kind').notNull(),
    state: text('state').notNull(),
    title: text('title').notNull(),
    content: text('content').notNull(),
    sourceRefs: text('source_refs').array().notNull(),
    pinned: boolean('pinned').notNull().default(false),
    ttlDays: integer('ttl_days').notNull(),
    expiresAt: timestamptz('expires_at').notNull(),
    supersededBy: text('superseded_by'),
    revision: integer('revision').notNull(),
    createdAt: timestamptz('created_at').notNull(),
    updatedAt: timestamptz('updated_at').notNull(),
    writtenByKind: text('written_by_kind').notNull(),
    writtenById: text('written_by_id').notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.agentId, t.id] }),
    belongsToAgent('working_records', t.agentId),
    check('working_records_kind', sql`${t.kind} IN ('DECISION', 'FINDING', 'BLOCKER', 'HANDOFF', 'TASK')`),
    check('working_records_state', sql`${t.state} IN ('ACTIVE', 'RESOLVED', 'SUPERSEDED')`),
    check('working_records_title_length', sql`char_length(${t.title}) BETWEEN 1 AND 240`),
    check('working_records_content_length', sql`char_length(${t.content}) <= 6000`),
    check('working_records_source_refs_count', sql`cardinality(${t.sourceRefs}) <= 12`),
    check('working_records_ttl_days', sql`${t.ttlDays} BETWEEN 1 AND 36500`),
    check('working_records_project_length', sql`char_length(${t.project}) BETWEEN 1 AND 200`),
    check('working_records_superseded_link', sql`(${t.state} = 'SUPERSEDED') = (${t.supersededBy} IS NOT NULL)`),
    check('working_records_not_self_superseded', sql`${t.supersededBy} IS DISTINCT FROM ${t.id}`),
    check('working_records_revision_positive', sql`${t.revision} >= 1`),
    index('working_records_scope_idx').on(t.agentId, t.project, t.createdAt, t.id),
    index('working_records_expiry_idx').on(t.expiresAt),
  ],
);
