/**
 * Rows as PostgreSQL returns them and their mapping to the row shapes, with the columns and the
 * keyset expressions the reads share.
 */
import { sql } from 'drizzle-orm';
import type { ArchiveKind } from './conversations.sql.js';
import type { ArchiveRow, OriginalRow, SessionRow } from './conversations.types.js';

/** The columns of conversation_original_rows every read returns. */
export const ORIGINAL_COLUMNS = sql.raw(
  `agent_id, session_id, entry_id, position, archive_generation, role, conversation_id, payload::text AS payload, created_at, archived_at,
   summarizes_generation, COALESCE(history_position, position) AS history_position`,
);
/** Microseconds since the epoch, exact (numeric), as text: the keyset of the newest-first lists. */
export const microsOf = (column: string) => sql.raw(`(extract(epoch FROM ${column}) * 1000000)::bigint::text`);
export const fromMicros = (micros: string) => sql`(timestamptz 'epoch' + ${micros}::bigint * interval '1 microsecond')`;

export interface RawSession {
  agent_id: string;
  session_id: string;
  project: string | null;
  last_position: string | number;
  archive_generation: number;
  active_entry_count: number;
  archived_entry_count: number;
  created_at: Date | string;
  updated_at: Date | string;
  archived_at: Date | string | null;
  archived_by_kind: string | null;
  archived_by_id: string | null;
  archive_reason: string | null;
  [key: string]: unknown;
}

export function toSession(row: RawSession): SessionRow {
  return {
    agentId: row.agent_id,
    sessionId: row.session_id,
    project: row.project,
    lastPosition: Number(row.last_position),
    archiveGenerations: Number(row.archive_generation),
    activeEntryCount: Number(row.active_entry_count),
    archivedEntryCount: Number(row.archived_entry_count),
    createdAt: toDate(row.created_at),
    updatedAt: toDate(row.updated_at),
    archivedAt: row.archived_at == null ? null : toDate(row.archived_at),
    archivedByKind: row.archived_by_kind,
    archivedById: row.archived_by_id,
    archiveReason: row.archive_reason,
  };
}

export interface RawOriginal {
  agent_id: string;
  session_id: string;
  entry_id: string;
  position: string | number;
  archive_generation: number | null;
  role: string | null;
  conversation_id: string | null;
  payload: string;
  created_at: Date | string;
  archived_at: Date | string | null;
  summarizes_generation: number | null;
  history_position: string | number;
  [key: string]: unknown;
}

export interface RawArchive {
  agent_id: string;
  session_id: string;
  generation: number;
  entry_count: number | string;
  first_position: string | number | null;
  last_position: string | number | null;
  reason: string | null;
  archived_at: Date | string;
  archived_by_kind: string;
  archived_by_id: string;
  kind: string;
  summary_entry_id: string | null;
  [key: string]: unknown;
}

export const toDate = (value: Date | string) => (value instanceof Date ? value : new Date(value));

export function toOriginal(row: RawOriginal): OriginalRow {
  return {
    agentId: row.agent_id,
    sessionId: row.session_id,
    entryId: row.entry_id,
    position: Number(row.position),
    archiveGeneration: row.archive_generation == null ? null : Number(row.archive_generation),
    role: row.role,
    conversationId: row.conversation_id,
    payload: row.payload,
    createdAt: toDate(row.created_at),
    archivedAt: row.archived_at == null ? null : toDate(row.archived_at),
    summarizesGeneration: row.summarizes_generation == null ? null : Number(row.summarizes_generation),
    historyPosition: Number(row.history_position),
  };
}

export function toArchive(row: RawArchive): ArchiveRow {
  return {
    agentId: row.agent_id,
    sessionId: row.session_id,
    generation: Number(row.generation),
    entryCount: Number(row.entry_count),
    firstPosition: row.first_position == null ? null : Number(row.first_position),
    lastPosition: row.last_position == null ? null : Number(row.last_position),
    reason: row.reason,
    archivedAt: toDate(row.archived_at),
    archivedByKind: row.archived_by_kind,
    archivedById: row.archived_by_id,
    kind: row.kind as ArchiveKind,
    summaryEntryId: row.summary_entry_id,
  };
}
