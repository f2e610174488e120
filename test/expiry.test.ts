/**
 * One computation for every expiry: a TTL of N days ends N × 86,400,000 ms after it starts, on
 * the injected clock, whatever the database session's time zone. The database here runs in
 * America/New_York and every TTL spans the 2026-03-08 daylight-saving change, where a calendar
 * day in SQL (make_interval(days => n)) is an hour shorter than 24 hours.
 */
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DAY_MS, HOUR_MS, ManualClock } from '../src/lib/clock.js';
import { startChatServer, type ChatServer } from './support/chat-server.js';
import { createTestDatabase, onRealServer, startServer, type TestDatabase, type TestServer } from './support/harness.js';
import { providerTimeoutMs } from './support/load.js';

const ZONE = 'America/New_York';
let server: TestServer;
let chat: ChatServer;
let database: TestDatabase | null = null;
const clock = new ManualClock('2026-01-01T00:00:00.000Z');

beforeAll(async () => {
  chat = await startChatServer();
  const config = { tiddle: { scheduler: false, proposer: { kind: 'openai' as const, url: chat.url, model: 'expiry-test', apiKey: 'sk-test', timeoutMs: providerTimeoutMs() } } };
  if (onRealServer) {
    // The zone is the database's default, so every pooled connection the server opens has it.
    database = await createTestDatabase();
    const admin = new pg.Client({ connectionString: database.url! });
    await admin.connect();
    await admin.query(`ALTER DATABASE ${database.name} SET timezone = '${ZONE}'`);
    await admin.end();
    server = await startServer({ database, clock, config });
  } else {
    // Embedded, the pool is the one PGlite session: setting it there sets it for every query.
    server = await startServer({ clock, config });
    await server.database.pool.query(`SET timezone = '${ZONE}'`);
  }
});
afterAll(async () => {
  await server?.stop();
  await database?.drop();
  await chat?.close();
});

describe(`expiry with the database in ${ZONE}, across a daylight-saving change`, () => {
  it('the database really runs in that zone, where 104 calendar days are 2,495 hours', async () => {
    const { rows } = await server.database.pool.query(
      `SELECT current_setting('TimeZone') AS zone,
              extract(epoch FROM ('2026-01-01T00:00:00Z'::timestamptz + make_interval(days => 104)) - '2026-01-01T00:00:00Z'::timestamptz) / 3600 AS hours`,
    );
    expect(rows[0]).toMatchObject({ zone: ZONE });
    expect(Number(rows[0].hours)).toBe(2495);
  });

  it('a working record expires 104 × 24 hours after it is written, and again after a rewrite', async () => {
    clock.set('2026-01-01T00:00:00.000Z');
    const client = await server.agentClient('exp-wm', { scope: 'p' });
    const created = (await client.memoryWorkingWrite({ input: { kind: 'FINDING', title: 't', content: 'first', ttlDays: 104 } })).memoryWorkingWrite;
    if (created.__typename !== 'MemoryWorkingWriteSuccess') throw new Error(JSON.stringify(created));
    expect(created.record.expiresAt).toBe('2026-04-15T00:00:00.000Z');
    expect(new Date(created.record.expiresAt).getTime() - clock.now().getTime()).toBe(2496 * HOUR_MS);

    // A real change sets a new expiry from now with the stored TTL: the same 2,496 hours.
    clock.advance(HOUR_MS);
    const rewritten = (await client.memoryWorkingWrite({ input: { recordId: created.record.recordId, expectedRevision: 1, kind: 'FINDING', title: 't', content: 'second' } }))
      .memoryWorkingWrite;
    if (rewritten.__typename !== 'MemoryWorkingWriteSuccess') throw new Error(JSON.stringify(rewritten));
    expect(rewritten.record).toMatchObject({ revision: 2, ttlDays: 104, expiresAt: '2026-04-15T01:00:00.000Z' });
    // ... and with a TTL given in the rewrite.
    const retimed = (
      await client.memoryWorkingWrite({ input: { recordId: created.record.recordId, expectedRevision: 2, kind: 'FINDING', title: 't', content: 'third', ttlDays: 100 } })
    ).memoryWorkingWrite;
    if (retimed.__typename !== 'MemoryWorkingWriteSuccess') throw new Error(JSON.stringify(retimed));
    expect(retimed.record.expiresAt).toBe(new Date(clock.now().getTime() + 100 * DAY_MS).toISOString());

    // Visible until the last millisecond, hidden at the instant, by the same clock.
    clock.set(new Date(new Date(retimed.record.expiresAt).getTime() - 1));
    expect((await client.memoryWorkingSearch({ query: 'third' })).memoryWorkingSearch.map((r) => r.id)).toEqual([created.record.id]);
    clock.set(retimed.record.expiresAt);
    expect((await client.memoryWorkingSearch({ query: 'third' })).memoryWorkingSearch).toEqual([]);
  });

  it('a handoff expires 14 × 24 hours after it is written', async () => {
    clock.set('2026-03-01T12:00:00.000Z');
    const client = await server.agentClient('exp-ho', { scope: 'p', session: 's' });
    const h = (await client.sessionWriteHandoff({ input: { title: 'h', goal: 'g', outcome: 'o', body: 'b' } })).sessionWriteHandoff;
    if (h.__typename !== 'SessionWriteHandoffSuccess') throw new Error(JSON.stringify(h));
    expect(h.handoff.expiresAt).toBe('2026-03-15T12:00:00.000Z');
    clock.set('2026-03-15T11:59:59.999Z');
    expect((await client.sessionReadHandoff({})).sessionReadHandoff.map((x) => x.id)).toEqual([h.handoff.id]);
    clock.set('2026-03-15T12:00:00.000Z');
    expect((await client.sessionReadHandoff({})).sessionReadHandoff).toEqual([]);
  });

  it("a rolling card is live until refreshedAt + TTL × 24 hours, in Tiddle's filter and in the expiresAt it reports", async () => {
    clock.set('2026-03-01T12:00:00.000Z');
    const agentId = 'exp-card';
    const client = await server.agentClient(agentId, { scope: 'alpha', session: 's' });
    chat.script(agentId, (req) => ({ proposals: [{ action: 'create', title: 'Card', body: 'staging flag', evidence: req.residue!.map((r) => r.reference) }] }));
    for (const turnRef of ['t1', 't2']) {
      const r = await client.tiddleAppendResidue({ input: { turnRef, excerpts: [{ role: 'USER', text: `about ${turnRef}` }] } });
      expect(r.tiddleAppendResidue.__typename).toBe('TiddleAppendResidueSuccess');
    }
    await server.operator.tiddleRunPass({ agentId, project: 'alpha' });
    await server.operator.setTiddleCardTtl({ input: { agentId, days: 10 } });
    const live = async () => (await server.operator.rollingCards({ agentId, project: 'alpha', first: 10 })).rollingCards.edges.map((e) => e.node);
    const [card] = await live();
    expect(card.refreshedAt).toBe('2026-03-01T12:00:00.000Z');
    expect(card.expiresAt).toBe('2026-03-11T12:00:00.000Z');

    clock.set('2026-03-11T11:59:59.999Z');
    expect((await live()).map((c) => c.cardId)).toEqual([card.cardId]);
    expect((await client.memoryRollingSearch({ query: 'staging' })).memoryRollingSearch.cards.map((c) => c.cardId)).toEqual([card.cardId]);
    clock.set('2026-03-11T12:00:00.000Z');
    expect(await live()).toEqual([]);
    expect((await client.memoryRollingSearch({ query: 'staging' })).memoryRollingSearch.cards).toEqual([]);
  });
});
