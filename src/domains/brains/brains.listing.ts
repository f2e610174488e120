/**
 * The operator list of an agent's memories: live memories newest first, optionally filtered by a
 * case-insensitive substring over title or content.
 */
import { and, asc, desc, eq, getTableColumns, inArray, lt, lte, or, sql, type SQL } from 'drizzle-orm';
import type { Db } from '../../db/database.js';
import { RequestError } from '../../lib/errors.js';
import { charLength, escapeLike } from '../../lib/text.js';
import { assertAgentAccess, type Viewer } from '../../auth/viewer.js';
import { brainMemories } from './brains.sql.js';
import type { BrainMemoryRow } from './brains.types.js';
import { QUERY_MAX_LENGTH } from './brains.search.js';

export const LIST_PAGE_MAX = 100;
/** How many of the newest memories the substring list scans before using the trigram index. */
const LIST_PROBE_ROWS = 2_000;

export class BrainListing {
  constructor(private readonly db: Db) {}

  /**
   * The operator list: live memories newest first, optionally filtered by case-insensitive
   * substring over title or content (trigram-indexed). Fetches `limit` rows (callers pass +1).
   */
  async list(viewer: Viewer | null, input: { agentId: string; query: string | null; limit: number; after: { createdAt: Date; id: string } | null }): Promise<BrainMemoryRow[]> {
    assertAgentAccess(viewer, input.agentId);
    const conditions: (SQL | undefined)[] = [eq(brainMemories.agentId, input.agentId), sql`${brainMemories.deletedAt} IS NULL`];
    if (input.after) {
      conditions.push(or(lt(brainMemories.createdAt, input.after.createdAt), and(eq(brainMemories.createdAt, input.after.createdAt), lt(brainMemories.id, input.after.id))));
    }
    const newestFirst = [desc(brainMemories.createdAt), desc(brainMemories.id)];
    if (!input.query) {
      return this.db
        .select()
        .from(brainMemories)
        .where(and(...conditions))
        .orderBy(...newestFirst)
        .limit(input.limit);
    }
    const pattern = `%${escapeLike(input.query)}%`;
    // A common term fills a page from the newest few thousand memories, which the newest-first
    // index reads in milliseconds; sorting every trigram match would not. When the probe comes
    // back short, the term is rare and the trigram-indexed query answers exactly.
    const recent = this.db
      .select()
      .from(brainMemories)
      .where(and(...conditions))
      .orderBy(...newestFirst)
      .limit(LIST_PROBE_ROWS)
      .as('recent');
    const probe = await this.db
      .select()
      .from(recent)
      .where(or(sql`${recent.title} ILIKE ${pattern}`, sql`${recent.content} ILIKE ${pattern}`))
      .orderBy(desc(recent.createdAt), desc(recent.id))
      .limit(input.limit);
    if (probe.length === input.limit) return probe as BrainMemoryRow[];
    return this.db
      .select()
      .from(brainMemories)
      .where(and(...conditions, or(sql`${brainMemories.title} ILIKE ${pattern}`, sql`${brainMemories.content} ILIKE ${pattern}`)))
      .orderBy(...newestFirst)
      .limit(input.limit);
  }

  /**
   * The same list for several agents in one statement (Agent.brainMemories over a page of
   * agents): a window per agent numbers its memories newest first and keeps `limit` rows of each
   * (callers pass +1). Without the single-agent probe: a substring filter scans each agent's matches.
   */
  async pages(
    viewer: Viewer | null,
    agentIds: readonly string[],
    input: { query: string | null; limit: number; after: { createdAt: Date; id: string } | null },
  ): Promise<BrainMemoryRow[][]> {
    for (const agentId of agentIds) assertAgentAccess(viewer, agentId);
    if (agentIds.length === 0) return [];
    const m = brainMemories;
    const conditions: (SQL | undefined)[] = [inArray(m.agentId, [...agentIds]), sql`${m.deletedAt} IS NULL`];
    if (input.after) conditions.push(or(lt(m.createdAt, input.after.createdAt), and(eq(m.createdAt, input.after.createdAt), lt(m.id, input.after.id))));
    if (input.query) {
      const pattern = `%${escapeLike(input.query)}%`;
      conditions.push(or(sql`${m.title} ILIKE ${pattern}`, sql`${m.content} ILIKE ${pattern}`));
    }
    const ranked = this.db
      .select({ ...getTableColumns(m), position: sql<number>`row_number() OVER (PARTITION BY ${m.agentId} ORDER BY ${m.createdAt} DESC, ${m.id} DESC)`.as('position') })
      .from(m)
      .where(and(...conditions))
      .as('ranked');
    const rows = await this.db.select().from(ranked).where(lte(ranked.position, input.limit)).orderBy(asc(ranked.position));
    const byAgent = new Map<string, BrainMemoryRow[]>(agentIds.map((id) => [id, []]));
    for (const { position: _position, ...memory } of rows) byAgent.get(memory.agentId)?.push(memory as BrainMemoryRow);
    return agentIds.map((id) => byAgent.get(id)!);
  }
}

/** Normalises the operator list's substring query (any length up to QUERY_MAX_LENGTH): null/blank means "no filter". */
export function listQuery(query: string | null | undefined): string | null {
  if (query?.includes('\u0000')) throw new RequestError('BAD_REQUEST', 'query must not contain NUL characters');
  const trimmed = query?.trim() ?? '';
  if (trimmed === '') return null;
  // No minimum: an operator looks for "CI" or "Go" too. A term under three characters has no
  // trigram, so the index cannot narrow it; the scan stays within the one agent's live memories,
  // newest first, and stops when the page is full (see list()).
  const length = charLength(trimmed);
  if (length > QUERY_MAX_LENGTH) throw new RequestError('QUERY_TOO_LONG', `a query is limited to ${QUERY_MAX_LENGTH} characters (got ${length})`);
  return trimmed;
}
