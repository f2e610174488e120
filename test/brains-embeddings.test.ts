import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BurrowClient } from '../clients/typescript/sdk.js';
import { createTestDatabase, hasRealServer, NEEDS_REAL_SERVER, REAL_SERVER_URL, startServer, type TestServer } from './support/harness.js';
import pg from 'pg';
import { startEmbeddingServer, type EmbeddingServer } from './support/embedding-server.js';
import { call, connectHttp, ok } from './support/mcp.js';

let provider: EmbeddingServer;
let server: TestServer;
let pets: BurrowClient;
const ids: Record<string, string> = {};

beforeAll(async () => {
  provider = await startEmbeddingServer(3_000);
  // Always on PGlite, which always has pgvector: the real servers of the test passes do not.
  server = await startServer({
    database: await createTestDatabase({ embedded: true }),
    config: { embeddings: { url: provider.url, model: 'topic-embed', apiKey: 'test-key', timeoutMs: 300, indexIntervalMs: 0 } },
  });
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
      config: { embeddings: { url: provider.url, model: 'topic-embed', apiKey: 'test-key', timeoutMs: 300, indexIntervalMs: 0 } },
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
    provider.mode = 'slow';
    try {
      const result = (await pets.brainSearch({ query: 'puppy' })).brainSearch;
      expect(result.retrieval).toMatchObject({ mode: 'LEXICAL', fallback: 'EMBEDDING_UNAVAILABLE' });
      expect(result.retrieval.reason).toMatch(/did not answer within 300 ms/);
      expect(result.hits[0].memory.title).toBe('Rex');
    } finally {
      provider.mode = 'ok';
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

describe('an outage longer than a few retries loses no memory (issue 11)', () => {
  let outage: BurrowClient;
  const outageStatus = async () => (await outage.brainEmbeddingStatus({ agentId: 'outage' })).brainEmbeddingStatus;
  const pass = () => server.app.services.brains.indexPendingEmbeddings({ agentId: 'outage' });
  const saveOutage = async (title: string, content: string) => {
    const saved = await outage.brainSave({ input: { title, content } });
    if (saved.brainSave.__typename !== 'BrainSaveSuccess') throw new Error(JSON.stringify(saved));
    return saved.brainSave.memory.id;
  };
  beforeAll(async () => {
    outage = await server.agentClient('outage');
  });

  it('keeps retrying with a capped backoff, and indexes the memory once the provider answers', async () => {
    await saveOutage('Blackout', 'Saved while the provider was down.');
    provider.mode = 'fail';
    try {
      let calls = provider.requests.length;
      expect(await pass()).toEqual({ indexed: 0, failed: 1 });
      expect(provider.requests.length).toBe(++calls);
      const failedAt = server.clock.now().getTime();
      const first = await outageStatus();
      expect(first).toMatchObject({ indexed: 0, pending: 0, failed: 1, backlog: 1, nextRetryAt: new Date(failedAt + 30_000).toISOString() });
      expect(first.lastError).toMatch(/HTTP 500/);

      // Not before its time: a pass one millisecond early calls nobody.
      server.clock.advance(29_999);
      expect(await pass()).toEqual({ indexed: 0, failed: 0 });
      expect(provider.requests.length).toBe(calls);

      // Far more than three attempts, each waiting twice as long as the one before, up to 15 minutes.
      const waits = [60, 120, 240, 480, 900, 900, 900].map((s) => s * 1000);
      for (const wait of waits) {
        server.clock.set((await outageStatus()).nextRetryAt!);
        expect(await pass()).toEqual({ indexed: 0, failed: 1 });
        expect(provider.requests.length).toBe(++calls);
        expect(await outageStatus()).toMatchObject({ failed: 1, backlog: 1, nextRetryAt: new Date(server.clock.now().getTime() + wait).toISOString() });
      }
    } finally {
      provider.mode = 'ok';
    }
    server.clock.set((await outageStatus()).nextRetryAt!);
    expect(await pass()).toEqual({ indexed: 1, failed: 0 });
    expect(await outageStatus()).toMatchObject({ indexed: 1, pending: 0, failed: 0, backlog: 0, nextRetryAt: null, lastError: null });
  });

  it('re-queues memories that failed during an outage as soon as the provider answers again', async () => {
    provider.mode = 'fail';
    try {
      await saveOutage('Storm', 'Another note written during the outage.');
      expect(await pass()).toEqual({ indexed: 0, failed: 1 });
      server.clock.advance(30_000);
      expect(await pass()).toEqual({ indexed: 0, failed: 1 });
      expect(await outageStatus()).toMatchObject({ failed: 1, backlog: 1 });
    } finally {
      provider.mode = 'ok';
    }
    // Nobody has seen the provider answer yet: Storm waits for its backoff, and no call is made.
    server.clock.advance(1_000);
    const calls = provider.requests.length;
    expect(await pass()).toEqual({ indexed: 0, failed: 0 });
    expect(provider.requests.length).toBe(calls);

    // A new memory is embedded: the provider is back, so Storm is re-queued in the same pass.
    await saveOutage('Calm', 'Written after the provider came back.');
    expect(await pass()).toEqual({ indexed: 2, failed: 0 });
    expect(await outageStatus()).toMatchObject({ failed: 0, backlog: 0, nextRetryAt: null });
  });

  it('a query answered by the provider re-queues them too', async () => {
    provider.mode = 'fail';
    try {
      await saveOutage('Drizzle', 'A third note from a rainy outage.');
      expect(await pass()).toEqual({ indexed: 0, failed: 1 });
    } finally {
      provider.mode = 'ok';
    }
    server.clock.advance(1_000);
    expect((await outage.brainSearch({ query: 'rainy' })).brainSearch.retrieval.mode).toBe('HYBRID');
    expect(await outageStatus()).toMatchObject({ failed: 1, nextRetryAt: new Date(server.clock.now().getTime() - 1_000).toISOString() });
    expect(await pass()).toEqual({ indexed: 1, failed: 0 });
    expect(await outageStatus()).toMatchObject({ failed: 0, backlog: 0 });
  });

  it('a pass against a provider that is down costs one request, however large the backlog', async () => {
    provider.mode = 'fail';
    try {
      for (let i = 0; i < 40; i++) {
        await saveOutage(`Flood ${i}`, `Backlog item ${i}.`);
        server.clock.advance(1);
      }
      expect(await outageStatus()).toMatchObject({ pending: 40, failed: 0, backlog: 40 });
      const calls = provider.requests.length;
      expect(await pass()).toEqual({ indexed: 0, failed: 16 });
      expect(provider.requests.length).toBe(calls + 1);
      expect(provider.requests.at(-1)!.input).toHaveLength(16);
      // The next pass takes the next 16, not the ones backing off.
      expect(await pass()).toEqual({ indexed: 0, failed: 16 });
      expect(provider.requests.at(-1)!.input[0]).toMatch(/^Flood 16\n/);
      expect(await outageStatus()).toMatchObject({ pending: 8, failed: 32, backlog: 40 });
    } finally {
      provider.mode = 'ok';
    }
    server.clock.advance(30_000);
    expect(await pass()).toEqual({ indexed: 40, failed: 0 });
    expect(await outageStatus()).toMatchObject({ pending: 0, failed: 0, backlog: 0 });
  });
});

describe('a memory the provider refuses (issue 11)', () => {
  it('fails alone: its batch-mates are indexed, and it is retried with backoff without a request per pass', async () => {
    const picky = await server.agentClient('picky');
    const pass = () => server.app.services.brains.indexPendingEmbeddings({ agentId: 'picky' });
    const pickyStatus = async () => (await picky.brainEmbeddingStatus({ agentId: 'picky' })).brainEmbeddingStatus;
    for (const [title, content] of [
      ['Kitten', 'A kitten naps.'],
      ['Huge', 'An oversized poison pill of a note.'],
      ['Puppy', 'A puppy plays.'],
    ]) {
      await picky.brainSave({ input: { title, content } });
      server.clock.advance(1);
    }
    provider.rejectFor = 'poison';
    try {
      const calls = provider.requests.length;
      // The batch of three is refused, then each memory is tried alone: one request each.
      expect(await pass()).toEqual({ indexed: 2, failed: 1 });
      expect(provider.requests.slice(calls).map((r) => r.input.length)).toEqual([3, 1, 1, 1]);
      const s = await pickyStatus();
      expect(s).toMatchObject({ indexed: 2, failed: 1, backlog: 1, nextRetryAt: new Date(server.clock.now().getTime() + 30_000).toISOString() });
      expect(s.lastError).toMatch(/HTTP 400/);
      // A refusal is an answer, not an outage: nothing is re-queued, the next pass calls nobody.
      server.clock.advance(1_000);
      expect(await pass()).toEqual({ indexed: 0, failed: 0 });
      expect(provider.requests.length).toBe(calls + 4);
      server.clock.advance(29_000);
      expect(await pass()).toEqual({ indexed: 0, failed: 1 });
      expect(provider.requests.slice(calls + 4).map((r) => r.input)).toEqual([[expect.stringMatching(/^Huge\n/)]]);
    } finally {
      provider.rejectFor = null;
    }
    server.clock.set((await pickyStatus()).nextRetryAt!);
    expect(await pass()).toEqual({ indexed: 1, failed: 0 });
    expect(await pickyStatus()).toMatchObject({ indexed: 3, failed: 0, backlog: 0 });
  });
});

describe('zero vectors are never an embedding match (issue 11)', () => {
  let blank: BurrowClient;
  const blankStatus = async () => (await blank.brainEmbeddingStatus({ agentId: 'blank' })).brainEmbeddingStatus;
  const pass = () => server.app.services.brains.indexPendingEmbeddings({ agentId: 'blank' });
  const memoryIds: Record<string, string> = {};
  beforeAll(async () => {
    blank = await server.agentClient('blank');
    for (const [title, content] of [
      ['Tabby', 'A kitten on the windowsill.'],
      ['Vacuum', 'Nothing the model understands: vacuum.'],
    ]) {
      const saved = await blank.brainSave({ input: { title, content } });
      if (saved.brainSave.__typename !== 'BrainSaveSuccess') throw new Error(JSON.stringify(saved));
      memoryIds[title] = saved.brainSave.memory.memoryId;
    }
  });

  it('a zero vector for a memory is a provider fault: that memory is retried, its batch-mates are indexed', async () => {
    provider.zeroFor = 'vacuum';
    try {
      expect(await pass()).toEqual({ indexed: 1, failed: 1 });
      const s = await blankStatus();
      expect(s).toMatchObject({ indexed: 1, failed: 1, backlog: 1, nextRetryAt: new Date(server.clock.now().getTime() + 30_000).toISOString() });
      expect(s.lastError).toMatch(/zero vector/);
    } finally {
      provider.zeroFor = null;
    }
    server.clock.advance(30_000);
    expect(await pass()).toEqual({ indexed: 1, failed: 0 });
    expect(await blankStatus()).toMatchObject({ indexed: 2, failed: 0, backlog: 0 });
  });

  it('a zero query vector falls back to lexical results', async () => {
    provider.mode = 'zero';
    try {
      const result = (await blank.brainSearch({ query: 'kitten' })).brainSearch;
      expect(result.retrieval).toMatchObject({ mode: 'LEXICAL', fallback: 'EMBEDDING_UNAVAILABLE' });
      expect(result.retrieval.reason).toMatch(/zero vector/);
      expect(result.hits.map((h) => [h.memory.title, h.matchedBy, h.similarity])).toEqual([['Tabby', ['LEXICAL'], null]]);
    } finally {
      provider.mode = 'ok';
    }
  });

  it('a stored zero vector (written before this check) matches nothing and breaks no search', async () => {
    await server.database.pool.query("UPDATE brain_embeddings SET embedding = '{0,0,0,0,0,0}' WHERE agent_id = 'blank' AND memory_id = $1", [memoryIds.Vacuum]);
    const result = (await blank.brainSearch({ query: 'feline' })).brainSearch;
    expect(result.retrieval.mode).toBe('HYBRID');
    expect(result.hits.map((h) => [h.memory.title, h.matchedBy])).toEqual([['Tabby', ['EMBEDDING']]]);
    expect(result.hits[0].similarity).toBeGreaterThan(0.99);
  });
});
