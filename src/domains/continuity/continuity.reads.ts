/**
 * Continuity reads: how a run and its effects are read (runtime documents as their exact stored
 * text), the row types every other continuity file returns, and the queries behind the GraphQL
 * reads and batch loaders.
 */
import { and, asc, desc, eq, getTableColumns, inArray, isNull, lt, or, sql } from 'drizzle-orm';
import type { DbOrTx } from '../../db/database.js';
import { resolveActingAgent, type Viewer } from '../../auth/viewer.js';
import { continuityEffects, continuityLog, continuityOwners, continuityState, type ContinuityRunState } from './continuity.sql.js';
import type { ContinuityDeps } from './continuity.service.js';

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
    ? or(
        lt(continuityState.createdAt, query.after.createdAt),
        and(eq(continuityState.createdAt, query.after.createdAt), lt(continuityState.runId, query.after.runId)),
      )
    : undefined;
  const rows = await deps.db
    .select(runColumns)
    .from(continuityState)
    .where(and(eq(continuityState.agentId, agentId), query.states?.length ? inArray(continuityState.state, query.states) : undefined, position))
    .orderBy(desc(continuityState.createdAt), desc(continuityState.runId))
    .limit(query.limit);
  return { agentId, rows };
}

export async function listOwners(
  deps: ContinuityDeps,
  viewer: Viewer | null,
  requestedAgentId: string | null | undefined,
  includeClosed: boolean,
): Promise<ContinuityOwnerRow[]> {
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

/** Batch loader: effects of several runs (keys are agentId/runId), one statement. */
export async function effectsForRuns(deps: ContinuityDeps, keys: readonly RunKey[]): Promise<ContinuityEffectRow[][]> {
  const rows = keys.length
    ? await deps.db
        .select(effectColumns)
        .from(continuityEffects)
        .where(or(...keys.map((k) => and(eq(continuityEffects.agentId, k.agentId), eq(continuityEffects.runId, k.runId)))))
        .orderBy(asc(continuityEffects.intendedAt), asc(continuityEffects.effectId))
    : [];
  return keys.map((k) => rows.filter((r) => r.agentId === k.agentId && r.runId === k.runId));
}

/** Batch loader: transitions of several runs in log order, one statement. */
export async function logsForRuns(deps: ContinuityDeps, keys: readonly RunKey[]): Promise<ContinuityLogRow[][]> {
  const rows = keys.length
    ? await deps.db
        .select()
        .from(continuityLog)
        .where(or(...keys.map((k) => and(eq(continuityLog.agentId, k.agentId), eq(continuityLog.runId, k.runId)))))
        .orderBy(asc(continuityLog.position))
    : [];
  return keys.map((k) => rows.filter((r) => r.agentId === k.agentId && r.runId === k.runId));
}

export async function readRun(db: DbOrTx, agentId: string, runId: string): Promise<ContinuityRunRow | null> {
  const [row] = await db.select(runColumns).from(continuityState).where(and(eq(continuityState.agentId, agentId), eq(continuityState.runId, runId)));
  return row ?? null;
}
