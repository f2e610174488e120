/**
 * The writes to a session's originals: append, reset, compact, archive and unarchive. Each is one
 * transaction; the ones that move entries hold the session lock (conversations.storage.ts) throughout.
 */
import { sql } from 'drizzle-orm';
import { NotFoundError, RequestError, ValidationError } from '../../lib/errors.js';
import { newId } from '../../lib/ids.js';
import { charLength } from '../../lib/text.js';
import { assertCleanText } from '../../lib/text-policy.js';
import { actorOf, resolveActingAgent, type Actor, type Viewer } from '../../auth/viewer.js';
import { RUNTIME_ID_LIMIT, requireSession } from '../../auth/runtime.js';
import { appendEvent } from '../../events/events.service.js';
import { forExistingAgent } from '../../db/foreign-keys.js';
import { idempotent } from '../../db/idempotency.js';
import { SessionArchivedError, SessionNotArchivedError } from './conversations.errors.js';
import { ORIGINAL_REF_PREFIX, originalReference } from './conversations.references.js';
import { readSession } from './conversations.reads.js';
import { toSession, type RawSession } from './conversations.rows.js';
import { archiveActiveEntries, countNewEntry, insertEntry, lockWritableSession } from './conversations.storage.js';
import { validatePayload, validateReason, validateRole, withJsonErrors } from './conversations.validation.js';
import type { ArchiveRow, ConversationDeps, OriginalRow, SessionRow } from './conversations.types.js';

/**
 * Appends one original to the runtime session. The session row is locked (SELECT … FOR
 * UPDATE) for the whole transaction, so concurrent appends to one session take positions one
 * after another, in commit order, without gaps. An archived session refuses the append.
 */
export async function append(
  deps: ConversationDeps,
  viewer: Viewer | null,
  input: { agentId?: string | null; payload: string; role?: string | null; idempotencyKey?: string | null },
): Promise<OriginalRow> {
  const { viewer: v, agentId } = resolveActingAgent(viewer, input.agentId);
  const sessionId = requireSession(v);
  if (charLength(sessionId) > RUNTIME_ID_LIMIT) throw new RequestError('BAD_REQUEST', `the session id is longer than ${RUNTIME_ID_LIMIT} characters`);
  validatePayload('payload', input.payload);
  validateRole(input.role);
  const now = deps.clock.now();
  const request = { agentId, sessionId, scope: v.scope, conversationId: v.conversationId, payload: input.payload, role: input.role };
  const keyed = { key: input.idempotencyKey, operation: 'appendConversationEntry', agentId, tokenId: v.tokenId, request };
  return withJsonErrors('payload', () =>
    idempotent(deps.db, deps.clock, keyed, (db) =>
      forExistingAgent(agentId, () =>
        db.transaction(async (tx) => {
          await tx.execute(sql`
        INSERT INTO conversation_sessions (agent_id, session_id, project, last_position, archive_generation, created_at, updated_at)
        VALUES (${agentId}, ${sessionId}, ${v.scope}, 0, 0, ${now}, ${now})
        ON CONFLICT (agent_id, session_id) DO NOTHING`);
          const locked = await lockWritableSession(tx, agentId, sessionId);
          const position = Number(locked.last_position) + 1;
          deps.faults('conversation.after_lock');
          const row = await insertEntry(tx, { agentId, sessionId, position, role: input.role ?? null, conversationId: v.conversationId, payload: input.payload, now });
          await countNewEntry(tx, agentId, sessionId, position, now);
          await appendEvent(tx, deps.clock, {
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
    ),
  );
}

/**
 * Archives the session's active entries into a new generation (header + entries) and leaves
 * the session empty, under the session lock, so nothing can be appended in between.
 */
export async function reset(
  deps: ConversationDeps,
  viewer: Viewer | null,
  input: { agentId?: string | null; sessionId?: string | null; reason?: string | null },
): Promise<ArchiveRow> {
  const { viewer: v, agentId, sessionId, now, actor } = openSessionWrite(deps, viewer, input);
  return deps.db.transaction(async (tx) => {
    const locked = await lockWritableSession(tx, agentId, sessionId);
    const generation = Number(locked.archive_generation) + 1;
    const archive = await archiveActiveEntries(deps, tx, {
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
    await appendEvent(tx, deps.clock, {
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
export async function compact(
  deps: ConversationDeps,
  viewer: Viewer | null,
  input: { agentId?: string | null; sessionId?: string | null; fromPosition: number; toPosition: number; summary: string; role?: string | null },
): Promise<{ archive: ArchiveRow; summary: OriginalRow }> {
  const { viewer: v, agentId, sessionId, now, actor } = openSessionWrite(deps, viewer, { agentId: input.agentId, sessionId: input.sessionId });
  for (const field of ['fromPosition', 'toPosition'] as const) {
    if (!Number.isSafeInteger(input[field]) || input[field] < 1) throw new ValidationError(field, `${field} is the position of an active entry (an integer of at least 1)`);
  }
  validatePayload('summary', input.summary);
  validateRole(input.role);
  return withJsonErrors('summary', () =>
    deps.db.transaction(async (tx) => {
      const locked = await lockWritableSession(tx, agentId, sessionId);
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
      const archive = await archiveActiveEntries(deps, tx, {
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
      const summary = await insertEntry(tx, {
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
      deps.faults('conversation.after_summary');
      await countNewEntry(tx, agentId, sessionId, position, now);
      await appendEvent(tx, deps.clock, {
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
export async function archiveSession(
  deps: ConversationDeps,
  viewer: Viewer | null,
  input: { agentId?: string | null; sessionId?: string | null; reason?: string | null },
): Promise<SessionRow> {
  const { viewer: v, agentId, sessionId, now, actor } = openSessionWrite(deps, viewer, input);
  return deps.db.transaction(async (tx) => {
    const updated = await tx.execute<RawSession>(sql`
      UPDATE conversation_sessions
         SET archived_at = ${now}, archived_by_kind = ${actor.kind}, archived_by_id = ${actor.id}, archive_reason = ${input.reason ?? null}
       WHERE agent_id = ${agentId} AND session_id = ${sessionId} AND archived_at IS NULL
      RETURNING *`);
    if (updated.rows.length === 0) {
      const current = await readSession(tx, agentId, sessionId);
      if (!current) throw new NotFoundError('ConversationSession', sessionId);
      throw archivedError(current);
    }
    await appendEvent(tx, deps.clock, {
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

export async function unarchiveSession(deps: ConversationDeps, viewer: Viewer | null, input: { agentId?: string | null; sessionId?: string | null }): Promise<SessionRow> {
  const { viewer: v, agentId, sessionId } = openSessionWrite(deps, viewer, { agentId: input.agentId, sessionId: input.sessionId });
  return deps.db.transaction(async (tx) => {
    const updated = await tx.execute<RawSession>(sql`
      UPDATE conversation_sessions SET archived_at = NULL, archived_by_kind = NULL, archived_by_id = NULL, archive_reason = NULL
       WHERE agent_id = ${agentId} AND session_id = ${sessionId} AND archived_at IS NOT NULL
      RETURNING *`);
    if (updated.rows.length === 0) {
      const current = await readSession(tx, agentId, sessionId);
      if (!current) throw new NotFoundError('ConversationSession', sessionId);
      throw new SessionNotArchivedError(sessionId);
    }
    await appendEvent(tx, deps.clock, {
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

/** What the opening steps of a write to a named session settle. */
interface SessionWrite {
  viewer: Viewer;
  agentId: string;
  sessionId: string;
  now: Date;
  actor: Actor;
}

/**
 * The opening steps of reset, compact, archive and unarchive, in this order: the acting agent, the
 * text policy of the session id and the reason, the target session, the reason's bound, then the
 * clock and the actor. Compact and unarchive take no reason, so those checks pass them by.
 */
function openSessionWrite(deps: ConversationDeps, viewer: Viewer | null, input: { agentId?: string | null; sessionId?: string | null; reason?: string | null }): SessionWrite {
  const { viewer: v, agentId } = resolveActingAgent(viewer, input.agentId);
  assertCleanText('sessionId', input.sessionId);
  assertCleanText('reason', input.reason);
  const sessionId = targetSession(v, input.sessionId);
  validateReason(input.reason);
  return { viewer: v, agentId, sessionId, now: deps.clock.now(), actor: actorOf(v) };
}

/** Agents write to their runtime session; operators name any session (or use their header). */
function targetSession(viewer: Viewer, requested: string | null | undefined): string {
  if (viewer.principal === 'AGENT') {
    const current = requireSession(viewer);
    if (requested != null && requested !== current) {
      throw new RequestError('SESSION_MISMATCH', `requested session "${requested}" differs from the runtime session "${current}"`);
    }
    return current;
  }
  return requested ?? requireSession(viewer);
}

const archivedError = (s: SessionRow) => new SessionArchivedError(s.sessionId, s.archivedAt!, `${s.archivedByKind}:${s.archivedById}`, s.archiveReason);
