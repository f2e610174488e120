/**
 * Agent's nested continuity, Tiddle and conversation fields: authorized like their root fields
 * and batched, so a page of agents costs the same statements for 5 agents as for 50.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ok, openOwner } from './support/continuity.js';
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

describe('node ids of transitions and Tiddle entries', () => {
  const globalId = (type: string, key: string) => Buffer.from(`${type}:${key}`).toString('base64');

  it('node(id) reads a run transition back by agent, run and position, authorized like continuityRun', async () => {
    const own = await server.agentClient('node-ids', { scope: 'alpha', session: 's-node-ids' });
    const owner = await openOwner(own);
    try {
      ok((await own.startContinuityRun({ input: { ownerId: owner.ownerId, runId: 'node-run' } })).startContinuityRun, 'StartContinuityRunSuccess');
    } finally {
      await owner.close();
    }
    const [transition] = (await own.continuityRun({ runId: 'node-run' })).continuityRun!.transitions.edges.map((e) => e.node);
    expect(transition.id).toBe(globalId('ContinuityTransition', 'node-ids/["node-run",1]'));
    expect([transition.runId, transition.position, transition.to, transition.reason]).toEqual(['node-run', 1, 'RUNNING', 'claimed']);
    expect((await own.continuityNode({ id: transition.id })).node).toEqual({ __typename: 'ContinuityTransition', ...transition });
    expect((await server.operator.continuityNode({ id: transition.id })).node).toEqual({ __typename: 'ContinuityTransition', ...transition });
    const stranger = await server.agentClient('node-ids-other', { scope: 'alpha' });
    expect((await requestError(stranger.continuityNode({ id: transition.id }))).code).toBe('AGENT_MISMATCH');

    // Well-formed ids of no transition: another position, another run.
    for (const key of ['node-ids/["node-run",2]', 'node-ids/["no-run",1]']) expect((await own.continuityNode({ id: globalId('ContinuityTransition', key) })).node, key).toBeNull();
    // An id without its agent is BAD_REQUEST; a key that names no place in a log finds nothing, as ContinuityEffect's.
    expect((await requestError(own.continuityNode({ id: globalId('ContinuityTransition', '["node-run",1]') }))).code).toBe('BAD_REQUEST');
    for (const key of ['node-ids/["node-run",0]', 'node-ids/["node-run",1.5]', 'node-ids/["node-run","1"]', 'node-ids/["node-run",99999999999]', 'node-ids/not json']) {
      expect((await own.continuityNode({ id: globalId('ContinuityTransition', key) })).node, key).toBeNull();
    }
  });

  it('node(id) reads residue and history entries back by agent and entry id, authorized and scoped like tiddleResidue and tiddleHistory', async () => {
    const own = await server.agentClient('node-tiddle', { scope: 'alpha', session: 's-node-tiddle' });
    const appended = ok(
      (await own.tiddleAppendResidue({ input: { turnRef: 'turn-1', excerpts: [{ role: 'USER', text: 'kestrel sighting' }] } })).tiddleAppendResidue,
      'TiddleAppendResidueSuccess',
    );
    const [residue] = (await own.tiddleResidue({ agentId: 'node-tiddle', project: 'alpha' })).tiddleResidue;
    expect(residue).toEqual(appended.append.entry);
    expect(residue.id).toBe(globalId('TiddleResidue', `node-tiddle/${residue.entryId}`));
    expect((await own.tiddleNode({ id: residue.id })).node).toEqual({ __typename: 'TiddleResidue', ...residue });
    expect((await server.operator.tiddleNode({ id: residue.id })).node).toEqual({ __typename: 'TiddleResidue', ...residue });

    ok((await server.operator.tiddleRunPass({ agentId: 'node-tiddle', project: 'alpha' })).tiddleRunPass, 'TiddleRunPassSuccess');
    const [history] = (await own.tiddleHistory({ agentId: 'node-tiddle' })).tiddleHistory.edges.map((e) => e.node);
    expect(history.id).toBe(globalId('TiddleHistoryEntry', `node-tiddle/${history.entryId}`));
    expect((await own.tiddleNode({ id: history.id })).node).toEqual({ __typename: 'TiddleHistoryEntry', ...history });
    expect((await server.operator.tiddleNode({ id: history.id })).node).toEqual({ __typename: 'TiddleHistoryEntry', ...history });

    // Another agent: AGENT_MISMATCH. The same agent in another scope does not see the scope's entries, as the lists would not show them.
    const stranger = await server.agentClient('node-tiddle-other', { scope: 'alpha' });
    const elsewhere = await server.client({ agentId: 'node-tiddle', scope: 'beta' });
    for (const id of [residue.id, history.id]) {
      expect((await requestError(stranger.tiddleNode({ id }))).code).toBe('AGENT_MISMATCH');
      expect((await elsewhere.tiddleNode({ id })).node).toBeNull();
    }
    // Each type reads its own kind only; a missing entry is null; an id without its agent is BAD_REQUEST.
    for (const id of [
      globalId('TiddleHistoryEntry', `node-tiddle/${residue.entryId}`),
      globalId('TiddleResidue', `node-tiddle/${history.entryId}`),
      globalId('TiddleResidue', 'node-tiddle/no-such-entry'),
    ]) {
      expect((await own.tiddleNode({ id })).node, id).toBeNull();
    }
    expect((await requestError(own.tiddleNode({ id: globalId('TiddleResidue', residue.entryId) }))).code).toBe('BAD_REQUEST');
  });
});

describe('Agent.rollingCards', () => {
  it('gives each agent of a batched page its own cards only, paged per agent', async () => {
    const ids = ['rc-batch-a', 'rc-batch-b', 'rc-batch-c'];
    const now = server.clock.now().toISOString();
    for (const [i, agentId] of ids.entries()) {
      await server.operator.createAgent({ input: { agentId, name: agentId } });
      // What passes would have made: i + 1 live cards in scope "alpha".
      await server.database.pool.query(
        `INSERT INTO tiddle_cards (agent_id, project, card_id, title, body, card, created_at, updated_at, refreshed_at)
         SELECT $1, 'alpha', 'card-' || n, $1 || ' card ' || n, 'b', '{"evidence": []}'::jsonb, $3::timestamptz - make_interval(secs => n), $3::timestamptz - make_interval(secs => n), $3
           FROM generate_series(1, $2::int) AS n`,
        [agentId, i + 1, now],
      );
    }
    const { agents } = await server.operator.request<{
      agents: { edges: { node: { agentId: string; rollingCards: { edges: { node: { agentId: string; title: string } }[] } } }[] };
    }>(`{ agents(first: 100) { edges { node { agentId rollingCards(project: "alpha", first: 2) { edges { node { agentId title } } } } } } }`);
    const seen = Object.fromEntries(agents.edges.map((e) => [e.node.agentId, e.node.rollingCards.edges.map((c) => c.node.title)]));
    expect(ids.map((id) => seen[id])).toEqual([['rc-batch-a card 1'], ['rc-batch-b card 1', 'rc-batch-b card 2'], ['rc-batch-c card 1', 'rc-batch-c card 2']]);
    for (const edge of agents.edges) expect(edge.node.rollingCards.edges.every((c) => c.node.agentId === edge.node.agentId)).toBe(true);
  });
});
