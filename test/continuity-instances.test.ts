import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BurrowClient } from '../clients/typescript/sdk.js';
import { collect, hasRealServer, NEEDS_REAL_SERVER, startServer, waitUntil, type TestServer } from './support/harness.js';
import { ok, openOwner, type OwnerHandle } from './support/continuity.js';

describe.skipIf(!hasRealServer)(`continuity across instances and connections (${NEEDS_REAL_SERVER})`, () => {
  let a: TestServer;
  let b: TestServer;
  let c: TestServer;
  let admin: pg.Client;

  beforeAll(async () => {
    a = await startServer({ realServer: true });
    b = await startServer({ database: a.testDatabase });
    c = await startServer({ database: a.testDatabase });
    admin = new pg.Client({ connectionString: a.testDatabase.url! });
    await admin.connect();
  });
  afterAll(async () => {
    await admin?.end();
    await c?.stop();
    await b?.stop();
    await a?.stop();
  });

  /** Kills the owner's lock connection from outside, as a crash or network loss would. */
  async function terminateOwner(ownerId: string) {
    const { rows } = await admin.query<{ killed: boolean }>(
      `SELECT pg_terminate_backend(pid) AS killed FROM pg_stat_activity WHERE datname = current_database() AND application_name = $1`,
      [`burrow-owner:${ownerId}`],
    );
    expect(rows).toEqual([{ killed: true }]);
    // pg_terminate_backend signals; the backend (and its lock) is gone once it leaves pg_stat_activity.
    await waitUntil(
      async () => (await admin.query(`SELECT 1 FROM pg_stat_activity WHERE application_name = $1`, [`burrow-owner:${ownerId}`])).rowCount === 0,
      'the owner backend exits',
    );
  }

  async function start(client: BurrowClient, owner: OwnerHandle, runId: string, head = '{}') {
    return ok((await client.startContinuityRun({ input: { runId, ownerId: owner.ownerId, head } })).startContinuityRun, 'StartContinuityRunSuccess').run;
  }

  async function run(client: BurrowClient, runId: string) {
    const { continuityRun } = await client.continuityRun({ runId });
    if (!continuityRun) throw new Error(`no run ${runId}`);
    return continuityRun;
  }

  it('an owner whose connection is killed is found abandoned from another instance; its late commits are rejected k/k', async () => {
    const onA = await a.agentClient('inst-kill');
    const onB = await b.agentClient('inst-kill');
    const owner = await openOwner(onA);
    await start(onA, owner, 'k', '{"step":1}');
    const fence = { runId: 'k', generation: 1, ownerId: owner.ownerId };
    await onA.recordContinuityEffect({ input: { ...fence, effectId: 'charge', kind: 'payment', request: '{"amount":5}' } });

    // Alive: the lock is held on A's dedicated connection; B finds it in pg_locks.
    expect((await onB.continuityOwners({})).continuityOwners.map((o) => [o.ownerId, o.live])).toEqual([[owner.ownerId, true]]);
    expect((await onB.reconcileContinuity({})).reconcileContinuity.interrupted).toEqual([]);
    expect((await run(onB, 'k')).state).toBe('RUNNING');

    await terminateOwner(owner.ownerId);
    // The runtime learns its session is over.
    expect(await owner.next()).toMatchObject({ live: false, ended: 'LOST' });
    // Before any reconciliation, the dead owner can no longer write: the lock decides.
    const zombie = (await onA.commitContinuityRun({ input: { ...fence, head: '{"step":2}' } })).commitContinuityRun;
    expect(zombie).toMatchObject({ __typename: 'Forbidden', code: 'OWNER_NOT_LIVE' });
    expect(await run(onB, 'k')).toMatchObject({ state: 'RUNNING', head: '{"step":1}', headRevision: 0 });

    const reconciled = (await onB.reconcileContinuity({})).reconcileContinuity;
    expect(reconciled.interrupted.map((r) => [r.runId, r.state])).toEqual([['k', 'INTERRUPTED']]);
    expect(reconciled.interrupted[0].interruptionManifest).toMatchObject({
      reason: 'owner_abandoned',
      stateAtInterruption: 'RUNNING',
      ownerId: owner.ownerId,
      unconfirmedEffects: [{ effectId: 'charge', kind: 'payment', outcome: 'UNKNOWN', request: '{"amount":5}' }],
    });
    expect(reconciled.recoveryPending.map((r) => [r.runId, r.state, r.recoveryQueue])).toEqual([
      [
        'k',
        'RECOVERY_PENDING',
        [
          { kind: 'RECONCILE_EFFECT', effectId: 'charge', effectKind: 'payment', outcome: 'UNKNOWN', intendedGeneration: 1 },
          { kind: 'RESUME_TURN', headRevision: 0 },
        ],
      ],
    ]);

    // A new owner on B recovers the run at generation 2.
    const heir = await openOwner(onB);
    const claimed = ok(
      (await onB.claimContinuityRecovery({ input: { runId: 'k', ownerId: heir.ownerId, expectedGeneration: 1 } })).claimContinuityRecovery,
      'ClaimContinuityRecoverySuccess',
    ).run;
    expect([claimed.state, claimed.generation, claimed.ownerId]).toEqual(['RUNNING', 2, heir.ownerId]);
    const before = await run(onB, 'k');

    // The stale owner (it still has its id and the API) tries every write, concurrently, k times.
    const k = 24;
    const attempts = Array.from({ length: k }, (_, i) => {
      switch (i % 6) {
        case 0:
          return onA.commitContinuityRun({ input: { ...fence, head: `{"late":${i}}` } }).then((r) => r.commitContinuityRun);
        case 1:
          return onA.recordContinuityEffect({ input: { ...fence, kind: 'payment', request: '{}' } }).then((r) => r.recordContinuityEffect);
        case 2:
          return onA.recordContinuityReceipt({ input: { ...fence, effectId: 'charge', outcome: 'SUCCEEDED', receipt: '{}' } }).then((r) => r.recordContinuityReceipt);
        case 3:
          return onA.finalizeContinuityRun({ input: { ...fence, result: '{}' } }).then((r) => r.finalizeContinuityRun);
        case 4:
          return onA.completeContinuityRun({ input: fence }).then((r) => r.completeContinuityRun);
        default:
          return onA.interruptContinuityRun({ input: { ...fence, reason: 'late' } }).then((r) => r.interruptContinuityRun);
      }
    });
    const results = await Promise.all(attempts);
    expect(results.map((r) => ('code' in r ? r.code : r.__typename))).toEqual(Array(k).fill('STALE_GENERATION'));
    expect(await run(onB, 'k')).toEqual(before);
    await heir.close();
  });

  it('an instance that stops takes its owners with it; another instance recovers their runs', async () => {
    const d = await startServer({ database: a.testDatabase });
    const onD = await d.agentClient('inst-stop');
    const owner = await openOwner(onD);
    await start(onD, owner, 'st');
    const onA = await a.agentClient('inst-stop');
    expect((await onA.reconcileContinuity({})).reconcileContinuity.interrupted).toEqual([]);
    await d.stop();
    await waitUntil(
      async () => !(await onA.continuityOwners({ includeClosed: true })).continuityOwners.some((o) => o.live),
      'the owner is no longer live after its instance stopped',
    );
    const reconciled = (await onA.reconcileContinuity({})).reconcileContinuity;
    expect(reconciled.interrupted.map((r) => r.runId)).toEqual(['st']);
    expect(reconciled.recoveryPending.map((r) => r.runId)).toEqual(['st']);
  });

  it('three instances reconciling at once interrupt each abandoned run exactly once', async () => {
    const agentId = 'inst-race';
    const clients = [await a.agentClient(agentId), await b.agentClient(agentId), await c.agentClient(agentId)];
    const runIds: string[] = [];
    const owners: OwnerHandle[] = [];
    for (let o = 0; o < 4; o++) {
      const client = clients[o % 3];
      const owner = await openOwner(client);
      owners.push(owner);
      for (let r = 0; r < 4; r++) {
        const runId = `race-${o}-${r}`;
        await start(client, owner, runId);
        if (r === 3) await client.finalizeContinuityRun({ input: { runId, generation: 1, ownerId: owner.ownerId } });
        runIds.push(runId);
      }
    }
    // One owner stays alive: its runs must not be touched.
    const survivor = owners.pop()!;
    const survivorRuns = runIds.filter((id) => id.startsWith('race-3-'));
    const abandoned = runIds.filter((id) => !id.startsWith('race-3-'));
    for (const owner of owners) await terminateOwner(owner.ownerId);

    const passes = await Promise.all(clients.flatMap((client) => [client.reconcileContinuity({}), client.reconcileContinuity({})]));
    const interrupted = passes.flatMap((p) => p.reconcileContinuity.interrupted.map((r) => r.runId));
    const assessed = passes.flatMap((p) => p.reconcileContinuity.recoveryPending.map((r) => r.runId));
    expect([...interrupted].sort()).toEqual([...abandoned].sort());
    expect([...assessed].sort()).toEqual([...abandoned].sort());

    for (const runId of abandoned) {
      const current = await run(clients[0], runId);
      expect([runId, current.state]).toEqual([runId, 'RECOVERY_PENDING']);
      const tos = current.transitions.edges.map((e) => e.node).map((t) => t.to);
      expect(tos.filter((t) => t === 'INTERRUPTED')).toHaveLength(1);
      expect(tos.filter((t) => t === 'RECOVERY_PENDING')).toHaveLength(1);
      expect((current.interruptionManifest as { stateAtInterruption: string }).stateAtInterruption).toBe(runId.endsWith('-3') ? 'FINALIZING' : 'RUNNING');
    }
    for (const runId of survivorRuns) expect((await run(clients[0], runId)).state).toMatch(/^(RUNNING|FINALIZING)$/);
    await survivor.close();
  });

  it("a durable completion is never re-queued; a dead owner's late completion is refused and queued to finish", async () => {
    const agentId = 'inst-complete';
    const onA = await a.agentClient(agentId);
    const onB = await b.agentClient(agentId);
    const onC = await c.agentClient(agentId);
    const owner = await openOwner(onA);
    const runIds = Array.from({ length: 8 }, (_, i) => `fin-${i}`);
    const fence = (runId: string) => ({ runId, generation: 1, ownerId: owner.ownerId });
    for (const runId of runIds) {
      await start(onA, owner, runId);
      await onA.finalizeContinuityRun({ input: { ...fence(runId), result: '{"ok":true}' } });
    }
    // 0-3 complete while the owner lives; 4-7 are still finalizing when it dies.
    for (const runId of runIds.slice(0, 4)) ok((await onA.completeContinuityRun({ input: fence(runId) })).completeContinuityRun, 'CompleteContinuityRunSuccess');
    await terminateOwner(owner.ownerId);
    const late = runIds.slice(4).map((runId) => onA.completeContinuityRun({ input: fence(runId) }).then((r) => r.completeContinuityRun));
    const [lateResults] = await Promise.all([Promise.all(late), onB.reconcileContinuity({}), onC.reconcileContinuity({}), onA.reconcileContinuity({})]);
    // Whichever came first, a dead owner's completion is refused: its lock is gone, or the run is no longer FINALIZING.
    for (const result of lateResults) expect(['OWNER_NOT_LIVE', 'FORBIDDEN_TRANSITION']).toContain('code' in result ? result.code : result.__typename);
    await onB.reconcileContinuity({});
    for (const runId of runIds.slice(0, 4)) {
      const current = await run(onA, runId);
      expect([runId, current.state, current.transitions.edges.map((e) => e.node).map((t) => t.to), current.recoveryQueue]).toEqual([
        runId,
        'COMPLETED',
        ['RUNNING', 'FINALIZING', 'COMPLETED'],
        null,
      ]);
    }
    for (const runId of runIds.slice(4)) {
      const current = await run(onA, runId);
      expect([runId, current.state, current.transitions.edges.map((e) => e.node).map((t) => t.to)]).toEqual([
        runId,
        'RECOVERY_PENDING',
        ['RUNNING', 'FINALIZING', 'INTERRUPTED', 'RECOVERY_PENDING'],
      ]);
      expect(current.recoveryQueue).toEqual([{ kind: 'FINISH_FINALIZATION', headRevision: 0 }]);
    }
  });

  /**
   * The finalization guard serializes a completion and the reconciler's interruption of the same
   * run. To hold each side inside its transaction at the decisive moment, the test's own
   * connection locks continuity_log (EXCLUSIVE: reads go on, inserts wait): the first side then
   * waits at its transition's log insert, holding the guard, while the other side is sent and
   * seen waiting on the guard in pg_locks; then the log is released.
   */
  async function raceUnderGuard(agentId: string, runId: string, first: 'complete' | 'reconcile') {
    const onA = await a.agentClient(agentId);
    const onB = await b.agentClient(agentId);
    const owner = await openOwner(onA);
    const fence = { runId, generation: 1, ownerId: owner.ownerId };
    await start(onA, owner, runId);
    await onA.finalizeContinuityRun({ input: { ...fence, result: '{"done":true}' } });
    const blocker = new pg.Client({ connectionString: a.testDatabase.url! });
    await blocker.connect();
    const waitersOnGuard = async () =>
      Number(
        (
          await admin.query(`SELECT count(*) AS n FROM pg_locks WHERE locktype = 'advisory' AND NOT granted AND classid = 1002 AND objid = hashtext($1)::oid`, [
            `${agentId}/${runId}`,
          ])
        ).rows[0].n,
      );
    const waitersOnLog = async () =>
      Number((await admin.query(`SELECT count(*) AS n FROM pg_locks l JOIN pg_class c ON c.oid = l.relation WHERE c.relname = 'continuity_log' AND NOT l.granted`)).rows[0].n);
    try {
      await blocker.query('BEGIN');
      await blocker.query('LOCK TABLE continuity_log IN EXCLUSIVE MODE');
      let completion: Promise<{ __typename: string; code?: string }>;
      let reconciliation: Promise<{ interrupted: { runId: string }[]; failed: { runId: string }[] }>;
      if (first === 'complete') {
        // The owner is live when the completion checks it; it dies while the completion holds the guard.
        completion = onA.completeContinuityRun({ input: fence }).then((r) => r.completeContinuityRun as never);
        await waitUntil(async () => (await waitersOnLog()) === 1, 'the completion waits at its log insert, holding the guard');
        await terminateOwner(owner.ownerId);
        reconciliation = onB.reconcileContinuity({ agentId }).then((r) => r.reconcileContinuity);
        await waitUntil(async () => (await waitersOnGuard()) === 1, 'the reconciler waits on the finalization guard');
      } else {
        await terminateOwner(owner.ownerId);
        reconciliation = onB.reconcileContinuity({ agentId }).then((r) => r.reconcileContinuity);
        await waitUntil(async () => (await waitersOnLog()) === 1, 'the interruption waits at its log insert, holding the guard');
        completion = onA.completeContinuityRun({ input: fence }).then((r) => r.completeContinuityRun as never);
        await waitUntil(async () => (await waitersOnGuard()) === 1, 'the completion waits on the finalization guard');
      }
      await blocker.query('COMMIT');
      const [completed, reconciled] = await Promise.all([completion, reconciliation]);
      await onB.reconcileContinuity({ agentId });
      const current = await run(onB, runId);
      return {
        completed,
        interrupted: reconciled.interrupted.map((r) => r.runId),
        failed: reconciled.failed.map((r) => r.runId),
        state: current.state,
        transitions: current.transitions.edges.map((e) => e.node.to),
        queue: current.recoveryQueue,
      };
    } finally {
      await blocker.end();
      await owner.close();
    }
  }

  it('a completion holding the finalization guard wins: the reconciler then finds the run completed and leaves it', async () => {
    const outcome = await raceUnderGuard('inst-guard-1', 'guard-complete', 'complete');
    expect(outcome.completed.__typename).toBe('CompleteContinuityRunSuccess');
    expect(outcome).toMatchObject({ interrupted: [], failed: [], state: 'COMPLETED', transitions: ['RUNNING', 'FINALIZING', 'COMPLETED'], queue: null });
  });

  it('an interruption holding the finalization guard wins: the completion after it is refused and recovery finishes the finalization', async () => {
    const outcome = await raceUnderGuard('inst-guard-2', 'guard-reconcile', 'reconcile');
    expect(outcome.completed).toMatchObject({ __typename: 'ContinuityFenceRejected', code: 'FORBIDDEN_TRANSITION' });
    expect(outcome).toMatchObject({
      interrupted: ['guard-reconcile'],
      failed: [],
      state: 'RECOVERY_PENDING',
      transitions: ['RUNNING', 'FINALIZING', 'INTERRUPTED', 'RECOVERY_PENDING'],
    });
    expect(outcome.queue).toEqual([{ kind: 'FINISH_FINALIZATION', headRevision: 0 }]);
  });

  it('a dead owner stays dead while another connection holds its lock key (a prober in that instant, or a hashtext collision)', async () => {
    const onA = await a.agentClient('inst-probe');
    const onB = await b.agentClient('inst-probe');
    const owner = await openOwner(onA);
    await start(onA, owner, 'p', '{"step":1}');
    const fence = { runId: 'p', generation: 1, ownerId: owner.ownerId };
    await terminateOwner(owner.ownerId);
    expect(await owner.next()).toMatchObject({ live: false, ended: 'LOST' });
    // A stranger holds the owner's key, as a try-lock liveness probe does for an instant.
    const stranger = new pg.Client({ connectionString: a.testDatabase.url! });
    await stranger.connect();
    try {
      expect((await stranger.query(`SELECT pg_try_advisory_lock(1003, hashtext($1)) AS locked`, [owner.ownerId])).rows).toEqual([{ locked: true }]);
      const zombie = (await onA.commitContinuityRun({ input: { ...fence, head: '{"step":2}' } })).commitContinuityRun;
      expect(zombie).toMatchObject({ __typename: 'Forbidden', code: 'OWNER_NOT_LIVE' });
      expect((await onB.continuityOwners({})).continuityOwners.map((o) => [o.ownerId, o.live])).toEqual([]);
      expect((await onB.continuityOwners({ includeClosed: true })).continuityOwners.map((o) => [o.ownerId, o.live])).toEqual([[owner.ownerId, false]]);
      expect((await onB.reconcileContinuity({})).reconcileContinuity.interrupted.map((r) => r.runId)).toEqual(['p']);
      expect(await run(onB, 'p')).toMatchObject({ state: 'RECOVERY_PENDING', head: '{"step":1}', headRevision: 0 });
    } finally {
      await stranger.end();
    }
  });

  it('subscribers on other instances see every transition in order', async () => {
    const agentId = 'inst-sub';
    const onA = await a.agentClient(agentId);
    const onB = await b.agentClient(agentId);
    const onC = await c.agentClient(agentId);
    const watchB = collect(onB.continuityEvents({ agentId, runId: 'w', after: 0 }));
    const watchC = collect(onC.continuityEvents({ agentId, runId: 'w', after: 0 }));
    const owner = await openOwner(onA);
    await start(onA, owner, 'w');
    const fence = { runId: 'w', generation: 1, ownerId: owner.ownerId };
    await onA.commitContinuityRun({ input: { ...fence, head: '{"n":1}' } });
    await terminateOwner(owner.ownerId);
    await onC.reconcileContinuity({});
    const heir = await openOwner(onB);
    await onB.claimContinuityRecovery({ input: { runId: 'w', ownerId: heir.ownerId } });
    const fence2 = { runId: 'w', generation: 2, ownerId: heir.ownerId };
    await onB.finalizeContinuityRun({ input: fence2 });
    await onA.completeContinuityRun({ input: fence2 });
    const expected = ['RUNNING', 'INTERRUPTED', 'RECOVERY_PENDING', 'RUNNING', 'FINALIZING', 'COMPLETED'];
    const transitions = (await run(onA, 'w')).transitions.edges.map((e) => e.node);
    for (const watch of [watchB, watchC]) {
      const items = [...(await watch.waitFor(6))];
      expect(items.map((e) => (e.continuityEvents.payload as { to: string }).to)).toEqual(expected);
      expect(items.map((e) => e.continuityEvents.sequence)).toEqual(transitions.map((t) => t.sequence));
      void watch.stop();
    }
    await heir.close();
  });
});
