import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hasRealServer, NEEDS_REAL_SERVER, requestError, startServer, type TestServer } from './support/harness.js';

let server: TestServer;
beforeAll(async () => {
  server = await startServer();
});
afterAll(async () => server?.stop());

const AGENTS_WITH_PROFILES = `{ agents(first: 50) { edges { node { agentId profile { kind content } } } } }`;

async function statementsFor(query: string) {
  const before = server.database.statements.count;
  const result = await server.operator.request<{ agents: { edges: { node: { profile: unknown[] } }[] } }>(query);
  return { statements: server.database.statements.count - before, result };
}

describe('no N+1', () => {
  it('lists agents with their six documents in a constant number of statements', async () => {
    for (let i = 0; i < 3; i++) await server.operator.createAgent({ input: { agentId: `n1-${i}`, name: `n${i}` } });
    const small = await statementsFor(AGENTS_WITH_PROFILES);
    expect(small.result.agents.edges).toHaveLength(3);
    for (let i = 3; i < 50; i++) await server.operator.createAgent({ input: { agentId: `n1-${i}`, name: `n${i}` } });
    const large = await statementsFor(AGENTS_WITH_PROFILES);
    expect(large.result.agents.edges).toHaveLength(50);
    expect(large.result.agents.edges.every((e) => e.node.profile.length === 6)).toBe(true);
    // The agents page and one batched profile load; the operator's token comes from the cache.
    expect(large.statements).toBe(small.statements);
    expect(large.statements).toBe(2);
  });

  it('reads one agent with its six documents in the same statements on every call', async () => {
    await server.operator.createAgent({ input: { agentId: 'n1-single', name: 'single' } });
    await server.operator.updateProfileDocument({ input: { agentId: 'n1-single', kind: 'TOOLS', content: 'a hammer', expectedRevision: 1 } });
    const read = async () => {
      const before = server.database.statements.count;
      const result = await server.operator.request<{ agent: { agentId: string; profile: { kind: string; content: string; revision: number }[] } }>(
        `query ($id: String!) { agent(agentId: $id) { agentId profile { kind content revision } } }`,
        { id: 'n1-single' },
      );
      return { statements: server.database.statements.count - before, result };
    };
    const first = await read();
    const second = await read();
    // The agent, its documents (the token is cached after the harness's first request).
    expect(first.statements).toBe(2);
    expect(second.statements).toBe(2);
    expect(second.result.agent.profile.map((d) => [d.kind, d.content, d.revision])).toEqual([
      ['SOUL', '', 1],
      ['RULES', '', 1],
      ['ORIENTATION', '', 1],
      ['PREFERENCES', '', 1],
      ['TOOLS', 'a hammer', 2],
      ['DREAM_MEMORY', '', 1],
    ]);
    const missing = await server.operator.request<{ agent: null }>(`query ($id: String!) { agent(agentId: $id) { agentId } }`, { id: 'n1-nobody' });
    expect(missing.agent).toBeNull();
  });

  it('reads the time and author of documents where a selection or fragment asks for them, and leaves them unread where none does', async () => {
    type Doc = { kind: string; revision: number; updatedAt?: string; updatedBy?: { kind: string; principalId: string } };
    const { agent } = await server.operator.request<{ agent: Record<'plain' | 'spread' | 'inline', Doc[]> }>(
      `query ($id: String!) {
        agent(agentId: $id) { plain: profile { kind revision } spread: profile { ...Doc } inline: profile { kind ... on ProfileDocument { updatedBy { kind principalId } } } }
      }
      fragment Doc on ProfileDocument { kind revision updatedAt updatedBy { kind principalId } }`,
      { id: 'n1-single' },
    );
    expect(agent.plain[4]).toEqual({ kind: 'TOOLS', revision: 2 });
    expect(agent.spread[4]).toEqual({
      kind: 'TOOLS',
      revision: 2,
      updatedAt: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
      updatedBy: { kind: 'OPERATOR', principalId: expect.any(String) },
    });
    expect(agent.inline.map((d) => d.updatedBy?.kind)).toEqual(Array(6).fill('OPERATOR'));
  });

  it('pages agents newest first with cursors and no overlap', async () => {
    const seen: string[] = [];
    let after: string | null = null;
    for (;;) {
      const page: Awaited<ReturnType<typeof server.operator.agents>> = await server.operator.agents({ first: 7, after });
      seen.push(...page.agents.edges.map((e) => e.node.agentId));
      if (!page.agents.pageInfo.hasNextPage) break;
      after = page.agents.pageInfo.endCursor;
    }
    expect(seen).toHaveLength(new Set(seen).size);
    expect(seen.length).toBeGreaterThanOrEqual(50);
  });
});

/** The same cursor with its binding kept and its position replaced. */
function tampered(cursor: string, position: unknown[]): string {
  const parsed = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
  return Buffer.from(JSON.stringify({ ...parsed, p: position })).toString('base64url');
}

describe('tampered cursors', () => {
  it('answers BAD_CURSOR for a forged position with a valid binding, on agents and brainMemories', async () => {
    const agents = await server.operator.agents({ first: 1 });
    const agentsCursor = agents.agents.pageInfo.endCursor!;
    for (const position of [['not a date', 'x'], [agents.agents.edges[0].node.agentId], [null, null], ['2026-01-01T00:00:00.000Z', 42]]) {
      expect((await requestError(server.operator.agents({ first: 1, after: tampered(agentsCursor, position) }))).code).toBe('BAD_CURSOR');
    }
    const owner = agents.agents.edges[0].node.agentId;
    for (let i = 0; i < 2; i++) await server.operator.brainSave({ input: { agentId: owner, title: `cursor ${i}`, content: 'tampering' } });
    const memories = await server.operator.brainMemories({ agentId: owner, first: 1 });
    const memoriesCursor = memories.brainMemories.pageInfo.endCursor!;
    expect((await requestError(server.operator.brainMemories({ agentId: owner, first: 1, after: tampered(memoriesCursor, ['x', 'y']) }))).code).toBe('BAD_CURSOR');
  });

  it("binds agents cursors to who lists: an operator cursor is not an agent token's", async () => {
    const agents = await server.operator.agents({ first: 1 });
    const own = await server.client({ agentId: agents.agents.edges[0].node.agentId });
    expect((await requestError(own.agents({ first: 1, after: agents.agents.pageInfo.endCursor }))).code).toBe('CURSOR_MISMATCH');
  });
});

describe.skipIf(!hasRealServer)(`lost updates (${NEEDS_REAL_SERVER})`, () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startServer({ realServer: true });
  });
  afterAll(async () => server?.stop());

  it('lets exactly one of 20 concurrent updates with the same expectedRevision win', async () => {
    await server.operator.createAgent({ input: { agentId: 'race-profile', name: 'race' } });
    await server.operator.updateProfileDocument({ input: { agentId: 'race-profile', kind: 'RULES', content: 'base', expectedRevision: 1 } });
    // Twenty clients, each its own token and HTTP connection; the server runs each on its own pooled connection.
    const clients = await Promise.all(Array.from({ length: 20 }, () => server.client()));
    const results = await Promise.all(
      clients.map((client, i) => client.updateProfileDocument({ input: { agentId: 'race-profile', kind: 'RULES', content: `writer ${i}`, expectedRevision: 2 } })),
    );
    const outcomes = results.map((r) => r.updateProfileDocument.__typename);
    expect(outcomes.filter((o) => o === 'UpdateProfileDocumentSuccess')).toHaveLength(1);
    expect(outcomes.filter((o) => o === 'RevisionConflict')).toHaveLength(19);
    const winner = results.findIndex((r) => r.updateProfileDocument.__typename === 'UpdateProfileDocumentSuccess');
    const { profileDocument } = await server.operator.profileDocument({ agentId: 'race-profile', kind: 'RULES', revisions: 100 });
    expect(profileDocument!.revision).toBe(3);
    expect(profileDocument!.content).toBe(`writer ${winner}`);
    expect(profileDocument!.revisions.edges.map((e) => e.node.revision)).toEqual([3, 2, 1]);
    for (const r of results) {
      if (r.updateProfileDocument.__typename === 'RevisionConflict') expect(r.updateProfileDocument.currentRevision).toBe(3);
    }
  });
});
