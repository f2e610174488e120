/**
 * Reconciliation and recovery: runs whose owner is gone are interrupted (RUNNING | FINALIZING ->
 * INTERRUPTED, reason owner_abandoned), every INTERRUPTED run is assessed from durable evidence
 * into RECOVERY_PENDING with a recovery queue, and a live owner claims it back into RUNNING at
 * the next generation.
 */
import { and, asc, eq, inArray, sql } from 'drizzle-orm';
import { lockForTransaction, LockClass } from '../../db/locks.js';
import { NotFoundError } from '../../lib/errors.js';
import { requireViewer, resolveActingAgent, type Viewer } from '../../auth/viewer.js';
import { continuityState, type ContinuityRunState } from './continuity.sql.js';
import { ContinuityFenceError } from './continuity.errors.js';
import { effectsOf, readRun, runColumns, type ContinuityRunRow } from './continuity.reads.js';
import { assertLiveOwner } from './continuity.fencing.js';
import { bump, logTransition, writeManifest } from './continuity.transitions.js';
import type { ContinuityDeps } from './continuity.deps.js';

export interface ReconcileResult {
  ownersChecked: number;
  /** "agentId/runId" of runs whose interruption or assessment failed this pass (logged); the next pass retries them. */
  failed: string[];
  interrupted: ContinuityRunRow[];
  recoveryPending: ContinuityRunRow[];
}

export type RecoveryQueueItem =
  | { kind: 'RECONCILE_EFFECT'; effectId: string; effectKind: string; outcome: 'UNKNOWN'; intendedGeneration: number }
  | { kind: 'FINISH_FINALIZATION'; headRevision: number }
  | { kind: 'RESUME_TURN'; headRevision: number };

/** On-demand reconciliation: an agent token reconciles its own runs, an operator one agent or all. */
export async function reconcileFor(deps: ContinuityDeps, viewer: Viewer | null, requestedAgentId: string | null | undefined): Promise<ReconcileResult> {
  const v = requireViewer(viewer);
  let agentId: string | null;
  if (v.principal === 'AGENT') agentId = resolveActingAgent(v, requestedAgentId).agentId;
  else agentId = requestedAgentId ?? null;
  return reconcile(deps, agentId);
}

/**
 * Finds runs whose owner is gone, interrupts each exactly once (even with several instances
 * reconciling at once: rows are taken FOR UPDATE SKIP LOCKED and the UPDATE re-checks state,
 * generation and owner), then assesses every INTERRUPTED run into RECOVERY_PENDING.
 */
export async function reconcile(deps: ContinuityDeps, agentId: string | null): Promise<ReconcileResult> {
  const agentFilter = agentId ? eq(continuityState.agentId, agentId) : undefined;
  const liveStates = inArray(continuityState.state, ['RUNNING', 'FINALIZING']);
  // Owners first, then only the dead owners' runs: live runs can never crowd out abandoned ones.
  const ownerRows = await deps.db.selectDistinct({ ownerId: continuityState.ownerId }).from(continuityState).where(and(liveStates, agentFilter));
  const ownerIds = ownerRows.map((r) => r.ownerId);
  const alive = await deps.owners.alive(ownerIds);
  const dead = ownerIds.filter((id) => !alive.has(id));
  const candidates = dead.length
    ? await deps.db
        .select({ agentId: continuityState.agentId, runId: continuityState.runId, ownerId: continuityState.ownerId, generation: continuityState.generation })
        .from(continuityState)
        .where(and(liveStates, agentFilter, inArray(continuityState.ownerId, dead)))
        .orderBy(asc(continuityState.updatedAt))
        .limit(1000)
    : [];
  const interrupted: ContinuityRunRow[] = [];
  const failed: string[] = [];
  // One run's failure must not stall every other abandoned run behind it, pass after pass.
  const attempt = async <T>(agent: string, runId: string, work: () => Promise<T>): Promise<T | null> => {
    try {
      return await work();
    } catch (error) {
      deps.logger.warn('continuity reconciliation of a run failed', { agentId: agent, runId, error: (error as Error).message });
      failed.push(`${agent}/${runId}`);
      return null;
    }
  };
  for (const candidate of candidates) {
    const run = await attempt(candidate.agentId, candidate.runId, () => interruptAbandoned(deps, candidate));
    if (run) interrupted.push(run);
  }
  const waiting = await deps.db
    .select({ agentId: continuityState.agentId, runId: continuityState.runId })
    .from(continuityState)
    .where(and(eq(continuityState.state, 'INTERRUPTED'), agentFilter))
    .orderBy(asc(continuityState.updatedAt))
    .limit(1000);
  const recoveryPending: ContinuityRunRow[] = [];
  for (const run of waiting) {
    const assessed = await attempt(run.agentId, run.runId, () => assess(deps, run.agentId, run.runId));
    if (assessed) recoveryPending.push(assessed);
  }
  if (interrupted.length || recoveryPending.length) {
    deps.logger.info('continuity reconciled', { interrupted: interrupted.length, recoveryPending: recoveryPending.length });
  }
  return { ownersChecked: ownerIds.length, failed, interrupted, recoveryPending };
}

async function interruptAbandoned(deps: ContinuityDeps, candidate: { agentId: string; runId: string; ownerId: string; generation: number }): Promise<ContinuityRunRow | null> {
  return deps.db.transaction(async (tx) => {
    // Guard first, row second: the same order as finalize/complete, so they cannot deadlock.
    await lockForTransaction(tx, LockClass.continuityFinalize, `${candidate.agentId}/${candidate.runId}`);
    const sameRunSameFence = and(
      eq(continuityState.agentId, candidate.agentId),
      eq(continuityState.runId, candidate.runId),
      eq(continuityState.ownerId, candidate.ownerId),
      eq(continuityState.generation, candidate.generation),
      inArray(continuityState.state, ['RUNNING', 'FINALIZING']),
    );
    const [locked] = await tx.select({ state: continuityState.state }).from(continuityState).where(sameRunSameFence).for('update', { skipLocked: true });
    if (!locked) return null;
    const now = deps.clock.now();
    const [before] = await tx
      .update(continuityState)
      .set({ state: 'INTERRUPTED', interruptedAt: now, ...bump(deps.clock) })
      .where(sameRunSameFence)
      .returning(runColumns);
    if (!before) return null;
    const from = locked.state as ContinuityRunState;
    deps.faults('continuity.reconcile.after_interrupt');
    const run = await writeManifest(tx, before, from, 'owner_abandoned', now);
    await logTransition(tx, deps.clock, run, from, 'owner_abandoned');
    return run;
  });
}

/** INTERRUPTED -> RECOVERY_PENDING with a queue assessed from the manifest and durable effects. */
async function assess(deps: ContinuityDeps, agentId: string, runId: string): Promise<ContinuityRunRow | null> {
  return deps.db.transaction(async (tx) => {
    const interruptedRun = and(eq(continuityState.agentId, agentId), eq(continuityState.runId, runId), eq(continuityState.state, 'INTERRUPTED'));
    const [locked] = await tx
      .select({ headRevision: continuityState.headRevision, resultStored: sql<boolean>`${continuityState.finalResult} IS NOT NULL` })
      .from(continuityState)
      .where(interruptedRun)
      .for('update', { skipLocked: true });
    if (!locked) return null;
    // A stored final result means the turn has finished, however many recoveries (and crashes
    // of recovering heirs) came after the terminal commit: the row is the evidence, not the
    // latest manifest, so an assessment can never forget it.
    const turnDone = locked.resultStored === true;
    const effects = await effectsOf(tx, agentId, runId);
    const queue: RecoveryQueueItem[] = effects
      .filter((e) => e.outcome === 'UNKNOWN')
      .map((e) => ({ kind: 'RECONCILE_EFFECT', effectId: e.effectId, effectKind: e.kind, outcome: 'UNKNOWN', intendedGeneration: e.intendedGeneration }));
    // A durable final result means the turn itself is done: recovery finishes the
    // finalization, it never schedules the turn again.
    queue.push(turnDone ? { kind: 'FINISH_FINALIZATION', headRevision: locked.headRevision } : { kind: 'RESUME_TURN', headRevision: locked.headRevision });
    const [run] = await tx
      .update(continuityState)
      .set({ state: 'RECOVERY_PENDING', recoveryQueue: queue, ...bump(deps.clock) })
      .where(interruptedRun)
      .returning(runColumns);
    if (!run) return null;
    await logTransition(tx, deps.clock, run, 'INTERRUPTED', 'assessed');
    return run;
  });
}

/**
 * RECOVERY_PENDING -> RUNNING at the next generation, owned by a live owner of the agent.
 * `expectedGeneration`, when given, must be the generation being recovered.
 */
export async function claimRecovery(
  deps: ContinuityDeps,
  viewer: Viewer | null,
  input: { agentId?: string | null; runId: string; ownerId: string; expectedGeneration?: number | null },
): Promise<ContinuityRunRow> {
  const { agentId } = resolveActingAgent(viewer, input.agentId);
  await assertLiveOwner(deps, agentId, input.ownerId);
  return deps.db.transaction(async (tx) => {
    const [run] = await tx
      .update(continuityState)
      .set({ state: 'RUNNING', generation: sql`${continuityState.generation} + 1`, ownerId: input.ownerId, ...bump(deps.clock) })
      .where(
        and(
          eq(continuityState.agentId, agentId),
          eq(continuityState.runId, input.runId),
          eq(continuityState.state, 'RECOVERY_PENDING'),
          input.expectedGeneration != null ? eq(continuityState.generation, input.expectedGeneration) : undefined,
        ),
      )
      .returning(runColumns);
    if (!run) {
      const current = await readRun(tx, agentId, input.runId);
      if (!current) throw new NotFoundError('ContinuityRun', input.runId);
      if (current.state === 'RECOVERY_PENDING') {
        throw new ContinuityFenceError(
          'STALE_GENERATION',
          `run ${input.runId} is waiting for recovery at generation ${current.generation}, not ${input.expectedGeneration}`,
          input.runId,
          current.state,
          current.generation,
        );
      }
      throw new ContinuityFenceError(
        'FORBIDDEN_TRANSITION',
        `run ${input.runId} is ${current.state}; only a RECOVERY_PENDING run can be claimed for recovery`,
        input.runId,
        current.state,
        current.generation,
      );
    }
    await logTransition(tx, deps.clock, run, 'RECOVERY_PENDING', 'recovery_claimed');
    return run;
  });
}
