/**
 * Retries that never duplicate (docs/idempotency.md): a create-type write repeated with the same
 * idempotency key (input field or Idempotency-Key header) answers the first result and writes
 * nothing; the same key with other input is refused and changes nothing; past the 24-hour window
 * the key writes again, and the retention sweep removes it. Concurrent duplicates on real
 * connections: test/idempotency-race.test.ts.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BurrowClient } from '../clients/typescript/sdk.js';
import { requestError, startServer, type TestServer } from './support/harness.js';

let server: TestServer;
let ada: BurrowClient;

beforeAll(async () => {
  server = await startServer();
  ada = await server.agentClient('idem-ada', { scope: 'proj', session: 'sess-1' });
});
afterAll(async () => server?.stop());

const count = async (sql: string, params: unknown[]) => (await server.database.pool.query<{ n: number }>(sql, params)).rows[0].n;
const memories = (agentId: string) => count('SELECT count(*)::int AS n FROM brain_memories WHERE agent_id = $1', [agentId]);
const keys = (agentId: string) => count('SELECT count(*)::int AS n FROM idempotency_keys WHERE agent_id = $1', [agentId]);
const events = (agentId: string) => count('SELECT count(*)::int AS n FROM agent_events WHERE agent_id = $1', [agentId]);

/** A raw POST, so the test decides the headers (the SDK's own key is tested in the client tests). */
async function post(token: string, query: string, variables: unknown, headers: Record<string, string> = {}) {
  const response = await fetch(server.url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${token}`, ...headers },
    body: JSON.stringify({ query, variables }),
  });
  return { status: response.status, body: (await response.json()) as { data?: Record<string, unknown>; errors?: { extensions?: { code?: string } }[] } };
}

describe('brainSave with an idempotency key', () => {
  it('answers a repeat with the first result and writes one memory, one revision, one event, one key', async () => {
    const before = { memories: await memories('idem-ada'), events: await events('idem-ada') };
    const input = { title: 'Retry me', content: 'Saved once.', sourceRefs: ['conv:1'], idempotencyKey: 'save-1' };
    const first = await ada.brainSave({ input });
    server.clock.advance(5_000);
    const second = await ada.brainSave({ input });
    expect(first.brainSave.__typename).toBe('BrainSaveSuccess');
    expect(second).toEqual(first);
    expect(await memories('idem-ada')).toBe(before.memories + 1);
    expect(await events('idem-ada')).toBe(before.events + 1);
    expect(await count('SELECT count(*)::int AS n FROM brain_memory_revisions WHERE agent_id = $1', ['idem-ada'])).toBe(before.memories + 1);
    expect(await count(`SELECT count(*)::int AS n FROM idempotency_keys WHERE agent_id = $1 AND key = 'save-1' AND operation = 'brainSave'`, ['idem-ada'])).toBe(1);
  });

  it('refuses the same key with other input (IDEMPOTENCY_KEY_REUSED) and changes nothing', async () => {
    await ada.brainSave({ input: { title: 'Original', content: 'first', idempotencyKey: 'save-2' } });
    const before = { memories: await memories('idem-ada'), events: await events('idem-ada'), keys: await keys('idem-ada') };
    const error = await requestError(ada.brainSave({ input: { title: 'Original', content: 'other content', idempotencyKey: 'save-2' } }));
    expect(error.code).toBe('IDEMPOTENCY_KEY_REUSED');
    // Another operation with the key is refused as well.
    const working = await requestError(ada.memoryWorkingWrite({ input: { kind: 'FINDING', title: 'x', content: 'y', idempotencyKey: 'save-2' } }));
    expect(working.code).toBe('IDEMPOTENCY_KEY_REUSED');
    expect({ memories: await memories('idem-ada'), events: await events('idem-ada'), keys: await keys('idem-ada') }).toEqual(before);
    expect(await count(`SELECT count(*)::int AS n FROM working_records WHERE agent_id = $1`, ['idem-ada'])).toBe(0);
  });

  it('writes again once the key is older than 24 hours, and retention removes expired keys', async () => {
    const input = { title: 'Window', content: 'within a day', idempotencyKey: 'save-3' };
    const first = await ada.brainSave({ input });
    server.clock.advance(24 * 3_600_000 - 1);
    expect(await ada.brainSave({ input })).toEqual(first);
    const before = await memories('idem-ada');
    server.clock.advance(1);
    const later = await ada.brainSave({ input });
    expect(later.brainSave.__typename).toBe('BrainSaveSuccess');
    if (later.brainSave.__typename !== 'BrainSaveSuccess' || first.brainSave.__typename !== 'BrainSaveSuccess') throw new Error('unreachable');
    expect(later.brainSave.memory.memoryId).not.toBe(first.brainSave.memory.memoryId);
    expect(await memories('idem-ada')).toBe(before + 1);
    // The replaced key is the new write's now: a repeat answers the later result.
    expect(await ada.brainSave({ input })).toEqual(later);

    const total = await keys('idem-ada');
    server.clock.advance(24 * 3_600_000);
    const report = (await server.operator.runRetention()).runRetention;
    expect(report.stores.find((s) => s.store === 'IDEMPOTENCY_KEYS')?.removed).toBe(total);
    expect(await keys('idem-ada')).toBe(0);
  });

  it('keeps keys per token: another token of the same agent with the same key writes its own memory', async () => {
    const other = await server.client({ agentId: 'idem-ada' });
    const input = { title: 'Per token', content: 'x', idempotencyKey: 'shared-key' };
    const a = await ada.brainSave({ input });
    const b = await other.brainSave({ input });
    if (a.brainSave.__typename !== 'BrainSaveSuccess' || b.brainSave.__typename !== 'BrainSaveSuccess') throw new Error('save failed');
    expect(a.brainSave.memory.memoryId).not.toBe(b.brainSave.memory.memoryId);
  });

  it('remembers no failure: a refused write leaves no key, so the retry runs again', async () => {
    const bad = await ada.brainSave({ input: { title: ' ', content: 'x', idempotencyKey: 'save-bad' } });
    expect(bad.brainSave).toMatchObject({ __typename: 'ValidationFailed', field: 'title' });
    expect(await count(`SELECT count(*)::int AS n FROM idempotency_keys WHERE key = 'save-bad'`, [])).toBe(0);
    const good = await ada.brainSave({ input: { title: 'now valid', content: 'x', idempotencyKey: 'save-bad' } });
    expect(good.brainSave.__typename).toBe('BrainSaveSuccess');
    const tooLong = await ada.brainSave({ input: { title: 't', content: 'x', idempotencyKey: 'k'.repeat(201) } });
    expect(tooLong.brainSave).toMatchObject({ __typename: 'ValidationFailed', field: 'idempotencyKey', limit: 200 });
    const empty = await ada.brainSave({ input: { title: 't', content: 'x', idempotencyKey: '' } });
    expect(empty.brainSave).toMatchObject({ __typename: 'ValidationFailed', field: 'idempotencyKey' });
  });
});

describe('the Idempotency-Key header', () => {
  const SAVE = 'mutation($input: BrainSaveInput!) { brainSave(input: $input) { __typename ... on BrainSaveSuccess { memory { memoryId title } } } }';
  const TWO = `mutation($a: BrainSaveInput!, $b: BrainSaveInput!) {
    a: brainSave(input: $a) { ... on BrainSaveSuccess { memory { memoryId title } } }
    b: brainSave(input: $b) { ... on BrainSaveSuccess { memory { memoryId title } } } }`;
  let token: string;
  beforeAll(async () => {
    token = (await server.app.services.tokens.create({ kind: 'agent', name: 'idem-header', agentId: 'idem-ada' })).token;
  });

  it('keys the request: a repeat answers the first result; other input is refused', async () => {
    const before = await memories('idem-ada');
    const input = { title: 'Header', content: 'keyed by header' };
    const first = await post(token, SAVE, { input }, { 'idempotency-key': 'hdr-1' });
    const again = await post(token, SAVE, { input }, { 'idempotency-key': 'hdr-1' });
    expect(first.status).toBe(200);
    expect(again.body).toEqual(first.body);
    expect(await memories('idem-ada')).toBe(before + 1);
    const reused = await post(token, SAVE, { input: { ...input, content: 'changed' } }, { 'idempotency-key': 'hdr-1' });
    expect(reused.body.errors?.[0].extensions?.code).toBe('IDEMPOTENCY_KEY_REUSED');
    expect(await memories('idem-ada')).toBe(before + 1);
  });

  it('gives each aliased field of one request its own key', async () => {
    const before = await memories('idem-ada');
    const vars = { a: { title: 'same', content: 'same' }, b: { title: 'same', content: 'same' } };
    const first = await post(token, TWO, vars, { 'idempotency-key': 'hdr-2' });
    const data = first.body.data as { a: { memory: { memoryId: string } }; b: { memory: { memoryId: string } } };
    expect(data.a.memory.memoryId).not.toBe(data.b.memory.memoryId);
    expect(await memories('idem-ada')).toBe(before + 2);
    expect((await post(token, TWO, vars, { 'idempotency-key': 'hdr-2' })).body).toEqual(first.body);
    expect(await memories('idem-ada')).toBe(before + 2);
  });
});

describe('the other create-type writes', () => {
  it('memoryWorkingWrite: a repeat answers the first record, one row', async () => {
    const input = { kind: 'FINDING' as const, title: 'Evidence', content: 'seen once', idempotencyKey: 'wm-1' };
    const first = await ada.memoryWorkingWrite({ input });
    expect(first.memoryWorkingWrite.__typename).toBe('MemoryWorkingWriteSuccess');
    expect(await ada.memoryWorkingWrite({ input })).toEqual(first);
    expect(await count(`SELECT count(*)::int AS n FROM working_records WHERE agent_id = $1 AND title = 'Evidence'`, ['idem-ada'])).toBe(1);
  });

  it('appendConversationEntry: a repeat answers the first entry and takes no second position', async () => {
    const input = { payload: '{"text":"hello"}', role: 'user', idempotencyKey: 'conv-1' };
    const first = await ada.appendConversationEntry({ input });
    expect(first.appendConversationEntry.__typename).toBe('AppendConversationEntrySuccess');
    expect(await ada.appendConversationEntry({ input })).toEqual(first);
    expect(await count(`SELECT count(*)::int AS n FROM conversation_entries WHERE agent_id = $1 AND session_id = 'sess-1'`, ['idem-ada'])).toBe(1);
    // The session is part of the request: the same token and key from another session is refused.
    const { token } = await server.app.services.tokens.create({ kind: 'agent', name: 'idem-sessions', agentId: 'idem-ada' });
    const APPEND = 'mutation($input: AppendConversationEntryInput!) { appendConversationEntry(input: $input) { __typename } }';
    const inSession = (session: string) => post(token, APPEND, { input }, { 'burrow-continuity-scope': 'proj', 'burrow-session': session });
    expect((await inSession('sess-3')).body.data).toEqual({ appendConversationEntry: { __typename: 'AppendConversationEntrySuccess' } });
    expect((await inSession('sess-4')).body.errors?.[0].extensions?.code).toBe('IDEMPOTENCY_KEY_REUSED');
    expect(await count(`SELECT count(*)::int AS n FROM conversation_entries WHERE agent_id = $1 AND session_id = 'sess-4'`, ['idem-ada'])).toBe(0);
  });

  it('sessionWriteHandoff: a repeat answers the first handoff, revision 1, one event', async () => {
    const before = await events('idem-ada');
    const input = { title: 'Handoff', goal: 'goal', outcome: 'outcome', body: 'body', idempotencyKey: 'ho-1' };
    const first = await ada.sessionWriteHandoff({ input });
    expect(first.sessionWriteHandoff).toMatchObject({ __typename: 'SessionWriteHandoffSuccess', handoff: { revision: 1 } });
    expect(await ada.sessionWriteHandoff({ input })).toEqual(first);
    expect(await events('idem-ada')).toBe(before + 1);
  });
});
