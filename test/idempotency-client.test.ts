/**
 * The TypeScript client's retries (docs/idempotency.md), through a proxy that loses answers on
 * purpose (test/support/lossy-proxy.ts): a keyed mutation whose answer is lost after the server
 * committed, or that meets 503 DATABASE_UNAVAILABLE with Retry-After, is resent with the same
 * Idempotency-Key and leaves exactly one row; a mutation without a key is never resent; queries are.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createBurrowClient, type BurrowClient } from '../clients/typescript/sdk.js';
import { startServer, type TestServer } from './support/harness.js';
import { startLossyProxy, type LossyProxy } from './support/lossy-proxy.js';

let server: TestServer;
let proxy: LossyProxy;
let client: BurrowClient;

beforeAll(async () => {
  server = await startServer();
  await server.agentClient('retry-ada');
  const { token } = await server.app.services.tokens.create({ kind: 'agent', name: 'retry', agentId: 'retry-ada' });
  proxy = await startLossyProxy(server.url);
  client = createBurrowClient({ url: proxy.url, token, scope: 'proj', session: 'retry-session', retry: { baseDelayMs: 20 } });
});
afterAll(async () => {
  await client?.close();
  await proxy?.close();
  await server?.stop();
});

const count = async (sql: string) => (await server.database.pool.query<{ n: number }>(sql)).rows[0].n;

describe('the TypeScript client resends keyed writes without duplicating them', () => {
  it('brainSave whose answer is lost after the commit: resent with the same key, one memory', async () => {
    proxy.plan(['drop']);
    const saved = await client.brainSave({ input: { title: 'Lost answer', content: 'committed before the cut' } });
    expect(saved.brainSave.__typename).toBe('BrainSaveSuccess');
    expect(proxy.seen.map((s) => s.step)).toEqual(['drop', 'pass']);
    const [first, second] = proxy.seen.map((s) => s.idempotencyKey);
    expect(first).toMatch(/^[0-9a-f-]{36}$/);
    expect(second).toBe(first);
    expect(await count(`SELECT count(*)::int AS n FROM brain_memories WHERE agent_id = 'retry-ada' AND title = 'Lost answer'`)).toBe(1);
    if (saved.brainSave.__typename !== 'BrainSaveSuccess') throw new Error('unreachable');
    expect(await count(`SELECT count(*)::int AS n FROM brain_memories WHERE id = '${saved.brainSave.memory.memoryId}'`)).toBe(1);
  });

  it('appendConversationEntry after 503 DATABASE_UNAVAILABLE: waits Retry-After, one entry', async () => {
    proxy.plan(['unavailable', 'drop']);
    const started = performance.now();
    const appended = await client.appendConversationEntry({ input: { payload: '{"n":1}', role: 'user' } });
    expect(performance.now() - started).toBeGreaterThanOrEqual(950);
    expect(appended.appendConversationEntry).toMatchObject({ __typename: 'AppendConversationEntrySuccess', entry: { position: 1 } });
    expect(proxy.seen.map((s) => s.step)).toEqual(['unavailable', 'drop', 'pass']);
    expect(new Set(proxy.seen.map((s) => s.idempotencyKey)).size).toBe(1);
    expect(await count(`SELECT count(*)::int AS n FROM conversation_entries WHERE agent_id = 'retry-ada'`)).toBe(1);
  });

  it('a new call is a new key: two calls of the same save are two memories', async () => {
    proxy.plan([]);
    await client.brainSave({ input: { title: 'Twice on purpose', content: 'x' } });
    await client.brainSave({ input: { title: 'Twice on purpose', content: 'x' } });
    expect(proxy.seen[0].idempotencyKey).not.toBe(proxy.seen[1].idempotencyKey);
    expect(await count(`SELECT count(*)::int AS n FROM brain_memories WHERE agent_id = 'retry-ada' AND title = 'Twice on purpose'`)).toBe(2);
  });

  it('gives up after its attempts with the typed error', async () => {
    proxy.plan(['unavailable', 'unavailable', 'unavailable', 'unavailable']);
    const few = createBurrowClient({ ...client.options, retry: { attempts: 2, maxDelayMs: 10 } });
    await expect(few.brainSave({ input: { title: 'Never', content: 'x' } })).rejects.toMatchObject({ code: 'DATABASE_UNAVAILABLE', retryable: true });
    expect(proxy.seen.length).toBe(2);
    expect(await count(`SELECT count(*)::int AS n FROM brain_memories WHERE title = 'Never'`)).toBe(0);
  });

  it('never resends a mutation without a key (brainUpdate), and resends a query', async () => {
    const saved = await client.brainSave({ input: { title: 'To update', content: 'v1' } });
    if (saved.brainSave.__typename !== 'BrainSaveSuccess') throw new Error('save failed');
    proxy.plan(['drop']);
    await expect(client.brainUpdate({ input: { memoryId: saved.brainSave.memory.memoryId, expectedRevision: 1, content: 'v2' } })).rejects.toThrow();
    expect(proxy.seen).toEqual([{ step: 'drop', idempotencyKey: null }]);
    proxy.plan(['drop']);
    const read = await client.brainRead({ memoryId: saved.brainSave.memory.memoryId });
    expect(read.brainRead?.revision).toBe(2);
    expect(proxy.seen).toEqual([
      { step: 'drop', idempotencyKey: null },
      { step: 'pass', idempotencyKey: null },
    ]);
  });
});
