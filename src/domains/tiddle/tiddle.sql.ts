import { sql } from 'drizzle-orm';
import { check, date, index, integer, jsonb, pgTable, primaryKey, text, unique } from 'drizzle-orm/pg-core';
import { timestamptz } from '../../db/columns.js';
import { belongsToAgent } from '../agents/agents.sql.js';

/** Residue bound: at most this many excerpts per terminal turn ... */
export const RESIDUE_EXCERPT_COUNT_LIMIT = 8;
/** ... each at most this many characters (code points). */
export const RESIDUE_EXCERPT_TEXT_LIMIT = 1_000;
export const RESIDUE_REFERENCE_LIMIT = 200;
export const CARD_TITLE_LIMIT = 240;
export const CARD_BODY_LIMIT = 6_000;
/** Evidence references a card may carry; updates preserve old ones, so the cap refuses rather than drops. */
export const CARD_EVIDENCE_LIMIT = 64;
export const CARD_TTL_MIN_DAYS = 1;
export const CARD_TTL_MAX_DAYS = 36_500;
export const CARD_TTL_DEFAULT_DAYS = 90;

/**
 * Residue and history of one agent's scopes. Residue rows are terminal-turn excerpts (pruned at
 * 24 hours, replaced by reference); history rows record each pass's outcome (pruned at 180 days).
 */
export const tiddleEntries = pgTable(
  'tiddle_entries',
  {
    agentId: text('agent_id').notNull(),
    id: text('id').notNull(),
    project: text('project').notNull(),
    kind: text('kind').notNull(),
    /** Residue: the runtime's turn reference. History: the pass id. */
    reference: text('reference').notNull(),
    sessionId: text('session_id'),
    /** Residue: [{ role, text }]. History: []. */
    excerpts: jsonb('excerpts').notNull().default([]),
    /** History: accepted/rejected proposals with reasons, outcome. Residue: {}. */
    payload: jsonb('payload').notNull().default({}),
    createdAt: timestamptz('created_at').notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.agentId, t.id] }),
    belongsToAgent('tiddle_entries', t.agentId),
    unique('tiddle_entries_reference_unique').on(t.agentId, t.project, t.kind, t.reference),
    index('tiddle_entries_window_idx').on(t.agentId, t.project, t.kind, t.createdAt),
    check('tiddle_entries_kind', sql`${t.kind} IN ('residue', 'history')`),
    check('tiddle_entries_reference_length', sql`char_length(${t.reference}) BETWEEN 1 AND 200`),
    check('tiddle_entries_project_length', sql`char_length(${t.project}) BETWEEN 1 AND 200`),
    check('tiddle_entries_excerpt_bound', sql`jsonb_typeof(${t.excerpts}) = 'array' AND jsonb_array_length(${t.excerpts}) <= 8 AND char_length(${t.excerpts}::text) <= 60000`),
  ],
);

/** Scheduling and envelope metadata: one row per agent and scope. */
export const tiddleEnvelopes = pgTable(
  'tiddle_envelopes',
  {
    agentId: text('agent_id').notNull(),
    project: text('project').notNull(),
    nextRunAt: timestamptz('next_run_at').notNull(),
    /** A scheduler instance's lease on this scope's pass (SKIP LOCKED claim); null when free. */
    claimToken: text('claim_token'),
    claimedUntil: timestamptz('claimed_until'),
    lastAttemptAt: timestamptz('last_attempt_at'),
    lastSuccessAt: timestamptz('last_success_at'),
    lastPassId: text('last_pass_id'),
    lastError: text('last_error'),
    lastErrorAt: timestamptz('last_error_at'),
    consecutiveFailures: integer('consecutive_failures').notNull().default(0),
    metadata: jsonb('metadata').notNull().default({}),
    createdAt: timestamptz('created_at').notNull(),
    updatedAt: timestamptz('updated_at').notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.agentId, t.project] }),
    belongsToAgent('tiddle_envelopes', t.agentId),
    index('tiddle_envelopes_next_run_idx').on(t.nextRunAt),
    check('tiddle_envelopes_failures', sql`${t.consecutiveFailures} >= 0`),
  ],
);

/** Rolling continuity cards. Identity is (agent_id, project, card_id); project '*' holds cross-scope cards. */
export const tiddleCards = pgTable(
  'tiddle_cards',
  {
    agentId: text('agent_id').notNull(),
    project: text('project').notNull(),
    cardId: text('card_id').notNull(),
    title: text('title').notNull(),
    body: text('body').notNull(),
    /** { evidence: [...], metadata: {...legacy}, sources?: [identities] }: kept across updates. */
    card: jsonb('card').notNull(),
    revision: integer('revision').notNull().default(1),
    createdAt: timestamptz('created_at').notNull(),
    updatedAt: timestamptz('updated_at').notNull(),
    /** The TTL runs from here; expiry is refreshed_at + the persisted TTL, so a TTL change applies to all cards. */
    refreshedAt: timestamptz('refreshed_at').notNull(),
    /** Set when the expiry was noticed and announced; reads filter by TTL whether or not it is set. */
    expiredAt: timestamptz('expired_at'),
  },
  (t) => [
    primaryKey({ columns: [t.agentId, t.project, t.cardId] }),
    belongsToAgent('tiddle_cards', t.agentId),
    index('tiddle_cards_refreshed_idx').on(t.agentId, t.project, t.refreshedAt),
    index('tiddle_cards_agent_refreshed_idx').on(t.agentId, t.refreshedAt),
    check('tiddle_cards_title_length', sql`char_length(${t.title}) BETWEEN 1 AND 240`),
    check('tiddle_cards_body_length', sql`char_length(${t.body}) BETWEEN 1 AND 6000`),
    check('tiddle_cards_card_id_length', sql`char_length(${t.cardId}) BETWEEN 1 AND 100`),
    check('tiddle_cards_evidence_bound', sql`jsonb_typeof(${t.card} -> 'evidence') = 'array' AND jsonb_array_length(${t.card} -> 'evidence') <= 64`),
    check('tiddle_cards_revision_positive', sql`${t.revision} >= 1`),
  ],
);

/** Per-agent Tiddle settings and agent-level state: the persisted rolling TTL and the synthesis date. */
export const tiddleSettings = pgTable(
  'tiddle_settings',
  {
    agentId: text('agent_id').primaryKey(),
    cardTtlDays: integer('card_ttl_days').notNull().default(90),
    lastSynthesisOn: date('last_synthesis_on', { mode: 'string' }),
    lastSynthesisAt: timestamptz('last_synthesis_at'),
    updatedAt: timestamptz('updated_at').notNull(),
    updatedBy: text('updated_by').notNull(),
  },
  (t) => [belongsToAgent('tiddle_settings', t.agentId), check('tiddle_settings_ttl_range', sql`${t.cardTtlDays} BETWEEN 1 AND 36500`)],
);
