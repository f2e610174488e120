/**
 * Continuity's state diagram through the real server: every allowed transition with its log entry
 * and event, every forbidden one refused.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, take, type TestServer } from './support/harness.js';
import { fetchRun, ok, ownedAgent, startRun } from './support/continuity.js';

let server: TestServer;
beforeAll(async () => {
  server = await startServer();
});
afterAll(async () => server?.stop());

describe('the state diagram', () => {
  it('runs RUNNING -> FINALIZING -> COMPLETED with fenced commits, a log entry and an event per transition', async () => {
    const { client, owner } = await ownedAgent(server, 'cont-happy');
    const started = await startRun(client, owner, 'run-1', '{"step":0}');
    expect(started).toMatchObject({
      runId: 'run-1',
      agentId: 'cont-happy',
      state: 'RUNNING',
      generation: 1,
      ownerId: owner.ownerId,
      head: '{"step":0}',
      headRevision: 0,
      sessionId: 'sess-1',
      project: 'proj',
    });
    const fence = { runId: 'run-1', generation: 1, ownerId: owner.ownerId };

    const committed = ok((await client.commitContinuityRun({ input: { ...fence, head: '{"step":1}' } })).commitContinuityRun, 'CommitContinuityRunSuccess').run;
    expect(committed).toMatchObject({ state: 'RUNNING', head: '{"step":1}', headRevision: 1 });

    const finalizing = ok((await client.finalizeContinuityRun({ input: { ...fence, result: '{"answer":42}' } })).finalizeContinuityRun, 'FinalizeContinuityRunSuccess').run;
    expect(finalizing).toMatchObject({ state: 'FINALIZING', finalResult: '{"answer":42}', completedAt: null });

    const completed = ok((await client.completeContinuityRun({ input: fence })).completeContinuityRun, 'CompleteContinuityRunSuccess').run;
    expect(completed.state).toBe('COMPLETED');
    expect(completed.completedAt).toBe(server.clock.now().toISOString());

    const full = await fetchRun(client, 'run-1');
    expect(full.transitions.edges.map((e) => e.node).map((t) => [t.position, t.from, t.to, t.generation, t.ownerId, t.reason])).toEqual([
      [1, null, 'RUNNING', 1, owner.ownerId, 'claimed'],
      [2, 'RUNNING', 'FINALIZING', 1, owner.ownerId, 'finalizing'],
      [3, 'FINALIZING', 'COMPLETED', 1, owner.ownerId, 'completed'],
    ]);
    const events = await take(client.continuityEvents({ agentId: 'cont-happy', runId: 'run-1', after: 0 }), 3);
    expect(events.map((e) => e.continuityEvents.sequence)).toEqual(full.transitions.edges.map((e) => e.node).map((t) => t.sequence));
    expect(events.map((e) => e.continuityEvents.payload)).toEqual([
      { runId: 'run-1', from: null, to: 'RUNNING', generation: 1, ownerId: owner.ownerId, reason: 'claimed', position: 1 },
      { runId: 'run-1', from: 'RUNNING', to: 'FINALIZING', generation: 1, ownerId: owner.ownerId, reason: 'finalizing', position: 2 },
      { runId: 'run-1', from: 'FINALIZING', to: 'COMPLETED', generation: 1, ownerId: owner.ownerId, reason: 'completed', position: 3 },
    ]);
    expect(events.every((e) => e.continuityEvents.stream === 'CONTINUITY' && e.continuityEvents.subjectId === 'run-1')).toBe(true);
    await owner.close();
  });

  it('RUNNING -> INTERRUPTED -> RECOVERY_PENDING -> RUNNING at the next generation, and FINALIZING -> INTERRUPTED', async () => {
    const { client, owner } = await ownedAgent(server, 'cont-recover');
    await startRun(client, owner, 'r', '{"step":3}');
    const interrupted = ok(
      (await client.interruptContinuityRun({ input: { runId: 'r', generation: 1, ownerId: owner.ownerId, reason: 'user cancelled' } })).interruptContinuityRun,
      'InterruptContinuityRunSuccess',
    ).run;
    expect(interrupted.state).toBe('INTERRUPTED');
    expect(interrupted.interruptionManifest).toMatchObject({
      reason: 'user cancelled',
      stateAtInterruption: 'RUNNING',
      generation: 1,
      ownerId: owner.ownerId,
      headRevision: 0,
      finalResultDurable: false,
      unconfirmedEffects: [],
      confirmedEffects: [],
    });

    // An interrupted run is not claimable before it is assessed.
    const early = (await client.claimContinuityRecovery({ input: { runId: 'r', ownerId: owner.ownerId } })).claimContinuityRecovery;
    expect(early).toMatchObject({ __typename: 'ContinuityFenceRejected', code: 'FORBIDDEN_TRANSITION', currentState: 'INTERRUPTED', currentGeneration: 1 });

    const reconciled = (await client.reconcileContinuity({})).reconcileContinuity;
    expect(reconciled.interrupted).toEqual([]);
    expect(reconciled.recoveryPending.map((r) => [r.runId, r.state])).toEqual([['r', 'RECOVERY_PENDING']]);
    expect(reconciled.recoveryPending[0].recoveryQueue).toEqual([{ kind: 'RESUME_TURN', headRevision: 0 }]);

    const claimed = ok(
      (await client.claimContinuityRecovery({ input: { runId: 'r', ownerId: owner.ownerId, expectedGeneration: 1 } })).claimContinuityRecovery,
      'ClaimContinuityRecoverySuccess',
    ).run;
    expect(claimed).toMatchObject({ state: 'RUNNING', generation: 2, ownerId: owner.ownerId, head: '{"step":3}' });

    // Generation 2 may finalize; interruption from FINALIZING is allowed too.
    const fence2 = { runId: 'r', generation: 2, ownerId: owner.ownerId };
    ok((await client.finalizeContinuityRun({ input: fence2 })).finalizeContinuityRun, 'FinalizeContinuityRunSuccess');
    const again = ok((await client.interruptContinuityRun({ input: { ...fence2, reason: 'delivery failed' } })).interruptContinuityRun, 'InterruptContinuityRunSuccess').run;
    expect(again.interruptionManifest).toMatchObject({ stateAtInterruption: 'FINALIZING', generation: 2 });
    const log = (await fetchRun(client, 'r')).transitions.edges.map((e) => e.node).map((t) => `${t.from ?? '*'}>${t.to}@${t.generation}`);
    expect(log).toEqual([
      '*>RUNNING@1',
      'RUNNING>INTERRUPTED@1',
      'INTERRUPTED>RECOVERY_PENDING@1',
      'RECOVERY_PENDING>RUNNING@2',
      'RUNNING>FINALIZING@2',
      'FINALIZING>INTERRUPTED@2',
    ]);
    await owner.close();
  });

  it('refuses every forbidden transition with FORBIDDEN_TRANSITION and changes nothing', async () => {
    const { client, owner } = await ownedAgent(server, 'cont-forbidden');
    const o = owner.ownerId;
    const fence = (runId: string, generation = 1) => ({ runId, generation, ownerId: o });
    const attempts = {
      commit: (runId: string, g?: number) => client.commitContinuityRun({ input: { ...fence(runId, g), head: '{"x":1}' } }).then((r) => r.commitContinuityRun),
      finalize: (runId: string, g?: number) => client.finalizeContinuityRun({ input: fence(runId, g) }).then((r) => r.finalizeContinuityRun),
      complete: (runId: string, g?: number) => client.completeContinuityRun({ input: fence(runId, g) }).then((r) => r.completeContinuityRun),
      interrupt: (runId: string, g?: number) => client.interruptContinuityRun({ input: { ...fence(runId, g), reason: 'x' } }).then((r) => r.interruptContinuityRun),
      claim: (runId: string) => client.claimContinuityRecovery({ input: { runId, ownerId: o } }).then((r) => r.claimContinuityRecovery),
      effect: (runId: string, g?: number) => client.recordContinuityEffect({ input: { ...fence(runId, g), kind: 'k', request: '{}' } }).then((r) => r.recordContinuityEffect),
      receipt: (runId: string, g?: number) =>
        client.recordContinuityReceipt({ input: { ...fence(runId, g), effectId: 'e', outcome: 'SUCCEEDED', receipt: '{}' } }).then((r) => r.recordContinuityReceipt),
    };
    // Put one run in every state.
    await startRun(client, owner, 'in-running');
    await startRun(client, owner, 'in-finalizing');
    await attempts.finalize('in-finalizing');
    await startRun(client, owner, 'in-completed');
    await attempts.finalize('in-completed');
    await attempts.complete('in-completed');
    await startRun(client, owner, 'in-interrupted');
    await attempts.interrupt('in-interrupted');
    await startRun(client, owner, 'in-pending');
    await attempts.interrupt('in-pending');
    // Assess only in-pending: reconcile assesses every interrupted run, so re-interrupt a fresh one after.
    await client.reconcileContinuity({});
    await startRun(client, owner, 'in-interrupted-2');
    await attempts.interrupt('in-interrupted-2');

    const forbidden: [string, keyof typeof attempts][] = [
      ['in-running', 'complete'],
      ['in-running', 'claim'],
      ['in-finalizing', 'commit'],
      ['in-finalizing', 'finalize'],
      ['in-finalizing', 'claim'],
      ['in-completed', 'commit'],
      ['in-completed', 'finalize'],
      ['in-completed', 'complete'],
      ['in-completed', 'interrupt'],
      ['in-completed', 'claim'],
      ['in-interrupted-2', 'commit'],
      ['in-interrupted-2', 'finalize'],
      ['in-interrupted-2', 'complete'],
      ['in-interrupted-2', 'interrupt'],
      ['in-interrupted-2', 'claim'],
      ['in-pending', 'commit'],
      ['in-pending', 'finalize'],
      ['in-pending', 'complete'],
      ['in-pending', 'interrupt'],
      ['in-completed', 'effect'],
      ['in-completed', 'receipt'],
      ['in-interrupted-2', 'effect'],
      ['in-interrupted-2', 'receipt'],
      ['in-pending', 'effect'],
      ['in-pending', 'receipt'],
    ];
    const before = new Map<string, unknown>();
    for (const id of new Set(forbidden.map(([id]) => id))) before.set(id, await fetchRun(client, id));
    for (const [runId, action] of forbidden) {
      const result = await attempts[action](runId);
      expect([runId, action, result.__typename, 'code' in result ? result.code : null]).toEqual([runId, action, 'ContinuityFenceRejected', 'FORBIDDEN_TRANSITION']);
    }
    for (const [id, snapshot] of before) expect(await fetchRun(client, id)).toEqual(snapshot);
    expect((await fetchRun(client, 'in-pending')).generation).toBe(1);
    await owner.close();
  });
});
