/**
 * The statements the writes run under the session lock: take the lock (refusing an archived
 * session), insert one entry, and move a span of active entries into a new archive generation.
 */
import { sql, type SQL } from 'drizzle-orm';
import type { DbOrTx } from '../../db/database.js';
import { NotFoundError } from '../../lib/errors.js';
import { newId } from '../../lib/ids.js';
import type { Actor } from '../../auth/viewer.js';
import type { ArchiveKind } from './conversations.sql.js';
import { SessionArchivedError } from './conversations.errors.js';
import { toArchive, toDate, toOriginal, type RawArchive, type RawOriginal } from './conversations.rows.js';
import type { ArchiveRow, ConversationDeps, OriginalRow } from './conversations.types.js';

export interface LockedSession {
  last_position: string | number;
  archive_generation: number;
  archived_at: Date | string | null;
  archived_by_kind: string | null;
  archived_by_id: string | null;
  archive_reason: string | null;
  [key: string]: unknown;
}

/** The session row lock every write to a session's originals takes first; archived sessions refuse writes. */
export async function lockWritableSession(tx: DbOrTx, agentId: string, sessionId: string): Promise<LockedSession> {
  const locked = await tx.execute<LockedSession>(sql`
    SELECT last_position, archive_generation, archived_at, archived_by_kind, archived_by_id, archive_reason FROM conversation_sessions
     WHERE agent_id = ${agentId} AND session_id = ${sessionId}
       FOR UPDATE`);
  if (locked.rows.length === 0) throw new NotFoundError('ConversationSession', sessionId);
  const row = locked.rows[0];
  if (row.archived_at != null) {
    throw new SessionArchivedError(sessionId, toDate(row.archived_at), `${row.archived_by_kind}:${row.archived_by_id}`, row.archive_reason);
  }
  return row;
}

/** The session after a new active entry at `position` (an append, or a compaction's summary). */
export async function countNewEntry(tx: DbOrTx, agentId: string, sessionId: string, position: number, now: Date): Promise<void> {
  await tx.execute(sql`
    UPDATE conversation_sessions SET last_position = ${position}, active_entry_count = active_entry_count + 1, updated_at = ${now}
     WHERE agent_id = ${agentId} AND session_id = ${sessionId}`);
}

export async function insertEntry(
  tx: DbOrTx,
  e: {
    agentId: string;
    sessionId: string;
    id?: string;
    position: number;
    role: string | null;
    conversationId: string | null;
    payload: string;
    now: Date;
    summarizesGeneration?: number;
    historyPosition?: number;
  },
): Promise<OriginalRow> {
  const inserted = await tx.execute<RawOriginal>(sql`
    INSERT INTO conversation_entries (agent_id, session_id, id, position, role, conversation_id, payload, created_at, summarizes_generation, history_position)
    VALUES (${e.agentId}, ${e.sessionId}, ${e.id ?? newId()}, ${e.position}, ${e.role}, ${e.conversationId}, ${e.payload}::json, ${e.now},
            ${e.summarizesGeneration ?? null}, ${e.historyPosition ?? null})
    RETURNING agent_id, session_id, id AS entry_id, position, NULL::integer AS archive_generation, role, conversation_id,
              payload::text AS payload, created_at, NULL::timestamptz AS archived_at, summarizes_generation,
              COALESCE(history_position, position) AS history_position`);
  return toOriginal(inserted.rows[0]);
}

/**
 * The one way active entries become archived, for reset (span: everything) and compaction (span:
 * a range of the active history): a header counting what the span holds, then one statement that
 * moves the span's rows (DELETE … RETURNING into the archive, byte for byte), then the session's
 * generation and counters. The caller holds the session lock.
 */
export async function archiveActiveEntries(
  deps: ConversationDeps,
  tx: DbOrTx,
  a: {
    agentId: string;
    sessionId: string;
    generation: number;
    span: SQL;
    kind: ArchiveKind;
    reason: string | null;
    summaryEntryId: string | null;
    actor: Actor;
    now: Date;
  },
): Promise<ArchiveRow> {
  const header = await tx.execute<RawArchive>(sql`
    INSERT INTO conversation_archives (agent_id, session_id, generation, entry_count, first_position, last_position, reason, archived_at,
                                       archived_by_kind, archived_by_id, kind, summary_entry_id)
    SELECT ${a.agentId}, ${a.sessionId}, ${a.generation}, count(*), min(position), max(position), ${a.reason}, ${a.now},
           ${a.actor.kind}, ${a.actor.id}, ${a.kind}, ${a.summaryEntryId}
      FROM conversation_entries WHERE agent_id = ${a.agentId} AND session_id = ${a.sessionId} ${a.span}
    RETURNING *`);
  deps.faults('conversation.after_archive_header');
  const archive = toArchive(header.rows[0]);
  const moved = await tx.execute(sql`
    WITH moved AS (
      DELETE FROM conversation_entries WHERE agent_id = ${a.agentId} AND session_id = ${a.sessionId} ${a.span}
      RETURNING agent_id, session_id, id, position, role, conversation_id, payload, created_at, summarizes_generation, history_position
    )
    INSERT INTO conversation_archive_entries (agent_id, session_id, generation, id, position, role, conversation_id, payload, created_at, archived_at,
                                              summarizes_generation, history_position)
    SELECT agent_id, session_id, ${a.generation}, id, position, role, conversation_id, payload, created_at, ${a.now}, summarizes_generation, history_position
      FROM moved`);
  // The header and the move read the same rows under the same lock; a difference is a bug, not a race.
  if ((moved.rowCount ?? archive.entryCount) !== archive.entryCount) throw new Error(`archived ${moved.rowCount} entries, header counted ${archive.entryCount}`);
  deps.faults('conversation.after_archive_entries');
  await tx.execute(sql`
    UPDATE conversation_sessions
       SET archive_generation = ${a.generation},
           active_entry_count = active_entry_count - ${archive.entryCount},
           archived_entry_count = archived_entry_count + ${archive.entryCount}
     WHERE agent_id = ${a.agentId} AND session_id = ${a.sessionId}`);
  return archive;
}
