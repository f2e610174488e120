/**
 * The operator list (`brainMemories`, `Agent.brainMemories`) finds short terms: a 1–2 character
 * query is a case-insensitive substring over title and content like any other (no
 * QUERY_TOO_SHORT), within the one agent's live memories, paged with bound cursors.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { requestError, startServer, type TestServer } from './support/harness.js';

let server: TestServer;
const AGENT = 'short-terms';
const titles: Record<string, string> = {};

beforeAll(async () => {
  server = await startServer();
  await server.operator.createAgent({ input: { agentId: AGENT, name: AGENT } });
  await server.operator.createAgent({ input: { agentId: `${AGENT}-other`, name: 'other' } });
  // Oldest first; the list is newest first.
  for (const [title, content] of [
    ['CI pipeline', 'runs on every push'],
    ['Modules', 'we write go here'],
    ['Unrelated', 'nothing to see'],
    ['Release notes', 'tagged by the Ci bot'],
  ]) {
    server.clock.advance(1_000);
    const saved = await server.operator.brainSave({ input: { agentId: AGENT, title, content } });
    if (saved.brainSave.__typename !== 'BrainSaveSuccess') throw new Error(JSON.stringify(saved));
    titles[title] = saved.brainSave.memory.memoryId;
  }
  // Another agent's memory that matches: never in this agent's list.
  await server.operator.brainSave({ input: { agentId: `${AGENT}-other`, title: 'CI elsewhere', content: 'Go elsewhere' } });
});
afterAll(async () => server?.stop());

const list = async (query: string, first = 20, after: string | null = null) => (await server.operator.brainMemories({ agentId: AGENT, query, first, after })).brainMemories;
const listed = async (query: string) => (await list(query)).edges.map((e) => e.node.title);

describe('short terms in the operator list', () => {
  it('matches 1-2 characters case-insensitively in title or content, newest first, within the agent', async () => {
    expect(await listed('CI')).toEqual(['Release notes', 'CI pipeline']);
    expect(await listed('ci')).toEqual(['Release notes', 'CI pipeline']);
    expect(await listed('Go')).toEqual(['Modules']);
    expect(await listed('GO')).toEqual(['Modules']);
    expect(await listed('q')).toEqual([]);
    expect(await listed('x')).toEqual([]);
    expect(await listed(' go ')).toEqual(['Modules']);
  });

  it('pages a short term with cursors bound to it', async () => {
    // 'e' is in every memory of the agent.
    const seen: string[] = [];
    let after: string | null = null;
    for (let page = 0; page < 5; page++) {
      const connection: Awaited<ReturnType<typeof list>> = await list('e', 1, after);
      seen.push(...connection.edges.map((e) => e.node.title));
      if (!connection.pageInfo.hasNextPage) break;
      after = connection.pageInfo.endCursor;
    }
    expect(seen).toEqual(['Release notes', 'Unrelated', 'Modules', 'CI pipeline']);
    const first = await list('e', 1);
    expect((await requestError(list('ci', 1, first.pageInfo.endCursor))).code).toBe('CURSOR_MISMATCH');
  });

  it('answers the same on Agent.brainMemories', async () => {
    const { agent } = await server.operator.request<{ agent: { brainMemories: { edges: { node: { memoryId: string } }[] } } }>(
      'query ($id: String!) { agent(agentId: $id) { brainMemories(query: "ci") { edges { node { memoryId } } } } }',
      { id: AGENT },
    );
    expect(agent.brainMemories.edges.map((e) => e.node.memoryId)).toEqual([titles['Release notes'], titles['CI pipeline']]);
  });
});
