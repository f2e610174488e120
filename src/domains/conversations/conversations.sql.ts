import { sql } from 'drizzle-orm';
import { bigint, check, foreignKey, index, integer, json, pgTable, primaryKey, text, unique, type AnyPgColumn } from 'drizzle-orm/pg-core';
import { timestamptz } from '../../db/columns.js';
import { belongsToAgent } from '../agents/agents.sql.js';

export const CONVERSATION_LIMITS = {
  /** Characters of one original payload's JSON text. */
  payload: 1_000_000,
  role: 64,
  sessionId: 200,
  reason: 2_000,
  page: 100,
  /** Characters of a search term over originals. */
  searchQuery: 200,
  searchPage: 50,
  sessionsPage: 100,
} as const;

export const ARCHIVE_KINDS = ['reset', 'compaction'] as const;
export type ArchiveKind = (typeof ARCHIVE_KINDS)[number];

/**
 * One row per agent session that has originals. Appends lock this row (SELECT … FOR UPDATE), so
 * positions of one session are allocated in commit order without gaps. Positions never restart:
 * a reset moves entries to an archive generation and the next append continues the sequence.
 */
export const conversationSessions = pgTable(
  'conversation_sessions',
  {
    agentId: text('agent_id').notNull(),
    sessionId: text('session_id').notNull(),
    project: text('project'),
    lastPosition: bigint('last_position', { mode: 'number' }).notNull().default(0),
    archiveGeneration: integer('archive_generation').notNull().default(0),
    /** Counters kept under the session lock, so the session list never counts rows. */
    activeEntryCount: integer('active_entry_count').notNull().default(0),
    archivedEntryCount: integer('archived_entry_count').notNull().default(0),
    /** First activity: the first append created the row. */
    createdAt: timestamptz('created_at').notNull(),
    /** Last activity: the last append, compaction or reset (archiving a session does not touch it). */
    updatedAt: timestamptz('updated_at').notNull(),
    /** Set while the session is archived (metadata only: every original stays where it is). */
    archivedAt: timestamptz('archived_at'),
    archivedByKind: text('archived_by_kind'),
    archivedById: text('archived_by_id'),
    archiveReason: text('archive_reason'),
  },
  (t) => [
    primaryKey({ columns: [t.agentId, t.sessionId] }),
    belongsToAgent('conversation_sessions', t.agentId),
    check('conversation_sessions_session_length', sql`char_length(${t.sessionId}) BETWEEN 1 AND 200`),
    check('conversation_sessions_counts_nonnegative', sql`${t.activeEntryCount} >= 0 AND ${t.archivedEntryCount} >= 0`),
    check('conversation_sessions_archive_reason_length', sql`char_length(${t.archiveReason}) <= 2000`),
    check(
      'conversation_sessions_archived_by',
      sql`(${t.archivedAt} IS NULL AND ${t.archivedByKind} IS NULL AND ${t.archivedById} IS NULL AND ${t.archiveReason} IS NULL) OR (${t.archivedAt} IS NOT NULL AND ${t.archivedByKind} IS NOT NULL AND ${t.archivedById} IS NOT NULL)`,
    ),
    // The session list, newest first activity first: a backward scan gives ORDER BY … DESC (NULLS FIRST) exactly.
    index('conversation_sessions_agent_created_idx').on(t.agentId, t.createdAt, t.sessionId),
  ],
);

/** Originals and archives reference their session by (agent_id, session_id). */
const sessionOf = (table: string, agentId: AnyPgColumn, sessionId: AnyPgColumn) =>
  foreignKey({ name: `${table}_session_fk`, columns: [agentId, sessionId], foreignColumns: [conversationSessions.agentId, conversationSessions.sessionId] }).onDelete('restrict');

/** Active originals. The payload is PostgreSQL `json` (text kept as sent), never `jsonb`. */
export const conversationEntries = pgTable(
  'conversation_entries',
  {
    agentId: text('agent_id').notNull(),
    sessionId: text('session_id').notNull(),
    id: text('id').notNull(),
    position: bigint('position', { mode: 'number' }).notNull(),
    role: text('role'),
    conversationId: text('conversation_id'),
    payload: json('payload').notNull(),
    createdAt: timestamptz('created_at').notNull(),
    /** Set on a compaction summary: the archive generation holding the originals it stands for. */
    summarizesGeneration: integer('summarizes_generation'),
    /**
     * Order in the active history when it differs from `position`: a summary takes the place of
     * the first entry it replaced (null means `position`).
     */
    historyPosition: bigint('history_position', { mode: 'number' }),
  },
  (t) => [
    primaryKey({ columns: [t.agentId, t.id] }),
    unique('conversation_entries_position_key').on(t.agentId, t.sessionId, t.position),
    sessionOf('conversation_entries', t.agentId, t.sessionId),
    // Search over originals, newest first: a backward scan gives ORDER BY … DESC (NULLS FIRST) exactly.
    index('conversation_entries_agent_created_idx').on(t.agentId, t.createdAt, t.sessionId, t.position),
    check('conversation_entries_position_positive', sql`${t.position} >= 1`),
    check('conversation_entries_payload_length', sql`char_length(${t.payload}::text) <= 1000000`),
    check('conversation_entries_role_length', sql`char_length(${t.role}) BETWEEN 1 AND 64`),
  ],
);

/** One header per reset (archive generation) of a session. */
export const conversationArchives = pgTable(
  'conversation_archives',
  {
    agentId: text('agent_id').notNull(),
    sessionId: text('session_id').notNull(),
    generation: integer('generation').notNull(),
    entryCount: integer('entry_count').notNull(),
    firstPosition: bigint('first_position', { mode: 'number' }),
    lastPosition: bigint('last_position', { mode: 'number' }),
    reason: text('reason'),
    archivedAt: timestamptz('archived_at').notNull(),
    archivedByKind: text('archived_by_kind').notNull(),
    archivedById: text('archived_by_id').notNull(),
    /** What made this generation: a reset (everything active) or a compaction (one span). */
    kind: text('kind').notNull().default('reset'),
    /** A compaction's summary entry, which now stands for this generation in the active history. */
    summaryEntryId: text('summary_entry_id'),
  },
  (t) => [
    primaryKey({ columns: [t.agentId, t.sessionId, t.generation] }),
    sessionOf('conversation_archives', t.agentId, t.sessionId),
    check('conversation_archives_generation_positive', sql`${t.generation} >= 1`),
    check('conversation_archives_kind', sql`${t.kind} IN ('reset', 'compaction') AND (${t.kind} = 'compaction') = (${t.summaryEntryId} IS NOT NULL)`),
    check('conversation_archives_reason_length', sql`char_length(${t.reason}) <= 2000`),
  ],
);

/** Archived originals: moved, byte for byte, out of conversation_entries by a reset or a compaction. */
export const conversationArchiveEntries = pgTable(
  'conversation_archive_entries',
  {
    agentId: text('agent_id').notNull(),
    sessionId: text('session_id').notNull(),
    generation: integer('generation').notNull(),
    id: text('id').notNull(),
    position: bigint('position', { mode: 'number' }).notNull(),
    role: text('role'),
    conversationId: text('conversation_id'),
    payload: json('payload').notNull(),
    createdAt: timestamptz('created_at').notNull(),
    archivedAt: timestamptz('archived_at').notNull(),
    summarizesGeneration: integer('summarizes_generation'),
    historyPosition: bigint('history_position', { mode: 'number' }),
  },
  (t) => [
    primaryKey({ columns: [t.agentId, t.id] }),
    unique('conversation_archive_entries_position_key').on(t.agentId, t.sessionId, t.position),
    // conversation_archive_entries_archive_fk (agent_id, session_id, generation) -> conversation_archives
    // is declared in the hand-written migration 0003, which predates the keys declared here.
    index('conversation_archive_entries_agent_created_idx').on(t.agentId, t.createdAt, t.sessionId, t.position),
  ],
);
