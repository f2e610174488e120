/**
 * Point-in-time reads of memories (brainRead, brainMemories and Agent.brainMemories with
 * `asOf`): each memory as its latest revision written at or before asOf left it, answered from
 * the revision rows. A memory with no revision by then did not exist yet and is absent; one
 * removed by then is its tombstone (deletedAt set), in a read and in lists alike.
 */
import { and, asc, desc, eq, getTableColumns, inArray, lt, lte, or, sql, type SQL } from 'drizzle-orm';
import type { Db } from '../../db/database.js';
import { asOfBound } from '../../lib/as-of.js';
import { escapeLike } from '../../lib/text.js';
import { assertAgentAccess, resolveActingAgent, type Viewer } from '../../auth/viewer.js';
import { brainMemories, brainMemoryRevisions } from './brains.sql.js';
import type { BrainMemoryRow } from './brains.types.js';

const m = brainMemories;
const r = brainMemoryRevisions;

/**
 * The latest revision of the outer memory written before `bound`, as a lateral subquery.
 * Revisions carry the memory's updatedAt of each write (recordRevision), so a revision is found
 * at exactly the updatedAt the API showed for it.
 */
function revisionAsOf(db: Db, bound: Date) {
  return db
    .select()
    .from(r)
    .where(and(eq(r.agentId, m.agentId), eq(r.memoryId, m.id), lt(r.createdAt, bound)))
    .orderBy(desc(r.revision))
    .limit(1)
    .as('as_of');
}

/**
 * A memory row as of the bound: what a revision records (title, content, references, ownership,
 * its number, its actor and time) from the revision, the rest (creation, labels, legacy details)
 * from the memory. The tombstone time is the memory's deleted_at when that is before the bound: a
 * removal writes its revision at the same instant, and an import of a deleted record writes none.
 */
function memoryAsOf(revision: ReturnType<typeof revisionAsOf>, bound: Date) {
  return {
    ...getTableColumns(m),
    title: revision.title,
    content: revision.content,
    sourceRefs: revision.sourceRefs,
    ownership: revision.ownership,
    revision: revision.revision,
    updatedByKind: revision.actorKind,
    updatedById: revision.actorId,
    updatedAt: sql<Date>`${revision.createdAt}`.mapWith(m.updatedAt),
    deletedAt: sql<Date | null>`CASE WHEN ${m.deletedAt} < ${bound} THEN ${m.deletedAt} END`.mapWith(m.deletedAt),
  };
}

export class BrainHistory {
  constructor(private readonly db: Db) {}

  /** One memory of the acting agent as of `asOf`: null when it did not exist yet (or never did); a tombstone once removed. */
  async read(viewer: Viewer | null, input: { agentId?: string | null; id: string; asOf: Date }): Promise<BrainMemoryRow | null> {
    const { agentId } = resolveActingAgent(viewer, input.agentId);
    const bound = asOfBound(input.asOf);
    const revision = revisionAsOf(this.db, bound);
    const [row] = await this.db
      .select(memoryAsOf(revision, bound))
      .from(m)
      .innerJoinLateral(revision, sql`true`)
      .where(and(eq(m.agentId, agentId), eq(m.id, input.id)));
    return row ?? null;
  }

  /**
   * The list of each agent as of `asOf` in one statement: every memory that existed then,
   * tombstones included, newest first (createdAt, then id) as the current list, the substring
   * filter applied to the title and content of that time. Fetches `limit` rows per agent (callers pass +1).
   */
  async pages(
    viewer: Viewer | null,
    agentIds: readonly string[],
    input: { query: string | null; limit: number; after: { createdAt: Date; id: string } | null; asOf: Date },
  ): Promise<BrainMemoryRow[][]> {
    for (const agentId of agentIds) assertAgentAccess(viewer, agentId);
    if (agentIds.length === 0) return [];
    const bound = asOfBound(input.asOf);
    const found = revisionAsOf(this.db, bound);
    const conditions: (SQL | undefined)[] = [inArray(m.agentId, [...agentIds])];
    if (input.after) conditions.push(or(lt(m.createdAt, input.after.createdAt), and(eq(m.createdAt, input.after.createdAt), lt(m.id, input.after.id))));
    if (input.query) {
      const pattern = `%${escapeLike(input.query)}%`;
      conditions.push(or(sql`${found.title} ILIKE ${pattern}`, sql`${found.content} ILIKE ${pattern}`));
    }
    const ranked = this.db
      .select({
        agentId: m.agentId,
        id: m.id,
        position: sql<number>`row_number() OVER (PARTITION BY ${m.agentId} ORDER BY ${m.createdAt} DESC, ${m.id} DESC)`.as('position'),
      })
      .from(m)
      .innerJoinLateral(found, sql`true`)
      .where(and(...conditions))
      .as('ranked');
    const revision = revisionAsOf(this.db, bound);
    const rows = await this.db
      .select({ ...memoryAsOf(revision, bound), position: ranked.position })
      .from(ranked)
      .innerJoin(m, and(eq(m.agentId, ranked.agentId), eq(m.id, ranked.id)))
      .innerJoinLateral(revision, sql`true`)
      .where(lte(ranked.position, input.limit))
      .orderBy(asc(ranked.position));
    const byAgent = new Map<string, BrainMemoryRow[]>(agentIds.map((id) => [id, []]));
    for (const { position: _position, ...memory } of rows) byAgent.get(memory.agentId)?.push(memory);
    return agentIds.map((id) => byAgent.get(id)!);
  }
}
