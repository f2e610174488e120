import { sql } from 'drizzle-orm';
import { bigint, customType, index, jsonb, pgTable, primaryKey, text } from 'drizzle-orm/pg-core';
import { timestamptz } from '../db/columns.js';
import { belongsToAgent } from '../domains/agents/agents.sql.js';

/** A PostgreSQL transaction id (xid8), read as its decimal text: it outgrows a JS number. */
const xid8 = customType<{ data: string; driverData: string }>({ dataType: () => 'xid8' });

/**
 * The per-agent event log. `sequence` is allocated under the agent's lock (agents row), so
 * sequences of one agent commit in order and never skip. Subscriptions replay from here.
 */
export const agentEvents = pgTable(
  'agent_events',
  {
    agentId: text('agent_id').notNull(),
    sequence: bigint('sequence', { mode: 'number' }).notNull(),
    /** Which subscription family sees it: profile, brain, working, handoff, rolling_card, tiddle_status, continuity. */
    stream: text('stream').notNull(),
    type: text('type').notNull(),
    subjectId: text('subject_id').notNull(),
    project: text('project'),
    payload: jsonb('payload').notNull(),
    occurredAt: timestamptz('occurred_at').notNull(),
    /** The writing transaction: orders events across agents (src/events/operator-cursor.ts). */
    txId: xid8('tx_id')
      .notNull()
      .default(sql`pg_current_xact_id()`),
  },
  (t) => [
    primaryKey({ columns: [t.agentId, t.sequence] }),
    belongsToAgent('agent_events', t.agentId),
    index('agent_events_stream_idx').on(t.agentId, t.stream, t.sequence),
    index('agent_events_occurred_idx').on(t.occurredAt),
    index('agent_events_tx_idx').on(t.txId, t.agentId, t.sequence),
  ],
);
