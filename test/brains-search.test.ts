/** Brains: lexical search, ranked exactly, and the embedding status without a provider. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BurrowClient } from '../clients/typescript/sdk.js';
import { requestError, startServer, type TestServer } from './support/harness.js';
import { saveMemory } from './support/brains.js';

let server: TestServer;
let ada: BurrowClient;

beforeAll(async () => {
  server = await startServer();
  ada = await server.agentClient('ada');
});
afterAll(async () => server?.stop());

const save = (client: BurrowClient, input: Parameters<typeof saveMemory>[2]) => saveMemory(server, client, input);

describe('lexical search', () => {
  it('finds memories by words of the query and says what matched', async () => {
    const agent = 'searcher';
    const client = await server.agentClient(agent);
    await save(client, { title: 'Coffee order', content: 'Oat milk flat white, no sugar.' });
    await save(client, { title: 'Tea', content: 'Earl grey with MILK.' });
    await save(client, { title: 'Unrelated', content: 'Bicycle maintenance.' });
    const result = (await client.brainSearch({ query: 'milk coffee' })).brainSearch;
    expect(result.retrieval).toEqual({ mode: 'LEXICAL', fallback: null, reason: null });
    expect(result.hits.map((h) => [h.memory.title, h.matchedBy, h.matchedTerms])).toEqual([
      ['Coffee order', ['LEXICAL'], ['milk', 'coffee']],
      ['Tea', ['LEXICAL'], ['milk']],
    ]);
    expect((await client.brainSearch({ query: 'milk', first: 1 })).brainSearch.hits).toHaveLength(1);
    // Operators search an agent's memories by naming it.
    expect((await server.operator.brainSearch({ query: 'bicycle', agentId: agent })).brainSearch.hits.map((h) => h.memory.title)).toEqual(['Unrelated']);
  });

  it('rejects empty and too-short queries and bad limits with typed errors', async () => {
    expect((await requestError(ada.brainSearch({ query: '  ' }))).code).toBe('QUERY_REQUIRED');
    expect((await requestError(ada.brainSearch({ query: 'ab c' }))).code).toBe('QUERY_TOO_SHORT');
    expect((await requestError(ada.brainSearch({ query: 'x'.repeat(501) }))).code).toBe('QUERY_TOO_LONG');
    expect((await requestError(ada.brainSearch({ query: 'tabs\u0000' }))).code).toBe('VALIDATION_FAILED');
    expect((await requestError(server.operator.brainMemories({ agentId: 'ada', query: 'tabs\u0000' }))).code).toBe('VALIDATION_FAILED');
    // LIKE wildcards are literal: a query of only wildcards matches nothing rather than everything.
    expect((await ada.brainSearch({ query: '%%%' })).brainSearch.hits).toEqual([]);
    for (const first of [0, -5, 51]) expect((await requestError(ada.brainSearch({ query: 'tabs', first }))).code).toBe('BAD_REQUEST');
  });

  it('ranks exactly by score, then updatedAt newest first, then id, however many memories match', async () => {
    // More memories than brainSearch's probe of the 500 most recently updated, with a common
    // word in every other one: better-scoring memories far older than the probe, and equal
    // timestamps straddling the probe's last row, must rank exactly as if every match were scored.
    const agent = 'ranker';
    await server.agentClient(agent);
    const memories = Array.from({ length: 1_200 }, (_, i) => {
      const n = i + 1;
      let title = `Entry ${n}`;
      let content = n % 2 === 0 ? `seen a kestrel today (${n})` : `nothing here (${n})`;
      if (n === 3) title = 'Kestrel sighting'; // title only, very old: score 2
      if (n === 5) content = 'a kestrel over the garden'; // both words apart: 2 for "kestrel garden"
      if (n === 7) [title, content] = ['KESTREL', 'kestrel again']; // title and content: 3
      if (n === 9) content = 'the kestrel garden at dusk'; // the phrase: 1 + 1 + 3
      // Whole seconds, three memories per second, so ties on updatedAt are everywhere.
      return { id: `m${String(n).padStart(5, '0')}`, title, content, updatedAt: new Date(Date.UTC(2026, 0, 1) + Math.floor(n / 3) * 1000) };
    });
    await server.database.pool.query(
      `INSERT INTO brain_memories (agent_id, id, title, content, revision, ownership, created_by_kind, created_by_id, updated_by_kind, updated_by_id, created_at, updated_at)
       SELECT $1, m.id, m.title, m.content, 1, 'AGENT', 'AGENT', $1, 'AGENT', $1, m.at, m.at
       FROM unnest($2::text[], $3::text[], $4::text[], $5::timestamptz[]) AS m(id, title, content, at)`,
      [agent, memories.map((m) => m.id), memories.map((m) => m.title), memories.map((m) => m.content), memories.map((m) => m.updatedAt.toISOString())],
    );
    const expected = (query: string, first: number) => {
      const terms = [...new Set(query.split(/\s+/).map((w) => w.toLowerCase()))];
      return memories
        .map((m) => {
          const [title, content] = [m.title.toLowerCase(), m.content.toLowerCase()];
          let score = terms.reduce((sum, t) => sum + (title.includes(t) ? 2 : 0) + (content.includes(t) ? 1 : 0), 0);
          if (terms.length > 1 && (title.includes(query) || content.includes(query))) score += 3;
          return { ...m, score };
        })
        .filter((m) => m.score > 0)
        .sort((a, b) => b.score - a.score || b.updatedAt.getTime() - a.updatedAt.getTime() || (a.id < b.id ? -1 : 1))
        .slice(0, first)
        .map((m) => [m.id, m.score]);
    };
    const client = await server.client({ agentId: agent });
    for (const [query, limit] of [
      ['kestrel', 10],
      ['kestrel', 50],
      ['kestrel garden', 10],
      ['garden kestrel', 5],
      ['nothing', 3],
      ['sighting', 10],
      ['entry', 10],
    ] as const) {
      const hits = (await client.brainSearch({ query, first: limit })).brainSearch.hits;
      expect(
        hits.map((h) => [h.memory.memoryId, h.lexicalScore]),
        `${query}, first ${limit}`,
      ).toEqual(expected(query, limit));
      // Agent.brainSearch ranks every agent's matches in one statement: exactly the same order.
      const nested = await client.request<{ agent: { brainSearch: { hits: { lexicalScore: number; memory: { memoryId: string } }[] } } }>(
        'query ($agentId: String!, $query: String!, $first: Int) { agent(agentId: $agentId) { brainSearch(query: $query, first: $first) { hits { lexicalScore memory { memoryId } } } } }',
        { agentId: agent, query, first: limit },
      );
      expect(
        nested.agent.brainSearch.hits.map((h) => [h.memory.memoryId, h.lexicalScore]),
        `nested ${query}`,
      ).toEqual(expected(query, limit));
    }
    const top = (await client.brainSearch({ query: 'kestrel', first: 4 })).brainSearch.hits.map((h) => [h.memory.title, h.lexicalScore]);
    expect(top).toEqual([
      ['KESTREL', 3],
      ['Kestrel sighting', 2],
      ['Entry 1200', 1],
      ['Entry 1198', 1],
    ]);
    // The probe, its last row and the older memories that beat it are one statement, whatever
    // the floor: older rows above it (kestrel), every older match (sighting), none (an agent
    // with fewer memories than the probe).
    await ada.brainSearch({ query: 'tabs' }); // its token's first lookup is not what is measured
    for (const [searcher, query] of [
      [client, 'kestrel'],
      [client, 'kestrel garden'],
      [client, 'sighting'],
      [ada, 'tabs'],
    ] as const) {
      const before = server.database.statements.count;
      await searcher.brainSearch({ query, first: 10 });
      expect(server.database.statements.count - before, query).toBe(1);
    }
  });

  it('reports embeddings as disabled by default', async () => {
    const status = (await ada.brainEmbeddingStatus({ agentId: 'ada' })).brainEmbeddingStatus;
    expect(status).toMatchObject({ enabled: false, model: null, vectorSearch: false, indexed: 0, pending: 0, failed: 0 });
    expect(status.reason).toMatch(/BURROW_EMBEDDINGS_URL/);
  });
});
