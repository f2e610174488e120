/**
 * Continuity documents and reads: lossless JSON text, the size limits, run listing with cursors,
 * runs as nodes, and batched nested lists.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type TestServer } from './support/harness.js';
import { abandonOwner, fetchRun, ownedAgent, startRun } from './support/continuity.js';

let server: TestServer;
beforeAll(async () => {
  server = await startServer();
});
afterAll(async () => server?.stop());

describe('documents and limits', () => {
  it('stores heads, requests and receipts losslessly as json text', async () => {
    const { client, owner } = await ownedAgent(server, 'cont-lossless');
    const head = '{"b":1, "a":2, "a":3, "big":12345678901234567890123, "f":1.000, "s":"\\u00e9"}';
    const started = await startRun(client, owner, 'l', head);
    expect(started.head).toBe(head);
    expect((await fetchRun(client, 'l')).head).toBe(head);
  });

  it('keeps a NUL escape (which PostgreSQL json cannot turn into text) through interruption and assessment', async () => {
    const { client, owner } = await ownedAgent(server, 'cont-escape');
    const text = '{"note":"a\\u0000b"}';
    await startRun(client, owner, 'esc', text);
    await client.recordContinuityEffect({ input: { runId: 'esc', generation: 1, ownerId: owner.ownerId, effectId: 'x', kind: 'k', request: text } });
    await client.finalizeContinuityRun({ input: { runId: 'esc', generation: 1, ownerId: owner.ownerId, result: text } });
    await abandonOwner(client, 'cont-escape', owner);
    const reconciled = (await client.reconcileContinuity({ agentId: 'cont-escape' })).reconcileContinuity;
    expect(reconciled.failed).toEqual([]);
    const current = await fetchRun(client, 'esc');
    expect([current.state, current.head, current.finalResult, current.effects.edges[0].node.request]).toEqual(['RECOVERY_PENDING', text, text, text]);
    expect(current.recoveryQueue).toEqual([
      { kind: 'RECONCILE_EFFECT', effectId: 'x', effectKind: 'k', outcome: 'UNKNOWN', intendedGeneration: 1 },
      { kind: 'FINISH_FINALIZATION', headRevision: 0 },
    ]);
  });

  it('enforces the head limit at the boundary and one past it, and rejects non-JSON', async () => {
    const { client, owner } = await ownedAgent(server, 'cont-limits');
    const atLimit = `"${'é'.repeat(262_142)}"`;
    expect(atLimit.length).toBe(262_144);
    const started = await startRun(client, owner, 'big', atLimit);
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
    const unchanged = await fetchRun(client, 'big');
    expect([unchanged.headRevision, unchanged.effectCount, unchanged.state]).toEqual([0, 0, 'RUNNING']);
    await owner.close();
  });

  it('lists runs newest first with bound cursors and a state filter', async () => {
    const { client, owner } = await ownedAgent(server, 'cont-list');
    for (const id of ['a', 'b', 'c']) {
      await startRun(client, owner, id);
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
describe('node', () => {
  it('a run is a node its own agent can fetch by global id, and only its agent', async () => {
    const { client, owner } = await ownedAgent(server, 'cont-node');
    const started = await startRun(client, owner, 'nd');
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
    const { client, owner } = await ownedAgent(server, 'cont-batch');
    for (let i = 0; i < 6; i++) {
      await startRun(client, owner, `b${i}`);
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
