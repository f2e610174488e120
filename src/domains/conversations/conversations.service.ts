/**
 * Conversation originals: the evidence authority. Payloads are stored as PostgreSQL `json`
 * (the text as sent) and only ever read back as text, so key order, duplicate keys, big numbers
 * and unicode survive byte for byte. Nothing here erases an original: a reset moves the active
 * entries into a new archive generation, a compaction moves one span of them into a new generation
 * and puts a summary in its place, and archiving a session only changes its metadata.
 */
import { sql, type SQL } from 'drizzle-orm';
import type { Db, DbOrTx } from '../../db/database.js';
import type { Clock } from '../../lib/clock.js';
import { BurrowError, NotFoundError, RequestError, ValidationError, badRequest } from '../../lib/errors.js';
import type { FaultInjector } from '../../lib/faults.js';
import { newId } from '../../lib/ids.js';
import { charLength, escapeLike } from '../../lib/text.js';
import { assertCleanText, assertJsonText } from '../../lib/text-policy.js';
import { actorOf, resolveActingAgent, type Actor, type Viewer } from '../../auth/viewer.js';
import { RUNTIME_ID_LIMIT, requireSession } from '../../auth/runtime.js';
import { appendEvent } from '../../events/events.service.js';
import { CONVERSATION_LIMITS, type ArchiveKind } from './conversations.sql.js';
import { forExistingAgent } from '../../db/foreign-keys.js';

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
  /** Set on a compaction summary: the archive generation holding the originals it stands for. */
  summarizesGeneration: number | null;
  /** Place in the active history: a summary takes the place of the first entry it replaced. */
  historyPosition: number;
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
  kind: ArchiveKind;
  summaryEntryId: string | null;
}

export interface SessionRow {
  agentId: string;
  sessionId: string;
  project: string | null;
  lastPosition: number;
  archiveGenerations: number;
  activeEntryCount: number;
  archivedEntryCount: number;
  createdAt: Date;
  updatedAt: Date;
  archivedAt: Date | null;
  archivedByKind: string | null;
  archivedById: string | null;
  archiveReason: string | null;
}

export type SessionArchiveFilter = 'EXCLUDE' | 'INCLUDE' | 'ONLY';

/** Keyset of the newest-first lists: the timestamp in microseconds since the epoch (exact, unlike a JS Date). */
export interface NewestFirstKey {
  micros: string;
  sessionId: string;
  position?: number;
}

/** A write to an archived session: refused until it is unarchived. Nothing was changed. */
export class SessionArchivedError extends BurrowError {
  constructor(
    readonly sessionId: string,
    readonly archivedAt: Date,
    readonly archivedBy: string,
    readonly reason: string | null,
  ) {
    super('SESSION_ARCHIVED', `session ${sessionId} is archived (since ${archivedAt.toISOString()}); unarchive it before writing to it`);
  }
}

/** Unarchiving a session that is not archived. Nothing was changed. */
export class SessionNotArchivedError extends BurrowError {
  constructor(readonly sessionId: string) {
    super('SESSION_NOT_ARCHIVED', `session ${sessionId} is not archived`);
  }
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

/** The columns of conversation_original_rows every read returns. */
const ORIGINAL_COLUMNS = sql.raw(
  `agent_id, session_id, entry_id, position, archive_generation, role, conversation_id, payload::text AS payload, created_at, archived_at,
   summarizes_generation, COALESCE(history_position, position) AS history_position`,
);
/** Microseconds since the epoch, exact (numeric), as text: the keyset of the newest-first lists. */
const microsOf = (column: string) => sql.raw(`(extract(epoch FROM ${column}) * 1000000)::bigint::text`);
const fromMicros = (micros: string) => sql`(timestamptz 'epoch' + ${micros}::bigint * interval '1 microsecond')`;
/** Strictly after `key` in newest-first order (created_at, session_id, position descending). */
const olderThan = (key: NewestFirstKey) => sql`(created_at, session_id, position) < (${fromMicros(key.micros)}, ${key.sessionId}, ${key.position ?? 0})`;
/** How many of the newest candidates a search matches in order before it turns to the trigram index. */
export const SEARCH_WINDOW = 2_000;

interface LockedSession {
  last_position: string | number;
  archive_generation: number;
  archived_at: Date | string | null;
  archived_by_kind: string | null;
  archived_by_id: string | null;
  archive_reason: string | null;
  [key: string]: unknown;
}

export class ConversationsService {
  constructor(
    private readonly db: Db,
    private readonly clock: Clock,
    private readonly faults: FaultInjector,
  ) {}

  /**
   * Appends one original to the runtime session. The session row is locked (SELECT … FOR
   * UPDATE) for the whole transaction, so concurrent appends to one session take positions one
   * after another, in commit order, without gaps. An archived session refuses the append.
   */
  async append(viewer: Viewer | null, input: { agentId?: string | null; payload: string; role?: string | null }): Promise<OriginalRow> {
    const { viewer: v, agentId } = resolveActingAgent(viewer, input.agentId);
    const sessionId = requireSession(v);
    if (charLength(sessionId) > RUNTIME_ID_LIMIT) throw new RequestError('BAD_REQUEST', `the session id is longer than ${RUNTIME_ID_LIMIT} characters`);
    validatePayload('payload', input.payload);
    validateRole(input.role);
    const now = this.clock.now();
    return withJsonErrors('payload', () =>
      forExistingAgent(agentId, () =>
        this.db.transaction(async (tx) => {
          await tx.execute(sql`
          INSERT INTO conversation_sessions (agent_id, session_id, project, last_position, archive_generation, created_at, updated_at)
          VALUES (${agentId}, ${sessionId}, ${v.scope}, 0, 0, ${now}, ${now})
          ON CONFLICT (agent_id, session_id) DO NOTHING`);
          const locked = await this.lockWritableSession(tx, agentId, sessionId);
          const position = Number(locked.last_position) + 1;
          this.faults('conversation.after_lock');
          const row = await this.insertEntry(tx, { agentId, sessionId, position, role: input.role ?? null, conversationId: v.conversationId, payload: input.payload, now });
          await tx.execute(sql`
          UPDATE conversation_sessions SET last_position = ${position}, active_entry_count = active_entry_count + 1, updated_at = ${now}
           WHERE agent_id = ${agentId} AND session_id = ${sessionId}`);
          await appendEvent(tx, this.clock, {
            agentId,
            stream: 'conversation',
            type: 'conversation.appended',
            subjectId: originalReference(sessionId, row.entryId),
            project: v.scope,
            payload: { sessionId, entryId: row.entryId, position },
          });
          return row;
        }),
      ),
    );
  }

  /**
   * Archives the session's active entries into a new generation (header + entries) and leaves
   * the session empty, under the session lock, so nothing can be appended in between.
   */
  async reset(viewer: Viewer | null, input: { agentId?: string | null; sessionId?: string | null; reason?: string | null }): Promise<ArchiveRow> {
    const { viewer: v, agentId } = resolveActingAgent(viewer, input.agentId);
    assertCleanText('sessionId', input.sessionId);
    assertCleanText('reason', input.reason);
    const sessionId = this.targetSession(v, input.sessionId);
    validateReason(input.reason);
    const now = this.clock.now();
    const actor = actorOf(v);
    return this.db.transaction(async (tx) => {
      const locked = await this.lockWritableSession(tx, agentId, sessionId);
      const generation = Number(locked.archive_generation) + 1;
      const archive = await this.archiveActiveEntries(tx, {
        agentId,
        sessionId,
        generation,
        span: sql``,
        kind: 'reset',
        reason: input.reason ?? null,
        summaryEntryId: null,
        actor,
        now,
      });
      await tx.execute(sql`UPDATE conversation_sessions SET updated_at = ${now} WHERE agent_id = ${agentId} AND session_id = ${sessionId}`);
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

  /**
   * Replaces one span of the active history — from the active entry at `fromPosition` to the one
   * at `toPosition`, in history order — with a summary entry. The replaced entries move into a new
   * archive generation exactly as a reset moves them (same statements, reason `compaction`); the
   * summary gets the next position, takes the place of the span's first entry in the active history
   * and links to the generation that holds the originals it stands for. All of it under the
   * session lock: an append waits for the compaction and lands after it, never inside the span.
   */
  async compact(
    viewer: Viewer | null,
    input: { agentId?: string | null; sessionId?: string | null; fromPosition: number; toPosition: number; summary: string; role?: string | null },
  ): Promise<{ archive: ArchiveRow; summary: OriginalRow }> {
    const { viewer: v, agentId } = resolveActingAgent(viewer, input.agentId);
    assertCleanText('sessionId', input.sessionId);
    const sessionId = this.targetSession(v, input.sessionId);
    for (const field of ['fromPosition', 'toPosition'] as const) {
      if (!Number.isSafeInteger(input[field]) || input[field] < 1) throw new ValidationError(field, `${field} is the position of an active entry (an integer of at least 1)`);
    }
    validatePayload('summary', input.summary);
    validateRole(input.role);
    const now = this.clock.now();
    const actor = actorOf(v);
    return withJsonErrors('summary', () =>
      this.db.transaction(async (tx) => {
        const locked = await this.lockWritableSession(tx, agentId, sessionId);
        const ends = await tx.execute<{ position: string | number; history_position: string | number }>(sql`
          SELECT position, COALESCE(history_position, position) AS history_position FROM conversation_entries
           WHERE agent_id = ${agentId} AND session_id = ${sessionId} AND position IN (${input.fromPosition}, ${input.toPosition})`);
        const historyOf = (position: number) => {
          const row = ends.rows.find((r) => Number(r.position) === position);
          return row ? Number(row.history_position) : null;
        };
        const from = historyOf(input.fromPosition);
        const to = historyOf(input.toPosition);
        if (from === null) throw new ValidationError('fromPosition', `position ${input.fromPosition} is not an active entry of session ${sessionId}`);
        if (to === null) throw new ValidationError('toPosition', `position ${input.toPosition} is not an active entry of session ${sessionId}`);
        if (to < from) throw new ValidationError('toPosition', `the entry at position ${input.toPosition} comes before the one at ${input.fromPosition} in the active history`);
        const generation = Number(locked.archive_generation) + 1;
        const position = Number(locked.last_position) + 1;
        const summaryEntryId = newId();
        const archive = await this.archiveActiveEntries(tx, {
          agentId,
          sessionId,
          generation,
          span: sql`AND COALESCE(history_position, position) BETWEEN ${from} AND ${to}`,
          kind: 'compaction',
          reason: 'compaction',
          summaryEntryId,
          actor,
          now,
        });
        const summary = await this.insertEntry(tx, {
          agentId,
          sessionId,
          id: summaryEntryId,
          position,
          role: input.role ?? null,
          conversationId: v.conversationId,
          payload: input.summary,
          now,
          summarizesGeneration: generation,
          historyPosition: from,
        });
        this.faults('conversation.after_summary');
        await tx.execute(sql`
          UPDATE conversation_sessions SET last_position = ${position}, active_entry_count = active_entry_count + 1, updated_at = ${now}
           WHERE agent_id = ${agentId} AND session_id = ${sessionId}`);
        await appendEvent(tx, this.clock, {
          agentId,
          stream: 'conversation',
          type: 'conversation.compacted',
          subjectId: `${ORIGINAL_REF_PREFIX}${sessionId}`,
          project: v.scope,
          payload: {
            sessionId,
            generation,
            entryCount: archive.entryCount,
            firstPosition: archive.firstPosition,
            lastPosition: archive.lastPosition,
            summaryEntryId,
            summaryPosition: position,
          },
        });
        return { archive, summary };
      }),
    );
  }

  /** Marks a session archived (metadata only). One conditional statement; a second read only explains a refusal. */
  async archiveSession(viewer: Viewer | null, input: { agentId?: string | null; sessionId?: string | null; reason?: string | null }): Promise<SessionRow> {
    const { viewer: v, agentId } = resolveActingAgent(viewer, input.agentId);
    assertCleanText('sessionId', input.sessionId);
    assertCleanText('reason', input.reason);
    const sessionId = this.targetSession(v, input.sessionId);
    validateReason(input.reason);
    const now = this.clock.now();
    const actor = actorOf(v);
    return this.db.transaction(async (tx) => {
      const updated = await tx.execute<RawSession>(sql`
        UPDATE conversation_sessions
           SET archived_at = ${now}, archived_by_kind = ${actor.kind}, archived_by_id = ${actor.id}, archive_reason = ${input.reason ?? null}
         WHERE agent_id = ${agentId} AND session_id = ${sessionId} AND archived_at IS NULL
        RETURNING *`);
      if (updated.rows.length === 0) {
        const current = await this.readSession(tx, agentId, sessionId);
        if (!current) throw new NotFoundError('ConversationSession', sessionId);
        throw archivedError(current);
      }
      await appendEvent(tx, this.clock, {
        agentId,
        stream: 'conversation',
        type: 'conversation.archived',
        subjectId: `${ORIGINAL_REF_PREFIX}${sessionId}`,
        project: v.scope,
        payload: { sessionId, reason: input.reason ?? null },
      });
      return toSession(updated.rows[0]);
    });
  }

  async unarchiveSession(viewer: Viewer | null, input: { agentId?: string | null; sessionId?: string | null }): Promise<SessionRow> {
    const { viewer: v, agentId } = resolveActingAgent(viewer, input.agentId);
    assertCleanText('sessionId', input.sessionId);
    const sessionId = this.targetSession(v, input.sessionId);
    return this.db.transaction(async (tx) => {
      const updated = await tx.execute<RawSession>(sql`
        UPDATE conversation_sessions SET archived_at = NULL, archived_by_kind = NULL, archived_by_id = NULL, archive_reason = NULL
         WHERE agent_id = ${agentId} AND session_id = ${sessionId} AND archived_at IS NOT NULL
        RETURNING *`);
      if (updated.rows.length === 0) {
        const current = await this.readSession(tx, agentId, sessionId);
        if (!current) throw new NotFoundError('ConversationSession', sessionId);
        throw new SessionNotArchivedError(sessionId);
      }
      await appendEvent(tx, this.clock, {
        agentId,
        stream: 'conversation',
        type: 'conversation.unarchived',
        subjectId: `${ORIGINAL_REF_PREFIX}${sessionId}`,
        project: v.scope,
        payload: { sessionId },
      });
      return toSession(updated.rows[0]);
    });
  }

  /** An agent's sessions, newest first activity first; archived ones only when asked for. */
  async sessions(
    viewer: Viewer | null,
    input: { agentId?: string | null; archived: SessionArchiveFilter; after: NewestFirstKey | null; limit: number },
  ): Promise<{ agentId: string; rows: (SessionRow & { micros: string })[] }> {
    const { agentId } = resolveActingAgent(viewer, input.agentId);
    const archived = { EXCLUDE: sql`AND archived_at IS NULL`, INCLUDE: sql``, ONLY: sql`AND archived_at IS NOT NULL` }[input.archived];
    const after = input.after ? sql`AND (created_at, session_id) < (${fromMicros(input.after.micros)}, ${input.after.sessionId})` : sql``;
    const result = await this.db.execute<RawSession & { micros: string }>(sql`
      SELECT *, ${microsOf('created_at')} AS micros FROM conversation_sessions
       WHERE agent_id = ${agentId} ${archived} ${after}
       ORDER BY created_at DESC, session_id DESC
       LIMIT ${input.limit}`);
    return { agentId, rows: result.rows.map((r) => ({ ...toSession(r), micros: r.micros })) };
  }

  /**
   * A page of sessions for each of several agents in ONE statement (Agent.conversationSessions):
   * numbered per agent in the order of sessions(), the first `limit` of each kept. The caller has
   * authorized every agent; `after` is per agent (cursors are bound to one agent).
   */
  async sessionPagesForAgents(
    keys: readonly { agentId: string; after: NewestFirstKey | null }[],
    archived: SessionArchiveFilter,
    limit: number,
  ): Promise<(SessionRow & { micros: string })[][]> {
    if (keys.length === 0) return [];
    const filter = { EXCLUDE: sql`AND archived_at IS NULL`, INCLUDE: sql``, ONLY: sql`AND archived_at IS NOT NULL` }[archived];
    const perAgent = keys.map((k) =>
      k.after ? sql`(agent_id = ${k.agentId} AND (created_at, session_id) < (${fromMicros(k.after.micros)}, ${k.after.sessionId}))` : sql`agent_id = ${k.agentId}`,
    );
    const result = await this.db.execute<RawSession & { micros: string }>(sql`
      SELECT * FROM (
        SELECT *, ${microsOf('created_at')} AS micros,
               row_number() OVER (PARTITION BY agent_id ORDER BY created_at DESC, session_id DESC) AS page_rank
          FROM conversation_sessions
         WHERE (${sql.join(perAgent, sql` OR `)}) ${filter}) ranked
       WHERE page_rank <= ${limit}
       ORDER BY page_rank`);
    const rows = result.rows.map((r) => ({ ...toSession(r), micros: r.micros }));
    return keys.map((k) => rows.filter((r) => r.agentId === k.agentId));
  }

  /** Sessions by key in one statement (the `session` link of originals and archives). */
  async sessionsByKeys(keys: readonly { agentId: string; sessionId: string }[]): Promise<(SessionRow | null)[]> {
    if (keys.length === 0) return [];
    const pairs = keys.map((k) => sql`(${k.agentId}, ${k.sessionId})`);
    const result = await this.db.execute<RawSession>(sql`SELECT * FROM conversation_sessions WHERE (agent_id, session_id) IN (${sql.join(pairs, sql`, `)})`);
    const rows = result.rows.map(toSession);
    return keys.map((k) => rows.find((r) => r.agentId === k.agentId && r.sessionId === k.sessionId) ?? null);
  }

  /**
   * A page of originals (active and archived, by position) for each of several sessions in ONE
   * statement (ConversationSession.originals). The sessions were read through an authorized list.
   */
  async originalPagesForSessions(keys: readonly { agentId: string; sessionId: string; afterPosition: number | null }[], limit: number): Promise<OriginalRow[][]> {
    if (keys.length === 0) return [];
    const perSession = keys.map((k) =>
      k.afterPosition == null
        ? sql`(agent_id = ${k.agentId} AND session_id = ${k.sessionId})`
        : sql`(agent_id = ${k.agentId} AND session_id = ${k.sessionId} AND position > ${k.afterPosition})`,
    );
    const result = await this.db.execute<RawOriginal>(sql`
      SELECT * FROM (
        SELECT ${ORIGINAL_COLUMNS}, row_number() OVER (PARTITION BY agent_id, session_id ORDER BY position ASC) AS page_rank
          FROM conversation_original_rows
         WHERE ${sql.join(perSession, sql` OR `)}) ranked
       WHERE page_rank <= ${limit}
       ORDER BY page_rank`);
    const rows = result.rows.map(toOriginal);
    return keys.map((k) => rows.filter((r) => r.agentId === k.agentId && r.sessionId === k.sessionId));
  }

  /** One original by position (node(id)), authorized like conversationOriginals. */
  async original(viewer: Viewer | null, input: { agentId: string; sessionId: string; position: number }): Promise<OriginalRow | null> {
    if (!Number.isSafeInteger(input.position) || input.position < 1) return null;
    const { rows } = await this.originals(viewer, { agentId: input.agentId, sessionId: input.sessionId, afterPosition: input.position - 1, limit: 1 });
    return rows[0]?.position === input.position ? rows[0] : null;
  }

  async session(viewer: Viewer | null, input: { agentId?: string | null; sessionId: string }): Promise<SessionRow | null> {
    const { agentId } = resolveActingAgent(viewer, input.agentId);
    if (input.sessionId.includes('\u0000')) throw badRequest('sessionId must not contain U+0000');
    return this.readSession(this.db, agentId, input.sessionId);
  }

  /**
   * Case-insensitive substring search over an agent's originals, active and archived (the union
   * view), newest first. Two access paths, because the planner cannot know how common a term is:
   * first the newest SEARCH_WINDOW candidates (after the filters and the cursor) are walked in
   * order through the (agent_id, created_at, …) indexes and matched; a common term fills the page
   * there. Only when the window holds fewer hits than the page and there are older candidates does
   * a second statement look for the rest among those older ones, where the trigram index of each
   * payload store finds a rare term without reading every row.
   */
  async search(
    viewer: Viewer | null,
    input: {
      agentId?: string | null;
      query: string;
      sessionId?: string | null;
      role?: string | null;
      createdFrom?: Date | null;
      createdBefore?: Date | null;
      after: NewestFirstKey | null;
      limit: number;
    },
  ): Promise<{ agentId: string; rows: (OriginalRow & { micros: string })[] }> {
    const { agentId } = resolveActingAgent(viewer, input.agentId);
    const pattern = `%${escapeLike(input.query)}%`;
    const conditions: SQL[] = [sql`agent_id = ${agentId}`];
    if (input.sessionId != null) conditions.push(sql`session_id = ${input.sessionId}`);
    if (input.role != null) conditions.push(sql`role = ${input.role}`);
    if (input.createdFrom) conditions.push(sql`created_at >= ${input.createdFrom}`);
    if (input.createdBefore) conditions.push(sql`created_at < ${input.createdBefore}`);
    if (input.after) conditions.push(olderThan(input.after));
    const candidates = sql.join(conditions, sql` AND `);
    type Hit = RawOriginal & { micros: string };

    const windowed = await this.db.execute<Hit>(sql`
      SELECT * FROM (
        SELECT ${ORIGINAL_COLUMNS}, ${microsOf('created_at')} AS micros
          FROM conversation_original_rows
         WHERE ${candidates}
         ORDER BY created_at DESC, session_id DESC, position DESC
         LIMIT ${SEARCH_WINDOW}
      ) AS recent
       WHERE payload ILIKE ${pattern}
       ORDER BY created_at DESC, session_id DESC, position DESC
       LIMIT ${input.limit}`);
    const hits = windowed.rows;
    if (hits.length < input.limit) {
      const edge = await this.db.execute<{ micros: string; session_id: string; position: string | number }>(sql`
        SELECT ${microsOf('created_at')} AS micros, session_id, position
          FROM conversation_original_rows
         WHERE ${candidates}
         ORDER BY created_at DESC, session_id DESC, position DESC
         LIMIT 1 OFFSET ${SEARCH_WINDOW - 1}`);
      if (edge.rows.length > 0) {
        const oldest = { micros: edge.rows[0].micros, sessionId: edge.rows[0].session_id, position: Number(edge.rows[0].position) };
        const older = await this.db.execute<Hit>(sql`
          SELECT ${ORIGINAL_COLUMNS}, ${microsOf('created_at')} AS micros
            FROM conversation_original_rows
           WHERE ${candidates} AND ${olderThan(oldest)} AND payload::text ILIKE ${pattern}
           ORDER BY created_at DESC, session_id DESC, position DESC
           LIMIT ${input.limit - hits.length}`);
        hits.push(...older.rows);
      }
    }
    return { agentId, rows: hits.map((r) => ({ ...toOriginal(r), micros: r.micros })) };
  }

  /** Originals of one session, active and archived, from the read-only union view, by position. */
  async originals(
    viewer: Viewer | null,
    input: { agentId?: string | null; sessionId: string; generation?: number | null; afterPosition: number | null; limit: number },
  ): Promise<{ agentId: string; rows: OriginalRow[] }> {
    const { agentId } = resolveActingAgent(viewer, input.agentId);
    if (input.sessionId.includes('\u0000')) throw new RequestError('BAD_REQUEST', 'sessionId must not contain U+0000');
    const after = input.afterPosition == null ? sql`` : sql`AND position > ${input.afterPosition}`;
    const generation = input.generation == null ? sql`` : sql`AND archive_generation = ${input.generation}`;
    const result = await this.db.execute<RawOriginal>(sql`
      SELECT ${ORIGINAL_COLUMNS}
        FROM conversation_original_rows
       WHERE agent_id = ${agentId} AND session_id = ${input.sessionId} ${generation} ${after}
       ORDER BY position ASC
       LIMIT ${input.limit}`);
    return { agentId, rows: result.rows.map(toOriginal) };
  }

  /** The active history of a session: what the runtime continues from, summaries in place of what they replaced. */
  async history(
    viewer: Viewer | null,
    input: { agentId?: string | null; sessionId: string; afterHistoryPosition: number | null; limit: number },
  ): Promise<{ agentId: string; rows: OriginalRow[] }> {
    const { agentId } = resolveActingAgent(viewer, input.agentId);
    if (input.sessionId.includes('\u0000')) throw badRequest('sessionId must not contain U+0000');
    const after = input.afterHistoryPosition == null ? sql`` : sql`AND COALESCE(history_position, position) > ${input.afterHistoryPosition}`;
    const result = await this.db.execute<RawOriginal>(sql`
      SELECT agent_id, session_id, id AS entry_id, position, NULL::integer AS archive_generation, role, conversation_id, payload::text AS payload,
             created_at, NULL::timestamptz AS archived_at, summarizes_generation, COALESCE(history_position, position) AS history_position
        FROM conversation_entries
       WHERE agent_id = ${agentId} AND session_id = ${input.sessionId} ${after}
       ORDER BY COALESCE(history_position, position) ASC
       LIMIT ${input.limit}`);
    return { agentId, rows: result.rows.map(toOriginal) };
  }

  async archives(viewer: Viewer | null, input: { agentId?: string | null; sessionId: string }): Promise<ArchiveRow[]> {
    const { agentId } = resolveActingAgent(viewer, input.agentId);
    if (input.sessionId.includes('\u0000')) throw new RequestError('BAD_REQUEST', 'sessionId must not contain U+0000');
    const [archives] = await this.archivesFor([{ agentId, sessionId: input.sessionId }]);
    return archives;
  }

  /** The archive headers of many sessions in one statement (the session list's DataLoader batch), oldest first. */
  async archivesFor(keys: readonly { agentId: string; sessionId: string }[]): Promise<ArchiveRow[][]> {
    if (keys.length === 0) return [];
    const pairs = keys.map((k) => sql`(${k.agentId}, ${k.sessionId})`);
    const result = await this.db.execute<RawArchive>(sql`
      SELECT * FROM conversation_archives WHERE (agent_id, session_id) IN (${sql.join(pairs, sql`, `)}) ORDER BY generation ASC`);
    const rows = result.rows.map(toArchive);
    return keys.map((k) => rows.filter((a) => a.agentId === k.agentId && a.sessionId === k.sessionId));
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
      SELECT ${ORIGINAL_COLUMNS}
        FROM conversation_original_rows
       WHERE agent_id = ${agentId} AND (${sql.join(pairs, sql` OR `)})`);
    for (const row of result.rows.map(toOriginal)) resolved.set(originalReference(row.sessionId, row.entryId), row);
    return resolved;
  }

  /** Agents write to their runtime session; operators name any session (or use their header). */
  private targetSession(viewer: Viewer, requested: string | null | undefined): string {
    if (viewer.principal === 'AGENT') {
      const current = requireSession(viewer);
      if (requested != null && requested !== current) {
        throw new RequestError('SESSION_MISMATCH', `requested session "${requested}" differs from the runtime session "${current}"`);
      }
      return current;
    }
    return requested ?? requireSession(viewer);
  }

  /** The session row lock every write to a session's originals takes first; archived sessions refuse writes. */
  private async lockWritableSession(tx: DbOrTx, agentId: string, sessionId: string): Promise<LockedSession> {
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

  private async readSession(tx: DbOrTx, agentId: string, sessionId: string): Promise<SessionRow | null> {
    const result = await tx.execute<RawSession>(sql`SELECT * FROM conversation_sessions WHERE agent_id = ${agentId} AND session_id = ${sessionId}`);
    return result.rows.length === 0 ? null : toSession(result.rows[0]);
  }

  private async insertEntry(
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
  private async archiveActiveEntries(
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
    this.faults('conversation.after_archive_header');
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
    this.faults('conversation.after_archive_entries');
    await tx.execute(sql`
      UPDATE conversation_sessions
         SET archive_generation = ${a.generation},
             active_entry_count = active_entry_count - ${archive.entryCount},
             archived_entry_count = archived_entry_count + ${archive.entryCount}
       WHERE agent_id = ${a.agentId} AND session_id = ${a.sessionId}`);
    return archive;
  }
}

function validatePayload(field: 'payload' | 'summary', payload: string) {
  const length = charLength(payload);
  if (length > CONVERSATION_LIMITS.payload) {
    throw new ValidationError(field, `an original payload is bounded to ${CONVERSATION_LIMITS.payload} characters of JSON text (got ${length})`, CONVERSATION_LIMITS.payload);
  }
  // Validation only: the text itself is what is stored.
  assertJsonText(field, payload);
}

function validateRole(role: string | null | undefined) {
  assertCleanText('role', role);
  if (role != null && (role.trim().length === 0 || charLength(role) > CONVERSATION_LIMITS.role)) {
    throw new ValidationError('role', `role is 1 to ${CONVERSATION_LIMITS.role} characters`, CONVERSATION_LIMITS.role);
  }
}

function validateReason(reason: string | null | undefined) {
  if (reason != null && charLength(reason) > CONVERSATION_LIMITS.reason) {
    throw new ValidationError('reason', `reason is bounded to ${CONVERSATION_LIMITS.reason} characters`, CONVERSATION_LIMITS.reason);
  }
}

/** PostgreSQL's json input is the final judge of a payload (JSON.parse is more lenient in places). */
async function withJsonErrors<T>(field: string, run: () => Promise<T>): Promise<T> {
  try {
    return await run();
  } catch (error) {
    const code = (error as { code?: string; cause?: { code?: string } }).code ?? (error as { cause?: { code?: string } }).cause?.code;
    if (code && INVALID_JSON_CODES.has(code)) throw new ValidationError(field, `PostgreSQL rejected the ${field} as json: ${(error as Error).message}`);
    throw error;
  }
}

const archivedError = (s: SessionRow) => new SessionArchivedError(s.sessionId, s.archivedAt!, `${s.archivedByKind}:${s.archivedById}`, s.archiveReason);

interface RawSession {
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

function toSession(row: RawSession): SessionRow {
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
  summarizes_generation: number | null;
  history_position: string | number;
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
  kind: string;
  summary_entry_id: string | null;
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
    summarizesGeneration: row.summarizes_generation == null ? null : Number(row.summarizes_generation),
    historyPosition: Number(row.history_position),
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
    kind: row.kind as ArchiveKind,
    summaryEntryId: row.summary_entry_id,
  };
}
