/**
 * Concurrent duplicates on real connections (docs/idempotency.md): N identical requests with one
 * idempotency key, sent at once over HTTP to a server on a real PostgreSQL (each on a pooled
 * connection of its own), write exactly one row and all answer the same result: the losers' key
 * INSERT waits for the winner's transaction and then answers from its row.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BurrowClient } from '../clients/typescript/sdk.js';
import { hasRealServer, NEEDS_REAL_SERVER, startServer, type TestServer } from './support/harness.js';

const N = 16;

describe.skipIf(!hasRealServer)(`concurrent duplicates with one idempotency key (${NEEDS_REAL_SERVER})`, () => {
  let server: TestServer;
  let ada: BurrowClient;
  beforeAll(async () => {
    server = await startServer({ realServer: true });
    ada = await server.agentClient('race-ada', { scope: 'proj', session: 'race-session' });
  });
  afterAll(async () => server?.stop());

  const count = async (sql: string) => (await server.database.pool.query<{ n: number }>(sql)).rows[0].n;

  it(`${N} identical brainSave requests at once: one memory, one event, ${N} identical answers`, async () => {
    const events = await count(`SELECT count(*)::int AS n FROM agent_events WHERE agent_id = 'race-ada'`);
    const input = { title: 'Raced', content: 'saved once', idempotencyKey: 'race-save' };
    const answers = await Promise.all(Array.from({ length: N }, () => ada.brainSave({ input })));
    expect(answers[0].brainSave.__typename).toBe('BrainSaveSuccess');
    for (const answer of answers) expect(answer).toEqual(answers[0]);
    expect(await count(`SELECT count(*)::int AS n FROM brain_memories WHERE agent_id = 'race-ada'`)).toBe(1);
    expect(await count(`SELECT count(*)::int AS n FROM agent_events WHERE agent_id = 'race-ada'`)).toBe(events + 1);
    expect(await count(`SELECT count(*)::int AS n FROM idempotency_keys WHERE agent_id = 'race-ada' AND key = 'race-save'`)).toBe(1);
    // The control: the same burst without a key writes every request.
    await Promise.all(Array.from({ length: N }, () => ada.brainSave({ input: { title: 'Unkeyed', content: 'each' } })));
    expect(await count(`SELECT count(*)::int AS n FROM brain_memories WHERE agent_id = 'race-ada' AND title = 'Unkeyed'`)).toBe(N);
  });

  it(`${N} identical appends at once: one entry at position 1, ${N} identical answers`, async () => {
    const input = { payload: '{"text":"raced"}', role: 'user', idempotencyKey: 'race-append' };
    const answers = await Promise.all(Array.from({ length: N }, () => ada.appendConversationEntry({ input })));
    expect(answers[0].appendConversationEntry).toMatchObject({ __typename: 'AppendConversationEntrySuccess', entry: { position: 1 } });
    for (const answer of answers) expect(answer).toEqual(answers[0]);
    expect(await count(`SELECT count(*)::int AS n FROM conversation_entries WHERE agent_id = 'race-ada'`)).toBe(1);
  });

  it('racing one key with different inputs: exactly one write; the others answer it or are refused', async () => {
    const before = await count(`SELECT count(*)::int AS n FROM working_records WHERE agent_id = 'race-ada'`);
    const results = await Promise.allSettled(
      Array.from({ length: N }, (_, i) => ada.memoryWorkingWrite({ input: { kind: 'FINDING', title: `variant ${i % 2}`, content: 'x', idempotencyKey: 'race-mixed' } })),
    );
    expect(await count(`SELECT count(*)::int AS n FROM working_records WHERE agent_id = 'race-ada'`)).toBe(before + 1);
    const answered = results.filter((r) => r.status === 'fulfilled').map((r) => (r as PromiseFulfilledResult<unknown>).value);
    const refused = results.filter((r) => r.status === 'rejected').map((r) => ((r as PromiseRejectedResult).reason as { code?: string }).code);
    expect(answered.length).toBeGreaterThanOrEqual(1);
    for (const answer of answered) expect(answer).toEqual(answered[0]);
    expect(refused.every((code) => code === 'IDEMPOTENCY_KEY_REUSED')).toBe(true);
    expect(answered.length + refused.length).toBe(N);
  });
});
