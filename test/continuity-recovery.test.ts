/**
 * Continuity recovery: effects and receipts, interruption manifests and recovery queues, and
 * reconciliation of abandoned runs (also under injected faults).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, waitUntil, type TestServer, faultSwitch } from './support/harness.js';
import { abandonOwner, fetchRun, ok, openOwner, ownedAgent, startRun } from './support/continuity.js';

let server: TestServer;
const faults = faultSwitch();
beforeAll(async () => {
  server = await startServer({ faults: faults.inject });
});
afterAll(async () => server?.stop());

describe('effects, manifests and recovery queues', () => {
  it('lists unconfirmed effects as outcome unknown and queues them for reconciliation', async () => {
    const { client, owner } = await ownedAgent(server, 'cont-effects');
    await startRun(client, owner, 'e');
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

    await abandonOwner(client, 'cont-effects', owner);
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
    const { client, owner } = await ownedAgent(server, 'cont-final');
    await startRun(client, owner, 'fin');
    await client.finalizeContinuityRun({ input: { runId: 'fin', generation: 1, ownerId: owner.ownerId, result: '{"reply":"done"}' } });
    await abandonOwner(client, 'cont-final', owner);
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
    const { client, owner } = await ownedAgent(server, 'cont-crashes');
    await startRun(client, owner, 'twice');
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
      await abandonOwner(client, 'cont-crashes', heir);
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
    await abandonOwner(client, 'cont-crashes', late);
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
    const log = (await fetchRun(client, 'twice')).transitions.edges.map((e) => e.node).map((t) => `${t.from ?? '*'}>${t.to}@${t.generation}:${t.reason}`);
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
    const { client, owner } = await ownedAgent(server, 'cont-done');
    await startRun(client, owner, 'done');
    const fence = { runId: 'done', generation: 1, ownerId: owner.ownerId };
    await client.recordContinuityEffect({ input: { ...fence, effectId: 'unconfirmed', kind: 'webhook', request: '{}' } });
    await client.finalizeContinuityRun({ input: fence });
    await client.completeContinuityRun({ input: fence });
    const before = await fetchRun(client, 'done');
    await abandonOwner(client, 'cont-done', owner);
    for (let pass = 0; pass < 3; pass++) {
      const reconciled = (await client.reconcileContinuity({})).reconcileContinuity;
      expect([reconciled.interrupted, reconciled.recoveryPending]).toEqual([[], []]);
    }
    const after = await fetchRun(client, 'done');
    expect(after).toEqual(before);
    expect(after).toMatchObject({ state: 'COMPLETED', recoveryQueue: null, interruptionManifest: null });
  });

  it('a failed completion leaves the run FINALIZING with no log entry and no event', async () => {
    const { client, owner } = await ownedAgent(server, 'cont-fault');
    await startRun(client, owner, 'ff');
    const fence = { runId: 'ff', generation: 1, ownerId: owner.ownerId };
    await client.finalizeContinuityRun({ input: fence });
    const before = await fetchRun(client, 'ff');
    faults.arm('continuity.complete.before_log');
    await expect(client.completeContinuityRun({ input: fence })).rejects.toMatchObject({ code: 'INTERNAL_SERVER_ERROR' });
    faults.arm(null);
    expect(await fetchRun(client, 'ff')).toEqual(before);
    const { agent: a } = await client.agent({ id: 'cont-fault' });
    expect(a?.lastEventSequence).toBe(before.transitions.edges.map((e) => e.node).at(-1)!.sequence);
    await owner.close();
  });
});
describe('reconciliation', () => {
  it('an agent token reconciles only its own agent; an operator may reconcile all', async () => {
    const { client: mine, owner: myOwner } = await ownedAgent(server, 'cont-rec-mine');
    const { client: theirs, owner: theirOwner } = await ownedAgent(server, 'cont-rec-theirs');
    await startRun(mine, myOwner, 'm');
    await startRun(theirs, theirOwner, 't');
    await abandonOwner(mine, 'cont-rec-mine', myOwner);
    await abandonOwner(theirs, 'cont-rec-theirs', theirOwner);
    const own = (await mine.reconcileContinuity({})).reconcileContinuity;
    expect(own.interrupted.map((r) => `${r.agentId}/${r.runId}`)).toEqual(['cont-rec-mine/m']);
    await expect(mine.reconcileContinuity({ agentId: 'cont-rec-theirs' })).rejects.toMatchObject({ code: 'AGENT_MISMATCH' });
    expect((await fetchRun(theirs, 't')).state).toBe('RUNNING');
    const all = (await server.operator.reconcileContinuity({})).reconcileContinuity;
    // Earlier tests left abandoned runs of other agents too; the operator pass takes them all, mine is already done.
    const operatorInterrupted = all.interrupted.map((r) => `${r.agentId}/${r.runId}`);
    expect(operatorInterrupted).toContain('cont-rec-theirs/t');
    expect(operatorInterrupted).not.toContain('cont-rec-mine/m');
    expect((await fetchRun(theirs, 't')).state).toBe('RECOVERY_PENDING');
  });

  it('a failure while interrupting leaves the run RUNNING with no log entry; the next pass interrupts it once', async () => {
    const { client, owner } = await ownedAgent(server, 'cont-rec-fault');
    await startRun(client, owner, 'rf');
    await abandonOwner(client, 'cont-rec-fault', owner);
    const before = await fetchRun(client, 'rf');
    faults.arm('continuity.reconcile.after_interrupt');
    const failing = (await client.reconcileContinuity({})).reconcileContinuity;
    faults.arm(null);
    expect([failing.failed.map((r) => `${r.agentId}/${r.runId}`), failing.interrupted, failing.recoveryPending]).toEqual([['cont-rec-fault/rf'], [], []]);
    expect(await fetchRun(client, 'rf')).toEqual(before);
    const reconciled = (await client.reconcileContinuity({})).reconcileContinuity;
    expect(reconciled.interrupted.map((r) => r.runId)).toEqual(['rf']);
    expect((await fetchRun(client, 'rf')).transitions.edges.map((e) => e.node).map((t) => t.to)).toEqual(['RUNNING', 'INTERRUPTED', 'RECOVERY_PENDING']);
  });

  it('the database refuses what the API refuses (CHECK constraints)', async () => {
    const { client, owner } = await ownedAgent(server, 'cont-checks');
    await startRun(client, owner, 'chk');
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
    expect((await fetchRun(client, 'chk')).state).toBe('RUNNING');
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
