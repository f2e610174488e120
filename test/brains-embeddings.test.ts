/** Brains embeddings: indexing, hybrid search on pgvector, no pgvector, and the lexical fallback when the provider fails. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BurrowClient } from '../clients/typescript/sdk.js';
import { hasRealServer, NEEDS_REAL_SERVER, REAL_SERVER_URL, createTestDatabase, startServer, type TestServer } from './support/harness.js';
import pg from 'pg';
import { startEmbeddingServer, startEmbeddingTestServer, type EmbeddingServer } from './support/embedding-server.js';
import { call, connectHttp, ok } from './support/mcp.js';
import { providerTimeoutMs } from './support/load.js';

let provider: EmbeddingServer;
let server: TestServer;
let pets: BurrowClient;
const ids: Record<string, string> = {};

beforeAll(async () => {
  provider = await startEmbeddingServer();
  server = await startEmbeddingTestServer(provider);
  pets = await server.agentClient('pets');
  const save = async (title: string, content: string) => {
    const result = await pets.brainSave({ input: { title, content } });
    if (result.brainSave.__typename !== 'BrainSaveSuccess') throw new Error(JSON.stringify(result));
    server.clock.advance(1000);
    ids[title] = result.brainSave.memory.memoryId;
  };
  await save('Whiskers', 'My kitten sleeps on the sofa all day.');
  await save('Rex', 'The puppy barks at the mailman.');
  await save('Commute', 'I drive an automobile to work.');
});
afterAll(async () => {
  await server?.stop();
  await provider?.close();
});

const status = async () => (await pets.brainEmbeddingStatus({ agentId: 'pets' })).brainEmbeddingStatus;

describe('embedding indexing', () => {
  it('saved memories are pending until the background indexer embeds them', async () => {
    expect(await status()).toMatchObject({ enabled: true, model: 'topic-embed', indexed: 0, pending: 3, failed: 0, dimensions: null });
    const pass = await server.app.services.brains.indexPendingEmbeddings();
    expect(pass).toEqual({ indexed: 3, failed: 0 });
    expect(await status()).toMatchObject({ indexed: 3, pending: 0, failed: 0, dimensions: 6 });
    expect(provider.requests.at(-1)).toMatchObject({ model: 'topic-embed', authorization: 'Bearer test-key' });
    // Nothing left to do: a second pass calls nobody.
    const calls = provider.requests.length;
    expect(await server.app.services.brains.indexPendingEmbeddings()).toEqual({ indexed: 0, failed: 0 });
    expect(provider.requests.length).toBe(calls);
  });
});

describe('hybrid search (pgvector)', () => {
  it('ranks by exact cosine similarity and says what matched each hit', async () => {
    const feline = (await pets.brainSearch({ query: 'feline' })).brainSearch;
    expect(feline.retrieval).toEqual({ mode: 'HYBRID', fallback: null, reason: null });
    expect(feline.hits[0].memory.title).toBe('Whiskers');
    expect(feline.hits[0].matchedBy).toEqual(['EMBEDDING']);
    expect(feline.hits[0].similarity).toBeGreaterThan(0.99);
    expect(feline.hits.slice(1).every((h) => (h.similarity ?? 0) < 0.1)).toBe(true);

    const puppy = (await pets.brainSearch({ query: 'puppy' })).brainSearch;
    expect(puppy.hits[0]).toMatchObject({ memory: { title: 'Rex' }, matchedBy: ['LEXICAL', 'EMBEDDING'], matchedTerms: ['puppy'] });

    const vehicle = (await pets.brainSearch({ query: 'vehicle', first: 1 })).brainSearch;
    expect(vehicle.hits.map((h) => h.memory.title)).toEqual(['Commute']);
  });

  it('re-indexes a memory after an update, and uses no stale vector meanwhile', async () => {
    const updated = await pets.brainUpdate({ input: { memoryId: ids.Whiskers, expectedRevision: 1, content: 'Now it is a canine: the dog naps.' } });
    expect(updated.brainUpdate.__typename).toBe('BrainUpdateSuccess');
    expect(await status()).toMatchObject({ indexed: 2, pending: 1 });
    // The old "cat" vector no longer describes the memory, so it is not used.
    const before = (await pets.brainSearch({ query: 'feline' })).brainSearch;
    expect(before.hits.map((h) => h.memory.title)).not.toContain('Whiskers');

    expect(await server.app.services.brains.indexPendingEmbeddings()).toEqual({ indexed: 1, failed: 0 });
    expect(await status()).toMatchObject({ indexed: 3, pending: 0 });
    const after = (await pets.brainSearch({ query: 'puppy' })).brainSearch;
    // Rex is all dog; Whiskers is now mostly dog (its title still says cat), ahead of Commute.
    expect(after.hits.map((h) => h.memory.title).slice(0, 3)).toEqual(['Rex', 'Whiskers', 'Commute']);
    expect(after.hits[1]).toMatchObject({ matchedBy: ['EMBEDDING'] });
    expect(after.hits[1].similarity).toBeGreaterThan(0.85);
  });

  it('removed memories leave embedding search', async () => {
    const temp = await pets.brainSave({ input: { title: 'Railway', content: 'The train was late.' } });
    if (temp.brainSave.__typename !== 'BrainSaveSuccess') throw new Error('save failed');
    await server.app.services.brains.indexPendingEmbeddings();
    expect((await pets.brainSearch({ query: 'railway', first: 1 })).brainSearch.hits[0].memory.title).toBe('Railway');
    await pets.brainRemove({ input: { memoryId: temp.brainSave.memory.memoryId, expectedRevision: 1 } });
    const hits = (await pets.brainSearch({ query: 'railway' })).brainSearch.hits;
    expect(hits.map((h) => h.memory.title)).not.toContain('Railway');
  });
});

/** Whether the real server can install pgvector (then the database without it cannot be had there). */
async function realServerHasVector(): Promise<boolean> {
  const client = new pg.Client({ connectionString: REAL_SERVER_URL! });
  await client.connect();
  try {
    return (await client.query("SELECT 1 FROM pg_available_extensions WHERE name = 'vector'")).rowCount === 1;
  } finally {
    await client.end();
  }
}

describe.skipIf(!hasRealServer)(`without pgvector (${NEEDS_REAL_SERVER})`, () => {
  it('stays lexical and says why, while still indexing', async (ctx) => {
    if (await realServerHasVector()) ctx.skip('the real server offers the vector extension: a database without it needs a server without pgvector');
    const plain = await startServer({
      realServer: true,
      config: { embeddings: { url: provider.url, model: 'topic-embed', apiKey: 'test-key', timeoutMs: providerTimeoutMs(), indexIntervalMs: 0 } },
    });
    try {
      expect(plain.database.capabilities.vector).toBe(false);
      const dogs = await plain.agentClient('pets');
      for (const [title, content] of [
        ['Whiskers', 'My kitten sleeps on the sofa all day.'],
        ['Rex', 'The puppy barks at the mailman.'],
        ['Commute', 'I drive an automobile to work.'],
      ]) {
        expect((await dogs.brainSave({ input: { title, content } })).brainSave.__typename).toBe('BrainSaveSuccess');
        plain.clock.advance(1000);
      }
      expect(await plain.app.services.brains.indexPendingEmbeddings()).toEqual({ indexed: 3, failed: 0 });
      const result = (await dogs.brainSearch({ query: 'puppy' })).brainSearch;
      expect(result.retrieval.mode).toBe('LEXICAL');
      expect(result.retrieval.fallback).toBe('VECTOR_UNAVAILABLE');
      expect(result.retrieval.reason).toMatch(/vector extension/);
      expect(result.hits.map((h) => [h.memory.title, h.matchedBy])).toEqual([['Rex', ['LEXICAL']]]);
      const s = (await dogs.brainEmbeddingStatus({ agentId: 'pets' })).brainEmbeddingStatus;
      expect(s).toMatchObject({ enabled: true, vectorSearch: false, indexed: 3 });
      expect(s.reason).toMatch(/vector extension is not installed/);
    } finally {
      await plain.stop();
    }
  });
});

describe('provider trouble falls back to lexical results, never an error', () => {
  it('on provider failure', async () => {
    provider.mode = 'fail';
    try {
      const result = (await pets.brainSearch({ query: 'puppy' })).brainSearch;
      expect(result.retrieval).toMatchObject({ mode: 'LEXICAL', fallback: 'EMBEDDING_UNAVAILABLE' });
      expect(result.retrieval.reason).toMatch(/HTTP 500/);
      // The MCP tool result carries the seed's wire value: retrieval.fallback: embedding_unavailable.
      const { token } = await server.app.services.tokens.create({ kind: 'agent', agentId: 'pets', name: 'mcp-fallback' });
      const mcp = await connectHttp(server.url, token);
      try {
        const tool = ok(await call(mcp, 'brain_search', { query: 'puppy' }));
        expect(tool.retrieval).toMatchObject({ mode: 'lexical', fallback: 'embedding_unavailable' });
        expect(tool.hits[0].memory).toMatchObject({ title: 'Rex', memoryId: ids.Rex });
      } finally {
        await mcp.close();
      }
      expect(result.hits[0]).toMatchObject({ memory: { title: 'Rex' }, matchedBy: ['LEXICAL'], similarity: null });

      // The indexer records the failure and retries it once the provider is back.
      const m = await pets.brainSave({ input: { title: 'Soup', content: 'A recipe for soup.' } });
      expect(m.brainSave.__typename).toBe('BrainSaveSuccess');
      expect(await server.app.services.brains.indexPendingEmbeddings()).toEqual({ indexed: 0, failed: 1 });
      const failed = await status();
      expect(failed).toMatchObject({ failed: 1, pending: 0 });
      expect(failed.lastError).toMatch(/HTTP 500/);
    } finally {
      provider.mode = 'ok';
    }
    // The first retry comes 30 s after the failure.
    server.clock.advance(30_000);
    expect(await server.app.services.brains.indexPendingEmbeddings()).toEqual({ indexed: 1, failed: 0 });
    expect(await status()).toMatchObject({ failed: 0, pending: 0 });
  });

  it('on provider timeout', async () => {
    // Its own server with a short deadline (the shared one's is long, so that a busy machine never
    // times out a test that is not about it); the provider does not answer at all.
    const hasty = await startEmbeddingTestServer(provider, 300);
    try {
      const client = await hasty.agentClient('hasty');
      expect((await client.brainSave({ input: { title: 'Rex', content: 'The puppy barks at the mailman.' } })).brainSave.__typename).toBe('BrainSaveSuccess');
      provider.mode = 'slow';
      const result = (await client.brainSearch({ query: 'puppy' })).brainSearch;
      expect(result.retrieval).toMatchObject({ mode: 'LEXICAL', fallback: 'EMBEDDING_UNAVAILABLE' });
      expect(result.retrieval.reason).toMatch(/did not answer within 300 ms/);
      expect(result.hits[0].memory.title).toBe('Rex');
    } finally {
      provider.mode = 'ok';
      await hasty.stop();
    }
  });

  it('on an unreachable provider', async () => {
    const lonely = await startServer({
      database: await createTestDatabase({ embedded: true }),
      config: { embeddings: { url: 'http://127.0.0.1:9/v1', model: 'topic-embed', apiKey: null, timeoutMs: 300, indexIntervalMs: 0 } },
    });
    try {
      const client = await lonely.agentClient('lonely');
      await client.brainSave({ input: { title: 'Kitten', content: 'A kitten note' } });
      const result = (await client.brainSearch({ query: 'kitten' })).brainSearch;
      expect(result.retrieval).toMatchObject({ mode: 'LEXICAL', fallback: 'EMBEDDING_UNAVAILABLE' });
      expect(result.hits.map((h) => h.memory.title)).toEqual(['Kitten']);
    } finally {
      await lonely.stop();
    }
  });
});
