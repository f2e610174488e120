/**
 * The Dream diary through the real server: operators only in both directions, append-only down
 * to the database, never in anything an agent reads, and removed by retention on its own clock.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BurrowRequestError, type BurrowClient } from '../clients/typescript/sdk.js';
import { DAY_MS } from '../src/lib/clock.js';
import { schema } from '../src/schema/index.js';
import { startServer, type TestServer } from './support/harness.js';

const MARKER = 'diary-marker-only-for-operators';
let server: TestServer;
let agent: BurrowClient;

beforeAll(async () => {
  server = await startServer({ config: { dreamDiary: { retentionDays: 30 } } });
  agent = await server.agentClient('dreamer', { scope: 'proj' });
});
afterAll(async () => server?.stop());

const append = async (input: { agentId?: string; entryDate?: string; title?: string; body: string }) =>
  (await server.operator.appendDreamDiaryEntry({ input: { agentId: 'dreamer', ...input } })).appendDreamDiaryEntry;

describe('Dream diary', () => {
  it('appends dated entries and lists them newest first by entry date', async () => {
    const first = await append({ entryDate: '2026-05-30', title: 'night one', body: `${MARKER} one` });
    expect(first).toMatchObject({
      __typename: 'AppendDreamDiaryEntrySuccess',
      entry: {
        agentId: 'dreamer',
        entryDate: '2026-05-30',
        title: 'night one',
        body: `${MARKER} one`,
        writtenBy: 'test-operator',
        createdAt: '2026-06-01T12:00:00.000Z',
        expiresAt: '2026-07-01T12:00:00.000Z',
      },
    });
    const today = await append({ body: `${MARKER} two` });
    expect(today).toMatchObject({ entry: { entryDate: '2026-06-01', title: '' } });
    await append({ entryDate: '2026-05-31', body: `${MARKER} three` });
    const listed = (await server.operator.dreamDiary({ agentId: 'dreamer' })).dreamDiary;
    expect(listed.edges.map((e) => e.node.entryDate)).toEqual(['2026-06-01', '2026-05-31', '2026-05-30']);
    const one = (await server.operator.dreamDiary({ agentId: 'dreamer', first: 1 })).dreamDiary;
    expect(one.edges.map((e) => e.node.entryDate)).toEqual(['2026-06-01']);
    expect(one.pageInfo).toMatchObject({ hasNextPage: true, hasPreviousPage: false });
    // The next pages continue after the cursor, in the same order, and the last says so.
    const two = (await server.operator.dreamDiary({ agentId: 'dreamer', first: 1, after: one.pageInfo.endCursor })).dreamDiary;
    expect(two.edges.map((e) => e.node.entryDate)).toEqual(['2026-05-31']);
    const three = (await server.operator.dreamDiary({ agentId: 'dreamer', first: 2, after: two.pageInfo.endCursor })).dreamDiary;
    expect(three.edges.map((e) => e.node.entryDate)).toEqual(['2026-05-30']);
    expect(three.pageInfo).toMatchObject({ hasNextPage: false, hasPreviousPage: true });
    // A cursor of another agent's diary is refused, not reinterpreted.
    await expect(server.operator.dreamDiary({ agentId: 'other-dreamer', after: one.pageInfo.endCursor })).rejects.toMatchObject({ code: 'CURSOR_MISMATCH' });
    // The entry is a node: node(id) reads it back for the operator.
    const entry = one.edges[0].node;
    expect(await server.operator.node({ id: entry.id })).toEqual({
      node: { __typename: 'DreamDiaryEntry', id: entry.id, entryId: entry.entryId, agentId: 'dreamer', entryDate: '2026-06-01', title: '' },
    });
  });

  it('refuses bad input with a typed error at the limit and one past it, and writes nothing', async () => {
    const count = async () => (await server.operator.dreamDiary({ agentId: 'dreamer', first: 200 })).dreamDiary.edges.length;
    const before = await count();
    expect(await append({ body: 'b'.repeat(24_001) })).toMatchObject({ __typename: 'ValidationFailed', field: 'body', limit: 24_000 });
    expect(await append({ body: '   ' })).toMatchObject({ __typename: 'ValidationFailed', field: 'body' });
    expect(await append({ body: 'x', title: 't'.repeat(241) })).toMatchObject({ __typename: 'ValidationFailed', field: 'title', limit: 240 });
    expect(await append({ body: 'x', entryDate: '2026-02-30' })).toMatchObject({ __typename: 'ValidationFailed', field: 'entryDate' });
    expect(await append({ body: 'x', entryDate: 'yesterday' })).toMatchObject({ __typename: 'ValidationFailed', field: 'entryDate' });
    expect(await append({ agentId: 'nobody', body: 'x' })).toMatchObject({ __typename: 'NotFound' });
    expect(await count()).toBe(before);
    expect(await append({ body: 'b'.repeat(24_000), title: 't'.repeat(240) })).toMatchObject({ __typename: 'AppendDreamDiaryEntrySuccess' });
    await expect(server.operator.dreamDiary({ agentId: 'dreamer', first: 201 })).rejects.toMatchObject({ code: 'BAD_REQUEST' });
  });

  it('is for operators only: an agent token is FORBIDDEN, even for its own agent', async () => {
    const code = (p: Promise<unknown>) =>
      p.then(
        () => 'answered',
        (e) => (e instanceof BurrowRequestError ? e.code : String(e)),
      );
    expect(await code(agent.dreamDiary({ agentId: 'dreamer' }))).toBe('FORBIDDEN');
    const before = (await server.operator.dreamDiary({ agentId: 'dreamer', first: 200 })).dreamDiary.edges.length;
    expect(await code(agent.appendDreamDiaryEntry({ input: { agentId: 'dreamer', body: 'agent writes' } }))).toBe('FORBIDDEN');
    expect((await server.operator.dreamDiary({ agentId: 'dreamer', first: 200 })).dreamDiary.edges.length).toBe(before);
  });

  it('never reaches what an agent reads: no event, no profile change, not in ambientContinuity', async () => {
    const sequence = (await server.operator.agent({ id: 'dreamer' })).agent!.lastEventSequence;
    await append({ body: `${MARKER} four` });
    expect((await server.operator.agent({ id: 'dreamer' })).agent!.lastEventSequence).toBe(sequence);
    const seen = JSON.stringify([
      await agent.ambientContinuity({ project: 'proj' }),
      await agent.agent({ id: 'dreamer' }),
      await agent.profileDocument({ agentId: 'dreamer', kind: 'DREAM_MEMORY' }),
    ]);
    expect(seen).not.toContain(MARKER);
    expect((await agent.profileDocument({ agentId: 'dreamer', kind: 'DREAM_MEMORY' })).profileDocument).toMatchObject({ content: '', revision: 1 });
  });

  it('is append-only: the API has no edit or removal, and the database refuses both', async () => {
    const fields = [...Object.keys(schema.getQueryType()!.getFields()), ...Object.keys(schema.getMutationType()!.getFields())].filter((f) => /diary/i.test(f));
    expect(fields.sort()).toEqual(['appendDreamDiaryEntry', 'dreamDiary']);
    await expect(server.database.pool.query(`UPDATE dream_diary_entries SET body = 'changed' WHERE agent_id = 'dreamer'`)).rejects.toThrow(/append-only \(UPDATE refused\)/);
    await expect(server.database.pool.query(`DELETE FROM dream_diary_entries WHERE agent_id = 'dreamer'`)).rejects.toThrow(/append-only \(DELETE refused\)/);
    const bodies = (await server.operator.dreamDiary({ agentId: 'dreamer', first: 200 })).dreamDiary.edges.map((e) => e.node.body);
    expect(bodies).toContain(`${MARKER} one`);
    expect(bodies).not.toContain('changed');
  });

  it('has its own retention in the retention report: hidden once expired, removed after the grace period', async () => {
    const total = (await server.operator.dreamDiary({ agentId: 'dreamer', first: 200 })).dreamDiary.edges.length;
    const report = async () => {
      const store = (await server.operator.runRetention()).runRetention.stores.find((s) => s.store === 'DREAM_DIARY_ENTRIES');
      return store && { store: store.store, removed: store.removed };
    };
    expect(await report()).toEqual({ store: 'DREAM_DIARY_ENTRIES', removed: 0 });
    // 30 days of retention: at expiry the entries are hidden at once, but kept through the 7-day grace.
    server.clock.advance(30 * DAY_MS);
    expect((await server.operator.dreamDiary({ agentId: 'dreamer' })).dreamDiary.edges).toEqual([]);
    server.clock.advance(7 * DAY_MS);
    expect(await report()).toEqual({ store: 'DREAM_DIARY_ENTRIES', removed: 0 });
    server.clock.advance(1);
    expect(await report()).toEqual({ store: 'DREAM_DIARY_ENTRIES', removed: total });
    expect((await server.database.pool.query(`SELECT count(*)::int AS n FROM dream_diary_entries`)).rows[0].n).toBe(0);
  });
});
