/**
 * What every state change writes besides the state itself: the transition, appended to
 * continuity_log and to the agent event log in the same transaction, and on interruption the
 * manifest of what is durably known about the run.
 */
import { and, desc, eq, sql } from 'drizzle-orm';
import type { DbOrTx } from '../../db/database.js';
import type { Clock } from '../../lib/clock.js';
import { appendEvent } from '../../events/events.service.js';
import { continuityLog, continuityState, type ContinuityRunState, type EffectOutcome } from './continuity.sql.js';
import { effectsOf, runColumns, type ContinuityRunRow } from './continuity.reads.js';

/** What an interruption knows, from durable rows only (never from the dead process's memory). */
export interface InterruptionManifest {
  reason: string;
  interruptedAt: string;
  stateAtInterruption: ContinuityRunState;
  generation: number;
  ownerId: string;
  headRevision: number;
  /** A fenced terminal commit stored the final result, in this generation or an earlier one. */
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

/** The columns a state change outside the fence sets: time and the next log position. */
export function bump(clock: Clock) {
  return { updatedAt: clock.now(), transitionCount: sql`${continuityState.transitionCount} + 1` } as const;
}

export async function logTransition(tx: DbOrTx, clock: Clock, run: ContinuityRunRow, from: ContinuityRunState | null, reason: string): Promise<void> {
  const event = await appendEvent(tx, clock, {
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
    at: clock.now(),
  });
}

/** The state a just-interrupted run was in: its last log entry's target. */
export async function stateBefore(tx: DbOrTx, run: ContinuityRunRow): Promise<ContinuityRunState> {
  const [last] = await tx
    .select({ toState: continuityLog.toState })
    .from(continuityLog)
    .where(and(eq(continuityLog.agentId, run.agentId), eq(continuityLog.runId, run.runId)))
    .orderBy(desc(continuityLog.position))
    .limit(1);
  return (last?.toState ?? 'RUNNING') as ContinuityRunState;
}

export async function writeManifest(tx: DbOrTx, run: ContinuityRunRow, from: ContinuityRunState, reason: string, at: Date): Promise<ContinuityRunRow> {
  const effects = await effectsOf(tx, run.agentId, run.runId);
  const manifest: InterruptionManifest = {
    reason,
    interruptedAt: at.toISOString(),
    stateAtInterruption: from,
    generation: run.generation,
    ownerId: run.ownerId,
    headRevision: run.headRevision,
    // Only finalization stores a result, and nothing clears it: once stored, the turn is done
    // whatever state a later generation was in when it died (a recovering heir is RUNNING).
    finalResultDurable: run.finalResult !== null,
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
