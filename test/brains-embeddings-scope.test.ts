/**
 * With embeddings on, cosine ranking never leaves the calling agent's memories (another agent's
 * memory with the very same vector is not a hit), and the operator list stays case-insensitive
 * substring matching over title and content: a query that only an embedding would match finds
 * nothing there.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BurrowClient } from '../clients/typescript/sdk.js';
import { startEmbeddingServer, type EmbeddingServer } from './support/embedding-server.js';
import { createTestDatabase, startServer, type TestServer } from './support/harness.js';
import { providerTimeoutMs } from './support/load.js';

let provider: EmbeddingServer;
let server: TestServer;
let pets: BurrowClient;
let shelter: BurrowClient;

beforeAll(async () => {
  provider = await startEmbeddingServer();
  // On PGlite, which always has pgvector (the real servers of the test passes do not).
  server = await startServer({
    database: await createTestDatabase({ embedded: true }),
    config: { embeddings: { url: provider.url, model: 'topic-embed', apiKey: 'test-key', timeoutMs: providerTimeoutMs(), indexIntervalMs: 0 } },
  });
  pets = await server.agentClient('pets');
  shelter = await server.agentClient('shelter');
  const save = async (client: BurrowClient, title: string, content: string) => {
    const result = await client.brainSave({ input: { title, content } });
    if (result.brainSave.__typename !== 'BrainSaveSuccess') throw new Error(JSON.stringify(result));
    server.clock.advance(1000);
  };
  await save(pets, 'Whiskers', 'My kitten sleeps on the sofa all day.');
  await save(pets, 'Rex', 'The puppy barks at the mailman.');
  // The same topic (and so the same vector) as Whiskers, in another agent's memory.
  await save(shelter, 'Tabby', 'A kitten waits for adoption.');
  await save(shelter, 'Feline care', 'Feline vaccines are due in March.');
  expect(await server.app.services.brains.indexPendingEmbeddings()).toEqual({ indexed: 4, failed: 0 });
});
afterAll(async () => {
  await server?.stop();
  await provider?.close();
});

describe('embeddings stay inside the agent', () => {
  it("an agent's hybrid search ranks only its own memories, however close another agent's vector is", async () => {
    const feline = (await pets.brainSearch({ query: 'feline' })).brainSearch;
    expect(feline.retrieval.mode).toBe('HYBRID');
    expect(feline.hits.map((h) => [h.memory.agentId, h.memory.title])).toEqual([
      ['pets', 'Whiskers'],
      ['pets', 'Rex'],
    ]);
    expect(feline.hits[0].matchedBy).toEqual(['EMBEDDING']);
    // The operator asking about one agent gets that agent's memories only, too.
    const operatorView = (await server.operator.brainSearch({ agentId: 'shelter', query: 'kitten' })).brainSearch;
    expect(operatorView.hits.map((h) => [h.memory.agentId, h.memory.title])).toEqual([
      ['shelter', 'Tabby'],
      ['shelter', 'Feline care'],
    ]);
  });

  it('the operator list matches substrings of title and content only, never by embedding', async () => {
    const list = async (agentId: string, query: string) => (await server.operator.brainMemories({ agentId, query, first: 10 })).brainMemories.edges.map((e) => e.node.title);
    // "feline" is in no memory of pets: embeddings would rank Whiskers first, the list finds nothing.
    expect(await list('pets', 'feline')).toEqual([]);
    expect(await list('pets', 'KITTEN')).toEqual(['Whiskers']);
    expect(await list('shelter', 'feline')).toEqual(['Feline care']);
    expect(await list('shelter', 'itte')).toEqual(['Tabby']);
  });
});
