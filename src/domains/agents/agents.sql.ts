import { sql } from 'drizzle-orm';
import { bigint, check, foreignKey, index, integer, jsonb, pgTable, primaryKey, text, type AnyPgColumn } from 'drizzle-orm/pg-core';
import { timestamptz } from '../../db/columns.js';

export const PROFILE_KINDS = ['SOUL', 'RULES', 'ORIENTATION', 'PREFERENCES', 'TOOLS', 'DREAM_MEMORY'] as const;
export type ProfileKind = (typeof PROFILE_KINDS)[number];
export const PROFILE_CONTENT_LIMIT = 48_000;
export const PREFERENCE_SIGNAL_STATUSES = ['pending', 'applied', 'dismissed'] as const;
export type PreferenceSignalStatus = (typeof PREFERENCE_SIGNAL_STATUSES)[number];

const kindCheck = (column: unknown) => sql`${column} IN ('SOUL', 'RULES', 'ORIENTATION', 'PREFERENCES', 'TOOLS', 'DREAM_MEMORY')`;

export const agents = pgTable(
  'agents',
  {
    id: text('id').primaryKey(),
    name: text('name').notNull(),
    createdAt: timestamptz('created_at').notNull(),
    createdBy: text('created_by').notNull(),
    /** Last allocated event sequence; bumping it row-locks the agent, which orders events. */
    lastEventSequence: bigint('last_event_sequence', { mode: 'number' }).notNull().default(0),
    /**
     * Set by the first step of an erasure: from then on the agent reads as absent everywhere,
     * while later steps remove its stores in batches; a re-run finishes what a crash left.
     */
    erasureStartedAt: timestamptz('erasure_started_at'),
  },
  (t) => [check('agents_id_format', sql`${t.id} ~ '^[a-z0-9][a-z0-9_-]{0,62}$'`), check('agents_name_length', sql`char_length(${t.name}) BETWEEN 1 AND 200`)],
);

/**
 * The foreign key every per-agent table declares: its rows belong to an agent that exists.
 * ON DELETE RESTRICT because nothing deletes agents; removing one must first decide what
 * happens to each store (Brains and originals are never dropped silently). agent_id stays the
 * leading column of every key, so the schema can be distributed by agent.
 */
export const belongsToAgent = (table: string, agentId: AnyPgColumn) =>
  foreignKey({ name: `${table}_agent_fk`, columns: [agentId], foreignColumns: [agents.id] }).onDelete('restrict');

export const agentProfileDocuments = pgTable(
  'agent_profile_documents',
  {
    agentId: text('agent_id').notNull(),
    kind: text('kind').$type<ProfileKind>().notNull(),
    content: text('content').notNull(),
    revision: integer('revision').notNull(),
    updatedAt: timestamptz('updated_at').notNull(),
    updatedByKind: text('updated_by_kind').notNull(),
    updatedById: text('updated_by_id').notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.agentId, t.kind] }),
    belongsToAgent('agent_profile_documents', t.agentId),
    check('agent_profile_documents_kind', kindCheck(t.kind)),
    check('agent_profile_documents_content_limit', sql`char_length(${t.content}) <= 48000`),
    check('agent_profile_documents_revision_positive', sql`${t.revision} >= 1`),
  ],
);

/** Every revision of every profile document, with its actor. */
export const agentProfileRevisions = pgTable(
  'agent_profile_revisions',
  {
    agentId: text('agent_id').notNull(),
    kind: text('kind').notNull(),
    revision: integer('revision').notNull(),
    content: text('content').notNull(),
    actorKind: text('actor_kind').notNull(),
    actorId: text('actor_id').notNull(),
    reason: text('reason').notNull(),
    createdAt: timestamptz('created_at').notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.agentId, t.kind, t.revision] }),
    foreignKey({ name: 'agent_profile_revisions_document_fk', columns: [t.agentId, t.kind], foreignColumns: [agentProfileDocuments.agentId, agentProfileDocuments.kind] }).onDelete(
      'restrict',
    ),
    check('agent_profile_revisions_content_limit', sql`char_length(${t.content}) <= 48000`),
  ],
);

/** State of the automatic PREFERENCES learning path: pending signals and what was applied. */
export const preferenceLearningState = pgTable(
  'preference_learning_state',
  {
    agentId: text('agent_id').primaryKey(),
    appliedCount: integer('applied_count').notNull().default(0),
    lastAppliedRevision: integer('last_applied_revision'),
    lastAppliedAt: timestamptz('last_applied_at'),
    updatedAt: timestamptz('updated_at').notNull(),
  },
  (t) => [belongsToAgent('preference_learning_state', t.agentId)],
);

/** Preference signals (e.g. from Tiddle's behavioural corrections) waiting for the learning path. */
export const preferenceSignals = pgTable(
  'preference_signals',
  {
    agentId: text('agent_id').notNull(),
    id: text('id').notNull(),
    source: text('source').notNull(),
    project: text('project'),
    statement: text('statement').notNull(),
    evidence: jsonb('evidence').notNull(),
    status: text('status').$type<PreferenceSignalStatus>().notNull().default('pending'),
    createdAt: timestamptz('created_at').notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.agentId, t.id] }),
    belongsToAgent('preference_signals', t.agentId),
    check('preference_signals_statement_length', sql`char_length(${t.statement}) BETWEEN 1 AND 2000`),
    check('preference_signals_status', sql`${t.status} IN ('pending', 'applied', 'dismissed')`),
  ],
);

/** Audit metadata for automatic profile changes, committed with the change itself. */
export const profileAuditLog = pgTable(
  'profile_audit_log',
  {
    agentId: text('agent_id').notNull(),
    id: text('id').notNull(),
    kind: text('kind').notNull(),
    action: text('action').notNull(),
    fromRevision: integer('from_revision').notNull(),
    toRevision: integer('to_revision').notNull(),
    actorKind: text('actor_kind').notNull(),
    actorId: text('actor_id').notNull(),
    detail: jsonb('detail').notNull(),
    createdAt: timestamptz('created_at').notNull(),
  },
  (t) => [primaryKey({ columns: [t.agentId, t.id] }), belongsToAgent('profile_audit_log', t.agentId), index('profile_audit_log_time_idx').on(t.agentId, t.createdAt)],
);
