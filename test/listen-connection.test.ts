/**
 * One LISTEN connection per instance (docs/scaling.md's sizing: pool + 1 + ownership sessions):
 * the event hub's channel (burrow_events) and the token watch's (burrow_tokens) share it. Two
 * instances on one real database: PostgreSQL shows one listening backend per instance; a write
 * on one instance reaches a subscriber on the other, and a revocation on one closes the other's
 * socket (the periodic token re-check is set to an hour, so only the notification can do it).
 * After the listening backend is killed, both channels come back on one connection again.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import pg from 'pg';
import { hasRealServer, NEEDS_REAL_SERVER, startServer, waitUntil, type TestServer } from './support/harness.js';
import { RawSocket } from './support/wire.js';
import { DEFAULT_LIMITS } from '../src/config.server.js';

const AGENT = 'listen-a';
let first: TestServer;
let second: TestServer;
let admin: pg.Client;

const config = { tokens: { lastUsedIntervalSeconds: 60, recheckSeconds: 3600, cacheSeconds: 30, cacheMax: 10_000 }, limits: DEFAULT_LIMITS };

beforeAll(async () => {
  if (!hasRealServer) return;
  first = await startServer({ realServer: true, config });
  second = await startServer({ database: first.testDatabase, config });
  await first.operator.createAgent({ input: { agentId: AGENT, name: AGENT } });
  admin = new pg.Client({ connectionString: first.testDatabase.url! });
  await admin.connect();
});
afterAll(async () => {
  await admin?.end();
  await second?.stop();
  await first?.stop();
});

/** The database's backends whose last statement was a LISTEN: the listening connections. */
async function listening(): Promise<{ pid: number; query: string }[]> {
  const { rows } = await admin.query("SELECT pid, query FROM pg_stat_activity WHERE datname = current_database() AND query ILIKE 'LISTEN %' ORDER BY pid");
  return rows;
}

/** Both channels work on `listener`: a write on `writer` reaches it, and a revocation on `writer` closes its socket. */
async function bothChannelsHeard(listener: TestServer, writer: TestServer, label: string) {
  const { token, record } = await listener.app.services.tokens.create({ kind: 'agent', name: `listen-${label}`, agentId: AGENT });
  const socket = await RawSocket.open(listener.url);
  await socket.init(token);
  const before = (await listener.operator.agent({ id: AGENT })).agent!.lastEventSequence;
  socket.send({ type: 'subscribe', id: 'events', payload: { query: `subscription { agentEvents(agentId: "${AGENT}", after: ${before}) { sequence type } }` } });
  // The subscription is live once the server has answered a query on the same socket after it.
  expect(await socket.operation('ping', { query: '{ __typename }' })).toMatchObject({ type: 'next' });
  const saved = await writer.operator.brainSave({ input: { agentId: AGENT, title: `listen ${label}`, content: 'c' } });
  expect(saved.brainSave.__typename).toBe('BrainSaveSuccess');
  const event = await socket.until((m) => m.id === 'events' && m.type === 'next');
  expect((event!.payload as { data: { agentEvents: { sequence: number } } }).data.agentEvents.sequence).toBe(before + 1);

  await writer.app.services.tokens.revoke(record.id);
  expect(await socket.waitClosed()).toMatchObject({ code: 4403 });
}

describe.skipIf(!hasRealServer)(`the LISTEN connection (${NEEDS_REAL_SERVER})`, () => {
  it('is one connection per instance, carrying both channels', async () => {
    const backends = await listening();
    expect(backends).toHaveLength(2);
    await bothChannelsHeard(first, second, 'a');
    await bothChannelsHeard(second, first, 'b');
    expect(await listening()).toHaveLength(2);
  });

  it('comes back as one connection for both channels after it is killed', async () => {
    const before = await listening();
    // Kill both instances' listeners: each instance's two callers re-listen on their own backoff.
    await admin.query('SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE pid = ANY($1::int[])', [before.map((b) => b.pid)]);
    await waitUntil(async () => {
      const now = await listening();
      return now.length === 2 && now.every((b) => !before.some((o) => o.pid === b.pid)) && now.every((b) => /burrow_(events|tokens)/.test(b.query));
    }, 'each instance listens again');
    await bothChannelsHeard(first, second, 'c');
    await bothChannelsHeard(second, first, 'd');
    expect(await listening()).toHaveLength(2);
  });
});
