/**
 * Continuity fencing and owners: stale generations, other and ended owners are refused; owners are
 * live exactly as long as their subscription, and subscribers see every transition.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BurrowRequestError } from '../clients/typescript/sdk.js';
import { collect, startServer, take, type TestServer } from './support/harness.js';
import { abandonOwner, fetchRun, ok, openOwner, ownedAgent, startRun, waitUntilOwnerGone } from './support/continuity.js';

let server: TestServer;
beforeAll(async () => {
  server = await startServer();
});
afterAll(async () => server?.stop());

describe('fencing', () => {
  it('rejects a stale generation and another owner, typed, and changes nothing', async () => {
    const { client, owner } = await ownedAgent(server, 'cont-fence');
    const other = await openOwner(client);
    await startRun(client, owner, 'f', '{"v":1}');
    const stale = (await client.commitContinuityRun({ input: { runId: 'f', generation: 2, ownerId: owner.ownerId, head: '{"v":2}' } })).commitContinuityRun;
    expect(stale).toMatchObject({ __typename: 'ContinuityFenceRejected', code: 'STALE_GENERATION', runId: 'f', currentState: 'RUNNING', currentGeneration: 1 });
    const notOwner = (await client.commitContinuityRun({ input: { runId: 'f', generation: 1, ownerId: other.ownerId, head: '{"v":2}' } })).commitContinuityRun;
    expect(notOwner).toMatchObject({ __typename: 'ContinuityFenceRejected', code: 'NOT_OWNER' });
    const missing = (await client.commitContinuityRun({ input: { runId: 'nope', generation: 1, ownerId: owner.ownerId, head: '{}' } })).commitContinuityRun;
    expect(missing).toMatchObject({ __typename: 'NotFound', code: 'NOT_FOUND', resource: 'ContinuityRun', resourceId: 'nope' });
    const badGeneration = (await client.commitContinuityRun({ input: { runId: 'f', generation: 0, ownerId: owner.ownerId, head: '{}' } })).commitContinuityRun;
    expect(badGeneration).toMatchObject({ __typename: 'ValidationFailed', field: 'generation' });
    const current = await fetchRun(client, 'f');
    expect(current).toMatchObject({ head: '{"v":1}', headRevision: 0, generation: 1, ownerId: owner.ownerId });
    expect(current.transitions.totalCount).toBe(1);
    expect(current.transitions.edges).toHaveLength(1);
    await other.close();
    await owner.close();
  });

  it('a run can only be started or recovered by a live owner of its own agent', async () => {
    const { client, owner } = await ownedAgent(server, 'cont-owner-a');
    const { client: clientB, owner: ownerB } = await ownedAgent(server, 'cont-owner-b');
    const foreign = (await client.startContinuityRun({ input: { runId: 'x', ownerId: ownerB.ownerId } })).startContinuityRun;
    expect(foreign).toMatchObject({ __typename: 'Forbidden', code: 'OWNER_NOT_LIVE' });
    const invented = (await client.startContinuityRun({ input: { runId: 'x', ownerId: '00000000-0000-0000-0000-000000000000' } })).startContinuityRun;
    expect(invented).toMatchObject({ __typename: 'Forbidden', code: 'OWNER_NOT_LIVE' });
    await abandonOwner(clientB, 'cont-owner-b', ownerB);
    const closed = (await clientB.startContinuityRun({ input: { runId: 'x', ownerId: ownerB.ownerId } })).startContinuityRun;
    expect(closed).toMatchObject({ __typename: 'Forbidden', code: 'OWNER_NOT_LIVE' });
    expect((await clientB.continuityRuns({})).continuityRuns.edges).toEqual([]);
    // Agent tokens act only as their agent.
    await expect(client.continuityRun({ runId: 'x', agentId: 'cont-owner-b' })).rejects.toMatchObject({ code: 'AGENT_MISMATCH' });
    await expect(take(client.runtimeOwnership({ agentId: 'cont-owner-b' }), 1)).rejects.toMatchObject({ code: 'AGENT_MISMATCH' });
    await expect(take(client.continuityEvents({ agentId: 'cont-owner-b', runId: 'x' }), 1)).rejects.toBeInstanceOf(BurrowRequestError);
    // A duplicate run id is a validation failure, not a second run.
    await startRun(client, owner, 'dup');
    expect((await client.startContinuityRun({ input: { runId: 'dup', ownerId: owner.ownerId } })).startContinuityRun).toMatchObject({
      __typename: 'ValidationFailed',
      field: 'runId',
    });
    await owner.close();
  });

  it('an owner whose session ended writes nothing more, even before reconciliation', async () => {
    const { client, owner } = await ownedAgent(server, 'cont-zombie');
    await startRun(client, owner, 'z', '{"v":1}');
    const fence = { runId: 'z', generation: 1, ownerId: owner.ownerId };
    await abandonOwner(client, 'cont-zombie', owner);
    const before = await fetchRun(client, 'z');
    const results = [
      (await client.commitContinuityRun({ input: { ...fence, head: '{"v":2}' } })).commitContinuityRun,
      (await client.recordContinuityEffect({ input: { ...fence, kind: 'k', request: '{}' } })).recordContinuityEffect,
      (await client.finalizeContinuityRun({ input: fence })).finalizeContinuityRun,
      (await client.interruptContinuityRun({ input: { ...fence, reason: 'x' } })).interruptContinuityRun,
    ];
    expect(results.map((r) => ('code' in r ? r.code : r.__typename))).toEqual(Array(4).fill('OWNER_NOT_LIVE'));
    expect(await fetchRun(client, 'z')).toEqual(before);
  });

  it('an owner recovered away from is rejected on every write after recovery', async () => {
    const { client, owner } = await ownedAgent(server, 'cont-stale');
    await startRun(client, owner, 's', '{"n":1}');
    await client.recordContinuityEffect({ input: { runId: 's', generation: 1, ownerId: owner.ownerId, effectId: 'e1', kind: 'email', request: '{}' } });
    await abandonOwner(client, 'cont-stale', owner);
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
    const after = await fetchRun(client, 's');
    expect(after).toMatchObject({ state: 'RUNNING', generation: 2, ownerId: heir.ownerId, head: '{"n":1}', effectCount: 1 });
    expect(after.effects.edges.map((e) => e.node).map((e) => [e.effectId, e.outcome])).toEqual([['e1', 'UNKNOWN']]);
    await heir.close();
  });
});
describe('subscriptions and owners', () => {
  it('a subscriber sees every transition of its run in order, live and replayed from after', async () => {
    const { client, owner } = await ownedAgent(server, 'cont-sub');
    await startRun(client, owner, 'other');
    const live = collect(client.continuityEvents({ agentId: 'cont-sub', runId: 'watched', after: 0 }));
    await startRun(client, owner, 'watched');
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
    const transitions = (await fetchRun(client, 'watched')).transitions.edges.map((e) => e.node);
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
    const { client, owner } = await ownedAgent(server, 'cont-alive');
    await startRun(client, owner, 'alive');
    for (let pass = 0; pass < 3; pass++) {
      const reconciled = (await client.reconcileContinuity({})).reconcileContinuity;
      expect(reconciled.interrupted.map((r) => r.runId)).not.toContain('alive');
    }
    expect((await fetchRun(client, 'alive')).state).toBe('RUNNING');
    await owner.close();
  });
});
