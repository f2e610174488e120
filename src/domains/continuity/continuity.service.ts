/**
 * Run continuity: one continuity_state row per run, every transition appended to
 * continuity_log and to the agent event log in the same transaction.
 *
 *   [*] -> RUNNING (claim owner + generation) -> FINALIZING (fenced terminal commit) -> COMPLETED
 *   RUNNING | FINALIZING -> INTERRUPTED (owner's interruption, or abandoned owner on reconcile)
 *   INTERRUPTED -> RECOVERY_PENDING (assessed from durable evidence) -> RUNNING (recovery claim,
 *   next generation)
 *
 * Every write by a runtime names run, generation and owner and is ONE fenced UPDATE whose WHERE
 * also names the states the transition may start from; when it matches nothing, one read says
 * why (NotFound / STALE_GENERATION / NOT_OWNER / FORBIDDEN_TRANSITION) and nothing changed.
 *
 * This class is the domain's one entry point; the work lives in the files named for it:
 * continuity.runs.ts (a run under its owner), continuity.fencing.ts (owners and the fence),
 * continuity.transitions.ts (log, events, interruption manifest), continuity.recovery.ts
 * (reconciliation and recovery) and continuity.reads.ts (row shapes and reads); continuity.deps.ts
 * holds the ContinuityDeps they all take.
 */
import type { Db, DbOrTx } from '../../db/database.js';
import type { Clock } from '../../lib/clock.js';
import type { FaultInjector } from '../../lib/faults.js';
import type { Logger } from '../../lib/logger.js';
import type { Viewer } from '../../auth/viewer.js';
import type { ContinuityRunState, EffectOutcome } from './continuity.sql.js';
import type { OwnershipRegistry, OwnershipSession } from './ownership.js';
import * as reads from './continuity.reads.js';
import type { ContinuityEffectRow, ContinuityLogRow, ContinuityOwnerRow, ContinuityRunRow, RunKey } from './continuity.reads.js';
import { openOwnership, type Fence } from './continuity.fencing.js';
import * as runs from './continuity.runs.js';
import * as recovery from './continuity.recovery.js';
import type { ReconcileResult } from './continuity.recovery.js';
import type { ContinuityDeps } from './continuity.deps.js';

export class ContinuityService {
  private readonly deps: ContinuityDeps;

  constructor(
    db: Db,
    clock: Clock,
    faults: FaultInjector,
    readonly owners: OwnershipRegistry,
    logger: Logger,
  ) {
    this.deps = { db, clock, faults, owners, logger };
  }

  // ---- owners -------------------------------------------------------------------------------

  openOwnership(viewer: Viewer | null, requestedAgentId: string | null | undefined): Promise<OwnershipSession> {
    return openOwnership(this.deps, viewer, requestedAgentId);
  }

  listOwners(viewer: Viewer | null, requestedAgentId: string | null | undefined, includeClosed: boolean): Promise<ContinuityOwnerRow[]> {
    return reads.listOwners(this.deps, viewer, requestedAgentId, includeClosed);
  }

  // ---- runs ---------------------------------------------------------------------------------

  startRun(viewer: Viewer | null, input: { agentId?: string | null; runId?: string | null; ownerId: string; head?: string | null }): Promise<ContinuityRunRow> {
    return runs.startRun(this.deps, viewer, input);
  }

  commitHead(viewer: Viewer | null, input: Fence & { head: string }): Promise<ContinuityRunRow> {
    return runs.commitHead(this.deps, viewer, input);
  }

  recordEffect(viewer: Viewer | null, input: Fence & { effectId?: string | null; kind: string; request: string }): Promise<ContinuityEffectRow> {
    return runs.recordEffect(this.deps, viewer, input);
  }

  recordReceipt(viewer: Viewer | null, input: Fence & { effectId: string; outcome: Exclude<EffectOutcome, 'UNKNOWN'>; receipt: string }): Promise<ContinuityEffectRow> {
    return runs.recordReceipt(this.deps, viewer, input);
  }

  finalize(viewer: Viewer | null, input: Fence & { result?: string | null }): Promise<ContinuityRunRow> {
    return runs.finalize(this.deps, viewer, input);
  }

  complete(viewer: Viewer | null, input: Fence): Promise<ContinuityRunRow> {
    return runs.complete(this.deps, viewer, input);
  }

  interrupt(viewer: Viewer | null, input: Fence & { reason: string }): Promise<ContinuityRunRow> {
    return runs.interrupt(this.deps, viewer, input);
  }

  // ---- reconciliation and recovery ----------------------------------------------------------

  claimRecovery(viewer: Viewer | null, input: { agentId?: string | null; runId: string; ownerId: string; expectedGeneration?: number | null }): Promise<ContinuityRunRow> {
    return recovery.claimRecovery(this.deps, viewer, input);
  }

  reconcileFor(viewer: Viewer | null, requestedAgentId: string | null | undefined): Promise<ReconcileResult> {
    return recovery.reconcileFor(this.deps, viewer, requestedAgentId);
  }

  reconcile(agentId: string | null = null): Promise<ReconcileResult> {
    return recovery.reconcile(this.deps, agentId);
  }

  // ---- reads --------------------------------------------------------------------------------

  getRun(viewer: Viewer | null, requestedAgentId: string | null | undefined, runId: string): Promise<ContinuityRunRow | null> {
    return reads.getRun(this.deps, viewer, requestedAgentId, runId);
  }

  listRuns(
    viewer: Viewer | null,
    query: { agentId?: string | null; states?: ContinuityRunState[] | null; limit: number; after: { createdAt: Date; runId: string } | null },
  ): Promise<{ agentId: string; rows: ContinuityRunRow[] }> {
    return reads.listRuns(this.deps, viewer, query);
  }

  effectsOf(db: DbOrTx, agentId: string, runId: string): Promise<ContinuityEffectRow[]> {
    return reads.effectsOf(db, agentId, runId);
  }

  getOwner(viewer: Viewer | null, agentId: string, ownerId: string): Promise<ContinuityOwnerRow | null> {
    return reads.getOwner(this.deps, viewer, agentId, ownerId);
  }

  getEffect(viewer: Viewer | null, agentId: string, runId: string, effectId: string): Promise<ContinuityEffectRow | null> {
    return reads.getEffect(this.deps, viewer, agentId, runId, effectId);
  }

  getTransition(viewer: Viewer | null, agentId: string, runId: string, position: number): Promise<ContinuityLogRow | null> {
    return reads.getTransition(this.deps, viewer, agentId, runId, position);
  }

  runPagesForAgents(...args: Parameters<typeof reads.runPagesForAgents> extends [unknown, ...infer R] ? R : never) {
    return reads.runPagesForAgents(this.deps, ...args);
  }

  runsByKeys(keys: readonly RunKey[]) {
    return reads.runsByKeys(this.deps, keys);
  }

  ownersByKeys(keys: readonly { agentId: string; ownerId: string }[]) {
    return reads.ownersByKeys(this.deps, keys);
  }

  effectPagesForRuns(...args: Parameters<typeof reads.effectPagesForRuns> extends [unknown, ...infer R] ? R : never) {
    return reads.effectPagesForRuns(this.deps, ...args);
  }

  transitionPagesForRuns(...args: Parameters<typeof reads.transitionPagesForRuns> extends [unknown, ...infer R] ? R : never) {
    return reads.transitionPagesForRuns(this.deps, ...args);
  }
}
