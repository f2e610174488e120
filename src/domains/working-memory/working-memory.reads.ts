/**
 * Reads of working memory, visible records only: one record, the lexical search, the newest-first
 * list and its batch form for several agents, and records by key.
 */
import { and, asc, desc, eq, getTableColumns, inArray, lt, lte, or, sql, type SQL } from 'drizzle-orm';
import { ValidationError } from '../../lib/errors.js';
import { charLength, escapeLike } from '../../lib/text.js';
import { assertCleanText } from '../../lib/text-policy.js';
import type { Viewer } from '../../auth/viewer.js';
import { resolveRuntime, type RuntimeContext } from '../../auth/runtime.js';
import { WORKING_LIMITS, workingRecords } from './working-memory.sql.js';
import { filters, inScope, visible } from './working-memory.conditions.js';
import type { ScopeArgs, WorkingDeps, WorkingListFilter, WorkingRecordRow } from './working-memory.types.js';

export async function get(deps: WorkingDeps, viewer: Viewer | null, input: ScopeArgs & { id: string }): Promise<WorkingRecordRow | null> {
  return getInScope(deps, resolveRuntime(viewer, input), input.id);
}

/** One visible record of an already authorized agent and scope (node(id:)). */
export async function getInScope(deps: WorkingDeps, runtime: RuntimeContext, id: string): Promise<WorkingRecordRow | null> {
  assertCleanText('id', id);
  const [row] = await deps.db
    .select()
    .from(workingRecords)
    .where(and(inScope(runtime), eq(workingRecords.id, id), visible(deps.clock.now())));
  return row ?? null;
}

/**
 * Lexical search over title and content of the current agent and scope: every whitespace-
 * separated term must occur (case-insensitive substring); title hits rank first, then the most
 * recently updated. At most 10 results.
 */
export async function search(deps: WorkingDeps, viewer: Viewer | null, input: WorkingListFilter & { query?: string | null; first?: number | null }): Promise<WorkingRecordRow[]> {
  const runtime = resolveRuntime(viewer, input);
  const limit = input.first ?? WORKING_LIMITS.search;
  if (!Number.isInteger(limit) || limit < 1 || limit > WORKING_LIMITS.search) {
    throw new ValidationError('first', `search returns 1 to ${WORKING_LIMITS.search} results`, WORKING_LIMITS.search);
  }
  const query = (input.query ?? '').trim();
  assertCleanText('query', query);
  if (charLength(query) > WORKING_LIMITS.query) throw new ValidationError('query', `the query is bounded to ${WORKING_LIMITS.query} characters`, WORKING_LIMITS.query);
  const terms = query.split(/\s+/).filter(Boolean).slice(0, 16);
  const text = sql`(${workingRecords.title} || ' ' || ${workingRecords.content})`;
  const conditions: SQL[] = [inScope(runtime), visible(deps.clock.now()), ...filters(input)];
  for (const term of terms) conditions.push(sql`${text} ILIKE ${`%${escapeLike(term)}%`}`);
  const order = [desc(workingRecords.updatedAt), desc(workingRecords.id)];
  if (query) order.unshift(desc(sql`(${workingRecords.title} ILIKE ${`%${escapeLike(query)}%`})`));
  return deps.db
    .select()
    .from(workingRecords)
    .where(and(...conditions))
    .orderBy(...order)
    .limit(limit);
}

/** Newest first, keyset on (created_at, id); the caller fetches limit + 1 to know about a next page. */
export async function list(
  deps: WorkingDeps,
  viewer: Viewer | null,
  input: WorkingListFilter & { limit: number; after: { createdAt: Date; id: string } | null },
): Promise<{ runtime: RuntimeContext; rows: WorkingRecordRow[] }> {
  const runtime = resolveRuntime(viewer, input);
  const conditions: SQL[] = [inScope(runtime), visible(deps.clock.now()), ...filters(input)];
  if (input.after) {
    conditions.push(or(lt(workingRecords.createdAt, input.after.createdAt), and(eq(workingRecords.createdAt, input.after.createdAt), lt(workingRecords.id, input.after.id)))!);
  }
  const rows = await deps.db
    .select()
    .from(workingRecords)
    .where(and(...conditions))
    .orderBy(desc(workingRecords.createdAt), desc(workingRecords.id))
    .limit(input.limit);
  return { runtime, rows };
}

/**
 * The same list for several agents in one statement (Agent.workingRecords): each agent is
 * authorized and scoped as `list` does (an error in its place when it may not be read), then a
 * window per agent keeps `limit` rows of each (callers pass +1).
 */
export async function listPages(
  deps: WorkingDeps,
  viewer: Viewer | null,
  agentIds: readonly string[],
  input: Omit<WorkingListFilter, 'agentId'> & { limit: number; afterOf: (runtime: RuntimeContext) => { createdAt: Date; id: string } | null },
): Promise<({ runtime: RuntimeContext; rows: WorkingRecordRow[] } | Error)[]> {
  const results: ({ runtime: RuntimeContext; rows: WorkingRecordRow[] } | Error)[] = [];
  const readable: { index: number; runtime: RuntimeContext; after: { createdAt: Date; id: string } | null }[] = [];
  agentIds.forEach((agentId, index) => {
    try {
      const runtime = resolveRuntime(viewer, { agentId, project: input.project });
      readable.push({ index, runtime, after: input.afterOf(runtime) });
    } catch (error) {
      results[index] = error as Error;
    }
  });
  if (readable.length === 0) return results;
  const w = workingRecords;
  // Every readable agent shares the viewer's scope, and one `after` cursor belongs to one agent.
  const { scope } = readable[0].runtime;
  const after = readable.find((r) => r.after)?.after ?? null;
  const conditions: SQL[] = [
    inArray(
      w.agentId,
      readable.map((r) => r.runtime.agentId),
    ),
    eq(w.project, scope),
    visible(deps.clock.now()),
    ...filters(input),
  ];
  if (after) conditions.push(or(lt(w.createdAt, after.createdAt), and(eq(w.createdAt, after.createdAt), lt(w.id, after.id)))!);
  const ranked = deps.db
    .select({ ...getTableColumns(w), position: sql<number>`row_number() OVER (PARTITION BY ${w.agentId} ORDER BY ${w.createdAt} DESC, ${w.id} DESC)`.as('position') })
    .from(w)
    .where(and(...conditions))
    .as('ranked');
  const rows = await deps.db.select().from(ranked).where(lte(ranked.position, input.limit)).orderBy(asc(ranked.position));
  for (const { index, runtime } of readable) {
    results[index] = { runtime, rows: rows.filter((r) => r.agentId === runtime.agentId).map(({ position: _position, ...row }) => row as WorkingRecordRow) };
  }
  return results;
}

/** Records by agent and id, visible ones only, in the order asked (the supersededBy link). */
export async function byKeys(deps: WorkingDeps, keys: readonly { agentId: string; id: string }[]): Promise<(WorkingRecordRow | null)[]> {
  if (keys.length === 0) return [];
  const w = workingRecords;
  const rows = await deps.db
    .select()
    .from(w)
    .where(and(or(...keys.map((k) => and(eq(w.agentId, k.agentId), eq(w.id, k.id)))), visible(deps.clock.now())));
  return keys.map((k) => rows.find((r) => r.agentId === k.agentId && r.id === k.id) ?? null);
}
