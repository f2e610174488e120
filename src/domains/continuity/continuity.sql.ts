import { sql } from 'drizzle-orm';
import { check, customType, foreignKey, index, integer, json, pgTable, primaryKey, text, type AnyPgColumn } from 'drizzle-orm/pg-core';
import { timestamptz } from '../../db/columns.js';
import { belongsToAgent } from '../agents/agents.sql.js';

export const CONTINUITY_RUN_STATES = ['RUNNING', 'FINALIZING', 'COMPLETED', 'INTERRUPTED', 'RECOVERY_PENDING'] as const;
export type ContinuityRunState = (typeof CONTINUITY_RUN_STATES)[number];

export const EFFECT_OUTCOMES = ['UNKNOWN', 'SUCCEEDED', 'FAILED'] as const;
export type EffectOutcome = (typeof EFFECT_OUTCOMES)[number];

/** Limits shared by the API checks and the CHECK constraints below. */
export const CONTINUITY_LIMITS = {
  runId: 128,
  head: 262_144,
  effectPayload: 65_536,
  effectKind: 200,
  reason: 2_000,
} as const;

/**
 * Runtime-provided documents are stored as PostgreSQL `json`, which keeps the text exactly as
 * sent (key order, duplicate keys, number precision). The driver would parse `json` on the way
 * out, so every read casts these columns to text (see continuity.reads.ts).
 */
const jsonText = customType<{ data: string; driverData: string }>({
  dataType: () => 'json',
});

const stateCheck = (column: unknown) => sql`${column} IN ('RUNNING', 'FINALIZING', 'COMPLETED', 'INTERRUPTED', 'RECOVERY_PENDING')`;

/**
 * Ownership sessions, for listing. Whether an owner is alive is never read from here: only the
 * advisory lock its session holds (or, embedded, this process's registry) says that.
 */
export const continuityOwners = pgTable(
  'continuity_owners',
  {
    agentId: text('agent_id').notNull(),
    id: text('id').notNull(),
    instance: text('instance').notNull(),
    openedAt: timestamptz('opened_at').notNull(),
    closedAt: timestamptz('closed_at'),
  },
  (t) => [primaryKey({ columns: [t.agentId, t.id] }), belongsToAgent('continuity_owners', t.agentId)],
);

/** One row per run: its state, fence (generation + owner), head and recovery material. */
export const continuityState = pgTable(
  'continuity_state',
  {
    agentId: text('agent_id').notNull(),
    runId: text('run_id').notNull(),
    sessionId: text('session_id'),
    project: text('project'),
    state: text('state').notNull(),
    generation: integer('generation').notNull(),
    ownerId: text('owner_id').notNull(),
    head: jsonText('head').notNull(),
    headRevision: integer('head_revision').notNull().default(0),
    /** The fenced terminal commit's result; durable once FINALIZING was entered with it. */
    finalResult: jsonText('final_result'),
    interruptionManifest: json('interruption_manifest'),
    recoveryQueue: json('recovery_queue'),
    effectCount: integer('effect_count').notNull().default(0),
    transitionCount: integer('transition_count').notNull().default(0),
    createdAt: timestamptz('created_at').notNull(),
    updatedAt: timestamptz('updated_at').notNull(),
    completedAt: timestamptz('completed_at'),
    interruptedAt: timestamptz('interrupted_at'),
  },
  (t) => [
    primaryKey({ columns: [t.agentId, t.runId] }),
    belongsToAgent('continuity_state', t.agentId),
    check('continuity_state_state', stateCheck(t.state)),
    check('continuity_state_run_id', sql`char_length(${t.runId}) BETWEEN 1 AND 128`),
    check('continuity_state_generation_positive', sql`${t.generation} >= 1`),
    check('continuity_state_head_limit', sql`char_length(${t.head}::text) <= 262144`),
    check('continuity_state_final_result_limit', sql`char_length(${t.finalResult}::text) <= 262144`),
    check('continuity_state_completed_at', sql`(${t.state} = 'COMPLETED') = (${t.completedAt} IS NOT NULL)`),
    index('continuity_state_agent_state_idx').on(t.agentId, t.state, t.updatedAt),
    index('continuity_state_agent_created_idx').on(t.agentId, t.createdAt, t.runId),
    // Reconciliation scans only live and waiting runs, across agents.
    index('continuity_state_live_idx')
      .on(t.state, t.ownerId)
      .where(sql`${t.state} IN ('RUNNING', 'FINALIZING', 'INTERRUPTED')`),
  ],
);

/** The log and the effects of a run reference it by (agent_id, run_id). */
const runOf = (table: string, agentId: AnyPgColumn, runId: AnyPgColumn) =>
  foreignKey({ name: `${table}_run_fk`, columns: [agentId, runId], foreignColumns: [continuityState.agentId, continuityState.runId] }).onDelete('restrict');

/** Every transition of every run, append-only. */
export const continuityLog = pgTable(
  'continuity_log',
  {
    agentId: text('agent_id').notNull(),
    runId: text('run_id').notNull(),
    /** Per-run position, 1-based. */
    position: integer('position').notNull(),
    fromState: text('from_state'),
    toState: text('to_state').notNull(),
    generation: integer('generation').notNull(),
    ownerId: text('owner_id').notNull(),
    reason: text('reason').notNull(),
    /** The agent event sequence of this transition (what continuityEvents carries). */
    eventSequence: integer('event_sequence').notNull(),
    at: timestamptz('at').notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.agentId, t.runId, t.position] }),
    runOf('continuity_log', t.agentId, t.runId),
    check('continuity_log_to_state', stateCheck(t.toState)),
    check('continuity_log_from_state', sql`${t.fromState} IS NULL OR ${stateCheck(t.fromState)}`),
    check('continuity_log_reason_length', sql`char_length(${t.reason}) BETWEEN 1 AND 2000`),
  ],
);

/**
 * External effects a run intended, and the receipts it got. An effect without a receipt has an
 * unknown outcome: recovery must reconcile it, never assume it did not happen.
 */
export const continuityEffects = pgTable(
  'continuity_effects',
  {
    agentId: text('agent_id').notNull(),
    runId: text('run_id').notNull(),
    effectId: text('effect_id').notNull(),
    kind: text('kind').notNull(),
    request: jsonText('request').notNull(),
    intendedGeneration: integer('intended_generation').notNull(),
    intendedBy: text('intended_by').notNull(),
    intendedAt: timestamptz('intended_at').notNull(),
    outcome: text('outcome').notNull().default('UNKNOWN'),
    receipt: jsonText('receipt'),
    receiptGeneration: integer('receipt_generation'),
    receiptBy: text('receipt_by'),
    receiptAt: timestamptz('receipt_at'),
  },
  (t) => [
    primaryKey({ columns: [t.agentId, t.runId, t.effectId] }),
    runOf('continuity_effects', t.agentId, t.runId),
    check('continuity_effects_outcome', sql`${t.outcome} IN ('UNKNOWN', 'SUCCEEDED', 'FAILED')`),
    check('continuity_effects_effect_id', sql`char_length(${t.effectId}) BETWEEN 1 AND 128`),
    check('continuity_effects_kind', sql`char_length(${t.kind}) BETWEEN 1 AND 200`),
    check('continuity_effects_request_limit', sql`char_length(${t.request}::text) <= 65536`),
    check('continuity_effects_receipt_limit', sql`char_length(${t.receipt}::text) <= 65536`),
    check('continuity_effects_receipt_complete', sql`(${t.outcome} = 'UNKNOWN') = (${t.receiptAt} IS NULL)`),
  ],
);
