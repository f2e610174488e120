import { sql } from 'drizzle-orm';
import { check, date, index, pgTable, primaryKey, text } from 'drizzle-orm/pg-core';
import { timestamptz } from '../../db/columns.js';
import { belongsToAgent } from '../agents/agents.sql.js';

export const DREAM_DIARY_LIMITS = { title: 240, body: 24_000, read: 200, defaultRead: 50 } as const;

/**
 * The Dream diary: an operator-facing narrative history, append-only (a trigger refuses UPDATE,
 * and DELETE outside a retention sweep). Never prompt authority: no agent-readable field reads it.
 */
export const dreamDiaryEntries = pgTable(
  'dream_diary_entries',
  {
    agentId: text('agent_id').notNull(),
    id: text('id').notNull(),
    entryDate: date('entry_date', { mode: 'string' }).notNull(),
    title: text('title').notNull(),
    body: text('body').notNull(),
    writtenBy: text('written_by').notNull(),
    createdAt: timestamptz('created_at').notNull(),
    expiresAt: timestamptz('expires_at').notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.agentId, t.id] }),
    belongsToAgent('dream_diary_entries', t.agentId),
    check('dream_diary_entries_title_length', sql`char_length(${t.title}) <= 240`),
    check('dream_diary_entries_body_length', sql`char_length(${t.body}) BETWEEN 1 AND 24000`),
    index('dream_diary_entries_date_idx').on(t.agentId, t.entryDate, t.createdAt),
    index('dream_diary_entries_expiry_idx').on(t.expiresAt),
  ],
);
