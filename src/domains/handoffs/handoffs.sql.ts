import { sql } from 'drizzle-orm';
import { check, index, integer, jsonb, pgTable, primaryKey, text, uniqueIndex } from 'drizzle-orm/pg-core';
import { timestamptz } from '../../db/columns.js';
import { belongsToAgent } from '../agents/agents.sql.js';

export const HANDOFF_LIMITS = {
  title: 240,
  goal: 4_000,
  outcome: 4_000,
  body: 24_000,
  sourceRefs: 8,
  sourceRef: 1_000,
  ttlMin: 1,
  ttlMax: 36_500,
  defaultTtlDays: 14,
  read: 10,
  /** How many handoffs a read returns when it does not say. */
  readDefault: 5,
  /** Below this many characters of goal+outcome+body, and with no tool evidence, an exchange is trivial. */
  trivialText: 80,
} as const;

export const HANDOFF_ORIGINS = ['EXPLICIT', 'AUTOMATIC'] as const;
export type HandoffOrigin = (typeof HANDOFF_ORIGINS)[number];
export const HANDOFF_EVIDENCE = ['ASSISTANT_ASSERTION', 'TOOL_EVIDENCE'] as const;
export type HandoffEvidence = (typeof HANDOFF_EVIDENCE)[number];
export interface HandoffSourceRef {
  ref: string;
  evidence: HandoffEvidence;
}

/**
 * One current handoff per agent, scope and session. An explicit handoff holds its slot against
 * automatic writes until retention removes it, past its expiry (the upsert's WHERE refuses the
 * automatic replacement).
 */
export const sessionHandoffs = pgTable(
  'session_handoffs',
  {
    agentId: text('agent_id').notNull(),
    id: text('id').notNull(),
    project: text('project').notNull(),
    sessionId: text('session_id').notNull(),
    conversationId: text('conversation_id'),
    origin: text('origin').notNull(),
    title: text('title').notNull(),
    goal: text('goal').notNull(),
    outcome: text('outcome').notNull(),
    body: text('body').notNull(),
    sourceRefs: jsonb('source_refs').$type<HandoffSourceRef[]>().notNull(),
    ttlDays: integer('ttl_days').notNull(),
    expiresAt: timestamptz('expires_at').notNull(),
    revision: integer('revision').notNull(),
    createdAt: timestamptz('created_at').notNull(),
    updatedAt: timestamptz('updated_at').notNull(),
    writtenByKind: text('written_by_kind').notNull(),
    writtenById: text('written_by_id').notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.agentId, t.id] }),
    belongsToAgent('session_handoffs', t.agentId),
    uniqueIndex('session_handoffs_session_key').on(t.agentId, t.project, t.sessionId),
    check('session_handoffs_origin', sql`${t.origin} IN ('EXPLICIT', 'AUTOMATIC')`),
    check('session_handoffs_title_length', sql`char_length(${t.title}) BETWEEN 1 AND 240`),
    check('session_handoffs_goal_length', sql`char_length(${t.goal}) <= 4000`),
    check('session_handoffs_outcome_length', sql`char_length(${t.outcome}) <= 4000`),
    check('session_handoffs_body_length', sql`char_length(${t.body}) <= 24000`),
    check('session_handoffs_source_refs_count', sql`jsonb_typeof(${t.sourceRefs}) = 'array' AND jsonb_array_length(${t.sourceRefs}) <= 8`),
    check('session_handoffs_ttl_days', sql`${t.ttlDays} BETWEEN 1 AND 36500`),
    check('session_handoffs_project_length', sql`char_length(${t.project}) BETWEEN 1 AND 200`),
    check('session_handoffs_session_length', sql`char_length(${t.sessionId}) BETWEEN 1 AND 200`),
    index('session_handoffs_recent_idx').on(t.agentId, t.project, t.updatedAt),
    index('session_handoffs_expiry_idx').on(t.expiresAt),
  ],
);
