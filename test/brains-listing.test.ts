/** Brains: the operator list, the statements a write costs, and per-item bulk deletion. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BurrowClient } from '../clients/typescript/sdk.js';
import { requestError, startServer, type TestServer } from './support/harness.js';
import { saveMemory } from './support/brains.js';

let server: TestServer;

beforeAll(async () => {
  server = await startServer();
});
afterAll(async () => server?.stop());

const save = (client: BurrowClient, input: Parameters<typeof saveMemory>[2]) => saveMemory(server, client, input);

describe('the operator list', () => {
  const agent = 'lister';
  let ids: string[] = [];
  beforeAll(async () => {
    await server.agentClient(agent);
    ids = [];
    for (let i = 0; i < 7; i++) {
      const m = await save(server.operator, { agentId: agent, title: `Note ${i}`, content: i % 2 === 0 ? `The KESTREL flies ${i}` : `plain ${i} 100%_done` });
      ids.push(m.id);
    }
  });

  it('lists live memories newest first and pages with bound cursors', async () => {
    const first = await server.operator.brainMemories({ agentId: agent, first: 3 });
    expect(first.brainMemories.edges.map((e) => e.node.title)).toEqual(['Note 6', 'Note 5', 'Note 4']);
    expect(first.brainMemories.pageInfo.hasNextPage).toBe(true);
    const second = await server.operator.brainMemories({ agentId: agent, first: 3, after: first.brainMemories.pageInfo.endCursor });
    expect(second.brainMemories.edges.map((e) => e.node.title)).toEqual(['Note 3', 'Note 2', 'Note 1']);
    const third = await server.operator.brainMemories({ agentId: agent, first: 3, after: second.brainMemories.pageInfo.endCursor });
    expect(third.brainMemories.edges.map((e) => e.node.title)).toEqual(['Note 0']);
    expect(third.brainMemories.pageInfo.hasNextPage).toBe(false);
  });

  it('matches case-insensitive substrings of title or content, treating % and _ literally', async () => {
    const kestrel = await server.operator.brainMemories({ agentId: agent, query: 'kestrel' });
    expect(kestrel.brainMemories.edges.map((e) => e.node.title)).toEqual(['Note 6', 'Note 4', 'Note 2', 'Note 0']);
    // A full page straight from the newest memories (the probe path) looks the same.
    const page = await server.operator.brainMemories({ agentId: agent, query: 'kestrel', first: 2 });
    expect(page.brainMemories.edges.map((e) => [e.node.title, e.node.agentId, e.node.revision, e.node.ownership])).toEqual([
      ['Note 6', agent, 1, 'OPERATOR'],
      ['Note 4', agent, 1, 'OPERATOR'],
    ]);
    const next = await server.operator.brainMemories({ agentId: agent, query: 'kestrel', first: 2, after: page.brainMemories.pageInfo.endCursor });
    expect(next.brainMemories.edges.map((e) => e.node.title)).toEqual(['Note 2', 'Note 0']);
    const title = await server.operator.brainMemories({ agentId: agent, query: 'OTE 5' });
    expect(title.brainMemories.edges.map((e) => e.node.title)).toEqual(['Note 5']);
    const literal = await server.operator.brainMemories({ agentId: agent, query: '0%_d' });
    expect(literal.brainMemories.edges.map((e) => e.node.title)).toEqual(['Note 5', 'Note 3', 'Note 1']);
    expect((await server.operator.brainMemories({ agentId: agent, query: 'n%e' })).brainMemories.edges).toEqual([]);
    // Blank query means no filter.
    expect((await server.operator.brainMemories({ agentId: agent, query: '   ', first: 100 })).brainMemories.edges).toHaveLength(7);
  });

  it('rejects a cursor reused with another agent or query, malformed cursors and bad page sizes', async () => {
    const page = await server.operator.brainMemories({ agentId: agent, query: 'kestrel', first: 1 });
    const cursor = page.brainMemories.pageInfo.endCursor!;
    expect((await requestError(server.operator.brainMemories({ agentId: 'ada', query: 'kestrel', after: cursor }))).code).toBe('CURSOR_MISMATCH');
    expect((await requestError(server.operator.brainMemories({ agentId: agent, query: 'plain', after: cursor }))).code).toBe('CURSOR_MISMATCH');
    expect((await requestError(server.operator.brainMemories({ agentId: agent, after: cursor }))).code).toBe('CURSOR_MISMATCH');
    expect((await requestError(server.operator.brainMemories({ agentId: agent, query: 'kestrel', after: 'not a cursor!' }))).code).toBe('BAD_CURSOR');
    for (const first of [0, -1, 101, 1_000_000]) {
      expect((await requestError(server.operator.brainMemories({ agentId: agent, first }))).code).toBe('BAD_REQUEST');
    }
    expect((await server.operator.brainMemories({ agentId: agent, first: 100 })).brainMemories.edges).toHaveLength(7);
    expect((await requestError(server.operator.brainMemories({ agentId: agent, query: 'k'.repeat(501) }))).code).toBe('QUERY_TOO_LONG');
  });

  it('lists 50 memories with their revisions in a constant number of SQL statements', async () => {
    const bulk = 'bulk-lister';
    await server.agentClient(bulk);
    const measure = async () => {
      const before = server.database.statements.count;
      const { brainMemories } = await server.operator.brainMemoriesWithRevisions({ agentId: bulk, first: 50 });
      return { statements: server.database.statements.count - before, rows: brainMemories.edges };
    };
    for (let i = 0; i < 10; i++) await save(server.operator, { agentId: bulk, title: `b${i}`, content: 'x' });
    const small = await measure();
    expect(small.rows).toHaveLength(10);
    for (let i = 10; i < 60; i++) {
      const m = await save(server.operator, { agentId: bulk, title: `b${i}`, content: 'x' });
      await server.operator.brainUpdate({ input: { agentId: bulk, memoryId: m.memoryId, expectedRevision: 1, content: 'y' } });
    }
    const large = await measure();
    expect(large.rows).toHaveLength(50);
    expect(large.rows[0].node.revisions.map((r) => r.revision)).toEqual([2, 1]);
    expect(large.statements).toBe(small.statements);
    // token lookup + list + one batched revisions query
    expect(large.statements).toBeLessThanOrEqual(3);
  });
});

describe('statements per write', () => {
  it('saves a memory, its first revision and its event in the same statements whatever the size of the memory', async () => {
    const agent = 'save-statements';
    await server.agentClient(agent);
    const sequence = async () => (await server.operator.agent({ id: agent })).agent!.lastEventSequence;
    const measure = async (input: { title: string; content: string; sourceRefs: string[] }) => {
      const before = server.database.statements.count;
      const memory = await save(server.operator, { agentId: agent, ...input });
      return { statements: server.database.statements.count - before, memory };
    };
    const sequenceBefore = await sequence();
    const small = await measure({ title: 's', content: 'x', sourceRefs: [] });
    const large = await measure({ title: 'l'.repeat(240), content: 'y'.repeat(24_000), sourceRefs: Array.from({ length: 12 }, (_, i) => `conv:${i}`) });
    // One statement (the memory, its revision, its event and wake-up), no BEGIN/COMMIT; the token is cached
    expect(small.statements).toBe(1);
    expect(large.statements).toBe(small.statements);
    expect(await sequence()).toBe(sequenceBefore + 2);
    const { brainMemories } = await server.operator.brainMemoriesWithRevisions({ agentId: agent, first: 10 });
    expect(brainMemories.edges.map((e) => [e.node.id, e.node.revision, e.node.revisions.map((r) => [r.revision, r.action, r.actor.kind])])).toEqual([
      [large.memory.id, 1, [[1, 'CREATED', 'OPERATOR']]],
      [small.memory.id, 1, [[1, 'CREATED', 'OPERATOR']]],
    ]);
    const read = await server.operator.brainRead({ agentId: agent, memoryId: large.memory.memoryId });
    expect(read.brainRead?.sourceRefs).toEqual(Array.from({ length: 12 }, (_, i) => `conv:${i}`));
    expect(read.brainRead?.content).toBe('y'.repeat(24_000));
  });

  it('refuses a save for an agent that does not exist and stores nothing', async () => {
    const before = await server.database.pool.query(
      `SELECT (SELECT count(*) FROM brain_memories)::int AS m, (SELECT count(*) FROM brain_memory_revisions)::int AS r, (SELECT count(*) FROM agent_events)::int AS e`,
    );
    const result = await server.operator.brainSave({ input: { agentId: 'no-such-agent', title: 't', content: 'c' } });
    expect(result.brainSave.__typename).toBe('NotFound');
    const after = await server.database.pool.query(
      `SELECT (SELECT count(*) FROM brain_memories)::int AS m, (SELECT count(*) FROM brain_memory_revisions)::int AS r, (SELECT count(*) FROM agent_events)::int AS e`,
    );
    expect(after.rows[0]).toEqual(before.rows[0]);
  });
});

describe('per-item bulk deletion', () => {
  it('deletes each item independently and reports one result per item', async () => {
    const agent = 'bulkdel';
    const agentClient = await server.agentClient(agent);
    const a = await save(agentClient, { title: 'A', content: 'a' });
    const b = await save(agentClient, { title: 'B', content: 'b' });
    const c = await save(server.operator, { agentId: agent, title: 'C', content: 'c' });
    const d = await save(agentClient, { title: 'D', content: 'd' });
    await agentClient.brainUpdate({ input: { memoryId: b.memoryId, expectedRevision: 1, content: 'b2' } });

    // Agent token: the operator-owned one is forbidden, the stale one conflicts, the rest go.
    const byAgent = await agentClient.brainRemoveMany({
      agentId: agent,
      items: [
        { memoryId: a.memoryId, expectedRevision: 1 },
        { memoryId: b.memoryId, expectedRevision: 1 },
        { memoryId: c.memoryId, expectedRevision: 1 },
        { memoryId: 'missing', expectedRevision: 1 },
        { memoryId: d.memoryId, expectedRevision: 0 },
      ],
    });
    if (byAgent.brainRemoveMany.__typename !== 'BrainRemoveManySuccess') throw new Error(JSON.stringify(byAgent));
    expect(byAgent.brainRemoveMany.results.map((r) => [r.memoryId, r.status, r.currentRevision])).toEqual([
      [a.memoryId, 'DELETED', 2],
      [b.memoryId, 'REVISION_CONFLICT', 2],
      [c.memoryId, 'FORBIDDEN', null],
      ['missing', 'NOT_FOUND', null],
      [d.memoryId, 'INVALID', null],
    ]);
    expect((await agentClient.brainRead({ memoryId: a.memoryId })).brainRead).toBeNull();
    expect((await agentClient.brainRead({ memoryId: b.memoryId })).brainRead?.revision).toBe(2);
    expect((await agentClient.brainRead({ memoryId: d.memoryId })).brainRead?.revision).toBe(1);

    const byOperator = await server.operator.brainRemoveMany({
      agentId: agent,
      items: [
        { memoryId: c.memoryId, expectedRevision: 1 },
        { memoryId: a.memoryId, expectedRevision: 2 },
      ],
    });
    if (byOperator.brainRemoveMany.__typename !== 'BrainRemoveManySuccess') throw new Error(JSON.stringify(byOperator));
    expect(byOperator.brainRemoveMany.results.map((r) => r.status)).toEqual(['DELETED', 'NOT_FOUND']);
    // Only the selected ids were touched.
    const left = await server.operator.brainMemories({ agentId: agent });
    expect(left.brainMemories.edges.map((e) => e.node.title).sort()).toEqual(['B', 'D']);
  });

  it('rejects an empty or oversized selection', async () => {
    const empty = await server.operator.brainRemoveMany({ agentId: 'ada', items: [] });
    expect(empty.brainRemoveMany).toMatchObject({ __typename: 'ValidationFailed', field: 'items' });
    const tooMany = await server.operator.brainRemoveMany({ agentId: 'ada', items: Array.from({ length: 101 }, (_, i) => ({ memoryId: `x${i}`, expectedRevision: 1 })) });
    expect(tooMany.brainRemoveMany).toMatchObject({ __typename: 'ValidationFailed', field: 'items', limit: 100 });
  });
});

describe('the operator list: totalCount, sort and ownership filter', () => {
  const agent = 'sorter';
  const LIST = `query L($agentId: String!, $query: String, $sort: BrainMemorySort, $ownership: BrainOwnershipFilter, $first: Int, $after: String) {
    brainMemories(agentId: $agentId, query: $query, sort: $sort, ownership: $ownership, first: $first, after: $after) {
      totalCount edges { node { title ownership } } pageInfo { hasNextPage endCursor } } }`;
  type Page = { brainMemories: { totalCount: number; edges: { node: { title: string; ownership: string } }[]; pageInfo: { hasNextPage: boolean; endCursor: string | null } } };
  const list = (variables: Record<string, unknown>) => server.operator.request(LIST, { agentId: agent, ...variables }) as Promise<Page>;
  const titles = (p: Page) => p.brainMemories.edges.map((e) => e.node.title);

  beforeAll(async () => {
    const own = await server.agentClient(agent);
    // Created in this order: Cedar (operator), alder (agent), Birch (agent), Dogwood (operator); then alder is updated last.
    await save(server.operator, { agentId: agent, title: 'Cedar', content: 'tree one' });
    const alder = await save(own, { title: 'alder', content: 'tree two' });
    await save(own, { title: 'Birch', content: 'tree three' });
    await save(server.operator, { agentId: agent, title: 'Dogwood', content: 'shrub' });
    const updated = await own.brainUpdate({ input: { memoryId: alder.memoryId, expectedRevision: 1, title: 'alder', content: 'tree two, edited' } });
    expect(updated.brainUpdate.__typename).toBe('BrainUpdateSuccess');
    server.clock.advance(1000);
  });

  it('counts the whole filtered list, not the page', async () => {
    const first = await list({ first: 2 });
    expect([first.brainMemories.totalCount, titles(first)]).toEqual([4, ['Dogwood', 'Birch']]);
    const next = await list({ first: 2, after: first.brainMemories.pageInfo.endCursor });
    expect([next.brainMemories.totalCount, titles(next), next.brainMemories.pageInfo.hasNextPage]).toEqual([4, ['alder', 'Cedar'], false]);
    expect((await list({ query: 'tree', first: 1 })).brainMemories.totalCount).toBe(3);
    expect((await list({ query: 'tree', ownership: 'AGENT' })).brainMemories.totalCount).toBe(2);
    expect((await list({ query: 'nothing like it' })).brainMemories.totalCount).toBe(0);
  });

  it('sorts by last update and by title, paging without skips or repeats', async () => {
    expect(titles(await list({ sort: 'UPDATED_AT_DESC' }))).toEqual(['alder', 'Dogwood', 'Birch', 'Cedar']);
    const a = await list({ sort: 'TITLE_ASC', first: 3 });
    const b = await list({ sort: 'TITLE_ASC', first: 3, after: a.brainMemories.pageInfo.endCursor });
    // The database collation decides where lower case goes; pages follow it exactly.
    const all = titles(await list({ sort: 'TITLE_ASC' }));
    expect([...titles(a), ...titles(b)]).toEqual(all);
    expect([...all].sort()).toEqual(['Birch', 'Cedar', 'Dogwood', 'alder']);
    expect(all.filter((t) => t !== 'alder')).toEqual(['Birch', 'Cedar', 'Dogwood']);
    expect(titles(await list({ sort: 'CREATED_AT_DESC' }))).toEqual(['Dogwood', 'Birch', 'alder', 'Cedar']);
  });

  it('filters by ownership, and binds cursors to sort and filter', async () => {
    const agents = await list({ ownership: 'AGENT' });
    expect(agents.brainMemories.edges.map((e) => [e.node.title, e.node.ownership])).toEqual([
      ['Birch', 'AGENT'],
      ['alder', 'AGENT'],
    ]);
    expect(agents.brainMemories.totalCount).toBe(2);
    const operators = await list({ ownership: 'OPERATOR', sort: 'TITLE_ASC' });
    expect([titles(operators), operators.brainMemories.totalCount]).toEqual([['Cedar', 'Dogwood'], 2]);
    const page = await list({ sort: 'TITLE_ASC', first: 1 });
    expect((await requestError(list({ sort: 'UPDATED_AT_DESC', after: page.brainMemories.pageInfo.endCursor }))).code).toBe('CURSOR_MISMATCH');
    expect((await requestError(list({ sort: 'TITLE_ASC', ownership: 'AGENT', after: page.brainMemories.pageInfo.endCursor }))).code).toBe('CURSOR_MISMATCH');
    // A default-order cursor is the same as before sort existed: it continues the default list.
    const plain = await list({ first: 1 });
    expect(titles(await list({ sort: 'CREATED_AT_DESC', first: 1, after: plain.brainMemories.pageInfo.endCursor }))).toEqual(['Birch']);
  });

  it('refuses sort or ownership as of an instant, and totalCount there', async () => {
    const asOf = new Date(server.clock.now()).toISOString();
    const AS_OF = `query($a: String!, $t: DateTime!) { brainMemories(agentId: $a, asOf: $t, ownership: AGENT) { edges { cursor } } }`;
    expect((await requestError(server.operator.request(AS_OF, { a: agent, t: asOf }))).code).toBe('BAD_REQUEST');
    const COUNT = `query($a: String!, $t: DateTime!) { brainMemories(agentId: $a, asOf: $t) { totalCount } }`;
    expect((await requestError(server.operator.request(COUNT, { a: agent, t: asOf }))).code).toBe('BAD_REQUEST');
  });

  it('counts on Agent.brainMemories too', async () => {
    const r = (await server.operator.request(`{ agent(agentId: "${agent}") { brainMemories(query: "tree", first: 1) { totalCount } } }`)) as {
      agent: { brainMemories: { totalCount: number } };
    };
    expect(r.agent.brainMemories.totalCount).toBe(3);
  });
});
