/**
 * A run's life under its owner: start (RUNNING at generation 1), head commits, effects and their
 * receipts, finalize (RUNNING -> FINALIZING), complete (FINALIZING -> COMPLETED) and the owner's
 * own interruption. Every write after the start goes through the fence (continuity.fencing.ts).
 */
import { and, eq, sql } from 'drizzle-orm';
import { lockForTransaction, LockClass } from '../../db/locks.js';
import { ForbiddenError, NotFoundError, ValidationError } from '../../lib/errors.js';
import { newId } from '../../lib/ids.js';
import { assertCleanText, assertJsonText } from '../../lib/text-policy.js';
import { charLength } from '../../lib/text.js';
import { resolveActingAgent, type Viewer } from '../../auth/viewer.js';
import { CONTINUITY_LIMITS, continuityEffects, continuityState, type EffectOutcome } from './continuity.sql.js';
import { effectColumns, runColumns, type ContinuityEffectRow, type ContinuityRunRow } from './continuity.reads.js';
import { assertLiveOwner, fenceAgent, fencedUpdate, type Fence } from './continuity.fencing.js';
import { logTransition, stateBefore, writeManifest } from './continuity.transitions.js';
import type { ContinuityDeps } from './continuity.deps.js';

const RUN_ID_PATTERN = /^[A-Za-z0-9][A-Za-z0-9._:-]{0,127}$/;

/** Creates a run in RUNNING at generation 1, owned by a live owner of the agent. */
export async function startRun(
  deps: ContinuityDeps,
  viewer: Viewer | null,
  input: { agentId?: string | null; runId?: string | null; ownerId: string; head?: string | null },
): Promise<ContinuityRunRow> {
  const { viewer: v, agentId } = resolveActingAgent(viewer, input.agentId);
  const runId = input.runId?.trim() || newId();
  validateRunId(runId);
  const head = input.head ?? '{}';
  validateJson('head', head, CONTINUITY_LIMITS.head);
  await assertLiveOwner(deps, agentId, input.ownerId);
  const now = deps.clock.now();
  return deps.db.transaction(async (tx) => {
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
    await logTransition(tx, deps.clock, run, null, 'claimed');
    return run;
  });
}

/** Replaces the head (the run's durable progress). RUNNING only. */
export async function commitHead(deps: ContinuityDeps, viewer: Viewer | null, input: Fence & { head: string }): Promise<ContinuityRunRow> {
  const agentId = fenceAgent(viewer, input);
  validateJson('head', input.head, CONTINUITY_LIMITS.head);
  return deps.db.transaction((tx) =>
    fencedUpdate(deps, tx, agentId, input, ['RUNNING'], 'commit the head', {
      head: input.head,
      headRevision: sql`${continuityState.headRevision} + 1`,
    }),
  );
}

/** Records an external effect the run is about to cause, before it causes it. */
export async function recordEffect(
  deps: ContinuityDeps,
  viewer: Viewer | null,
  input: Fence & { effectId?: string | null; kind: string; request: string },
): Promise<ContinuityEffectRow> {
  const agentId = fenceAgent(viewer, input);
  const effectId = input.effectId?.trim() || newId();
  if (!RUN_ID_PATTERN.test(effectId)) {
    throw new ValidationError('effectId', 'effectId must be 1 to 128 characters of letters, digits, ".", "_", ":" or "-"', CONTINUITY_LIMITS.runId);
  }
  const kind = input.kind.trim();
  assertCleanText('kind', kind);
  if (kind.length < 1 || charLength(kind) > CONTINUITY_LIMITS.effectKind) {
    throw new ValidationError('kind', `kind must be 1 to ${CONTINUITY_LIMITS.effectKind} characters`, CONTINUITY_LIMITS.effectKind);
  }
  validateJson('request', input.request, CONTINUITY_LIMITS.effectPayload);
  return deps.db.transaction(async (tx) => {
    const run = await fencedUpdate(deps, tx, agentId, input, ['RUNNING', 'FINALIZING'], 'record an effect', {
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
        intendedAt: deps.clock.now(),
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
export async function recordReceipt(
  deps: ContinuityDeps,
  viewer: Viewer | null,
  input: Fence & { effectId: string; outcome: Exclude<EffectOutcome, 'UNKNOWN'>; receipt: string },
): Promise<ContinuityEffectRow> {
  const agentId = fenceAgent(viewer, input);
  if (input.outcome !== 'SUCCEEDED' && input.outcome !== 'FAILED') {
    throw new ValidationError('outcome', 'a receipt confirms SUCCEEDED or FAILED');
  }
  validateJson('receipt', input.receipt, CONTINUITY_LIMITS.effectPayload);
  return deps.db.transaction(async (tx) => {
    const run = await fencedUpdate(deps, tx, agentId, input, ['RUNNING', 'FINALIZING'], 'record a receipt', {});
    const now = deps.clock.now();
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
export async function finalize(deps: ContinuityDeps, viewer: Viewer | null, input: Fence & { result?: string | null }): Promise<ContinuityRunRow> {
  const agentId = fenceAgent(viewer, input);
  if (input.result != null) validateJson('result', input.result, CONTINUITY_LIMITS.head);
  return deps.db.transaction(async (tx) => {
    await lockForTransaction(tx, LockClass.continuityFinalize, `${agentId}/${input.runId}`);
    const run = await fencedUpdate(deps, tx, agentId, input, ['RUNNING'], 'begin finalization', {
      state: 'FINALIZING',
      // A re-finalization after recovery keeps the durable result unless it sends a new one.
      ...(input.result != null ? { finalResult: input.result } : {}),
    });
    await logTransition(tx, deps.clock, run, 'RUNNING', 'finalizing');
    return run;
  });
}

/** FINALIZING -> COMPLETED: the durable completion. Never re-queued once committed. */
export async function complete(deps: ContinuityDeps, viewer: Viewer | null, input: Fence): Promise<ContinuityRunRow> {
  const agentId = fenceAgent(viewer, input);
  return deps.db.transaction(async (tx) => {
    await lockForTransaction(tx, LockClass.continuityFinalize, `${agentId}/${input.runId}`);
    const run = await fencedUpdate(deps, tx, agentId, input, ['FINALIZING'], 'complete', {
      state: 'COMPLETED',
      completedAt: deps.clock.now(),
    });
    deps.faults('continuity.complete.before_log');
    await logTransition(tx, deps.clock, run, 'FINALIZING', 'completed');
    return run;
  });
}

/** The owner interrupts its own run (RUNNING or FINALIZING); reconciliation assesses it. */
export async function interrupt(deps: ContinuityDeps, viewer: Viewer | null, input: Fence & { reason: string }): Promise<ContinuityRunRow> {
  const agentId = fenceAgent(viewer, input);
  const reason = input.reason.trim();
  assertCleanText('reason', reason);
  if (reason.length < 1 || charLength(reason) > CONTINUITY_LIMITS.reason) {
    throw new ValidationError('reason', `reason must be 1 to ${CONTINUITY_LIMITS.reason} characters`, CONTINUITY_LIMITS.reason);
  }
  return deps.db.transaction(async (tx) => {
    await lockForTransaction(tx, LockClass.continuityFinalize, `${agentId}/${input.runId}`);
    const now = deps.clock.now();
    const before = await fencedUpdate(deps, tx, agentId, input, ['RUNNING', 'FINALIZING'], 'interrupt', {
      state: 'INTERRUPTED',
      interruptedAt: now,
    });
    // The fenced UPDATE took the row lock, so no effect can be recorded after this read.
    const from = await stateBefore(tx, before);
    const run = await writeManifest(tx, before, from, reason, now);
    await logTransition(tx, deps.clock, run, from, reason);
    return run;
  });
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
  assertJsonText(field, text);
}
