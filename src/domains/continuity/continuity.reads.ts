/**
 * Continuity reads: how a run and its effects are read (runtime documents as their exact stored
 * text), the row types every other continuity file returns, and the queries behind the GraphQL
 * reads and batch loaders.
 */
import { and, asc, desc, eq, getTableColumns, gt, inArray, isNull, lt, lte, or, sql } from 'drizzle-orm';
import type { DbOrTx } from '../../db/database.js';
import { resolveActingAgent, type Viewer } from '../../auth/viewer.js';
import { continuityEffects, continuityLog, continuityOwners, continuityState, type ContinuityRunState } from './continuity.sql.js';
import type { ContinuityDeps } from './continuity.deps.js';

const { head: _head, finalResult: _finalResult, ...plainStateColumns } = getTableColumns(continuityState);
/** The run row with its runtime documents as their exact stored text. */
export const runColumns = {
  ...plainStateColumns,
  head: sql<string>`${continuityState.head}::text`.as('head'),
  finalResult: sql<string | null>`${continuityState.finalResult}::text`.as('final_result'),
};
const { request: _request, receipt: _receipt, ...plainEffectColumns } = getTableColumns(continuityEffects);
export const effectColumns = {
  ...plainEffectColumns,
  request: sql<string>`${continuityEffects.request}::text`.as('request'),
  receipt: sql<string | null>`${continuityEffects.receipt}::text`.as('receipt'),
};

export type ContinuityRunRow = Omit<typeof continuityState.$inferSelect, 'head' | 'finalResult'> & { head: string; finalResult: string | null };
export type ContinuityEffectRow = Omit<typeof continuityEffects.$inferSelect, 'request' | 'receipt'> & { request: string; receipt: string | null };
export type ContinuityLogRow = typeof continuityLog.$inferSelect;
export type ContinuityOwnerRow = typeof continuityOwners.$inferSelect & { live: boolean };

export interface RunKey {
  agentId: string;
  runId: string;
}

export async function getRun(deps: ContinuityDeps, viewer: Viewer | null, requestedAgentId: string | null | undefined, runId: string): Promise<ContinuityRunRow | null> {
  const { agentId } = resolveActingAgent(viewer, requestedAgentId);
  return readRun(deps.db, agentId, runId);
}

export async function listRuns(
  deps: ContinuityDeps,
  viewer: Viewer | null,
  query: { agentId?: string | null; states?: ContinuityRunState[] | null; limit: number; after: { createdAt: Date; runId: string } | null },
): Promise<{ agentId: string; rows: ContinuityRunRow[] }> {
  const { agentId } = resolveActingAgent(viewer, query.agentId);
  const position = query.after
    ? or(lt(continuityState.createdAt, query.after.createdAt), and(eq(continuityState.createdAt, query.after.createdAt), lt(continuityState.runId, query.after.runId)))
    : undefined;
  const rows = await deps.db
    .select(runColumns)
    .from(continuityState)
    .where(and(eq(continuityState.agentId, agentId), query.states?.length ? inArray(continuityState.state, query.states) : undefined, position))
    .orderBy(desc(continuityState.createdAt), desc(continuityState.runId))
    .limit(query.limit);
  return { agentId, rows };
}

export async function listOwners(deps: ContinuityDeps, viewer: Viewer | null, requestedAgentId: string | null | undefined, includeClosed: boolean): Promise<ContinuityOwnerRow[]> {
  const { agentId } = resolveActingAgent(viewer, requestedAgentId);
  const rows = await deps.db
    .select()
    .from(continuityOwners)
    .where(and(eq(continuityOwners.agentId, agentId), includeClosed ? undefined : isNull(continuityOwners.closedAt)))
    .orderBy(desc(continuityOwners.openedAt), asc(continuityOwners.id))
    .limit(500);
  const alive = await deps.owners.alive(rows.map((r) => r.id));
  return rows.map((r) => ({ ...r, live: alive.has(r.id) }));
}

export async function effectsOf(db: DbOrTx, agentId: string, runId: string): Promise<ContinuityEffectRow[]> {
  return db
    .select(effectColumns)
    .from(continuityEffects)
    .where(and(eq(continuityEffects.agentId, agentId), eq(continuityEffects.runId, runId)))
    .orderBy(asc(continuityEffects.intendedAt), asc(continuityEffects.effectId));
}

export async function readRun(db: DbOrTx, agentId: string, runId: string): Promise<ContinuityRunRow | null> {
  const [row] = await db
    .select(runColumns)
    .from(continuityState)
    .where(and(eq(continuityState.agentId, agentId), eq(continuityState.runId, runId)));
  return row ?? null;
}

/**
 * One page of runs for each of several agents in ONE statement (Agent.continuityRuns): every
 * agent's newest runs are numbered per agent and the first `limit` of each kept, so the cost does
 * not grow with the number of agents. `after` is per agent (cursors are bound to one agent).
 */
export async function runPagesForAgents(
  deps: ContinuityDeps,
  keys: readonly { agentId: string; after: { createdAt: Date; runId: string } | null }[],
  states: readonly ContinuityRunState[] | null,
  limit: number,
): Promise<ContinuityRunRow[][]> {
  if (keys.length === 0) return [];
  const perAgent = keys.map((k) =>
    k.after
      ? and(
          eq(continuityState.agentId, k.agentId),
          or(lt(continuityState.createdAt, k.after.createdAt), and(eq(continuityState.createdAt, k.after.createdAt), lt(continuityState.runId, k.after.runId))),
        )
      : eq(continuityState.agentId, k.agentId),
  );
  const ranked = deps.db
    .select({
      ...runColumns,
      rank: sql<number>`row_number() OVER (PARTITION BY ${continuityState.agentId} ORDER BY ${continuityState.createdAt} DESC, ${continuityState.runId} DESC)`.as('page_rank'),
    })
    .from(continuityState)
    .where(and(or(...perAgent), states?.length ? inArray(continuityState.state, [...states]) : undefined))
    .as('ranked');
  const rows = await deps.db.select().from(ranked).where(lte(ranked.rank, limit)).orderBy(asc(ranked.rank));
  return keys.map((k) => rows.filter((r) => r.agentId === k.agentId).map(({ rank: _rank, ...run }) => run as ContinuityRunRow));
}

/** Runs by key in one statement (the `run` link of effects and transitions). */
export async function runsByKeys(deps: ContinuityDeps, keys: readonly RunKey[]): Promise<(ContinuityRunRow | null)[]> {
  const rows = keys.length
    ? await deps.db
        .select(runColumns)
        .from(continuityState)
        .where(or(...keys.map((k) => and(eq(continuityState.agentId, k.agentId), eq(continuityState.runId, k.runId)))))
    : [];
  return keys.map((k) => rows.find((r) => r.agentId === k.agentId && r.runId === k.runId) ?? null);
}

/** Owner sessions by key in one statement, with their liveness (the `owner` link). */
export async function ownersByKeys(deps: ContinuityDeps, keys: readonly { agentId: string; ownerId: string }[]): Promise<(ContinuityOwnerRow | null)[]> {
  const rows = keys.length
    ? await deps.db
        .select()
        .from(continuityOwners)
        .where(or(...keys.map((k) => and(eq(continuityOwners.agentId, k.agentId), eq(continuityOwners.id, k.ownerId)))))
    : [];
  const alive = await deps.owners.alive(rows.map((r) => r.id));
  return keys.map((k) => {
    const row = rows.find((r) => r.agentId === k.agentId && r.id === k.ownerId);
    return row ? { ...row, live: alive.has(row.id) } : null;
  });
}

/**
 * A page of effects for each of several runs in one statement, in the order they were intended.
 * `after` is the (intendedAt, effectId) of the last effect of the previous page.
 */
export async function effectPagesForRuns(
  deps: ContinuityDeps,
  keys: readonly (RunKey & { after: { intendedAt: Date; effectId: string } | null })[],
  limit: number,
): Promise<ContinuityEffectRow[][]> {
  if (keys.length === 0) return [];
  const e = continuityEffects;
  const perRun = keys.map((k) =>
    and(
      eq(e.agentId, k.agentId),
      eq(e.runId, k.runId),
      k.after ? or(gt(e.intendedAt, k.after.intendedAt), and(eq(e.intendedAt, k.after.intendedAt), gt(e.effectId, k.after.effectId))) : undefined,
    ),
  );
  const ranked = deps.db
    .select({
      ...effectColumns,
      rank: sql<number>`row_number() OVER (PARTITION BY ${e.agentId}, ${e.runId} ORDER BY ${e.intendedAt} ASC, ${e.effectId} ASC)`.as('page_rank'),
    })
    .from(e)
    .where(or(...perRun))
    .as('ranked');
  const rows = await deps.db.select().from(ranked).where(lte(ranked.rank, limit)).orderBy(asc(ranked.rank));
  return keys.map((k) => rows.filter((r) => r.agentId === k.agentId && r.runId === k.runId).map(({ rank: _rank, ...effect }) => effect as ContinuityEffectRow));
}

/** A page of transitions for each of several runs in one statement, in log order after `afterPosition`. */
export async function transitionPagesForRuns(deps: ContinuityDeps, keys: readonly (RunKey & { afterPosition: number | null })[], limit: number): Promise<ContinuityLogRow[][]> {
  if (keys.length === 0) return [];
  const l = continuityLog;
  const perRun = keys.map((k) => and(eq(l.agentId, k.agentId), eq(l.runId, k.runId), k.afterPosition == null ? undefined : gt(l.position, k.afterPosition)));
  const ranked = deps.db
    .select({ ...getTableColumns(l), rank: sql<number>`row_number() OVER (PARTITION BY ${l.agentId}, ${l.runId} ORDER BY ${l.position} ASC)`.as('page_rank') })
    .from(l)
    .where(or(...perRun))
    .as('ranked');
  const page = await deps.db.select().from(ranked).where(lte(ranked.rank, limit)).orderBy(asc(ranked.rank));
  return keys.map((k) => page.filter((r) => r.agentId === k.agentId && r.runId === k.runId).map(({ rank: _rank, ...log }) => log as ContinuityLogRow));
}

/** One owner session (node(id)), authorized like continuityOwners. */
export async function getOwner(deps: ContinuityDeps, viewer: Viewer | null, requestedAgentId: string, ownerId: string): Promise<ContinuityOwnerRow | null> {
  const { agentId } = resolveActingAgent(viewer, requestedAgentId);
  const [owner] = await ownersByKeys(deps, [{ agentId, ownerId }]);
  return owner;
}

/** One effect (node(id)), authorized like continuityRun. */
export async function getEffect(deps: ContinuityDeps, viewer: Viewer | null, requestedAgentId: string, runId: string, effectId: string): Promise<ContinuityEffectRow | null> {
  const { agentId } = resolveActingAgent(viewer, requestedAgentId);
  const [effect] = await deps.db
    .select(effectColumns)
    .from(continuityEffects)
    .where(and(eq(continuityEffects.agentId, agentId), eq(continuityEffects.runId, runId), eq(continuityEffects.effectId, effectId)));
  return effect ?? null;
}

/** One transition of a run's log (node(id)), authorized like continuityRun. */
export async function getTransition(deps: ContinuityDeps, viewer: Viewer | null, requestedAgentId: string, runId: string, position: number): Promise<ContinuityLogRow | null> {
  const { agentId } = resolveActingAgent(viewer, requestedAgentId);
  const [transition] = await deps.db
    .select()
    .from(continuityLog)
    .where(and(eq(continuityLog.agentId, agentId), eq(continuityLog.runId, runId), eq(continuityLog.position, position)));
  return transition ?? null;
}
