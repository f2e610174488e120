/** Agent.counts: exact numbers, live records only, and a constant number of statements per page. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { requestError, startServer, type TestServer } from './support/harness.js';
import { append } from './support/conversations.js';

let server: TestServer;
beforeAll(async () => {
  server = await startServer();
});
afterAll(async () => server?.stop());

const ZERO_RUNS = [
  { state: 'RUNNING', count: 0 },
  { state: 'FINALIZING', count: 0 },
  { state: 'COMPLETED', count: 0 },
  { state: 'INTERRUPTED', count: 0 },
  { state: 'RECOVERY_PENDING', count: 0 },
];

describe('Agent.counts', () => {
  it('counts live memories only: a removed one is a tombstone', async () => {
    const client = await server.agentClient('cnt-a', { scope: 'p1' });
    const saved = [];
    for (let i = 0; i < 3; i++) {
      const result = await client.brainSave({ input: { title: `m${i}`, content: 'x' } });
      if (result.brainSave.__typename !== 'BrainSaveSuccess') throw new Error(JSON.stringify(result));
      saved.push(result.brainSave.memory);
    }
    const removed = await client.brainRemove({ input: { memoryId: saved[0].memoryId, expectedRevision: 1 } });
    expect(removed.brainRemove.__typename).toBe('BrainRemoveSuccess');
    const written = await client.memoryWorkingWrite({ input: { kind: 'FINDING', title: 'f', content: 'c' } });
    expect(written.memoryWorkingWrite.__typename).toBe('MemoryWorkingWriteSuccess');
    const { agent } = await server.operator.agentCounts({ agentId: 'cnt-a' });
    expect(agent!.counts).toEqual({ brains: 2, workingRecords: 1, rollingCards: 0, runsByState: ZERO_RUNS });
    // The agent's own token counts the same in its scope.
    const own = await client.agentCounts({ agentId: 'cnt-a' });
    expect(own.agent!.counts.brains).toBe(2);
    expect(own.agent!.counts.workingRecords).toBe(1);
  });

  it("refuses another agent's counts to an agent token", async () => {
    const client = await server.agentClient('cnt-b', { scope: 'p1' });
    expect((await requestError(client.agentCounts({ agentId: 'cnt-a' }))).code).toBe('AGENT_MISMATCH');
  });

  it('counts per continuity scope (working records, unexpired handoffs, live cards) and every conversation session with its originals', async () => {
    const SCOPES = '{ agent(agentId: "cnt-s") { counts { scopes { project workingRecords handoffs rollingCards } conversationSessions conversationOriginals } } }';
    const p1 = await server.agentClient('cnt-s', { scope: 'p1', session: 's1' });
    const none = await server.operator.request<any>(SCOPES);
    expect(none.agent.counts).toEqual({ scopes: [], conversationSessions: 0, conversationOriginals: 0 });
    const p2 = await server.client({ agentId: 'cnt-s', scope: 'p2', session: 's2' });
    for (const [client, title] of [
      [p1, 'a'],
      [p1, 'b'],
      [p2, 'c'],
    ] as const) {
      expect((await client.memoryWorkingWrite({ input: { kind: 'FINDING', title, content: 'c' } })).memoryWorkingWrite.__typename).toBe('MemoryWorkingWriteSuccess');
    }
    const handoff = await p2.sessionWriteHandoff({ input: { title: 'h', goal: 'g', outcome: 'o', body: 'b', ttlDays: 1 } });
    expect(handoff.sessionWriteHandoff.__typename).toBe('SessionWriteHandoffSuccess');
    for (const n of [1, 2, 3]) await append(p1, `{"n":${n}}`);
    await append(p2, '{"n":4}');
    const archived = await p2.archiveConversationSession({ input: { reason: 'done' } });
    expect(archived.archiveConversationSession.__typename).toBe('ArchiveConversationSessionSuccess');
    const counts = (await server.operator.request<any>(SCOPES)).agent.counts;
    expect(counts).toEqual({
      scopes: [
        { project: 'p1', workingRecords: 2, handoffs: 0, rollingCards: 0 },
        { project: 'p2', workingRecords: 1, handoffs: 1, rollingCards: 0 },
      ],
      conversationSessions: 2,
      conversationOriginals: 4,
    });
    // An agent token counts its runtime scope only.
    expect((await p2.request<any>(SCOPES)).agent.counts.scopes).toEqual([{ project: 'p2', workingRecords: 1, handoffs: 1, rollingCards: 0 }]);
    // Past the handoff's day it is no longer counted, and its scope keeps its working record.
    server.clock.advance(2 * 24 * 3600 * 1000);
    expect((await server.operator.request<any>(SCOPES)).agent.counts.scopes[1]).toEqual({ project: 'p2', workingRecords: 1, handoffs: 0, rollingCards: 0 });
  });

  it('costs the same statements for a page of 5 agents as for a page of 40', async () => {
    const statements = async (first: number) => {
      const before = server.database.statements.count;
      const { agents } = await server.operator.agentsOverview({ first });
      return { count: server.database.statements.count - before, agents: agents.edges.length };
    };
    for (let i = 0; i < 5; i++) await server.operator.createAgent({ input: { agentId: `cnt-n-${i}`, name: `n${i}` } });
    const small = await statements(5);
    for (let i = 5; i < 40; i++) await server.operator.createAgent({ input: { agentId: `cnt-n-${i}`, name: `n${i}` } });
    const large = await statements(40);
    expect([small.agents, large.agents]).toEqual([5, 40]);
    // The page, totalCount, and one statement per count kind, whatever the number of agents.
    expect(large.count).toBe(small.count);
    expect(large.count).toBeLessThanOrEqual(6);
  });
});
