/**
 * The operator list of an agent's memories: live memories newest first (or by last update, or by
 * title), optionally filtered by a case-insensitive substring over title or content and by
 * ownership, with the count of the whole filtered list.
 */
import { and, asc, desc, eq, getTableColumns, gt, inArray, lt, lte, or, sql, type SQL } from 'drizzle-orm';
import type { Db } from '../../db/database.js';
import { RequestError } from '../../lib/errors.js';
import { charLength, escapeLike } from '../../lib/text.js';
import { assertAgentAccess, type Viewer } from '../../auth/viewer.js';
import { brainMemories } from './brains.sql.js';
import type { BrainMemoryRow } from './brains.types.js';
import { QUERY_MAX_LENGTH } from './brains.search.js';

export const LIST_PAGE_MAX = 100;
/** The operator list's orders. Newest updated first uses the index brainSearch's probe reads; by title sorts one agent's live memories. */
export const LIST_SORTS = ['CREATED_AT_DESC', 'UPDATED_AT_DESC', 'TITLE_ASC'] as const;
export type ListSort = (typeof LIST_SORTS)[number];
export interface ListInput {
  agentId: string;
  query: string | null;
  limit: number;
  after: { key: Date | string; id: string } | null;
  sort?: ListSort;
  ownership?: 'OPERATOR' | 'AGENT' | null;
}
/** How many of the newest memories the substring list scans before using the trigram index. */
const LIST_PROBE_ROWS = 2_000;

export class BrainListing {
  constructor(private readonly db: Db) {}

  /**
   * The operator list: live memories in `sort` order (newest first by default), optionally filtered
   * by case-insensitive substring over title or content (trigram-indexed) and by ownership.
   * Fetches `limit` rows (callers pass +1). `after.key` is the sort key of the last row shown.
   */
  async list(viewer: Viewer | null, input: ListInput): Promise<BrainMemoryRow[]> {
    assertAgentAccess(viewer, input.agentId);
    const sort = input.sort ?? 'CREATED_AT_DESC';
    const conditions = this.filters(input);
    if (input.after) conditions.push(afterPosition(sort, input.after));
    const order = orderOf(sort);
    if (!input.query || sort !== 'CREATED_AT_DESC') {
      return this.db
        .select()
        .from(brainMemories)
        .where(and(...conditions, input.query ? matching(input.query) : undefined))
        .orderBy(...order)
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
      .orderBy(...order)
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
      .where(and(...conditions, matching(input.query)))
      .orderBy(...order)
      .limit(input.limit);
  }

  /** How many live memories the same list holds in all (the same agent, query and ownership; no cursor). */
  async count(viewer: Viewer | null, input: Pick<ListInput, 'agentId' | 'query' | 'ownership'>): Promise<number> {
    assertAgentAccess(viewer, input.agentId);
    const [row] = await this.db
      .select({ n: sql<number>`count(*)::int` })
      .from(brainMemories)
      .where(and(...this.filters(input), input.query ? matching(input.query) : undefined));
    return row.n;
  }

  private filters(input: Pick<ListInput, 'agentId' | 'ownership'>): (SQL | undefined)[] {
    return [eq(brainMemories.agentId, input.agentId), sql`${brainMemories.deletedAt} IS NULL`, input.ownership ? eq(brainMemories.ownership, input.ownership) : undefined];
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

const m = brainMemories;
const matching = (query: string) => {
  const pattern = `%${escapeLike(query)}%`;
  return or(sql`${m.title} ILIKE ${pattern}`, sql`${m.content} ILIKE ${pattern}`);
};
/** Each order ends with the id, so a page boundary between equal keys is exact. */
const orderOf = (sort: ListSort) =>
  sort === 'TITLE_ASC' ? [asc(m.title), asc(m.id)] : sort === 'UPDATED_AT_DESC' ? [desc(m.updatedAt), asc(m.id)] : [desc(m.createdAt), desc(m.id)];
function afterPosition(sort: ListSort, after: { key: Date | string; id: string }): SQL | undefined {
  if (sort === 'TITLE_ASC') return or(gt(m.title, after.key as string), and(eq(m.title, after.key as string), gt(m.id, after.id)));
  if (sort === 'UPDATED_AT_DESC') return or(lt(m.updatedAt, after.key as Date), and(eq(m.updatedAt, after.key as Date), gt(m.id, after.id)));
  return or(lt(m.createdAt, after.key as Date), and(eq(m.createdAt, after.key as Date), lt(m.id, after.id)));
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
