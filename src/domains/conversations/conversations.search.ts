/**
 * The two-phase search over an agent's originals: the newest candidates matched in order first,
 * the trigram index only for what the window could not fill.
 */
import { sql, type SQL } from 'drizzle-orm';
import { escapeLike } from '../../lib/text.js';
import { resolveActingAgent, type Viewer } from '../../auth/viewer.js';
import { ORIGINAL_COLUMNS, fromMicros, microsOf, toOriginal, type RawOriginal } from './conversations.rows.js';
import type { ConversationDeps, NewestFirstKey, OriginalRow } from './conversations.types.js';

/** Strictly after `key` in newest-first order (created_at, session_id, position descending). */
const olderThan = (key: NewestFirstKey) => sql`(created_at, session_id, position) < (${fromMicros(key.micros)}, ${key.sessionId}, ${key.position ?? 0})`;
/** How many of the newest candidates a search matches in order before it turns to the trigram index. */
export const SEARCH_WINDOW = 2_000;

export interface SearchInput {
  agentId?: string | null;
  query: string;
  sessionId?: string | null;
  role?: string | null;
  createdFrom?: Date | null;
  createdBefore?: Date | null;
  after: NewestFirstKey | null;
  limit: number;
}

/**
 * Case-insensitive substring search over an agent's originals, active and archived (the union
 * view), newest first. Two access paths, because the planner cannot know how common a term is:
 * first the newest SEARCH_WINDOW candidates (after the filters and the cursor) are walked in
 * order through the (agent_id, created_at, …) indexes and matched; a common term fills the page
 * there. Only when the window holds fewer hits than the page and there are older candidates does
 * a second statement look for the rest among those older ones, where the trigram index of each
 * payload store finds a rare term without reading every row.
 * The second statement finds the window's oldest candidate (`edge`, through the indexes alone)
 * and the older hits together: one round trip, where there were two until 2026-12-05.
 */
export async function search(deps: ConversationDeps, viewer: Viewer | null, input: SearchInput): Promise<{ agentId: string; rows: (OriginalRow & { micros: string })[] }> {
  const { agentId } = resolveActingAgent(viewer, input.agentId);
  const pattern = `%${escapeLike(input.query)}%`;
  const conditions: SQL[] = [sql`agent_id = ${agentId}`];
  if (input.sessionId != null) conditions.push(sql`session_id = ${input.sessionId}`);
  if (input.role != null) conditions.push(sql`role = ${input.role}`);
  if (input.createdFrom) conditions.push(sql`created_at >= ${input.createdFrom}`);
  if (input.createdBefore) conditions.push(sql`created_at < ${input.createdBefore}`);
  if (input.after) conditions.push(olderThan(input.after));
  const candidates = sql.join(conditions, sql` AND `);
  const newestFirst = sql.raw('ORDER BY created_at DESC, session_id DESC, position DESC');

  type Hit = RawOriginal & { micros: string };

  const windowed = await deps.db.execute<Hit>(sql`
    SELECT * FROM (
      SELECT ${ORIGINAL_COLUMNS}, ${microsOf('created_at')} AS micros
        FROM conversation_original_rows
       WHERE ${candidates}
       ${newestFirst}
       LIMIT ${SEARCH_WINDOW}
    ) AS recent
     WHERE payload ILIKE ${pattern}
     ${newestFirst}
     LIMIT ${input.limit}`);
  const hits = windowed.rows;
  if (hits.length < input.limit) {
    // The window's oldest candidate bounds the older ones. Without one (no candidate beyond the
    // window) the one-time filter on its count keeps PostgreSQL from starting the trigram scans.
    const older = await deps.db.execute<Hit>(sql`
      WITH edge AS MATERIALIZED (
        SELECT created_at, session_id, position
          FROM conversation_original_rows
         WHERE ${candidates}
         ${newestFirst}
         LIMIT 1 OFFSET ${SEARCH_WINDOW - 1}
      )
      SELECT ${ORIGINAL_COLUMNS}, ${microsOf('created_at')} AS micros
        FROM conversation_original_rows
       WHERE (SELECT count(*) FROM edge) = 1
         AND ${candidates}
         AND (created_at, session_id, position) < (SELECT created_at, session_id, position FROM edge)
         AND payload::text ILIKE ${pattern}
       ${newestFirst}
       LIMIT ${input.limit - hits.length}`);
    hits.push(...older.rows);
  }
  return { agentId, rows: hits.map((r) => ({ ...toOriginal(r), micros: r.micros })) };
}
