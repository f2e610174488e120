/**
 * Agent's nested memory fields (brainMemories, brainSearch, workingRecords, handoffs) and the
 * Node ids of BrainMemory, WorkingRecord and SessionHandoff: batched (statements constant in the
 * number of agents) and authorized exactly as the root fields.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { requestError, startServer, type TestServer } from './support/harness.js';
import type { BurrowClient } from '../clients/typescript/sdk.js';

const SCOPE = 'graph';
const SESSION = 'graph-session';
let server: TestServer;
let operator: BurrowClient;

async function populate(agentId: string) {
  await server.operator.createAgent({ input: { agentId: agentId, name: agentId } });
  const client = await server.agentClient(agentId, { scope: SCOPE, session: SESSION });
  for (const title of ['kestrel one', 'kestrel two', 'plain three']) {
    expect((await client.brainSave({ input: { title: `${agentId} ${title}`, content: 'notes' } })).brainSave.__typename).toBe('BrainSaveSuccess');
  }
  for (const kind of ['DECISION', 'BLOCKER'] as const) {
    const written = (await client.memoryWorkingWrite({ input: { kind, title: `${agentId} ${kind}`, content: 'c' } })).memoryWorkingWrite;
    expect(written.__typename).toBe('MemoryWorkingWriteSuccess');
  }
  const handoff = (await client.sessionWriteHandoff({ input: { title: `${agentId} handoff`, goal: 'g', outcome: 'o', body: 'b' } })).sessionWriteHandoff;
  expect(handoff.__typename).toBe('SessionWriteHandoffSuccess');
  return client;
}

beforeAll(async () => {
  server = await startServer();
  operator = await server.client({ scope: SCOPE, session: SESSION });
});
afterAll(async () => server?.stop());

const OVERVIEW = `{ agents(first: 50) { edges { node { agentId
  brainMemories(first: 2) { edges { node { memoryId agentId } } pageInfo { hasNextPage } }
  brainSearch(query: "kestrel", first: 5) { agentId hits { memory { memoryId agentId } } }
  workingRecords(first: 5) { edges { node { recordId agentId kind } } }
  handoffs(first: 3) { handoffId agentId title }
} } } }`;

interface Overview {
  agents: {
    edges: {
      node: {
        agentId: string;
        brainMemories: { edges: { node: { memoryId: string; agentId: string } }[]; pageInfo: { hasNextPage: boolean } };
        brainSearch: { agentId: string; hits: { memory: { memoryId: string; agentId: string } }[] };
        workingRecords: { edges: { node: { recordId: string; agentId: string; kind: string } }[] };
        handoffs: { handoffId: string; agentId: string; title: string }[];
      };
    }[];
  };
}

async function statementsFor(client: BurrowClient, query: string) {
  const before = server.database.statements.count;
  const result = await client.request<Overview>(query);
  return { statements: server.database.statements.count - before, result };
}

function expectOwnData(node: Overview['agents']['edges'][number]['node']) {
  expect(node.brainMemories.edges).toHaveLength(2);
  expect(node.brainMemories.pageInfo.hasNextPage).toBe(true);
  expect(node.brainMemories.edges.every((e) => e.node.agentId === node.agentId)).toBe(true);
  expect(node.brainSearch.agentId).toBe(node.agentId);
  expect(node.brainSearch.hits.map((h) => h.memory.agentId)).toEqual([node.agentId, node.agentId]);
  // Written in the same instant: their order is the record ids', so compare as a set.
  expect(node.workingRecords.edges.map((e) => [e.node.agentId, e.node.kind]).sort()).toEqual([
    [node.agentId, 'BLOCKER'],
    [node.agentId, 'DECISION'],
  ]);
  expect(node.handoffs.map((h) => [h.agentId, h.title])).toEqual([[node.agentId, `${node.agentId} handoff`]]);
}

describe('Agent memory fields', () => {
  it("read every agent's memories, search hits, working records and handoffs in the same number of statements for 5 and for 50 agents", async () => {
    for (let i = 0; i < 5; i++) await populate(`g${String(i).padStart(2, '0')}`);
    await statementsFor(operator, OVERVIEW); // the token's first lookup is not what is measured
    const small = await statementsFor(operator, OVERVIEW);
    expect(small.result.agents.edges).toHaveLength(5);
    small.result.agents.edges.forEach((e) => expectOwnData(e.node));
    for (let i = 5; i < 50; i++) await populate(`g${String(i).padStart(2, '0')}`);
    const large = await statementsFor(operator, OVERVIEW);
    expect(large.result.agents.edges).toHaveLength(50);
    large.result.agents.edges.forEach((e) => expectOwnData(e.node));
    // The agents page, then one statement per nested field (the token is cached).
    expect(large.statements).toBe(small.statements);
    expect(large.statements).toBe(5);
  });

  it('an agent token sees only itself, and only its own data, through every nested field', async () => {
    const own = await server.agentClient('g03', { scope: SCOPE, session: SESSION });
    const { result } = await statementsFor(own, OVERVIEW);
    expect(result.agents.edges.map((e) => e.node.agentId)).toEqual(['g03']);
    expectOwnData(result.agents.edges[0].node);
    // Naming another agent is refused as on the root fields.
    expect((await requestError(own.request('{ agent(agentId: "g04") { brainMemories { edges { cursor } } } }'))).code).toBe('AGENT_MISMATCH');
  });

  it('scope rules apply to the nested scoped fields as to their root fields', async () => {
    const unscoped = await server.agentClient('g05');
    expect((await requestError(unscoped.request('{ agent(agentId: "g05") { workingRecords { edges { cursor } } } }'))).code).toBe('continuity_scope_required');
    expect((await requestError(unscoped.request('{ agent(agentId: "g05") { handoffs { handoffId } } }'))).code).toBe('continuity_scope_required');
    const scoped = await server.agentClient('g05', { scope: SCOPE });
    expect((await requestError(scoped.request('{ agent(agentId: "g05") { workingRecords(project: "elsewhere") { edges { cursor } } } }'))).code).toBe('continuity_scope_mismatch');
    // Brains are not scoped: the same memories with or without a scope.
    const memories = await unscoped.request<{ agent: { brainMemories: { edges: unknown[] } } }>('{ agent(agentId: "g05") { brainMemories(first: 100) { edges { cursor } } } }');
    expect(memories.agent.brainMemories.edges).toHaveLength(3);
  });

  it("pages the nested list with the root field's cursors, filters by kinds and states, and narrows handoffs to a session", async () => {
    const client = await server.agentClient('g06', { scope: SCOPE, session: SESSION });
    const all = await client.brainMemories({ agentId: 'g06', first: 3 });
    const root = await client.brainMemories({ agentId: 'g06', first: 2 });
    const nested = await client.agentBrainMemories({ agentId: 'g06', first: 2, after: root.brainMemories.pageInfo.endCursor });
    expect(nested.agent!.brainMemories.edges.map((e) => e.node.title)).toEqual([all.brainMemories.edges[2].node.title]);
    expect(nested.agent!.brainMemories.pageInfo).toMatchObject({ hasNextPage: false, hasPreviousPage: true });
    const rest = await client.brainMemories({ agentId: 'g06', first: 2, after: root.brainMemories.pageInfo.endCursor });
    expect(rest.brainMemories.edges.map((e) => e.node.memoryId)).toEqual(nested.agent!.brainMemories.edges.map((e) => e.node.memoryId));
    // Another agent's cursor is refused where it does not belong.
    expect((await requestError(server.operator.agentBrainMemories({ agentId: 'g07', after: root.brainMemories.pageInfo.endCursor }))).code).toBe('CURSOR_MISMATCH');

    const blockers = await client.agentsWorkingMemory({ first: 1, records: 10, kinds: ['BLOCKER'], states: ['ACTIVE'], handoffs: 5 });
    const node = blockers.agents.edges[0].node;
    expect(node.workingRecords!.edges.map((e) => e.node.kind)).toEqual(['BLOCKER']);
    expect((await client.agentsWorkingMemory({ first: 1, records: 10, states: ['RESOLVED'] })).agents.edges[0].node.workingRecords!.edges).toEqual([]);
    expect(node.handoffs!.map((h) => h.sessionId)).toEqual([SESSION]);
    expect((await client.agentsWorkingMemory({ first: 1, records: 10, sessionId: 'another-session' })).agents.edges[0].node.handoffs).toEqual([]);
  });
});

describe('node ids', () => {
  it("node(id) reads a memory, a working record and a handoff of the token's agent, and refuses another agent's", async () => {
    const owner = await server.agentClient('g08', { scope: SCOPE, session: SESSION });
    const stranger = await server.agentClient('g09', { scope: SCOPE, session: SESSION });
    const memory = (await owner.brainMemories({ agentId: 'g08', first: 1 })).brainMemories.edges[0].node;
    const fetched = await owner.brainMemoryNode({ id: memory.id });
    expect(fetched.node).toEqual({ __typename: 'BrainMemory', id: memory.id, memoryId: memory.memoryId, agentId: 'g08', title: memory.title, agent: { agentId: 'g08' } });
    expect((await requestError(stranger.brainMemoryNode({ id: memory.id }))).code).toBe('AGENT_MISMATCH');

    const record = (await owner.workingRecords({ first: 1 })).workingRecords.edges[0].node;
    expect((await owner.workingMemoryNode({ id: record.id })).node).toEqual({
      __typename: 'WorkingRecord',
      id: record.id,
      recordId: record.recordId,
      agentId: 'g08',
      title: record.title,
    });
    expect((await requestError(stranger.workingMemoryNode({ id: record.id }))).code).toBe('AGENT_MISMATCH');
    // Another scope does not read the record: its id names the scope, which is not the runtime's.
    const elsewhere = await server.agentClient('g08', { scope: 'other-scope' });
    expect((await requestError(elsewhere.workingMemoryNode({ id: record.id }))).code).toBe('continuity_scope_mismatch');

    const [handoff] = (await owner.sessionReadHandoff({})).sessionReadHandoff;
    expect((await owner.workingMemoryNode({ id: handoff.id })).node).toEqual({
      __typename: 'SessionHandoff',
      id: handoff.id,
      handoffId: handoff.handoffId,
      agentId: 'g08',
      title: handoff.title,
    });
    expect((await requestError(stranger.workingMemoryNode({ id: handoff.id }))).code).toBe('AGENT_MISMATCH');
  });

  it("node(id) reads a memory revision as it was written; another agent is refused; a removed memory's revisions are gone with it", async () => {
    await server.operator.createAgent({ input: { agentId: 'g-revisions', name: 'revisions' } });
    const owner = await server.agentClient('g-revisions', { scope: SCOPE, session: SESSION });
    const stranger = await server.agentClient('g09', { scope: SCOPE, session: SESSION });
    const saved = (await owner.brainSave({ input: { title: 'revision one', content: 'first words' } })).brainSave;
    if (saved.__typename !== 'BrainSaveSuccess') throw new Error(saved.__typename);
    const updated = (await owner.brainUpdate({ input: { memoryId: saved.memory.memoryId, expectedRevision: 1, content: 'second words' } })).brainUpdate;
    expect(updated.__typename).toBe('BrainUpdateSuccess');
    const REVISIONS = `query($m: String!) { brainRead(memoryId: $m) { revisions { id revision content } } }`;
    const NODE = `query($id: ID!) { node(id: $id) { __typename id ... on BrainMemoryRevision { memoryId agentId revision action content agent { agentId } } } }`;
    const { brainRead } = await owner.request<{ brainRead: { revisions: { id: string; revision: number; content: string }[] } }>(REVISIONS, { m: saved.memory.memoryId });
    expect(brainRead.revisions.map((r) => [r.revision, r.content])).toEqual([
      [2, 'second words'],
      [1, 'first words'],
    ]);
    const first = brainRead.revisions[1];
    expect(await owner.request(NODE, { id: first.id })).toEqual({
      node: {
        __typename: 'BrainMemoryRevision',
        id: first.id,
        memoryId: saved.memory.memoryId,
        agentId: 'g-revisions',
        revision: 1,
        action: 'CREATED',
        content: 'first words',
        agent: { agentId: 'g-revisions' },
      },
    });
    expect((await requestError(stranger.request(NODE, { id: first.id }))).code).toBe('AGENT_MISMATCH');
    // A revision that does not exist, and a key that is not a revision: null.
    const missing = Buffer.from(`BrainMemoryRevision:g-revisions/${JSON.stringify([saved.memory.memoryId, 9])}`).toString('base64');
    const notRevision = Buffer.from('BrainMemoryRevision:g-revisions/not-json').toString('base64');
    expect(await owner.request(NODE, { id: missing })).toEqual({ node: null });
    expect(await owner.request(NODE, { id: notRevision })).toEqual({ node: null });
    expect((await owner.brainRemove({ input: { memoryId: saved.memory.memoryId, expectedRevision: 2 } })).brainRemove.__typename).toBe('BrainRemoveSuccess');
    expect(await owner.request(NODE, { id: first.id })).toEqual({ node: null });
  });

  it('supersededBy links a working record to its successor', async () => {
    const client = await server.agentClient('g10', { scope: SCOPE, session: SESSION });
    const records = (await client.workingRecords({ first: 2 })).workingRecords.edges.map((e) => e.node);
    const [newer, older] = records;
    const superseded = (await client.supersedeWorkingRecord({ input: { recordId: older.recordId, expectedRevision: 1, supersededById: newer.recordId } })).supersedeWorkingRecord;
    expect(superseded).toMatchObject({
      record: { state: 'SUPERSEDED', supersededById: newer.recordId, supersededBy: { id: newer.id, recordId: newer.recordId, state: 'ACTIVE' } },
    });
    expect((await client.workingRecord({ recordId: newer.recordId })).workingRecord).toMatchObject({ supersededById: null, supersededBy: null });
  });
});
