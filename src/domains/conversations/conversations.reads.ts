/**
 * Reads of sessions, originals, the active history and archive headers: the authorized reads of
 * one agent and the batch loaders (one statement per page of keys) the GraphQL links use.
 */
import { sql } from 'drizzle-orm';
import type { DbOrTx } from '../../db/database.js';
import { RequestError, badRequest } from '../../lib/errors.js';
import { resolveActingAgent, type Viewer } from '../../auth/viewer.js';
import { ORIGINAL_COLUMNS, fromMicros, microsOf, toArchive, toOriginal, toSession, type RawArchive, type RawOriginal, type RawSession } from './conversations.rows.js';
import type { ArchiveRow, ConversationDeps, NewestFirstKey, OriginalRow, SessionArchiveFilter, SessionRow } from './conversations.types.js';

/** One session row, or null; inside a write's transaction or on the pool. */
export async function readSession(tx: DbOrTx, agentId: string, sessionId: string): Promise<SessionRow | null> {
  const result = await tx.execute<RawSession>(sql`SELECT * FROM conversation_sessions WHERE agent_id = ${agentId} AND session_id = ${sessionId}`);
  return result.rows.length === 0 ? null : toSession(result.rows[0]);
}

/** An agent's sessions, newest first activity first; archived ones only when asked for. */
export async function sessions(
  deps: ConversationDeps,
  viewer: Viewer | null,
  input: { agentId?: string | null; archived: SessionArchiveFilter; after: NewestFirstKey | null; limit: number },
): Promise<{ agentId: string; rows: (SessionRow & { micros: string })[] }> {
  const { agentId } = resolveActingAgent(viewer, input.agentId);
  const archived = { EXCLUDE: sql`AND archived_at IS NULL`, INCLUDE: sql``, ONLY: sql`AND archived_at IS NOT NULL` }[input.archived];
  const after = input.after ? sql`AND (created_at, session_id) < (${fromMicros(input.after.micros)}, ${input.after.sessionId})` : sql``;
  const result = await deps.db.execute<RawSession & { micros: string }>(sql`
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
export async function sessionPagesForAgents(
  deps: ConversationDeps,
  keys: readonly { agentId: string; after: NewestFirstKey | null }[],
  archived: SessionArchiveFilter,
  limit: number,
): Promise<(SessionRow & { micros: string })[][]> {
  if (keys.length === 0) return [];
  const filter = { EXCLUDE: sql`AND archived_at IS NULL`, INCLUDE: sql``, ONLY: sql`AND archived_at IS NOT NULL` }[archived];
  const perAgent = keys.map((k) =>
    k.after ? sql`(agent_id = ${k.agentId} AND (created_at, session_id) < (${fromMicros(k.after.micros)}, ${k.after.sessionId}))` : sql`agent_id = ${k.agentId}`,
  );
  const result = await deps.db.execute<RawSession & { micros: string }>(sql`
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
export async function sessionsByKeys(deps: ConversationDeps, keys: readonly { agentId: string; sessionId: string }[]): Promise<(SessionRow | null)[]> {
  if (keys.length === 0) return [];
  const pairs = keys.map((k) => sql`(${k.agentId}, ${k.sessionId})`);
  const result = await deps.db.execute<RawSession>(sql`SELECT * FROM conversation_sessions WHERE (agent_id, session_id) IN (${sql.join(pairs, sql`, `)})`);
  const rows = result.rows.map(toSession);
  return keys.map((k) => rows.find((r) => r.agentId === k.agentId && r.sessionId === k.sessionId) ?? null);
}

/**
 * A page of originals (active and archived, by position) for each of several sessions in ONE
 * statement (ConversationSession.originals). The sessions were read through an authorized list.
 */
export async function originalPagesForSessions(
  deps: ConversationDeps,
  keys: readonly { agentId: string; sessionId: string; afterPosition: number | null }[],
  limit: number,
): Promise<OriginalRow[][]> {
  if (keys.length === 0) return [];
  const perSession = keys.map((k) =>
    k.afterPosition == null
      ? sql`(agent_id = ${k.agentId} AND session_id = ${k.sessionId})`
      : sql`(agent_id = ${k.agentId} AND session_id = ${k.sessionId} AND position > ${k.afterPosition})`,
  );
  const result = await deps.db.execute<RawOriginal>(sql`
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
export async function original(deps: ConversationDeps, viewer: Viewer | null, input: { agentId: string; sessionId: string; position: number }): Promise<OriginalRow | null> {
  if (!Number.isSafeInteger(input.position) || input.position < 1) return null;
  const { rows } = await originals(deps, viewer, { agentId: input.agentId, sessionId: input.sessionId, afterPosition: input.position - 1, limit: 1 });
  return rows[0]?.position === input.position ? rows[0] : null;
}

export async function session(deps: ConversationDeps, viewer: Viewer | null, input: { agentId?: string | null; sessionId: string }): Promise<SessionRow | null> {
  const { agentId } = resolveActingAgent(viewer, input.agentId);
  if (input.sessionId.includes('\u0000')) throw badRequest('sessionId must not contain U+0000');
  return readSession(deps.db, agentId, input.sessionId);
}

/** Originals of one session, active and archived, from the read-only union view, by position. */
export async function originals(
  deps: ConversationDeps,
  viewer: Viewer | null,
  input: { agentId?: string | null; sessionId: string; generation?: number | null; afterPosition: number | null; limit: number },
): Promise<{ agentId: string; rows: OriginalRow[] }> {
  const { agentId } = resolveActingAgent(viewer, input.agentId);
  if (input.sessionId.includes('\u0000')) throw new RequestError('BAD_REQUEST', 'sessionId must not contain U+0000');
  const after = input.afterPosition == null ? sql`` : sql`AND position > ${input.afterPosition}`;
  const generation = input.generation == null ? sql`` : sql`AND archive_generation = ${input.generation}`;
  const result = await deps.db.execute<RawOriginal>(sql`
    SELECT ${ORIGINAL_COLUMNS}
      FROM conversation_original_rows
     WHERE agent_id = ${agentId} AND session_id = ${input.sessionId} ${generation} ${after}
     ORDER BY position ASC
     LIMIT ${input.limit}`);
  return { agentId, rows: result.rows.map(toOriginal) };
}

/** The active history of a session: what the runtime continues from, summaries in place of what they replaced. */
export async function history(
  deps: ConversationDeps,
  viewer: Viewer | null,
  input: { agentId?: string | null; sessionId: string; afterHistoryPosition: number | null; limit: number },
): Promise<{ agentId: string; rows: OriginalRow[] }> {
  const { agentId } = resolveActingAgent(viewer, input.agentId);
  if (input.sessionId.includes('\u0000')) throw badRequest('sessionId must not contain U+0000');
  const after = input.afterHistoryPosition == null ? sql`` : sql`AND COALESCE(history_position, position) > ${input.afterHistoryPosition}`;
  const result = await deps.db.execute<RawOriginal>(sql`
    SELECT agent_id, session_id, id AS entry_id, position, NULL::integer AS archive_generation, role, conversation_id, payload::text AS payload,
           created_at, NULL::timestamptz AS archived_at, summarizes_generation, COALESCE(history_position, position) AS history_position
      FROM conversation_entries
     WHERE agent_id = ${agentId} AND session_id = ${input.sessionId} ${after}
     ORDER BY COALESCE(history_position, position) ASC
     LIMIT ${input.limit}`);
  return { agentId, rows: result.rows.map(toOriginal) };
}

export async function archives(deps: ConversationDeps, viewer: Viewer | null, input: { agentId?: string | null; sessionId: string }): Promise<ArchiveRow[]> {
  const { agentId } = resolveActingAgent(viewer, input.agentId);
  if (input.sessionId.includes('\u0000')) throw new RequestError('BAD_REQUEST', 'sessionId must not contain U+0000');
  const [archives] = await archivesFor(deps, [{ agentId, sessionId: input.sessionId }]);
  return archives;
}

/** The archive headers of many sessions in one statement (the session list's DataLoader batch), oldest first. */
export async function archivesFor(deps: ConversationDeps, keys: readonly { agentId: string; sessionId: string }[]): Promise<ArchiveRow[][]> {
  if (keys.length === 0) return [];
  const pairs = keys.map((k) => sql`(${k.agentId}, ${k.sessionId})`);
  const result = await deps.db.execute<RawArchive>(sql`
    SELECT * FROM conversation_archives WHERE (agent_id, session_id) IN (${sql.join(pairs, sql`, `)}) ORDER BY generation ASC`);
  const rows = result.rows.map(toArchive);
  return keys.map((k) => rows.filter((a) => a.agentId === k.agentId && a.sessionId === k.sessionId));
}
