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
 */
import { assertNoNul } from '../../lib/nul.js';
import { and, asc, desc, eq, getTableColumns, inArray, isNull, lt, or, sql } from 'drizzle-orm';
import type { Db, DbOrTx } from '../../db/database.js';
import { lockForTransaction, LockClass } from '../../db/locks.js';
import type { Clock } from '../../lib/clock.js';
import { ForbiddenError, NotFoundError, ValidationError } from '../../lib/errors.js';
import type { FaultInjector } from '../../lib/faults.js';
import { newId } from '../../lib/ids.js';
import type { Logger } from '../../lib/logger.js';
import { charLength } from '../../lib/text.js';
import { requireViewer, resolveActingAgent, type Viewer } from '../../auth/viewer.js';
import { appendEvent } from '../../events/events.service.js';
import {
  CONTINUITY_LIMITS,
  continuityEffects,
  continuityLog,
  continuityOwners,
  continuityState,
  type ContinuityRunState,
  type EffectOutcome,
} from './continuity.sql.js';
import { ContinuityFenceError } from './continuity.errors.js';
import type { OwnershipRegistry, OwnershipSession } from './ownership.js';

const { head: _head, finalResult: _finalResult, ...plainStateColumns } = getTableColumns(continuityState);
/** The run row with its runtime documents as their exact stored text. */
const runColumns = {
  ...plainStateColumns,
  head: sql<string>`${continuityState.head}::text`.as('head'),
  finalResult: sql<string | null>`${continuityState.finalResult}::text`.as('final_result'),
};
const { request: _request, receipt: _receipt, ...plainEffectColumns } = getTableColumns(continuityEffects);
const effectColumns = {
  ...plainEffectColumns,
  request: sql<string>`${continuityEffects.request}::text`.as('request'),
  receipt: sql<string | null>`${continuityEffects.receipt}::text`.as('receipt'),
};

export type ContinuityRunRow = Omit<typeof continuityState.$inferSelect, 'head' | 'finalResult'> & { head: string; finalResult: string | null };
export type ContinuityEffectRow = Omit<typeof continuityEffects.$inferSelect, 'request' | 'receipt'> & { request: string; receipt: string | null };
export type ContinuityLogRow = typeof continuityLog.$inferSelect;
export type ContinuityOwnerRow = typeof continuityOwners.$inferSelect & { live: boolean };

const RUN_ID_PATTERN = /^[A-Za-z0-9][A-Za-z0-9._:-]{0,127}$/;

export interface RunKey {
  agentId: string;
  runId: string;
}

export interface Fence {
  agentId?: string | null;
  runId: string;
  generation: number;
  ownerId: string;
}

export interface ReconcileResult {
  ownersChecked: number;
  /** "agentId/runId" of runs whose interruption or assessment failed this pass (logged); the next pass retries them. */
  failed: string[];
  interrupted: ContinuityRunRow[];
  recoveryPending: ContinuityRunRow[];
}

/** What an interruption knows, from durable rows only (never from the dead process's memory). */
export interface InterruptionManifest {
  reason: string;
  interruptedAt: string;
  stateAtInterruption: ContinuityRunState;
  generation: number;
  ownerId: string;
  headRevision: number;
  finalResultDurable: boolean;
  confirmedEffects: { effectId: string; kind: string; outcome: EffectOutcome; receiptAt: string | null }[];
  unconfirmedEffects: {
    effectId: string;
    kind: string;
    outcome: 'UNKNOWN';
    intendedGeneration: number;
    intendedAt: string;
    /** The request's JSON text exactly as recorded. */
    request: string;
    note: string;
  }[];
}

export type RecoveryQueueItem =
  | { kind: 'RECONCILE_EFFECT'; effectId: string; effectKind: string; outcome: 'UNKNOWN'; intendedGeneration: number }
  | { kind: 'FINISH_FINALIZATION'; headRevision: number }
  | { kind: 'RESUME_TURN'; headRevision: number };

export class ContinuityService {
  constructor(
    private readonly db: Db,
    private readonly clock: Clock,
    private readonly faults: FaultInjector,
    readonly owners: OwnershipRegistry,
    private readonly logger: Logger,
  ) {}

  // ---- owners -------------------------------------------------------------------------------

  /** Opens an ownership session for the acting agent; it lives until closed or its lock is lost. */
  async openOwnership(viewer: Viewer | null, requestedAgentId: string | null | undefined): Promise<OwnershipSession> {
    const { agentId } = resolveActingAgent(viewer, requestedAgentId);
    const [agent] = await this.db.execute<{ id: string }>(sql`SELECT id FROM agents WHERE id = ${agentId}`).then((r) => r.rows);
    if (!agent) throw new NotFoundError('Agent', agentId);
    return this.owners.open(agentId);
  }

  async listOwners(viewer: Viewer | null, requestedAgentId: string | null | undefined, includeClosed: boolean): Promise<ContinuityOwnerRow[]> {
    const { agentId } = resolveActingAgent(viewer, requestedAgentId);
    const rows = await this.db
      .select()
      .from(continuityOwners)
      .where(and(eq(continuityOwners.agentId, agentId), includeClosed ? undefined : isNull(continuityOwners.closedAt)))
      .orderBy(desc(continuityOwners.openedAt), asc(continuityOwners.id))
      .limit(500);
    const alive = await this.owners.alive(rows.map((r) => r.id));
    return rows.map((r) => ({ ...r, live: alive.has(r.id) }));
  }

  /** An owner may start or recover a run only while its session is alive and it is this agent's. */
  private async assertLiveOwner(agentId: string, ownerId: string): Promise<void> {
    const [row] = await this.db
      .select({ id: continuityOwners.id })
      .from(continuityOwners)
      .where(and(eq(continuityOwners.agentId, agentId), eq(continuityOwners.id, ownerId)));
    if (!row || !(await this.owners.isAlive(ownerId))) {
      throw new ForbiddenError('OWNER_NOT_LIVE', `owner ${ownerId} is not a live ownership session of agent ${agentId}; open runtimeOwnership first`);
    }
  }

  // ---- runs ---------------------------------------------------------------------------------

  /** Creates a run in RUNNING at generation 1, owned by a live owner of the agent. */
  async startRun(
    viewer: Viewer | null,
    input: { agentId?: string | null; runId?: string | null; ownerId: string; head?: string | null },
  ): Promise<ContinuityRunRow> {
    const { viewer: v, agentId } = resolveActingAgent(viewer, input.agentId);
    const runId = input.runId?.trim() || newId();
    validateRunId(runId);
    const head = input.head ?? '{}';
    validateJson('head', head, CONTINUITY_LIMITS.head);
    await this.assertLiveOwner(agentId, input.ownerId);
    const now = this.clock.now();
    return this.db.transaction(async (tx) => {
      const [run] = await tx
        .insert(continuityState)
        .values({
          agentId,
          runId,
          sessionId: v.sessionId,
          project: v.scope,
          state: 'RUNNING',
          generation: 1,
          ownerId: input.ownerId,
          head,
          headRevision: 0,
          transitionCount: 1,
          createdAt: now,
          updatedAt: now,
        })
        .onConflictDoNothing()
        .returning(runColumns);
      if (!run) throw new ValidationError('runId', `run ${runId} already exists for agent ${agentId}`);
      await this.logTransition(tx, run, null, 'claimed');
      return run;
    });
  }

  /** Replaces the head (the run's durable progress). RUNNING only. */
  async commitHead(viewer: Viewer | null, input: Fence & { head: string }): Promise<ContinuityRunRow> {
    const agentId = this.fenceAgent(viewer, input);
    validateJson('head', input.head, CONTINUITY_LIMITS.head);
    return this.db.transaction((tx) =>
      this.fencedUpdate(tx, agentId, input, ['RUNNING'], 'commit the head', {
        head: input.head,
        headRevision: sql`${continuityState.headRevision} + 1`,
      }),
    );
  }

  /** Records an external effect the run is about to cause, before it causes it. */
  async recordEffect(
    viewer: Viewer | null,
    input: Fence & { effectId?: string | null; kind: string; request: string },
  ): Promise<ContinuityEffectRow> {
    const agentId = this.fenceAgent(viewer, input);
    const effectId = input.effectId?.trim() || newId();
    if (!RUN_ID_PATTERN.test(effectId)) {
      throw new ValidationError('effectId', 'effectId must be 1 to 128 characters of letters, digits, ".", "_", ":" or "-"', CONTINUITY_LIMITS.runId);
    }
    const kind = input.kind.trim();
    assertNoNul('kind', kind);
    if (kind.length < 1 || charLength(kind) > CONTINUITY_LIMITS.effectKind) {
      throw new ValidationError('kind', `kind must be 1 to ${CONTINUITY_LIMITS.effectKind} characters`, CONTINUITY_LIMITS.effectKind);
    }
    validateJson('request', input.request, CONTINUITY_LIMITS.effectPayload);
    return this.db.transaction(async (tx) => {
      const run = await this.fencedUpdate(tx, agentId, input, ['RUNNING', 'FINALIZING'], 'record an effect', {
        effectCount: sql`${continuityState.effectCount} + 1`,
      });
      const [effect] = await tx
        .insert(continuityEffects)
        .values({
          agentId,
          runId: run.runId,
          effectId,
          kind,
          request: input.request,
          intendedGeneration: run.generation,
          intendedBy: run.ownerId,
          intendedAt: this.clock.now(),
        })
        .onConflictDoNothing()
        .returning(effectColumns);
      if (!effect) throw new ValidationError('effectId', `effect ${effectId} is already recorded for run ${run.runId}`);
      return effect;
    });
  }

  /**
   * Records the receipt of an effect: its confirmed outcome. The effect may have been intended
   * by an earlier generation: a recovering owner reconciles those here.
   */
  async recordReceipt(
    viewer: Viewer | null,
    input: Fence & { effectId: string; outcome: Exclude<EffectOutcome, 'UNKNOWN'>; receipt: string },
  ): Promise<ContinuityEffectRow> {
    const agentId = this.fenceAgent(viewer, input);
    if (input.outcome !== 'SUCCEEDED' && input.outcome !== 'FAILED') {
      throw new ValidationError('outcome', 'a receipt confirms SUCCEEDED or FAILED');
    }
    validateJson('receipt', input.receipt, CONTINUITY_LIMITS.effectPayload);
    return this.db.transaction(async (tx) => {
      const run = await this.fencedUpdate(tx, agentId, input, ['RUNNING', 'FINALIZING'], 'record a receipt', {});
      const now = this.clock.now();
      const [effect] = await tx
        .update(continuityEffects)
        .set({ outcome: input.outcome, receipt: input.receipt, receiptGeneration: run.generation, receiptBy: run.ownerId, receiptAt: now })
        .where(
          and(
            eq(continuityEffects.agentId, agentId),
            eq(continuityEffects.runId, run.runId),
            eq(continuityEffects.effectId, input.effectId),
            eq(continuityEffects.outcome, 'UNKNOWN'),
          ),
        )
        .returning(effectColumns);
      if (!effect) {
        const [current] = await tx
          .select({ outcome: continuityEffects.outcome })
          .from(continuityEffects)
          .where(and(eq(continuityEffects.agentId, agentId), eq(continuityEffects.runId, run.runId), eq(continuityEffects.effectId, input.effectId)));
        if (!current) throw new NotFoundError('ContinuityEffect', `${run.runId}/${input.effectId}`);
        throw new ForbiddenError('RECEIPT_RECORDED', `effect ${input.effectId} already has a receipt (${current.outcome}); receipts are final`);
      }
      return effect;
    });
  }

  /** RUNNING -> FINALIZING: the fenced terminal commit, optionally carrying the final result. */
  async finalize(viewer: Viewer | null, input: Fence & { result?: string | null }): Promise<ContinuityRunRow> {
    const agentId = this.fenceAgent(viewer, input);
    if (input.result != null) validateJson('result', input.result, CONTINUITY_LIMITS.head);
    return this.db.transaction(async (tx) => {
      await lockForTransaction(tx, LockClass.continuityFinalize, `${agentId}/${input.runId}`);
      const run = await this.fencedUpdate(tx, agentId, input, ['RUNNING'], 'begin finalization', {
        state: 'FINALIZING',
        // A re-finalization after recovery keeps the durable result unless it sends a new one.
        ...(input.result != null ? { finalResult: input.result } : {}),
      });
      await this.logTransition(tx, run, 'RUNNING', 'finalizing');
      return run;
    });
  }

  /** FINALIZING -> COMPLETED: the durable completion. Never re-queued once committed. */
  async complete(viewer: Viewer | null, input: Fence): Promise<ContinuityRunRow> {
    const agentId = this.fenceAgent(viewer, input);
    return this.db.transaction(async (tx) => {
      await lockForTransaction(tx, LockClass.continuityFinalize, `${agentId}/${input.runId}`);
      const run = await this.fencedUpdate(tx, agentId, input, ['FINALIZING'], 'complete', {
        state: 'COMPLETED',
        completedAt: this.clock.now(),
      });
      this.faults('continuity.complete.before_log');
      await this.logTransition(tx, run, 'FINALIZING', 'completed');
      return run;
    });
  }

  /** The owner interrupts its own run (RUNNING or FINALIZING); reconciliation assesses it. */
  async interrupt(viewer: Viewer | null, input: Fence & { reason: string }): Promise<ContinuityRunRow> {
    const agentId = this.fenceAgent(viewer, input);
    const reason = input.reason.trim();
    assertNoNul('reason', reason);
    if (reason.length < 1 || charLength(reason) > CONTINUITY_LIMITS.reason) {
      throw new ValidationError('reason', `reason must be 1 to ${CONTINUITY_LIMITS.reason} characters`, CONTINUITY_LIMITS.reason);
    }
    return this.db.transaction(async (tx) => {
      await lockForTransaction(tx, LockClass.continuityFinalize, `${agentId}/${input.runId}`);
      const now = this.clock.now();
      const before = await this.fencedUpdate(tx, agentId, input, ['RUNNING', 'FINALIZING'], 'interrupt', {
        state: 'INTERRUPTED',
        interruptedAt: now,
      });
      // The fenced UPDATE took the row lock, so no effect can be recorded after this read.
      const from = await this.stateBefore(tx, before);
      const run = await this.writeManifest(tx, before, from, reason, now);
      await this.logTransition(tx, run, from, reason);
      return run;
    });
  }

  /**
   * RECOVERY_PENDING -> RUNNING at the next generation, owned by a live owner of the agent.
   * `expectedGeneration`, when given, must be the generation being recovered.
   */
  async claimRecovery(
    viewer: Viewer | null,
    input: { agentId?: string | null; runId: string; ownerId: string; expectedGeneration?: number | null },
  ): Promise<ContinuityRunRow> {
    const { agentId } = resolveActingAgent(viewer, input.agentId);
    await this.assertLiveOwner(agentId, input.ownerId);
    return this.db.transaction(async (tx) => {
      const [run] = await tx
        .update(continuityState)
        .set({ state: 'RUNNING', generation: sql`${continuityState.generation} + 1`, ownerId: input.ownerId, ...this.bump() })
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
        const current = await this.readRun(tx, agentId, input.runId);
        if (!current) throw new NotFoundError('ContinuityRun', input.runId);
        if (current.state === 'RECOVERY_PENDING') {
          throw new ContinuityFenceError('STALE_GENERATION', `run ${input.runId} is waiting for recovery at generation ${current.generation}, not ${input.expectedGeneration}`, input.runId, current.state, current.generation);
        }
        throw new ContinuityFenceError('FORBIDDEN_TRANSITION', `run ${input.runId} is ${current.state}; only a RECOVERY_PENDING run can be claimed for recovery`, input.runId, current.state, current.generation);
      }
      await this.logTransition(tx, run, 'RECOVERY_PENDING', 'recovery_claimed');
      return run;
    });
  }

  // ---- reconciliation -----------------------------------------------------------------------

  /** On-demand reconciliation: an agent token reconciles its own runs, an operator one agent or all. */
  async reconcileFor(viewer: Viewer | null, requestedAgentId: string | null | undefined): Promise<ReconcileResult> {
    const v = requireViewer(viewer);
    let agentId: string | null;
    if (v.principal === 'AGENT') agentId = resolveActingAgent(v, requestedAgentId).agentId;
    else agentId = requestedAgentId ?? null;
    return this.reconcile(agentId);
  }

  /**
   * Finds runs whose owner is gone, interrupts each exactly once (even with several instances
   * reconciling at once: rows are taken FOR UPDATE SKIP LOCKED and the UPDATE re-checks state,
   * generation and owner), then assesses every INTERRUPTED run into RECOVERY_PENDING.
   */
  async reconcile(agentId: string | null = null): Promise<ReconcileResult> {
    const agentFilter = agentId ? eq(continuityState.agentId, agentId) : undefined;
    const liveStates = inArray(continuityState.state, ['RUNNING', 'FINALIZING']);
    // Owners first, then only the dead owners' runs: live runs can never crowd out abandoned ones.
    const ownerRows = await this.db.selectDistinct({ ownerId: continuityState.ownerId }).from(continuityState).where(and(liveStates, agentFilter));
    const ownerIds = ownerRows.map((r) => r.ownerId);
    const alive = await this.owners.alive(ownerIds);
    const dead = ownerIds.filter((id) => !alive.has(id));
    const candidates = dead.length
      ? await this.db
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
        this.logger.warn('continuity reconciliation of a run failed', { agentId: agent, runId, error: (error as Error).message });
        failed.push(`${agent}/${runId}`);
        return null;
      }
    };
    for (const candidate of candidates) {
      const run = await attempt(candidate.agentId, candidate.runId, () => this.interruptAbandoned(candidate));
      if (run) interrupted.push(run);
    }
    const waiting = await this.db
      .select({ agentId: continuityState.agentId, runId: continuityState.runId })
      .from(continuityState)
      .where(and(eq(continuityState.state, 'INTERRUPTED'), agentFilter))
      .orderBy(asc(continuityState.updatedAt))
      .limit(1000);
    const recoveryPending: ContinuityRunRow[] = [];
    for (const run of waiting) {
      const assessed = await attempt(run.agentId, run.runId, () => this.assess(run.agentId, run.runId));
      if (assessed) recoveryPending.push(assessed);
    }
    if (interrupted.length || recoveryPending.length) {
      this.logger.info('continuity reconciled', { interrupted: interrupted.length, recoveryPending: recoveryPending.length });
    }
    return { ownersChecked: ownerIds.length, failed, interrupted, recoveryPending };
  }

  private async interruptAbandoned(candidate: { agentId: string; runId: string; ownerId: string; generation: number }): Promise<ContinuityRunRow | null> {
    return this.db.transaction(async (tx) => {
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
      const now = this.clock.now();
      const [before] = await tx.update(continuityState).set({ state: 'INTERRUPTED', interruptedAt: now, ...this.bump() }).where(sameRunSameFence).returning(runColumns);
      if (!before) return null;
      const from = locked.state as ContinuityRunState;
      this.faults('continuity.reconcile.after_interrupt');
      const run = await this.writeManifest(tx, before, from, 'owner_abandoned', now);
      await this.logTransition(tx, run, from, 'owner_abandoned');
      return run;
    });
  }

  /** INTERRUPTED -> RECOVERY_PENDING with a queue assessed from the manifest and durable effects. */
  private async assess(agentId: string, runId: string): Promise<ContinuityRunRow | null> {
    return this.db.transaction(async (tx) => {
      const interruptedRun = and(eq(continuityState.agentId, agentId), eq(continuityState.runId, runId), eq(continuityState.state, 'INTERRUPTED'));
      const [locked] = await tx
        .select({ headRevision: continuityState.headRevision, manifest: continuityState.interruptionManifest })
        .from(continuityState)
        .where(interruptedRun)
        .for('update', { skipLocked: true });
      if (!locked) return null;
      // Only a run interrupted while finalizing with its result durable has finished its turn.
      const turnDone = (locked.manifest as InterruptionManifest | null)?.finalResultDurable === true;
      const effects = await this.effectsOf(tx, agentId, runId);
      const queue: RecoveryQueueItem[] = effects
        .filter((e) => e.outcome === 'UNKNOWN')
        .map((e) => ({ kind: 'RECONCILE_EFFECT', effectId: e.effectId, effectKind: e.kind, outcome: 'UNKNOWN', intendedGeneration: e.intendedGeneration }));
      // A durable final result means the turn itself is done: recovery finishes the
      // finalization, it never schedules the turn again.
      queue.push(turnDone ? { kind: 'FINISH_FINALIZATION', headRevision: locked.headRevision } : { kind: 'RESUME_TURN', headRevision: locked.headRevision });
      const [run] = await tx
        .update(continuityState)
        .set({ state: 'RECOVERY_PENDING', recoveryQueue: queue, ...this.bump() })
        .where(interruptedRun)
        .returning(runColumns);
      if (!run) return null;
      await this.logTransition(tx, run, 'INTERRUPTED', 'assessed');
      return run;
    });
  }

  // ---- reads --------------------------------------------------------------------------------

  async getRun(viewer: Viewer | null, requestedAgentId: string | null | undefined, runId: string): Promise<ContinuityRunRow | null> {
    const { agentId } = resolveActingAgent(viewer, requestedAgentId);
    return this.readRun(this.db, agentId, runId);
  }

  async listRuns(
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
    const rows = await this.db
      .select(runColumns)
      .from(continuityState)
      .where(and(eq(continuityState.agentId, agentId), query.states?.length ? inArray(continuityState.state, query.states) : undefined, position))
      .orderBy(desc(continuityState.createdAt), desc(continuityState.runId))
      .limit(query.limit);
    return { agentId, rows };
  }

  async effectsOf(db: DbOrTx, agentId: string, runId: string): Promise<ContinuityEffectRow[]> {
    return db
      .select(effectColumns)
      .from(continuityEffects)
      .where(and(eq(continuityEffects.agentId, agentId), eq(continuityEffects.runId, runId)))
      .orderBy(asc(continuityEffects.intendedAt), asc(continuityEffects.effectId));
  }

  /** Batch loader: effects of several runs (keys are agentId/runId), one statement. */
  async effectsForRuns(keys: readonly RunKey[]): Promise<ContinuityEffectRow[][]> {
    const rows = keys.length
      ? await this.db
          .select(effectColumns)
          .from(continuityEffects)
          .where(or(...keys.map((k) => and(eq(continuityEffects.agentId, k.agentId), eq(continuityEffects.runId, k.runId)))))
          .orderBy(asc(continuityEffects.intendedAt), asc(continuityEffects.effectId))
      : [];
    return keys.map((k) => rows.filter((r) => r.agentId === k.agentId && r.runId === k.runId));
  }

  /** Batch loader: transitions of several runs in log order, one statement. */
  async logsForRuns(keys: readonly RunKey[]): Promise<ContinuityLogRow[][]> {
    const rows = keys.length
      ? await this.db
          .select()
          .from(continuityLog)
          .where(or(...keys.map((k) => and(eq(continuityLog.agentId, k.agentId), eq(continuityLog.runId, k.runId)))))
          .orderBy(asc(continuityLog.position))
      : [];
    return keys.map((k) => rows.filter((r) => r.agentId === k.agentId && r.runId === k.runId));
  }

  // ---- internals ----------------------------------------------------------------------------

  private fenceAgent(viewer: Viewer | null, fence: Fence): string {
    const { agentId } = resolveActingAgent(viewer, fence.agentId);
    if (!Number.isInteger(fence.generation) || fence.generation < 1) {
      throw new ValidationError('generation', 'generation must be a positive integer', 1);
    }
    return agentId;
  }

  private bump() {
    return { updatedAt: this.clock.now(), transitionCount: sql`${continuityState.transitionCount} + 1` } as const;
  }

  /**
   * The fence: one UPDATE naming run, generation, owner and the states the action may start
   * from. A state change also bumps transition_count, which is the log position.
   */
  private async fencedUpdate(
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
      .set({ ...(set as object), updatedAt: this.clock.now(), ...(changesState ? { transitionCount: sql`${continuityState.transitionCount} + 1` } : {}) })
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
      if (!(await this.owners.isAliveOn(tx, fence.ownerId))) {
        throw new ForbiddenError('OWNER_NOT_LIVE', `owner ${fence.ownerId} is no longer live (its ownership session ended); the run will be recovered`);
      }
      return run;
    }
    const current = await this.readRun(tx, agentId, fence.runId);
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

  /** The state a just-interrupted run was in: its last log entry's target. */
  private async stateBefore(tx: DbOrTx, run: ContinuityRunRow): Promise<ContinuityRunState> {
    const [last] = await tx
      .select({ toState: continuityLog.toState })
      .from(continuityLog)
      .where(and(eq(continuityLog.agentId, run.agentId), eq(continuityLog.runId, run.runId)))
      .orderBy(desc(continuityLog.position))
      .limit(1);
    return (last?.toState ?? 'RUNNING') as ContinuityRunState;
  }

  private async writeManifest(tx: DbOrTx, run: ContinuityRunRow, from: ContinuityRunState, reason: string, at: Date): Promise<ContinuityRunRow> {
    const effects = await this.effectsOf(tx, run.agentId, run.runId);
    const manifest: InterruptionManifest = {
      reason,
      interruptedAt: at.toISOString(),
      stateAtInterruption: from,
      generation: run.generation,
      ownerId: run.ownerId,
      headRevision: run.headRevision,
      finalResultDurable: from === 'FINALIZING' && run.finalResult !== null,
      confirmedEffects: effects
        .filter((e) => e.outcome !== 'UNKNOWN')
        .map((e) => ({ effectId: e.effectId, kind: e.kind, outcome: e.outcome as EffectOutcome, receiptAt: e.receiptAt?.toISOString() ?? null })),
      unconfirmedEffects: effects
        .filter((e) => e.outcome === 'UNKNOWN')
        .map((e) => ({
          effectId: e.effectId,
          kind: e.kind,
          outcome: 'UNKNOWN',
          intendedGeneration: e.intendedGeneration,
          intendedAt: e.intendedAt.toISOString(),
          request: e.request,
          note: 'intended without a receipt: it may or may not have happened; reconcile before repeating it',
        })),
    };
    const [withManifest] = await tx
      .update(continuityState)
      .set({ interruptionManifest: manifest })
      .where(and(eq(continuityState.agentId, run.agentId), eq(continuityState.runId, run.runId)))
      .returning(runColumns);
    return withManifest;
  }

  private async logTransition(tx: DbOrTx, run: ContinuityRunRow, from: ContinuityRunState | null, reason: string): Promise<void> {
    const event = await appendEvent(tx, this.clock, {
      agentId: run.agentId,
      stream: 'continuity',
      type: 'continuity.transition',
      subjectId: run.runId,
      project: run.project,
      payload: { runId: run.runId, from, to: run.state, generation: run.generation, ownerId: run.ownerId, reason, position: run.transitionCount },
    });
    await tx.insert(continuityLog).values({
      agentId: run.agentId,
      runId: run.runId,
      position: run.transitionCount,
      fromState: from,
      toState: run.state,
      generation: run.generation,
      ownerId: run.ownerId,
      reason,
      eventSequence: event.sequence,
      at: this.clock.now(),
    });
  }

  private async readRun(db: DbOrTx, agentId: string, runId: string): Promise<ContinuityRunRow | null> {
    const [row] = await db.select(runColumns).from(continuityState).where(and(eq(continuityState.agentId, agentId), eq(continuityState.runId, runId)));
    return row ?? null;
  }
}

function validateRunId(runId: string) {
  if (!RUN_ID_PATTERN.test(runId)) {
    throw new ValidationError('runId', 'runId must be 1 to 128 characters of letters, digits, ".", "_", ":" or "-", starting with a letter or digit', CONTINUITY_LIMITS.runId);
  }
}

/** Runtime documents are JSON text, stored byte for byte; the limit counts characters like SQL. */
function validateJson(field: string, text: string, limit: number) {
  const length = charLength(text);
  if (length > limit) throw new ValidationError(field, `${field} is bounded to ${limit} characters (got ${length})`, limit);
  try {
    JSON.parse(text);
  } catch {
    throw new ValidationError(field, `${field} must be a JSON document (text)`);
  }
}

