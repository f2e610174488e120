import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BurrowRequestError, type BurrowClient } from '../clients/typescript/sdk.js';
import { collect, startServer, take, waitUntil, type TestServer, faultSwitch } from './support/harness.js';
import { ok, openOwner, waitUntilOwnerGone, type OwnerHandle } from './support/continuity.js';

let server: TestServer;
const faults = faultSwitch();
beforeAll(async () => {
  server = await startServer({ faults: faults.inject });
});
afterAll(async () => server?.stop());

async function agent(id: string) {
  const client = await server.agentClient(id, { scope: 'proj', session: 'sess-1' });
  const owner = await openOwner(client);
  return { client, owner };
}

async function start(client: BurrowClient, owner: OwnerHandle, runId: string, head?: string) {
  const result = await client.startContinuityRun({ input: { runId, ownerId: owner.ownerId, head } });
  return ok(result.startContinuityRun, 'StartContinuityRunSuccess').run;
}

async function run(client: BurrowClient, runId: string) {
  const { continuityRun } = await client.continuityRun({ runId });
  if (!continuityRun) throw new Error(`run ${runId} not found`);
  return continuityRun;
}

/** Closes an owner and waits until the server sees it gone. */
async function abandon(client: BurrowClient, agentId: string, owner: OwnerHandle) {
  await owner.close();
  await waitUntilOwnerGone(client, agentId, owner.ownerId);
}

describe('the state diagram', () => {
  it('runs RUNNING -> FINALIZING -> COMPLETED with fenced commits, a log entry and an event per transition', async () => {
    const { client, owner } = await agent('cont-happy');
    const started = await start(client, owner, 'run-1', '{"step":0}');
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

    const full = await run(client, 'run-1');
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
    const { client, owner } = await agent('cont-recover');
    await start(client, owner, 'r', '{"step":3}');
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
    const log = (await run(client, 'r')).transitions.edges.map((e) => e.node).map((t) => `${t.from ?? '*'}>${t.to}@${t.generation}`);
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
    const { client, owner } = await agent('cont-forbidden');
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
    await start(client, owner, 'in-running');
    await start(client, owner, 'in-finalizing');
    await attempts.finalize('in-finalizing');
    await start(client, owner, 'in-completed');
    await attempts.finalize('in-completed');
    await attempts.complete('in-completed');
    await start(client, owner, 'in-interrupted');
    await attempts.interrupt('in-interrupted');
    await start(client, owner, 'in-pending');
    await attempts.interrupt('in-pending');
    // Assess only in-pending: reconcile assesses every interrupted run, so re-interrupt a fresh one after.
    await client.reconcileContinuity({});
    await start(client, owner, 'in-interrupted-2');
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
    for (const id of new Set(forbidden.map(([id]) => id))) before.set(id, await run(client, id));
    for (const [runId, action] of forbidden) {
      const result = await attempts[action](runId);
      expect([runId, action, result.__typename, 'code' in result ? result.code : null]).toEqual([runId, action, 'ContinuityFenceRejected', 'FORBIDDEN_TRANSITION']);
    }
    for (const [id, snapshot] of before) expect(await run(client, id)).toEqual(snapshot);
    expect((await run(client, 'in-pending')).generation).toBe(1);
    await owner.close();
  });
});

describe('fencing', () => {
  it('rejects a stale generation and another owner, typed, and changes nothing', async () => {
    const { client, owner } = await agent('cont-fence');
    const other = await openOwner(client);
    await start(client, owner, 'f', '{"v":1}');
    const stale = (await client.commitContinuityRun({ input: { runId: 'f', generation: 2, ownerId: owner.ownerId, head: '{"v":2}' } })).commitContinuityRun;
    expect(stale).toMatchObject({ __typename: 'ContinuityFenceRejected', code: 'STALE_GENERATION', runId: 'f', currentState: 'RUNNING', currentGeneration: 1 });
    const notOwner = (await client.commitContinuityRun({ input: { runId: 'f', generation: 1, ownerId: other.ownerId, head: '{"v":2}' } })).commitContinuityRun;
    expect(notOwner).toMatchObject({ __typename: 'ContinuityFenceRejected', code: 'NOT_OWNER' });
    const missing = (await client.commitContinuityRun({ input: { runId: 'nope', generation: 1, ownerId: owner.ownerId, head: '{}' } })).commitContinuityRun;
    expect(missing).toMatchObject({ __typename: 'NotFound', code: 'NOT_FOUND', resource: 'ContinuityRun', resourceId: 'nope' });
    const badGeneration = (await client.commitContinuityRun({ input: { runId: 'f', generation: 0, ownerId: owner.ownerId, head: '{}' } })).commitContinuityRun;
    expect(badGeneration).toMatchObject({ __typename: 'ValidationFailed', field: 'generation' });
    const current = await run(client, 'f');
    expect(current).toMatchObject({ head: '{"v":1}', headRevision: 0, generation: 1, ownerId: owner.ownerId });
    expect(current.transitions.totalCount).toBe(1);
    expect(current.transitions.edges).toHaveLength(1);
    await other.close();
    await owner.close();
  });

  it('a run can only be started or recovered by a live owner of its own agent', async () => {
    const { client, owner } = await agent('cont-owner-a');
    const { client: clientB, owner: ownerB } = await agent('cont-owner-b');
    const foreign = (await client.startContinuityRun({ input: { runId: 'x', ownerId: ownerB.ownerId } })).startContinuityRun;
    expect(foreign).toMatchObject({ __typename: 'Forbidden', code: 'OWNER_NOT_LIVE' });
    const invented = (await client.startContinuityRun({ input: { runId: 'x', ownerId: '00000000-0000-0000-0000-000000000000' } })).startContinuityRun;
    expect(invented).toMatchObject({ __typename: 'Forbidden', code: 'OWNER_NOT_LIVE' });
    await abandon(clientB, 'cont-owner-b', ownerB);
    const closed = (await clientB.startContinuityRun({ input: { runId: 'x', ownerId: ownerB.ownerId } })).startContinuityRun;
    expect(closed).toMatchObject({ __typename: 'Forbidden', code: 'OWNER_NOT_LIVE' });
    expect((await clientB.continuityRuns({})).continuityRuns.edges).toEqual([]);
    // Agent tokens act only as their agent.
    await expect(client.continuityRun({ runId: 'x', agentId: 'cont-owner-b' })).rejects.toMatchObject({ code: 'AGENT_MISMATCH' });
    await expect(take(client.runtimeOwnership({ agentId: 'cont-owner-b' }), 1)).rejects.toMatchObject({ code: 'AGENT_MISMATCH' });
    await expect(take(client.continuityEvents({ agentId: 'cont-owner-b', runId: 'x' }), 1)).rejects.toBeInstanceOf(BurrowRequestError);
    // A duplicate run id is a validation failure, not a second run.
    await start(client, owner, 'dup');
    expect((await client.startContinuityRun({ input: { runId: 'dup', ownerId: owner.ownerId } })).startContinuityRun).toMatchObject({
      __typename: 'ValidationFailed',
      field: 'runId',
    });
    await owner.close();
  });

  it('an owner whose session ended writes nothing more, even before reconciliation', async () => {
    const { client, owner } = await agent('cont-zombie');
    await start(client, owner, 'z', '{"v":1}');
    const fence = { runId: 'z', generation: 1, ownerId: owner.ownerId };
    await abandon(client, 'cont-zombie', owner);
    const before = await run(client, 'z');
    const results = [
      (await client.commitContinuityRun({ input: { ...fence, head: '{"v":2}' } })).commitContinuityRun,
      (await client.recordContinuityEffect({ input: { ...fence, kind: 'k', request: '{}' } })).recordContinuityEffect,
      (await client.finalizeContinuityRun({ input: fence })).finalizeContinuityRun,
      (await client.interruptContinuityRun({ input: { ...fence, reason: 'x' } })).interruptContinuityRun,
    ];
    expect(results.map((r) => ('code' in r ? r.code : r.__typename))).toEqual(Array(4).fill('OWNER_NOT_LIVE'));
    expect(await run(client, 'z')).toEqual(before);
  });

  it('an owner recovered away from is rejected on every write after recovery', async () => {
    const { client, owner } = await agent('cont-stale');
    await start(client, owner, 's', '{"n":1}');
    await client.recordContinuityEffect({ input: { runId: 's', generation: 1, ownerId: owner.ownerId, effectId: 'e1', kind: 'email', request: '{}' } });
    await abandon(client, 'cont-stale', owner);
    const reconciled = (await client.reconcileContinuity({})).reconcileContinuity;
    expect(reconciled.interrupted.map((r) => r.runId)).toEqual(['s']);
    const heir = await openOwner(client);
    ok((await client.claimContinuityRecovery({ input: { runId: 's', ownerId: heir.ownerId } })).claimContinuityRecovery, 'ClaimContinuityRecoverySuccess');
    const old = { runId: 's', generation: 1, ownerId: owner.ownerId };
    const results = [
      (await client.commitContinuityRun({ input: { ...old, head: '{"n":99}' } })).commitContinuityRun,
      (await client.recordContinuityEffect({ input: { ...old, kind: 'email', request: '{}' } })).recordContinuityEffect,
      (await client.recordContinuityReceipt({ input: { ...old, effectId: 'e1', outcome: 'SUCCEEDED', receipt: '{}' } })).recordContinuityReceipt,
      (await client.finalizeContinuityRun({ input: old })).finalizeContinuityRun,
      (await client.completeContinuityRun({ input: old })).completeContinuityRun,
      (await client.interruptContinuityRun({ input: { ...old, reason: 'late' } })).interruptContinuityRun,
    ];
    expect(results.map((r) => ('code' in r ? r.code : r.__typename))).toEqual(Array(6).fill('STALE_GENERATION'));
    const after = await run(client, 's');
    expect(after).toMatchObject({ state: 'RUNNING', generation: 2, ownerId: heir.ownerId, head: '{"n":1}', effectCount: 1 });
    expect(after.effects.edges.map((e) => e.node).map((e) => [e.effectId, e.outcome])).toEqual([['e1', 'UNKNOWN']]);
    await heir.close();
  });
});

describe('effects, manifests and recovery queues', () => {
  it('lists unconfirmed effects as outcome unknown and queues them for reconciliation', async () => {
    const { client, owner } = await agent('cont-effects');
    await start(client, owner, 'e');
    const fence = { runId: 'e', generation: 1, ownerId: owner.ownerId };
    const sent = ok(
      (await client.recordContinuityEffect({ input: { ...fence, effectId: 'pay-1', kind: 'payment', request: '{"amount":  10.50, "to":"x"}' } })).recordContinuityEffect,
      'RecordContinuityEffectSuccess',
    ).effect;
    expect(sent).toMatchObject({ effectId: 'pay-1', outcome: 'UNKNOWN', receipt: null, intendedGeneration: 1, request: '{"amount":  10.50, "to":"x"}' });
    await client.recordContinuityEffect({ input: { ...fence, effectId: 'mail-1', kind: 'email', request: '{"to":"a@b"}' } });
    const receipt = ok(
      (await client.recordContinuityReceipt({ input: { ...fence, effectId: 'mail-1', outcome: 'SUCCEEDED', receipt: '{"messageId":"m1"}' } })).recordContinuityReceipt,
      'RecordContinuityReceiptSuccess',
    ).effect;
    expect(receipt).toMatchObject({ outcome: 'SUCCEEDED', receipt: '{"messageId":"m1"}', receiptGeneration: 1 });
    // Receipts are final, and only for known effects.
    expect((await client.recordContinuityReceipt({ input: { ...fence, effectId: 'mail-1', outcome: 'FAILED', receipt: '{}' } })).recordContinuityReceipt).toMatchObject({
      code: 'RECEIPT_RECORDED',
    });
    expect((await client.recordContinuityReceipt({ input: { ...fence, effectId: 'ghost', outcome: 'FAILED', receipt: '{}' } })).recordContinuityReceipt).toMatchObject({
      __typename: 'NotFound',
    });
    expect((await client.recordContinuityEffect({ input: { ...fence, effectId: 'pay-1', kind: 'payment', request: '{}' } })).recordContinuityEffect).toMatchObject({
      __typename: 'ValidationFailed',
      field: 'effectId',
    });

    await abandon(client, 'cont-effects', owner);
    const reconciled = (await client.reconcileContinuity({ agentId: 'cont-effects' })).reconcileContinuity;
    const [interrupted] = reconciled.interrupted;
    expect(interrupted.interruptionManifest).toMatchObject({
      reason: 'owner_abandoned',
      stateAtInterruption: 'RUNNING',
      confirmedEffects: [{ effectId: 'mail-1', kind: 'email', outcome: 'SUCCEEDED' }],
      unconfirmedEffects: [{ effectId: 'pay-1', kind: 'payment', outcome: 'UNKNOWN', intendedGeneration: 1, request: '{"amount":  10.50, "to":"x"}' }],
    });
    expect(reconciled.recoveryPending[0].recoveryQueue).toEqual([
      { kind: 'RECONCILE_EFFECT', effectId: 'pay-1', effectKind: 'payment', outcome: 'UNKNOWN', intendedGeneration: 1 },
      { kind: 'RESUME_TURN', headRevision: 0 },
    ]);
    // The recovering owner reconciles the earlier generation's effect with a receipt.
    const heir = await openOwner(client);
    const claimed = ok(
      (await client.claimContinuityRecovery({ input: { runId: 'e', ownerId: heir.ownerId, expectedGeneration: 1 } })).claimContinuityRecovery,
      'ClaimContinuityRecoverySuccess',
    ).run;
    expect(claimed.generation).toBe(2);
    const reconciledEffect = ok(
      (await client.recordContinuityReceipt({ input: { runId: 'e', generation: 2, ownerId: heir.ownerId, effectId: 'pay-1', outcome: 'FAILED', receipt: '{"checked":"ledger"}' } }))
        .recordContinuityReceipt,
      'RecordContinuityReceiptSuccess',
    ).effect;
    expect(reconciledEffect).toMatchObject({ outcome: 'FAILED', intendedGeneration: 1, receiptGeneration: 2, receiptBy: heir.ownerId });
    await heir.close();
  });

  it('a run interrupted while finalizing with a durable result is queued to finish, never to run its turn again', async () => {
    const { client, owner } = await agent('cont-final');
    await start(client, owner, 'fin');
    await client.finalizeContinuityRun({ input: { runId: 'fin', generation: 1, ownerId: owner.ownerId, result: '{"reply":"done"}' } });
    await abandon(client, 'cont-final', owner);
    const reconciled = (await client.reconcileContinuity({})).reconcileContinuity;
    expect(reconciled.interrupted[0].interruptionManifest).toMatchObject({ stateAtInterruption: 'FINALIZING', finalResultDurable: true });
    expect(reconciled.recoveryPending[0].recoveryQueue).toEqual([{ kind: 'FINISH_FINALIZATION', headRevision: 0 }]);
    // The heir finishes: finalize keeps the durable result, then completes.
    const heir = await openOwner(client);
    ok((await client.claimContinuityRecovery({ input: { runId: 'fin', ownerId: heir.ownerId } })).claimContinuityRecovery, 'ClaimContinuityRecoverySuccess');
    const fence = { runId: 'fin', generation: 2, ownerId: heir.ownerId };
    expect(ok((await client.finalizeContinuityRun({ input: fence })).finalizeContinuityRun, 'FinalizeContinuityRunSuccess').run.finalResult).toBe('{"reply":"done"}');
    ok((await client.completeContinuityRun({ input: fence })).completeContinuityRun, 'CompleteContinuityRunSuccess');
    await heir.close();
  });

  it('a durable final result survives any number of crashes: each recovery is queued to finish, never to run the turn again (issue 11)', async () => {
    const { client, owner } = await agent('cont-crashes');
    await start(client, owner, 'twice');
    const result = '{"reply":"committed once"}';
    ok((await client.finalizeContinuityRun({ input: { runId: 'twice', generation: 1, ownerId: owner.ownerId, result } })).finalizeContinuityRun, 'FinalizeContinuityRunSuccess');
    ok(
      (await client.interruptContinuityRun({ input: { runId: 'twice', generation: 1, ownerId: owner.ownerId, reason: 'delivery failed' } })).interruptContinuityRun,
      'InterruptContinuityRunSuccess',
    );
    await owner.close();
    const first = (await client.reconcileContinuity({ agentId: 'cont-crashes' })).reconcileContinuity;
    expect(first.recoveryPending.map((r) => [r.runId, r.recoveryQueue])).toEqual([['twice', [{ kind: 'FINISH_FINALIZATION', headRevision: 0 }]]]);

    // Heirs at generations 2 and 3 each claim the run and die before finishing it (RUNNING).
    for (const generation of [2, 3]) {
      const heir = await openOwner(client);
      const claimed = ok(
        (await client.claimContinuityRecovery({ input: { runId: 'twice', ownerId: heir.ownerId, expectedGeneration: generation - 1 } })).claimContinuityRecovery,
        'ClaimContinuityRecoverySuccess',
      ).run;
      expect([claimed.state, claimed.generation, claimed.finalResult]).toEqual(['RUNNING', generation, result]);
      await abandon(client, 'cont-crashes', heir);
      const reconciled = (await client.reconcileContinuity({ agentId: 'cont-crashes' })).reconcileContinuity;
      expect(reconciled.interrupted.map((r) => r.interruptionManifest)).toMatchObject([
        { reason: 'owner_abandoned', stateAtInterruption: 'RUNNING', generation, ownerId: heir.ownerId, finalResultDurable: true },
      ]);
      expect(reconciled.recoveryPending.map((r) => [r.runId, r.state, r.finalResult, r.recoveryQueue])).toEqual([
        ['twice', 'RECOVERY_PENDING', result, [{ kind: 'FINISH_FINALIZATION', headRevision: 0 }]],
      ]);
    }

    // A fourth crash after the heir re-entered finalization is queued to finish as well.
    const late = await openOwner(client);
    ok(
      (await client.claimContinuityRecovery({ input: { runId: 'twice', ownerId: late.ownerId, expectedGeneration: 3 } })).claimContinuityRecovery,
      'ClaimContinuityRecoverySuccess',
    );
    ok((await client.finalizeContinuityRun({ input: { runId: 'twice', generation: 4, ownerId: late.ownerId } })).finalizeContinuityRun, 'FinalizeContinuityRunSuccess');
    await abandon(client, 'cont-crashes', late);
    const fourth = (await client.reconcileContinuity({ agentId: 'cont-crashes' })).reconcileContinuity;
    expect(fourth.interrupted[0].interruptionManifest).toMatchObject({ stateAtInterruption: 'FINALIZING', generation: 4, finalResultDurable: true });
    expect(fourth.recoveryPending[0].recoveryQueue).toEqual([{ kind: 'FINISH_FINALIZATION', headRevision: 0 }]);

    // The last heir finishes with the result committed at generation 1.
    const last = await openOwner(client);
    ok(
      (await client.claimContinuityRecovery({ input: { runId: 'twice', ownerId: last.ownerId, expectedGeneration: 4 } })).claimContinuityRecovery,
      'ClaimContinuityRecoverySuccess',
    );
    const fence = { runId: 'twice', generation: 5, ownerId: last.ownerId };
    expect(ok((await client.finalizeContinuityRun({ input: fence })).finalizeContinuityRun, 'FinalizeContinuityRunSuccess').run.finalResult).toBe(result);
    ok((await client.completeContinuityRun({ input: fence })).completeContinuityRun, 'CompleteContinuityRunSuccess');
    const log = (await run(client, 'twice')).transitions.edges.map((e) => e.node).map((t) => `${t.from ?? '*'}>${t.to}@${t.generation}:${t.reason}`);
    expect(log).toEqual([
      '*>RUNNING@1:claimed',
      'RUNNING>FINALIZING@1:finalizing',
      'FINALIZING>INTERRUPTED@1:delivery failed',
      'INTERRUPTED>RECOVERY_PENDING@1:assessed',
      'RECOVERY_PENDING>RUNNING@2:recovery_claimed',
      'RUNNING>INTERRUPTED@2:owner_abandoned',
      'INTERRUPTED>RECOVERY_PENDING@2:assessed',
      'RECOVERY_PENDING>RUNNING@3:recovery_claimed',
      'RUNNING>INTERRUPTED@3:owner_abandoned',
      'INTERRUPTED>RECOVERY_PENDING@3:assessed',
      'RECOVERY_PENDING>RUNNING@4:recovery_claimed',
      'RUNNING>FINALIZING@4:finalizing',
      'FINALIZING>INTERRUPTED@4:owner_abandoned',
      'INTERRUPTED>RECOVERY_PENDING@4:assessed',
      'RECOVERY_PENDING>RUNNING@5:recovery_claimed',
      'RUNNING>FINALIZING@5:finalizing',
      'FINALIZING>COMPLETED@5:completed',
    ]);
    await last.close();
  });

  it('a durable completion is never re-queued', async () => {
    const { client, owner } = await agent('cont-done');
    await start(client, owner, 'done');
    const fence = { runId: 'done', generation: 1, ownerId: owner.ownerId };
    await client.recordContinuityEffect({ input: { ...fence, effectId: 'unconfirmed', kind: 'webhook', request: '{}' } });
    await client.finalizeContinuityRun({ input: fence });
    await client.completeContinuityRun({ input: fence });
    const before = await run(client, 'done');
    await abandon(client, 'cont-done', owner);
    for (let pass = 0; pass < 3; pass++) {
      const reconciled = (await client.reconcileContinuity({})).reconcileContinuity;
      expect([reconciled.interrupted, reconciled.recoveryPending]).toEqual([[], []]);
    }
    const after = await run(client, 'done');
    expect(after).toEqual(before);
    expect(after).toMatchObject({ state: 'COMPLETED', recoveryQueue: null, interruptionManifest: null });
  });

  it('a failed completion leaves the run FINALIZING with no log entry and no event', async () => {
    const { client, owner } = await agent('cont-fault');
    await start(client, owner, 'ff');
    const fence = { runId: 'ff', generation: 1, ownerId: owner.ownerId };
    await client.finalizeContinuityRun({ input: fence });
    const before = await run(client, 'ff');
    faults.arm('continuity.complete.before_log');
    await expect(client.completeContinuityRun({ input: fence })).rejects.toMatchObject({ code: 'INTERNAL_SERVER_ERROR' });
    faults.arm(null);
    expect(await run(client, 'ff')).toEqual(before);
    const { agent: a } = await client.agent({ id: 'cont-fault' });
    expect(a?.lastEventSequence).toBe(before.transitions.edges.map((e) => e.node).at(-1)!.sequence);
    await owner.close();
  });
});

describe('documents and limits', () => {
  it('stores heads, requests and receipts losslessly as json text', async () => {
    const { client, owner } = await agent('cont-lossless');
    const head = '{"b":1, "a":2, "a":3, "big":12345678901234567890123, "f":1.000, "s":"\\u00e9"}';
    const started = await start(client, owner, 'l', head);
    expect(started.head).toBe(head);
    expect((await run(client, 'l')).head).toBe(head);
  });

  it('keeps a NUL escape (which PostgreSQL json cannot turn into text) through interruption and assessment', async () => {
    const { client, owner } = await agent('cont-escape');
    const text = '{"note":"a\\u0000b"}';
    await start(client, owner, 'esc', text);
    await client.recordContinuityEffect({ input: { runId: 'esc', generation: 1, ownerId: owner.ownerId, effectId: 'x', kind: 'k', request: text } });
    await client.finalizeContinuityRun({ input: { runId: 'esc', generation: 1, ownerId: owner.ownerId, result: text } });
    await abandon(client, 'cont-escape', owner);
    const reconciled = (await client.reconcileContinuity({ agentId: 'cont-escape' })).reconcileContinuity;
    expect(reconciled.failed).toEqual([]);
    const current = await run(client, 'esc');
    expect([current.state, current.head, current.finalResult, current.effects.edges[0].node.request]).toEqual(['RECOVERY_PENDING', text, text, text]);
    expect(current.recoveryQueue).toEqual([
      { kind: 'RECONCILE_EFFECT', effectId: 'x', effectKind: 'k', outcome: 'UNKNOWN', intendedGeneration: 1 },
      { kind: 'FINISH_FINALIZATION', headRevision: 0 },
    ]);
  });

  it('enforces the head limit at the boundary and one past it, and rejects non-JSON', async () => {
    const { client, owner } = await agent('cont-limits');
    const atLimit = `"${'é'.repeat(262_142)}"`;
    expect(atLimit.length).toBe(262_144);
    const started = await start(client, owner, 'big', atLimit);
    expect(started.head.length).toBe(262_144);
    const fence = { runId: 'big', generation: 1, ownerId: owner.ownerId };
    const over = (await client.commitContinuityRun({ input: { ...fence, head: `"${'é'.repeat(262_143)}"` } })).commitContinuityRun;
    expect(over).toMatchObject({ __typename: 'ValidationFailed', field: 'head', limit: 262_144 });
    expect((await client.commitContinuityRun({ input: { ...fence, head: '{not json' } })).commitContinuityRun).toMatchObject({ __typename: 'ValidationFailed', field: 'head' });
    expect((await client.recordContinuityEffect({ input: { ...fence, kind: 'k', request: 'x'.repeat(65_537) } })).recordContinuityEffect).toMatchObject({
      field: 'request',
      limit: 65_536,
    });
    expect((await client.recordContinuityEffect({ input: { ...fence, kind: 'k'.repeat(201), request: '{}' } })).recordContinuityEffect).toMatchObject({
      field: 'kind',
      limit: 200,
    });
    expect((await client.startContinuityRun({ input: { runId: 'r'.repeat(129), ownerId: owner.ownerId } })).startContinuityRun).toMatchObject({ field: 'runId', limit: 128 });
    expect((await client.startContinuityRun({ input: { runId: 'r'.repeat(128), ownerId: owner.ownerId } })).startContinuityRun.__typename).toBe('StartContinuityRunSuccess');
    expect((await client.interruptContinuityRun({ input: { ...fence, reason: 'x'.repeat(2001) } })).interruptContinuityRun).toMatchObject({ field: 'reason', limit: 2000 });
    expect((await client.interruptContinuityRun({ input: { ...fence, reason: 'a\u0000b' } })).interruptContinuityRun).toMatchObject({
      __typename: 'ValidationFailed',
      field: 'reason',
    });
    expect((await client.recordContinuityEffect({ input: { ...fence, kind: 'a\u0000b', request: '{}' } })).recordContinuityEffect).toMatchObject({
      __typename: 'ValidationFailed',
      field: 'kind',
    });
    expect((await client.commitContinuityRun({ input: { ...fence, head: '"a\u0000b"' } })).commitContinuityRun).toMatchObject({ __typename: 'ValidationFailed', field: 'head' });
    const unchanged = await run(client, 'big');
    expect([unchanged.headRevision, unchanged.effectCount, unchanged.state]).toEqual([0, 0, 'RUNNING']);
    await owner.close();
  });

  it('lists runs newest first with bound cursors and a state filter', async () => {
    const { client, owner } = await agent('cont-list');
    for (const id of ['a', 'b', 'c']) {
      await start(client, owner, id);
      server.clock.advance(1000);
    }
    await client.interruptContinuityRun({ input: { runId: 'b', generation: 1, ownerId: owner.ownerId, reason: 'x' } });
    const page1 = (await client.continuityRuns({ first: 2 })).continuityRuns;
    expect(page1.edges.map((e) => e.node.runId)).toEqual(['c', 'b']);
    const page2 = (await client.continuityRuns({ first: 2, after: page1.pageInfo.endCursor })).continuityRuns;
    expect(page2.edges.map((e) => e.node.runId)).toEqual(['a']);
    expect(page2.pageInfo.hasNextPage).toBe(false);
    expect((await client.continuityRuns({ states: ['INTERRUPTED'] })).continuityRuns.edges.map((e) => e.node.runId)).toEqual(['b']);
    await expect(client.continuityRuns({ states: ['RUNNING'], after: page1.pageInfo.endCursor })).rejects.toMatchObject({ code: 'CURSOR_MISMATCH' });
    await expect(server.operator.continuityRuns({})).rejects.toMatchObject({ code: 'FORBIDDEN' });
    expect((await server.operator.continuityRuns({ agentId: 'cont-list' })).continuityRuns.edges).toHaveLength(3);
    await owner.close();
  });
});

describe('subscriptions and owners', () => {
  it('a subscriber sees every transition of its run in order, live and replayed from after', async () => {
    const { client, owner } = await agent('cont-sub');
    await start(client, owner, 'other');
    const live = collect(client.continuityEvents({ agentId: 'cont-sub', runId: 'watched', after: 0 }));
    await start(client, owner, 'watched');
    const fence = { runId: 'watched', generation: 1, ownerId: owner.ownerId };
    await client.commitContinuityRun({ input: { ...fence, head: '{}' } });
    await client.interruptContinuityRun({ input: { ...fence, reason: 'r' } });
    await client.reconcileContinuity({});
    await client.claimContinuityRecovery({ input: { runId: 'watched', ownerId: owner.ownerId } });
    await client.finalizeContinuityRun({ input: { ...fence, generation: 2 } });
    await client.completeContinuityRun({ input: { ...fence, generation: 2 } });
    const items = [...(await live.waitFor(6))];
    // Not awaited: the SDK's iterator ends only at its next event; the client closes it at the end.
    void live.stop();
    const seen = items.map((e) => `${e.continuityEvents.payload && (e.continuityEvents.payload as { to: string }).to}`);
    expect(seen).toEqual(['RUNNING', 'INTERRUPTED', 'RECOVERY_PENDING', 'RUNNING', 'FINALIZING', 'COMPLETED']);
    const sequences = items.map((e) => e.continuityEvents.sequence);
    expect([...sequences].sort((a, b) => a - b)).toEqual(sequences);
    expect(items.every((e) => e.continuityEvents.subjectId === 'watched')).toBe(true);
    const transitions = (await run(client, 'watched')).transitions.edges.map((e) => e.node);
    expect(transitions.map((t) => t.sequence)).toEqual(sequences);
    // Resume after the third: exactly the rest.
    const resumed = await take(client.continuityEvents({ agentId: 'cont-sub', runId: 'watched', after: sequences[2] }), 3);
    expect(resumed.map((e) => e.continuityEvents.sequence)).toEqual(sequences.slice(3));
    await owner.close();
  });

  it('lists owners with liveness from the owner protocol, and closing the subscription ends the owner', async () => {
    const client = await server.agentClient('cont-owners');
    const a = await openOwner(client);
    const b = await openOwner(client);
    const listed = (await client.continuityOwners({})).continuityOwners;
    expect(listed.map((o) => [o.ownerId, o.live]).sort()).toEqual(
      [
        [a.ownerId, true],
        [b.ownerId, true],
      ].sort(),
    );
    await a.close();
    await waitUntilOwnerGone(client, 'cont-owners', a.ownerId);
    expect((await client.continuityOwners({})).continuityOwners.map((o) => o.ownerId)).toEqual([b.ownerId]);
    const all = (await client.continuityOwners({ includeClosed: true })).continuityOwners;
    expect(all.find((o) => o.ownerId === a.ownerId)).toMatchObject({ live: false });
    await b.close();
  });

  it("a live owner's run is never interrupted by reconciliation", async () => {
    const { client, owner } = await agent('cont-alive');
    await start(client, owner, 'alive');
    for (let pass = 0; pass < 3; pass++) {
      const reconciled = (await client.reconcileContinuity({})).reconcileContinuity;
      expect(reconciled.interrupted.map((r) => r.runId)).not.toContain('alive');
    }
    expect((await run(client, 'alive')).state).toBe('RUNNING');
    await owner.close();
  });
});

describe('reconciliation', () => {
  it('an agent token reconciles only its own agent; an operator may reconcile all', async () => {
    const { client: mine, owner: myOwner } = await agent('cont-rec-mine');
    const { client: theirs, owner: theirOwner } = await agent('cont-rec-theirs');
    await start(mine, myOwner, 'm');
    await start(theirs, theirOwner, 't');
    await abandon(mine, 'cont-rec-mine', myOwner);
    await abandon(theirs, 'cont-rec-theirs', theirOwner);
    const own = (await mine.reconcileContinuity({})).reconcileContinuity;
    expect(own.interrupted.map((r) => `${r.agentId}/${r.runId}`)).toEqual(['cont-rec-mine/m']);
    await expect(mine.reconcileContinuity({ agentId: 'cont-rec-theirs' })).rejects.toMatchObject({ code: 'AGENT_MISMATCH' });
    expect((await run(theirs, 't')).state).toBe('RUNNING');
    const all = (await server.operator.reconcileContinuity({})).reconcileContinuity;
    // Earlier tests left abandoned runs of other agents too; the operator pass takes them all, mine is already done.
    const operatorInterrupted = all.interrupted.map((r) => `${r.agentId}/${r.runId}`);
    expect(operatorInterrupted).toContain('cont-rec-theirs/t');
    expect(operatorInterrupted).not.toContain('cont-rec-mine/m');
    expect((await run(theirs, 't')).state).toBe('RECOVERY_PENDING');
  });

  it('a failure while interrupting leaves the run RUNNING with no log entry; the next pass interrupts it once', async () => {
    const { client, owner } = await agent('cont-rec-fault');
    await start(client, owner, 'rf');
    await abandon(client, 'cont-rec-fault', owner);
    const before = await run(client, 'rf');
    faults.arm('continuity.reconcile.after_interrupt');
    const failing = (await client.reconcileContinuity({})).reconcileContinuity;
    faults.arm(null);
    expect([failing.failed.map((r) => `${r.agentId}/${r.runId}`), failing.interrupted, failing.recoveryPending]).toEqual([['cont-rec-fault/rf'], [], []]);
    expect(await run(client, 'rf')).toEqual(before);
    const reconciled = (await client.reconcileContinuity({})).reconcileContinuity;
    expect(reconciled.interrupted.map((r) => r.runId)).toEqual(['rf']);
    expect((await run(client, 'rf')).transitions.edges.map((e) => e.node).map((t) => t.to)).toEqual(['RUNNING', 'INTERRUPTED', 'RECOVERY_PENDING']);
  });

  it('the database refuses what the API refuses (CHECK constraints)', async () => {
    const { client, owner } = await agent('cont-checks');
    await start(client, owner, 'chk');
    const pool = server.database.pool;
    const attempt = (statement: string) =>
      pool.query(statement).then(
        () => 'accepted',
        (error: { constraint?: string }) => error.constraint ?? 'error',
      );
    expect(await attempt(`UPDATE continuity_state SET head = to_json(repeat('x', 262143)) WHERE run_id = 'chk'`)).toBe('continuity_state_head_limit');
    expect(await attempt(`UPDATE continuity_state SET state = 'DONE' WHERE run_id = 'chk'`)).toBe('continuity_state_state');
    expect(await attempt(`UPDATE continuity_state SET generation = 0 WHERE run_id = 'chk'`)).toBe('continuity_state_generation_positive');
    expect(await attempt(`UPDATE continuity_state SET state = 'COMPLETED' WHERE run_id = 'chk'`)).toBe('continuity_state_completed_at');
    expect((await run(client, 'chk')).state).toBe('RUNNING');
    await owner.close();
  });

  it('the interval reconciler interrupts and assesses abandoned runs without being asked', async () => {
    const timed = await startServer({ config: { continuity: { reconcileIntervalSeconds: 1 } } });
    try {
      const client = await timed.agentClient('cont-interval');
      const owner = await openOwner(client);
      await client.startContinuityRun({ input: { runId: 'iv', ownerId: owner.ownerId } });
      await owner.close();
      await waitUntil(
        async () => (await client.continuityRun({ runId: 'iv' })).continuityRun!.state === 'RECOVERY_PENDING',
        'the interval reconciler assesses the run',
        15_000,
        100,
      );
      expect((await client.continuityRun({ runId: 'iv' })).continuityRun!.transitions.edges.map((e) => e.node).map((t) => t.reason)).toEqual([
        'claimed',
        'owner_abandoned',
        'assessed',
      ]);
    } finally {
      await timed.stop();
    }
  });
});

describe('node', () => {
  it('a run is a node its own agent can fetch by global id, and only its agent', async () => {
    const { client, owner } = await agent('cont-node');
    const started = await start(client, owner, 'nd');
    const { node } = await client.node({ id: started.id });
    expect(node).toMatchObject({ __typename: 'ContinuityRun', id: started.id });
    const stranger = await server.agentClient('cont-node-stranger');
    await expect(stranger.node({ id: started.id })).rejects.toMatchObject({ code: 'AGENT_MISMATCH' });
    expect((await server.operator.node({ id: started.id })).node).toMatchObject({ __typename: 'ContinuityRun', id: started.id });
    await owner.close();
  });
});

describe('batching', () => {
  it('effects and transitions of a page of runs cost the same statements for 2 runs as for 6', async () => {
    const { client, owner } = await agent('cont-batch');
    for (let i = 0; i < 6; i++) {
      await start(client, owner, `b${i}`);
      await client.recordContinuityEffect({ input: { runId: `b${i}`, generation: 1, ownerId: owner.ownerId, kind: 'k', request: '{}' } });
    }
    const query = `query($first: Int) { continuityRuns(first: $first) { edges { node { runId effects { totalCount edges { node { effectId run { runId } owner: intendedByOwner { ownerId } } } } transitions { edges { node { to owner { ownerId } } } } } } } }`;
    type Page = { totalCount?: number; edges: { node: unknown }[] };
    const count = async (first: number) => {
      const before = server.database.statements.count;
      const result = await client.request<{ continuityRuns: { edges: { node: { runId: string; effects: Page; transitions: Page } }[] } }>(query, { first });
      expect(result.continuityRuns.edges).toHaveLength(first);
      expect(result.continuityRuns.edges.every((e) => e.node.effects.edges.length === 1 && e.node.effects.totalCount === 1 && e.node.transitions.edges.length === 1)).toBe(true);
      expect(result.continuityRuns.edges.map((e) => (e.node.effects.edges[0].node as { run: { runId: string } }).run.runId)).toEqual(
        result.continuityRuns.edges.map((e) => e.node.runId),
      );
      return server.database.statements.count - before;
    };
    expect(await count(6)).toBe(await count(2));
    await owner.close();
  });
});
