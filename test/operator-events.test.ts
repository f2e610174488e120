/**
 * The event log in the graph: typed event types, Agent.events (paged, batched) and the
 * operators' stream across agents (operatorEvents) with its commit-safe cursor.
 */
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it, onTestFinished } from 'vitest';
import type { OperatorEventsSubscription } from '../clients/typescript/generated/sdk.js';
import { collect, createTestDatabase, hasRealServer, NEEDS_REAL_SERVER, requestError, startServer, take, untilLive, type TestServer } from './support/harness.js';

type OperatorEvent = OperatorEventsSubscription;

let server: TestServer;
beforeAll(async () => {
  server = await startServer();
});
afterAll(async () => server?.stop());

async function newAgent(id: string, on = server) {
  const created = await on.operator.createAgent({ input: { agentId: id, name: id } });
  expect(created.createAgent.__typename).toBe('CreateAgentSuccess');
}

async function soul(agentId: string, content: string, expectedRevision: number) {
  const result = await server.operator.updateProfileDocument({ input: { agentId, kind: 'SOUL', content, expectedRevision } });
  expect(result.updateProfileDocument.__typename).toBe('UpdateProfileDocumentSuccess');
}

describe('typed events', () => {
  it('delivers each stream as its own type with typed fields, and the recorded payload', async () => {
    await newAgent('te-a');
    const client = await server.agentClient('te-a');
    await soul('te-a', 'hello', 1);
    const saved = await client.brainSave({ input: { agentId: 'te-a', title: 'Typed', content: 'body' } });
    expect(saved.brainSave.__typename).toBe('BrainSaveSuccess');
    const events = (await take(server.operator.typedAgentEvents({ agentId: 'te-a', after: 0 }), 3)).map((e) => e.agentEvents);
    expect(events.map((e) => [e.__typename, e.sequence, e.stream, e.type])).toEqual([
      ['ProfileEvent', 1, 'PROFILE', 'AGENT_CREATED'],
      ['ProfileEvent', 2, 'PROFILE', 'PROFILE_UPDATED'],
      ['BrainMemoryEvent', 3, 'BRAIN', 'BRAIN_CREATED'],
    ]);
    expect(events[0]).toMatchObject({ agentName: 'te-a', profileKind: null, revision: null });
    expect(events[1]).toMatchObject({ profileKind: 'SOUL', revision: 2, reason: 'updated' });
    expect(events[2]).toMatchObject({ title: 'Typed', revision: 1, ownership: 'AGENT', actor: { kind: 'AGENT', principalId: 'te-a' }, label: null });
    expect(events[2].payload).toMatchObject({ title: 'Typed', revision: 1 });
  });
});

describe('Agent.events', () => {
  it('pages the log in sequence order with cursors and no overlap', async () => {
    await newAgent('ae-page');
    for (let revision = 1; revision <= 6; revision++) await soul('ae-page', `v${revision}`, revision);
    const seen: number[] = [];
    let after: string | null = null;
    let pages = 0;
    for (;;) {
      const page: Awaited<ReturnType<typeof server.operator.agentEventLog>> = await server.operator.agentEventLog({ agentId: 'ae-page', first: 3, after });
      const events = page.agent!.events;
      expect(events.pageInfo.hasPreviousPage).toBe(after !== null);
      seen.push(...events.edges.map((e) => e.node.sequence));
      pages++;
      if (!events.pageInfo.hasNextPage) break;
      after = events.pageInfo.endCursor;
    }
    expect(seen).toEqual([1, 2, 3, 4, 5, 6, 7]);
    expect(pages).toBe(3);
  });

  it('refuses a page size outside 1..500', async () => {
    const error = await requestError(server.operator.agentEventLog({ agentId: 'ae-page', first: 501 }));
    expect(error.code).toBe('BAD_REQUEST');
    const ok = await server.operator.agentEventLog({ agentId: 'ae-page', first: 500 });
    expect(ok.agent!.events.edges).toHaveLength(7);
  });

  it('reads every agent of a page in a constant number of statements', async () => {
    const query = `{ agents(first: 50) { edges { node { agentId events(first: 5) { edges { node { sequence type } } } } } } }`;
    const statements = async () => {
      const before = server.database.statements.count;
      const result = await server.operator.request<{ agents: { edges: { node: { events: { edges: unknown[] } } }[] } }>(query);
      return { count: server.database.statements.count - before, agents: result.agents.edges.length };
    };
    for (let i = 0; i < 2; i++) await newAgent(`ae-n-${i}`);
    const small = await statements();
    for (let i = 2; i < 30; i++) await newAgent(`ae-n-${i}`);
    const large = await statements();
    expect(large.agents).toBeGreaterThan(small.agents);
    expect(large.count).toBe(small.count);
  });

  it('shows an agent token only its own log', async () => {
    const client = await server.agentClient('ae-own');
    const own = await client.agentEventLog({ agentId: 'ae-own' });
    expect(own.agent!.events.edges.map((e) => e.node.type)).toEqual(['AGENT_CREATED']);
    const error = await requestError(client.agentEventLog({ agentId: 'ae-page' }));
    expect(error.code).toBe('AGENT_MISMATCH');
  });
});

describe('operatorEvents', () => {
  it('is for operators only', async () => {
    const client = await server.agentClient('oe-agent');
    const error = await requestError(take(client.operatorEvents({}), 1, 3000));
    expect(error.code).toBe('FORBIDDEN');
  });

  it('answers NOT_FOUND for an unknown agent and BAD_CURSOR for a cursor it did not issue', async () => {
    expect((await requestError(take(server.operator.operatorEvents({ agentIds: ['oe-nobody'] }), 1, 3000))).code).toBe('NOT_FOUND');
    expect((await requestError(take(server.operator.operatorEvents({ after: 'not-a-cursor' }), 1, 3000))).code).toBe('BAD_CURSOR');
  });

  it('streams every agent live from now, filtered by agents and streams', async () => {
    await newAgent('oe-1');
    await newAgent('oe-2');
    await newAgent('oe-3');
    // oe-probe's Brain saves show each stream is live, and at the end that nothing else came.
    await newAgent('oe-probe');
    let probes = 0;
    const probe = async () => {
      const title = `probe ${++probes}`;
      await server.operator.brainSave({ input: { agentId: 'oe-probe', title, content: 'probe' } });
      return (e: OperatorEvent) => e.operatorEvents.agentId === 'oe-probe' && (e.operatorEvents.payload as { title: string }).title === title;
    };
    const all = collect(server.operator.operatorEvents({ agentIds: ['oe-1', 'oe-2', 'oe-probe'] }));
    const brainOnly = collect(server.operator.operatorEvents({ agentIds: ['oe-1', 'oe-2', 'oe-3', 'oe-probe'], streams: ['BRAIN'] }));
    const fromAll = await untilLive(all, probe);
    const fromBrains = await untilLive(brainOnly, probe);
    await soul('oe-1', 'a', 1);
    await soul('oe-3', 'c', 1); // not among all's agents
    await soul('oe-2', 'b', 1);
    const saved = await server.operator.brainSave({ input: { agentId: 'oe-3', title: 'Only brain', content: 'x' } });
    expect(saved.brainSave.__typename).toBe('BrainSaveSuccess');
    // The barrier: a later event both streams deliver; whatever else they deliver comes before it.
    const isBarrier = await probe();
    for (const stream of [all, brainOnly]) {
      while (!stream.items.some(isBarrier)) await stream.waitFor(stream.items.length + 1);
    }
    await all.stop();
    await brainOnly.stop();
    // The probes of brainOnly's readiness reached `all` too: `all` has them first.
    expect(
      all.items
        .slice(fromAll)
        .filter((e) => e.operatorEvents.agentId !== 'oe-probe' || isBarrier(e))
        .map((e) => [e.operatorEvents.agentId, e.operatorEvents.type]),
    ).toEqual([
      ['oe-1', 'PROFILE_UPDATED'],
      ['oe-2', 'PROFILE_UPDATED'],
      ['oe-probe', 'BRAIN_CREATED'],
    ]);
    expect(brainOnly.items.slice(fromBrains).map((e) => [e.operatorEvents.agentId, e.operatorEvents.type])).toEqual([
      ['oe-3', 'BRAIN_CREATED'],
      ['oe-probe', 'BRAIN_CREATED'],
    ]);
  });

  it('resumes exactly after the cursor of the last event received', async () => {
    await newAgent('oe-r1');
    await newAgent('oe-r2');
    // Live from now, so it must be registered before the writes: the first write is repeated
    // (as new revisions) until the stream has it; the two compared events are the next ones.
    const first = collect(server.operator.operatorEvents({ agentIds: ['oe-r1', 'oe-r2'] }));
    let r1 = 1;
    const ready = await untilLive(first, async () => {
      const revision = ++r1;
      await soul('oe-r1', 'ready', revision - 1);
      return (e) => e.operatorEvents.agentId === 'oe-r1' && e.operatorEvents.sequence === revision;
    });
    await soul('oe-r1', 'one', r1++);
    await soul('oe-r2', 'one', 1);
    const received = (await first.waitFor(ready + 2)).slice(ready);
    await first.stop();
    const r1Sequence = r1; // oe-r1's sequence after its last write (created = 1, then one per revision)
    const cursor = received[1].operatorEvents.cursor;
    // While nobody listens, more happens; the resumed stream starts exactly after the cursor.
    await soul('oe-r2', 'two', 2);
    await soul('oe-r1', 'two', r1++);
    expect(received.map((e) => [e.operatorEvents.agentId, e.operatorEvents.sequence])).toEqual([
      ['oe-r1', r1Sequence],
      ['oe-r2', 2],
    ]);
    const resumed = await take(server.operator.operatorEvents({ agentIds: ['oe-r1', 'oe-r2'], after: cursor }), 2);
    expect(resumed.map((e) => [e.operatorEvents.agentId, e.operatorEvents.sequence])).toEqual([
      ['oe-r2', 3],
      ['oe-r1', r1Sequence + 1],
    ]);
    // Resuming from the first event's cursor repeats the second, and nothing before it.
    const again = await take(server.operator.operatorEvents({ agentIds: ['oe-r1', 'oe-r2'], after: received[0].operatorEvents.cursor }), 3);
    expect(again.map((e) => [e.operatorEvents.agentId, e.operatorEvents.sequence])).toEqual([
      ['oe-r2', 2],
      ['oe-r2', 3],
      ['oe-r1', r1Sequence + 1],
    ]);
  });

  it.skipIf(!hasRealServer)(`delivers concurrent writers of many agents once each, and a resume mid-stream misses nothing (${NEEDS_REAL_SERVER})`, async () => {
    const server = await startServer({ realServer: true });
    onTestFinished(() => server.stop());
    const agents = Array.from({ length: 8 }, (_, i) => `oe-c-${i}`);
    for (const id of agents) await newAgent(id, server);
    await newAgent('oe-c-probe', server);
    let probes = 0;
    const probe = async () => {
      const title = `probe ${++probes}`;
      await server.operator.brainSave({ input: { agentId: 'oe-c-probe', title, content: 'probe' } });
      return (e: OperatorEvent) => e.operatorEvents.agentId === 'oe-c-probe' && (e.operatorEvents.payload as { title: string }).title === title;
    };
    const stream = collect(server.operator.operatorEvents({ agentIds: [...agents, 'oe-c-probe'] }));
    const ready = await untilLive(stream, probe);
    const writers = agents.map(async (id) => {
      const client = await server.client();
      for (let revision = 1; revision <= 10; revision++) {
        const result = await client.updateProfileDocument({ input: { agentId: id, kind: 'SOUL', content: `r${revision}`, expectedRevision: revision } });
        expect(result.updateProfileDocument.__typename).toBe('UpdateProfileDocumentSuccess');
      }
    });
    // Stop the first stream part-way and resume from its last cursor while the writers go on.
    await stream.waitFor(ready + 20, 20_000);
    await stream.stop();
    const firstPart = stream.items.slice(ready);
    const rest = collect(server.operator.operatorEvents({ agentIds: [...agents, 'oe-c-probe'], after: stream.items.at(-1)!.operatorEvents.cursor }));
    await Promise.all(writers);
    // The barrier: a later event; any repeat or straggler of the writers arrives before it.
    const isBarrier = await probe();
    while (!rest.items.some(isBarrier)) await rest.waitFor(rest.items.length + 1, 20_000);
    await rest.stop();
    expect(isBarrier(rest.items.at(-1)!)).toBe(true);
    rest.items.pop();
    const delivered = [...firstPart, ...rest.items].map((e) => `${e.operatorEvents.agentId}:${e.operatorEvents.sequence}`);
    expect(new Set(delivered).size).toBe(delivered.length);
    expect(delivered.sort()).toEqual(agents.flatMap((id) => Array.from({ length: 10 }, (_, i) => `${id}:${i + 2}`)).sort());
    // Per agent, in sequence order.
    for (const id of agents) {
      const sequences = [...firstPart, ...rest.items].filter((e) => e.operatorEvents.agentId === id).map((e) => e.operatorEvents.sequence);
      expect(sequences).toEqual([...sequences].sort((a, b) => a - b));
    }
  });
  it.skipIf(!hasRealServer)(`waits for a running transaction of its own database, never for one of another database (${NEEDS_REAL_SERVER})`, async () => {
    const server = await startServer({ realServer: true });
    onTestFinished(() => server.stop());
    const other = await createTestDatabase({ real: true });
    onTestFinished(() => other.drop());
    await newAgent('oe-h', server);
    let revision = 0;
    const update = async () => {
      const result = await server.operator.updateProfileDocument({ input: { agentId: 'oe-h', kind: 'SOUL', content: `r${++revision}`, expectedRevision: revision } });
      expect(result.updateProfileDocument.__typename).toBe('UpdateProfileDocumentSuccess');
      return revision + 1; // the event's sequence: AGENT_CREATED is 1
    };
    const sequences = (items: OperatorEvent[]) => items.map((e) => e.operatorEvents.sequence);
    const stream = collect(server.operator.operatorEvents({ agentIds: ['oe-h'] }));
    const ready = await untilLive(stream, async () => {
      const sequence = await update();
      return (e) => e.operatorEvents.sequence === sequence;
    });
    // Transaction ids are server-wide: one of another database, older than the write, holds nothing back.
    const elsewhere = new pg.Client({ connectionString: other.url! });
    await elsewhere.connect();
    onTestFinished(() => elsewhere.end());
    await elsewhere.query('BEGIN');
    await elsewhere.query('SELECT pg_current_xact_id()');
    const passed = await update();
    expect(sequences(await stream.waitFor(ready + 1)).slice(ready)).toEqual([passed]);
    // One of its own database could still commit an event behind the write: the write waits for it.
    const here = await server.database.pool.connect();
    await here.query('BEGIN');
    await here.query('SELECT pg_current_xact_id()');
    const held = await update();
    // Two backstop reads (one a second) and the write's own notification find nothing to deliver.
    await new Promise((resolve) => setTimeout(resolve, 2500));
    expect(sequences(stream.items).slice(ready)).toEqual([passed]);
    await here.query('COMMIT');
    here.release();
    expect(sequences(await stream.waitFor(ready + 2)).slice(ready)).toEqual([passed, held]);
    await elsewhere.query('ROLLBACK');
    await stream.stop();
  });
});
