/**
 * Ownership sessions (runtimeOwnership) are served over graphql-ws only, end whenever their
 * subscription ends, and are capped per agent (BURROW_OWNERS_PER_AGENT) and overall
 * (BURROW_OWNERS_MAX): each one holds a PostgreSQL connection on a real server.
 */
import pg from 'pg';
import WebSocket from 'ws';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openOwner, waitUntilOwnerGone, type OwnerHandle } from './support/continuity.js';
import { hasRealServer, NEEDS_REAL_SERVER, requestError, startServer, waitUntil, type TestServer } from './support/harness.js';

const SUBSCRIBE = 'subscription { runtimeOwnership { ownerId live } }';

let server: TestServer;
beforeAll(async () => {
  server = await startServer();
});
afterAll(async () => server?.stop());

/** Owner rows ever recorded for an agent, and (real server) owner connections held on the database. */
async function held(s: TestServer, agentId: string) {
  const rows = Number((await s.database.pool.query('SELECT count(*)::int AS n FROM continuity_owners WHERE agent_id = $1', [agentId])).rows[0].n);
  if (s.testDatabase.name === null) return { rows, connections: s.app.services.continuity.owners.openCount };
  const { rows: activity } = await s.database.pool.query(
    `SELECT count(*)::int AS n FROM pg_stat_activity WHERE datname = current_database() AND application_name LIKE 'burrow-owner:%'`,
  );
  return { rows, connections: Number(activity[0].n) };
}

describe('only over graphql-ws', () => {
  it('refuses 20 plain POSTs with OWNERSHIP_REQUIRES_WEBSOCKET, opening no owner and holding no connection', async () => {
    const agent = await server.agentClient('own-post');
    const token = agent.options.token;
    for (const accept of ['application/json', 'application/graphql-response+json']) {
      for (let i = 0; i < 20; i++) {
        const response = await fetch(server.url, {
          method: 'POST',
          headers: { 'content-type': 'application/json', accept, authorization: `Bearer ${token}` },
          body: JSON.stringify({ query: SUBSCRIBE }),
        });
        const text = await response.text();
        expect(response.status).toBeLessThan(500);
        expect(JSON.parse(text).errors[0].extensions.code).toBe('OWNERSHIP_REQUIRES_WEBSOCKET');
      }
    }
    expect(await held(server, 'own-post')).toEqual({ rows: 0, connections: 0 });
  });

  it('refuses SSE, including a stream aborted before its first read, opening no owner', async () => {
    const agent = await server.agentClient('own-sse');
    const headers = { 'content-type': 'application/json', accept: 'text/event-stream', authorization: `Bearer ${agent.options.token}` };
    const response = await fetch(server.url, { method: 'POST', headers, body: JSON.stringify({ query: SUBSCRIBE }) });
    const body = await response.text();
    expect(body).toMatch(/event: next/);
    expect(body).toContain('OWNERSHIP_REQUIRES_WEBSOCKET');
    for (let i = 0; i < 20; i++) {
      const controller = new AbortController();
      const aborted = fetch(server.url, { method: 'POST', headers, body: JSON.stringify({ query: SUBSCRIBE }), signal: controller.signal });
      controller.abort();
      await aborted.catch(() => {});
    }
    const get = await fetch(`${server.url}?query=${encodeURIComponent(SUBSCRIBE)}`, { headers: { accept: 'text/event-stream', authorization: headers.authorization } });
    // A GET stream is no GraphQL request here at all (JSON POSTs only): refused before it is read.
    expect(get.status).toBe(405);
    expect(await get.text()).toContain('METHOD_NOT_ALLOWED');
    expect(await held(server, 'own-sse')).toEqual({ rows: 0, connections: 0 });
  });

  it('ends the session when the socket is dropped without a complete message', async () => {
    const agent = await server.agentClient('own-drop');
    const socket = new WebSocket(server.url.replace('http', 'ws'), 'graphql-transport-ws');
    const messages: { type: string; payload?: { data?: { runtimeOwnership: { ownerId: string } } } }[] = [];
    socket.on('message', (data) => messages.push(JSON.parse(String(data))));
    await new Promise((resolve) => socket.once('open', resolve));
    const arrived = (type: string) => waitUntil(() => messages.some((m) => m.type === type), `a ${type} message`);
    socket.send(JSON.stringify({ type: 'connection_init', payload: { authorization: `Bearer ${agent.options.token}` } }));
    await arrived('connection_ack');
    socket.send(JSON.stringify({ type: 'subscribe', id: '1', payload: { query: SUBSCRIBE } }));
    await arrived('next');
    const ownerId = messages.find((m) => m.type === 'next')!.payload!.data!.runtimeOwnership.ownerId;
    expect((await server.operator.continuityOwners({ agentId: 'own-drop' })).continuityOwners).toMatchObject([{ ownerId, live: true }]);
    socket.terminate();
    await waitUntilOwnerGone(server.operator, 'own-drop', ownerId);
    expect((await held(server, 'own-drop')).connections).toBe(0);
  });
});

describe('caps', () => {
  it('allows BURROW_OWNERS_PER_AGENT (default 4) live owners per agent, refuses the next with OWNER_LIMIT_REACHED, and admits again when one ends', async () => {
    const agent = await server.agentClient('own-cap');
    const other = await server.agentClient('own-cap-other');
    const owners: OwnerHandle[] = [];
    try {
      for (let i = 0; i < 4; i++) owners.push(await openOwner(agent));
      const refused = await requestError(openOwner(agent));
      expect(refused.code).toBe('OWNER_LIMIT_REACHED');
      expect(refused.message).toMatch(/4 live ownership sessions/);
      expect((await server.operator.continuityOwners({ agentId: 'own-cap' })).continuityOwners).toHaveLength(4);
      // Another agent has its own allowance.
      owners.push(await openOwner(other));
      await owners[0].close();
      await waitUntilOwnerGone(server.operator, 'own-cap', owners[0].ownerId);
      owners.push(await openOwner(agent));
      expect((await server.operator.continuityOwners({ agentId: 'own-cap' })).continuityOwners).toHaveLength(4);
    } finally {
      await Promise.all(owners.map((o) => o.close()));
    }
  });

  it('refuses past BURROW_OWNERS_MAX with OWNER_CAPACITY_REACHED', async () => {
    const small = await startServer({ config: { owners: { perAgent: 4, max: 3 } } });
    const owners: OwnerHandle[] = [];
    try {
      const a = await small.agentClient('own-max-a');
      const b = await small.agentClient('own-max-b');
      owners.push(await openOwner(a), await openOwner(a), await openOwner(b));
      expect((await requestError(openOwner(b))).code).toBe('OWNER_CAPACITY_REACHED');
      expect((await held(small, 'own-max-b')).connections).toBe(3);
      await owners.pop()!.close();
      await waitUntilOwnerGone(small.operator, 'own-max-b', (await small.operator.continuityOwners({ agentId: 'own-max-b', includeClosed: true })).continuityOwners[0].ownerId);
      owners.push(await openOwner(b));
    } finally {
      await Promise.all(owners.map((o) => o.close()));
      await small.stop();
    }
  });
});

describe.skipIf(!hasRealServer)(`caps across instances (${NEEDS_REAL_SERVER})`, () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startServer({ realServer: true });
  });
  afterAll(async () => server?.stop());

  it('ten owners opened at once for one agent on two instances: exactly four live', async () => {
    const second = await startServer({ database: server.testDatabase });
    const owners: OwnerHandle[] = [];
    try {
      const onFirst = await server.agentClient('own-race');
      const onSecond = await second.client({ agentId: 'own-race' });
      const results = await Promise.allSettled(Array.from({ length: 10 }, (_, i) => openOwner(i % 2 ? onSecond : onFirst)));
      for (const r of results) if (r.status === 'fulfilled') owners.push(r.value);
      const refusals = results.filter((r) => r.status === 'rejected').map((r) => (r as PromiseRejectedResult).reason.code);
      expect([owners.length, refusals]).toEqual([4, Array(6).fill('OWNER_LIMIT_REACHED')]);
      expect((await server.operator.continuityOwners({ agentId: 'own-race' })).continuityOwners.filter((o) => o.live)).toHaveLength(4);
    } finally {
      await Promise.all(owners.map((o) => o.close()));
      await second.stop();
    }
  });

  it('the overall cap counts owner connections of every instance on the database', async () => {
    const first = await startServer({ realServer: true, config: { owners: { perAgent: 4, max: 2 } } });
    const second = await startServer({ database: first.testDatabase, config: { owners: { perAgent: 4, max: 2 } } });
    const owners: OwnerHandle[] = [];
    try {
      const a = await first.agentClient('own-total');
      const b = await second.client({ agentId: 'own-total' });
      owners.push(await openOwner(a), await openOwner(b));
      expect((await requestError(openOwner(b))).code).toBe('OWNER_CAPACITY_REACHED');
      expect((await requestError(openOwner(a))).code).toBe('OWNER_CAPACITY_REACHED');
      const admin = new pg.Client({ connectionString: first.testDatabase.url! });
      await admin.connect();
      const { rows } = await admin.query(`SELECT count(*)::int AS n FROM pg_stat_activity WHERE datname = current_database() AND application_name LIKE 'burrow-owner:%'`);
      await admin.end();
      expect(rows[0].n).toBe(2);
    } finally {
      await Promise.all(owners.map((o) => o.close()));
      await second.stop();
      await first.stop();
    }
  });
});
