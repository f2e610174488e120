/**
 * Who may write a run: a live ownership session of the run's agent, and for every write by a
 * runtime the fence — ONE UPDATE naming run, generation, owner and the states the action may
 * start from. When it matches nothing, one read says why (NotFound / STALE_GENERATION /
 * NOT_OWNER / FORBIDDEN_TRANSITION) and nothing changed.
 */
import { and, eq, inArray, sql } from 'drizzle-orm';
import type { DbOrTx } from '../../db/database.js';
import { ForbiddenError, NotFoundError, ValidationError } from '../../lib/errors.js';
import { resolveActingAgent, type Viewer } from '../../auth/viewer.js';
import { continuityOwners, continuityState, type ContinuityRunState } from './continuity.sql.js';
import { ContinuityFenceError } from './continuity.errors.js';
import type { OwnershipSession } from './ownership.js';
import { readRun, runColumns, type ContinuityRunRow } from './continuity.reads.js';
import type { ContinuityDeps } from './continuity.deps.js';

export interface Fence {
  agentId?: string | null;
  runId: string;
  generation: number;
  ownerId: string;
}

/** Opens an ownership session for the acting agent; it lives until closed or its lock is lost. */
export async function openOwnership(deps: ContinuityDeps, viewer: Viewer | null, requestedAgentId: string | null | undefined): Promise<OwnershipSession> {
  const { agentId } = resolveActingAgent(viewer, requestedAgentId);
  const [agent] = await deps.db.execute<{ id: string }>(sql`SELECT id FROM agents WHERE id = ${agentId}`).then((r) => r.rows);
  if (!agent) throw new NotFoundError('Agent', agentId);
  return deps.owners.open(agentId);
}

/** An owner may start or recover a run only while its session is alive and it is this agent's. */
export async function assertLiveOwner(deps: ContinuityDeps, agentId: string, ownerId: string): Promise<void> {
  const [row] = await deps.db
    .select({ id: continuityOwners.id })
    .from(continuityOwners)
    .where(and(eq(continuityOwners.agentId, agentId), eq(continuityOwners.id, ownerId)));
  if (!row || !(await deps.owners.isAlive(ownerId))) {
    throw new ForbiddenError('OWNER_NOT_LIVE', `owner ${ownerId} is not a live ownership session of agent ${agentId}; open runtimeOwnership first`);
  }
}

export function fenceAgent(viewer: Viewer | null, fence: Fence): string {
  const { agentId } = resolveActingAgent(viewer, fence.agentId);
  if (!Number.isInteger(fence.generation) || fence.generation < 1) {
    throw new ValidationError('generation', 'generation must be a positive integer', 1);
  }
  return agentId;
}

/**
 * The fence: one UPDATE naming run, generation, owner and the states the action may start
 * from. A state change also bumps transition_count, which is the log position.
 */
export async function fencedUpdate(
  deps: ContinuityDeps,
  tx: DbOrTx,
  agentId: string,
  fence: Fence,
  allowed: ContinuityRunState[],
  action: string,
  set: Partial<Record<keyof typeof continuityState.$inferInsert, unknown>>,
): Promise<ContinuityRunRow> {
  const changesState = 'state' in set;
  const [run] = await tx
    .update(continuityState)
    .set({ ...(set as object), updatedAt: deps.clock.now(), ...(changesState ? { transitionCount: sql`${continuityState.transitionCount} + 1` } : {}) })
    .where(
      and(
        eq(continuityState.agentId, agentId),
        eq(continuityState.runId, fence.runId),
        eq(continuityState.generation, fence.generation),
        eq(continuityState.ownerId, fence.ownerId),
        inArray(continuityState.state, allowed),
      ),
    )
    .returning(runColumns);
  if (run) {
    // The fence matched, but an owner whose lock is gone writes nothing more, even before
    // reconciliation has noticed; the transaction rolls back.
    if (!(await deps.owners.isAliveOn(tx, fence.ownerId))) {
      throw new ForbiddenError('OWNER_NOT_LIVE', `owner ${fence.ownerId} is no longer live (its ownership session ended); the run will be recovered`);
    }
    return run;
  }
  const current = await readRun(tx, agentId, fence.runId);
  if (!current) throw new NotFoundError('ContinuityRun', fence.runId);
  if (current.generation !== fence.generation) {
    throw new ContinuityFenceError(
      'STALE_GENERATION',
      `run ${fence.runId} is at generation ${current.generation}; a commit from generation ${fence.generation} is stale`,
      fence.runId,
      current.state,
      current.generation,
    );
  }
  if (current.ownerId !== fence.ownerId) {
    throw new ContinuityFenceError('NOT_OWNER', `run ${fence.runId} is owned by another owner`, fence.runId, current.state, current.generation);
  }
  throw new ContinuityFenceError(
    'FORBIDDEN_TRANSITION',
    `cannot ${action}: run ${fence.runId} is ${current.state} (allowed from ${allowed.join(' or ')})`,
    fence.runId,
    current.state,
    current.generation,
  );
}
