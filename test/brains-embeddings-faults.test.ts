/**
 * Brains embeddings when the provider misbehaves for longer (issue 11): an outage, a memory the
 * provider refuses, and zero vectors. Nothing is lost, and nothing is ranked on a zero vector.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BurrowClient } from '../clients/typescript/sdk.js';
import type { TestServer } from './support/harness.js';
import { startEmbeddingServer, startEmbeddingTestServer, type EmbeddingServer } from './support/embedding-server.js';

let provider: EmbeddingServer;
let server: TestServer;

beforeAll(async () => {
  provider = await startEmbeddingServer();
  server = await startEmbeddingTestServer(provider);
});
afterAll(async () => {
  await server?.stop();
  await provider?.close();
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
