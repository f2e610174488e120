/**
 * A committed mutation always says so. A nested read that needs a continuity scope (Agent.handoffs,
 * Agent.workingRecords, Agent.rollingCards, AgentCounts.workingRecords / rollingCards) is nullable:
 * asked without a scope it is null with its own error beside the data, and the payload stays.
 * Before, `createAgent { … agent { handoffs { … } } }` answered `data: null` although the agent was
 * created.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type TestServer } from './support/harness.js';
import { bearer, postJson } from './support/wire.js';

let server: TestServer;
let operatorToken: string;
let agentToken: string;
beforeAll(async () => {
  server = await startServer();
  operatorToken = (await server.app.services.tokens.create({ kind: 'operator', name: 'nested-op' })).token;
  await server.operator.createAgent({ input: { agentId: 'nested-reader', name: 'reader' } });
  agentToken = (await server.app.services.tokens.create({ kind: 'agent', name: 'nested-agent', agentId: 'nested-reader' })).token;
});
afterAll(async () => server?.stop());

const SCOPED = 'handoffs { sessionId } workingRecords(first: 5) { edges { node { recordId } } } rollingCards(first: 5) { edges { node { cardId } } }';

describe('nested reads that need a continuity scope', () => {
  it('createAgent without a scope: the payload and the created agent are there; each scoped field is null with its own error', async () => {
    const answer = await postJson(
      server.url,
      { query: `mutation { createAgent(input: { agentId: "nested-made", name: "made" }) { __typename ... on CreateAgentSuccess { agent { agentId name ${SCOPED} } } } }` },
      bearer(operatorToken),
    );
    expect(answer.status).toBe(200);
    expect(answer.body!.data).toEqual({
      createAgent: { __typename: 'CreateAgentSuccess', agent: { agentId: 'nested-made', name: 'made', handoffs: null, workingRecords: null, rollingCards: null } },
    });
    const errors = (answer.body!.errors ?? []) as { path?: string[]; extensions?: { code?: string } }[];
    expect(errors.map((e) => [e.path?.join('.'), e.extensions?.code]).sort()).toEqual([
      ['createAgent.agent.handoffs', 'continuity_scope_required'],
      ['createAgent.agent.rollingCards', 'BAD_REQUEST'],
      ['createAgent.agent.workingRecords', 'continuity_scope_required'],
    ]);
    // It committed: the agent exists.
    expect((await server.operator.agent({ id: 'nested-made' })).agent?.name).toBe('made');
  });

  it('with the scope the same selection answers every field', async () => {
    const answer = await postJson(
      server.url,
      { query: `mutation { createAgent(input: { agentId: "nested-scoped", name: "scoped" }) { ... on CreateAgentSuccess { agent { agentId ${SCOPED} } } } }` },
      { ...bearer(operatorToken), 'burrow-continuity-scope': 'proj' },
    );
    expect(answer.body!.errors).toBeUndefined();
    expect(answer.body!.data).toEqual({ createAgent: { agent: { agentId: 'nested-scoped', handoffs: [], workingRecords: { edges: [] }, rollingCards: { edges: [] } } } });
  });

  it("an agent token without a scope: its counts' scoped numbers are null beside the others, and the agent is still read", async () => {
    const answer = await postJson(
      server.url,
      { query: '{ agent(agentId: "nested-reader") { agentId counts { brains workingRecords rollingCards } handoffs { sessionId } } }' },
      bearer(agentToken),
    );
    expect(answer.body!.data).toEqual({ agent: { agentId: 'nested-reader', counts: { brains: 0, workingRecords: null, rollingCards: null }, handoffs: null } });
    const errors = (answer.body!.errors ?? []) as { path?: string[]; extensions?: { code?: string } }[];
    expect(errors.map((e) => [e.path?.join('.'), e.extensions?.code]).sort()).toEqual([
      ['agent.counts.rollingCards', 'continuity_scope_required'],
      ['agent.counts.workingRecords', 'continuity_scope_required'],
      ['agent.handoffs', 'continuity_scope_required'],
    ]);
  });
});
