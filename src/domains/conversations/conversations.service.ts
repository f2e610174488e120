/**
 * Conversation originals: the evidence authority. Payloads are stored as PostgreSQL `json`
 * (the text as sent) and only ever read back as text, so key order, duplicate keys, big numbers
 * and unicode survive byte for byte. Nothing here erases an original: a reset moves the active
 * entries into a new archive generation.
 */
import { sql, type SQL } from 'drizzle-orm';
import type { Db, DbOrTx } from '../../db/database.js';
import type { Clock } from '../../lib/clock.js';
import { NotFoundError, RequestError, ValidationError } from '../../lib/errors.js';
import type { FaultInjector } from '../../lib/faults.js';
import { newId } from '../../lib/ids.js';
import { charLength } from '../../lib/text.js';
import { assertCleanText, assertJsonText } from '../../lib/text-policy.js';
import { actorOf, resolveActingAgent, type Viewer } from '../../auth/viewer.js';
import { RUNTIME_ID_LIMIT, requireSession } from '../../auth/runtime.js';
import { appendEvent } from '../../events/events.service.js';
import { CONVERSATION_LIMITS } from './conversations.sql.js';

export interface OriginalRow {
  agentId: string;
  sessionId: string;
  entryId: string;
  position: number;
  /** Null for an active entry; the archive generation that holds it otherwise. */
  archiveGeneration: number | null;
  role: string | null;
  conversationId: string | null;
  /** The stored JSON text, exactly as appended. */
  payload: string;
  createdAt: Date;
  archivedAt: Date | null;
}

export interface ArchiveRow {
  agentId: string;
  sessionId: string;
  generation: number;
  entryCount: number;
  firstPosition: number | null;
  lastPosition: number | null;
  reason: string | null;
  archivedAt: Date;
  archivedByKind: string;
  archivedById: string;
}

export const ORIGINAL_REF_PREFIX = 'conversation:';
export const originalReference = (sessionId: string, entryId: string) => `${ORIGINAL_REF_PREFIX}${sessionId}/${entryId}`;

/** `conversation:<sessionId>/<entryId>` -> its parts (entry ids never contain "/"), or null. */
export function parseOriginalReference(ref: string): { sessionId: string; entryId: string } | null {
  if (!ref.startsWith(ORIGINAL_REF_PREFIX)) return null;
  const rest = ref.slice(ORIGINAL_REF_PREFIX.length);
  const slash = rest.lastIndexOf('/');
  if (slash <= 0 || slash === rest.length - 1) return null;
  return { sessionId: rest.slice(0, slash), entryId: rest.slice(slash + 1) };
}

const INVALID_JSON_CODES = new Set(['22P02', '22P05', '22025', '22021', '54000']);

export class ConversationsService {
  constructor(
    private readonly db: Db,
    private readonly clock: Clock,
    private readonly faults: FaultInjector,
  ) {}

  /**
   * Appends one original to the runtime session. The session row is locked (SELECT … FOR
   * UPDATE) for the whole transaction, so concurrent appends to one session take positions one
   * after another, in commit order, without gaps.
   */
  async append(viewer: Viewer | null, input: { agentId?: string | null; payload: string; role?: string | null }): Promise<OriginalRow> {
    const { viewer: v, agentId } = resolveActingAgent(viewer, input.agentId);
    const sessionId = requireSession(v);
    if (charLength(sessionId) > RUNTIME_ID_LIMIT) throw new RequestError('BAD_REQUEST', `the session id is longer than ${RUNTIME_ID_LIMIT} characters`);
    validatePayload(input.payload);
    assertCleanText('role', input.role);
    if (input.role != null && (input.role.trim().length === 0 || charLength(input.role) > CONVERSATION_LIMITS.role)) {
      throw new ValidationError('role', `role is 1 to ${CONVERSATION_LIMITS.role} characters`, CONVERSATION_LIMITS.role);
    }
    const now = this.clock.now();
    try {
      return await this.db.transaction(async (tx) => {
        await tx.execute(sql`
          INSERT INTO conversation_sessions (agent_id, session_id, project, last_position, archive_generation, created_at, updated_at)
          VALUES (${agentId}, ${sessionId}, ${v.scope}, 0, 0, ${now}, ${now})
          ON CONFLICT (agent_id, session_id) DO NOTHING`);
        const locked = await tx.execute<{ last_position: string }>(sql`
          SELECT last_position FROM conversation_sessions
           WHERE agent_id = ${agentId} AND session_id = ${sessionId}
             FOR UPDATE`);
        const position = Number(locked.rows[0].last_position) + 1;
        this.faults('conversation.after_lock');
        const inserted = await tx.execute<RawOriginal>(sql`
          INSERT INTO conversation_entries (agent_id, session_id, id, position, role, conversation_id, payload, created_at)
          VALUES (${agentId}, ${sessionId}, ${newId()}, ${position}, ${input.role ?? null}, ${v.conversationId}, ${input.payload}::json, ${now})
          RETURNING agent_id, session_id, id AS entry_id, position, NULL::integer AS archive_generation, role, conversation_id,
                    payload::text AS payload, created_at, NULL::timestamptz AS archived_at`);
        await tx.execute(sql`
          UPDATE conversation_sessions SET last_position = ${position}, updated_at = ${now}
           WHERE agent_id = ${agentId} AND session_id = ${sessionId}`);
        const row = toOriginal(inserted.rows[0]);
        await appendEvent(tx, this.clock, {
          agentId,
          stream: 'conversation',
          type: 'conversation.appended',
          subjectId: originalReference(sessionId, row.entryId),
          project: v.scope,
          payload: { sessionId, entryId: row.entryId, position },
        });
        return row;
      });
    } catch (error) {
      const code = (error as { code?: string; cause?: { code?: string } }).code ?? (error as { cause?: { code?: string } }).cause?.code;
      if (code && INVALID_JSON_CODES.has(code)) throw new ValidationError('payload', `PostgreSQL rejected the payload as json: ${(error as Error).message}`);
      throw error;
    }
  }

  /**
   * Archives the session's active entries into a new generation (header + entries) and leaves
   * the session empty. The entries are moved, not copied and deleted in separate steps: one
   * statement, under the session lock, so nothing can be appended in between.
   */
  async reset(viewer: Viewer | null, input: { agentId?: string | null; sessionId?: string | null; reason?: string | null }): Promise<ArchiveRow> {
    const { viewer: v, agentId } = resolveActingAgent(viewer, input.agentId);
    assertCleanText('sessionId', input.sessionId);
    assertCleanText('reason', input.reason);
    const sessionId = this.targetSession(v, input.sessionId);
    if (input.reason != null && charLength(input.reason) > CONVERSATION_LIMITS.reason) {
      throw new ValidationError('reason', `reason is bounded to ${CONVERSATION_LIMITS.reason} characters`, CONVERSATION_LIMITS.reason);
    }
    const now = this.clock.now();
    const actor = actorOf(v);
    return this.db.transaction(async (tx) => {
      const locked = await tx.execute<{ archive_generation: number }>(sql`
        SELECT archive_generation FROM conversation_sessions
         WHERE agent_id = ${agentId} AND session_id = ${sessionId}
           FOR UPDATE`);
      if (locked.rows.length === 0) throw new NotFoundError('ConversationSession', sessionId);
      const generation = Number(locked.rows[0].archive_generation) + 1;
      const header = await tx.execute<RawArchive>(sql`
        INSERT INTO conversation_archives (agent_id, session_id, generation, entry_count, first_position, last_position, reason, archived_at, archived_by_kind, archived_by_id)
        SELECT ${agentId}, ${sessionId}, ${generation}, count(*), min(position), max(position), ${input.reason ?? null}, ${now}, ${actor.kind}, ${actor.id}
          FROM conversation_entries WHERE agent_id = ${agentId} AND session_id = ${sessionId}
        RETURNING *`);
      this.faults('conversation.after_archive_header');
      await tx.execute(sql`
        WITH moved AS (
          DELETE FROM conversation_entries WHERE agent_id = ${agentId} AND session_id = ${sessionId}
          RETURNING agent_id, session_id, id, position, role, conversation_id, payload, created_at
        )
        INSERT INTO conversation_archive_entries (agent_id, session_id, generation, id, position, role, conversation_id, payload, created_at, archived_at)
        SELECT agent_id, session_id, ${generation}, id, position, role, conversation_id, payload, created_at, ${now} FROM moved`);
      this.faults('conversation.after_archive_entries');
      await tx.execute(sql`
        UPDATE conversation_sessions SET archive_generation = ${generation}, updated_at = ${now}
         WHERE agent_id = ${agentId} AND session_id = ${sessionId}`);
      const archive = toArchive(header.rows[0]);
      await appendEvent(tx, this.clock, {
        agentId,
        stream: 'conversation',
        type: 'conversation.reset',
        subjectId: `${ORIGINAL_REF_PREFIX}${sessionId}`,
        project: v.scope,
        payload: { sessionId, generation, entryCount: archive.entryCount },
      });
      return archive;
    });
  }

  /** Originals of one session, active and archived, from the read-only union view, by position. */
  async originals(
    viewer: Viewer | null,
    input: { agentId?: string | null; sessionId: string; afterPosition: number | null; limit: number },
  ): Promise<{ agentId: string; rows: OriginalRow[] }> {
    const { agentId } = resolveActingAgent(viewer, input.agentId);
    if (input.sessionId.includes('\u0000')) throw new RequestError('BAD_REQUEST', 'sessionId must not contain U+0000');
    const after = input.afterPosition == null ? sql`` : sql`AND position > ${input.afterPosition}`;
    const result = await this.db.execute<RawOriginal>(sql`
      SELECT agent_id, session_id, entry_id, position, archive_generation, role, conversation_id, payload::text AS payload, created_at, archived_at
        FROM conversation_original_rows
       WHERE agent_id = ${agentId} AND session_id = ${input.sessionId} ${after}
       ORDER BY position ASC
       LIMIT ${input.limit}`);
    return { agentId, rows: result.rows.map(toOriginal) };
  }

  async archives(viewer: Viewer | null, input: { agentId?: string | null; sessionId: string }): Promise<ArchiveRow[]> {
    const { agentId } = resolveActingAgent(viewer, input.agentId);
    if (input.sessionId.includes('\u0000')) throw new RequestError('BAD_REQUEST', 'sessionId must not contain U+0000');
    const result = await this.db.execute<RawArchive>(sql`
      SELECT * FROM conversation_archives WHERE agent_id = ${agentId} AND session_id = ${input.sessionId} ORDER BY generation ASC`);
    return result.rows.map(toArchive);
  }

  /**
   * Resolves `conversation:<sessionId>/<entryId>` references of one agent's record to the
   * originals they cite (active or archived). Other references resolve to null.
   */
  async resolveReferences(agentId: string, refs: readonly string[]): Promise<Map<string, OriginalRow | null>> {
    const resolved = new Map<string, OriginalRow | null>(refs.map((ref) => [ref, null]));
    const parsed = refs
      .filter((ref) => !ref.includes('\u0000'))
      .map(parseOriginalReference)
      .filter((p): p is { sessionId: string; entryId: string } => p !== null);
    if (parsed.length === 0) return resolved;
    const pairs: SQL[] = parsed.map((p) => sql`(session_id = ${p.sessionId} AND entry_id = ${p.entryId})`);
    const result = await this.db.execute<RawOriginal>(sql`
      SELECT agent_id, session_id, entry_id, position, archive_generation, role, conversation_id, payload::text AS payload, created_at, archived_at
        FROM conversation_original_rows
       WHERE agent_id = ${agentId} AND (${sql.join(pairs, sql` OR `)})`);
    for (const row of result.rows.map(toOriginal)) resolved.set(originalReference(row.sessionId, row.entryId), row);
    return resolved;
  }

  /** Agents reset their runtime session; operators name any session (or use their header). */
  private targetSession(viewer: Viewer, requested: string | null | undefined): string {
    if (viewer.principal === 'AGENT') {
      const current = requireSession(viewer);
      if (requested != null && requested !== current) {
        throw new RequestError('session_mismatch', `requested session "${requested}" differs from the runtime session "${current}"`);
      }
      return current;
    }
    return requested ?? requireSession(viewer);
  }
}

function validatePayload(payload: string) {
  const length = charLength(payload);
  if (length > CONVERSATION_LIMITS.payload) {
    throw new ValidationError('payload', `an original payload is bounded to ${CONVERSATION_LIMITS.payload} characters of JSON text (got ${length})`, CONVERSATION_LIMITS.payload);
  }
  // Validation only: the text itself is what is stored.
  assertJsonText('payload', payload);
}

interface RawOriginal {
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
  [key: string]: unknown;
}

interface RawArchive {
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
  [key: string]: unknown;
}

const toDate = (value: Date | string) => (value instanceof Date ? value : new Date(value));

function toOriginal(row: RawOriginal): OriginalRow {
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
  };
}

function toArchive(row: RawArchive): ArchiveRow {
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
  };
}
