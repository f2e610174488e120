/**
 * Agent's nested continuity, Tiddle and conversation fields: authorized like their root fields
 * and batched, so a page of agents costs the same statements for 5 agents as for 50.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { requestError, startServer, type TestServer } from './support/harness.js';

let server: TestServer;
beforeAll(async () => {
  server = await startServer();
});
afterAll(async () => server?.stop());

const NESTED = `{ agents(first: 50) { edges { node { agentId
  continuityRuns(first: 5) { edges { node { runId } } }
  rollingCards(project: "alpha", first: 5) { edges { node { cardId } } }
  tiddleStatus(project: "alpha") { agentId cardTtlDays }
  conversationSessions(first: 5) { edges { node { sessionId originals(first: 5) { edges { node { position payload } } } } } }
} } } }`;

type Nested = {
  agents: {
    edges: {
      node: {
        agentId: string;
        continuityRuns: { edges: unknown[] };
        rollingCards: { edges: unknown[] };
        tiddleStatus: { agentId: string; cardTtlDays: number };
        conversationSessions: { edges: { node: { sessionId: string; originals: { edges: { node: { position: number; payload: string } }[] } } }[] };
      };
    }[];
  };
};

async function seed(agentId: string) {
  await server.operator.createAgent({ input: { agentId: agentId, name: agentId } });
  const runtime = await server.client({ agentId, scope: 'alpha', session: `s-${agentId}` });
  await runtime.appendConversationEntry({ input: { payload: `{"from":"${agentId}"}`, role: 'user' } });
}

describe('Agent nested fields', () => {
  it('cost the same statements for 5 agents as for 50', async () => {
    for (let i = 0; i < 5; i++) await seed(`gc-${String(i).padStart(2, '0')}`);
    const measure = async () => {
      const before = server.database.statements.count;
      const result = await server.operator.request<Nested>(NESTED);
      return { statements: server.database.statements.count - before, result };
    };
    const small = await measure();
    expect(small.result.agents.edges).toHaveLength(5);
    for (let i = 5; i < 50; i++) await seed(`gc-${String(i).padStart(2, '0')}`);
    const large = await measure();
    expect(large.result.agents.edges).toHaveLength(50);
    for (const { node } of large.result.agents.edges) {
      expect(node.tiddleStatus).toEqual({ agentId: node.agentId, cardTtlDays: 90 });
      expect(node.conversationSessions.edges.map((e) => e.node.sessionId)).toEqual([`s-${node.agentId}`]);
      expect(node.conversationSessions.edges[0].node.originals.edges.map((e) => e.node)).toEqual([{ position: 1, payload: `{"from":"${node.agentId}"}` }]);
    }
    expect(large.statements).toBe(small.statements);
  });

  it('an agent token sees only itself, and its scope rules apply to nested fields', async () => {
    const own = await server.client({ agentId: 'gc-00', scope: 'alpha', session: 's-gc-00' });
    const result = await own.request<Nested>(NESTED);
    expect(result.agents.edges.map((e) => e.node.agentId)).toEqual(['gc-00']);
    expect(result.agents.edges[0].node.conversationSessions.edges[0].node.originals.edges.map((e) => e.node.payload)).toEqual(['{"from":"gc-00"}']);
    const otherScope = await requestError(own.request('{ agents(first: 5) { edges { node { rollingCards(project: "beta") { edges { node { cardId } } } } } } }'));
    expect(otherScope.code).toBe('continuity_scope_mismatch');
    const other = await requestError(own.request('{ agent(agentId: "gc-01") { continuityRuns { edges { node { runId } } } } }'));
    expect(other.code).toBe('AGENT_MISMATCH');
  });

  it('node(id) answers a conversation original to its own agent and AGENT_MISMATCH to another', async () => {
    const own = await server.client({ agentId: 'gc-01', scope: 'alpha', session: 's-gc-01' });
    const page = await own.conversationOriginals({ sessionId: 's-gc-01', first: 1 });
    const id = page.conversationOriginals.edges[0].node.id;
    const found = await own.request<{ node: { payload: string } }>('query($id: ID!) { node(id: $id) { ... on ConversationOriginal { payload } } }', { id });
    expect(found.node).toEqual({ payload: '{"from":"gc-01"}' });
    const stranger = await server.client({ agentId: 'gc-02', scope: 'alpha', session: 's-gc-02' });
    expect((await requestError(stranger.request('query($id: ID!) { node(id: $id) { id } }', { id }))).code).toBe('AGENT_MISMATCH');
  });
});
