/**
 * The routing of db/primary-router.ts on a real server, without a failover engine (the failover
 * itself is test/topology/failover.test.ts, opt-in): with a host list whose first host is down it
 * reaches the live one and remembers it; a host that refuses us (missing database) is that error
 * at once, not a wait for a primary; when no host answers, SQLSTATE 08001 naming each host's
 * reason (what the masker answers as 503 DATABASE_UNAVAILABLE); a server made read-only is
 * refused at connect, and a live connection to a server that turns read-only ends; behind a
 * transaction pooler each connection asks the server instead of trusting what was reported, and a
 * write refused as read-only (25006) ends its connection once the statement is done.
 */
import { createServer } from 'node:net';
import { describe, expect, it, vi } from 'vitest';
import { PrimaryRouter } from '../src/db/primary-router.js';
import { isConnectionLoss } from '../src/lib/connection-errors.js';
import { createTestDatabase, hasRealServer, NEEDS_REAL_SERVER, waitUntil } from './support/harness.js';

/** A TCP port nothing listens on (taken, then released). */
function closedPort(): Promise<number> {
  return new Promise((resolve) => {
    const server = createServer().listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

const failure = (promise: Promise<unknown>) =>
  promise.then(
    () => null,
    (error: { code?: string; message: string }) => error,
  );

describe.skipIf(!hasRealServer)(`routing to the read-write server (${NEEDS_REAL_SERVER})`, () => {
  it('skips a host that is down, reports a refusal at once, and 08001 when no host answers', async () => {
    const database = await createTestDatabase({ real: true });
    try {
      const url = new URL(database.url!);
      const live = { host: url.hostname, port: Number(url.port || 5432) };
      const down = { host: '127.0.0.1', port: await closedPort() };
      const config = { connectionString: database.url! };

      const Client = new PrimaryRouter([down, live], config).clientClass();
      const client = new Client(config);
      await client.connect();
      const { rows } = await client.query<{ port: number }>('SELECT inet_server_port() AS port');
      expect(rows).toEqual([{ port: live.port }]);
      await client.end();

      const missing = { connectionString: database.url!.replace(/\/[^/?]+(\?|$)/, '/burrow_no_such_database$1') };
      const refused = await failure(new (new PrimaryRouter([down, live], missing).clientClass())(missing).connect());
      expect(refused?.code).toBe('3D000');

      const nowhere = await failure(new (new PrimaryRouter([down, { ...down }], config).clientClass())(config).connect());
      expect(nowhere?.code).toBe('08001');
      expect(nowhere?.message).toMatch(
        new RegExp(`^no server accepts writes right now \\(127\\.0\\.0\\.1:${down.port} .*ECONNREFUSED.*; 127\\.0\\.0\\.1:${down.port} .*ECONNREFUSED`),
      );
      expect(isConnectionLoss(nowhere)).toBe(true);
    } finally {
      await database.drop();
    }
  });

  it('refuses a read-only server at connect, and ends a live connection whose server turns read-only', async () => {
    const database = await createTestDatabase({ real: true });
    const name = database.name!;
    const config = { connectionString: database.url! };
    const Client = new PrimaryRouter([], config).clientClass();
    const admin = new Client(config);
    await admin.connect();
    try {
      const watched = new Client(config);
      const errors: Error[] = [];
      watched.on('error', (error) => errors.push(error));
      await watched.connect();

      // What a demotion without a restart looks like to a client: default_transaction_read_only
      // reported as on (a database-level setting reaches new sessions; SET reaches this one).
      await admin.query(`ALTER DATABASE ${name} SET default_transaction_read_only = on`);
      const refused = await failure(new Client(config).connect());
      expect([refused?.code, refused?.message]).toEqual(['08001', expect.stringContaining('read-only (default_transaction_read_only)')]);

      await watched.query('SET default_transaction_read_only = on').catch(() => {});
      await waitUntil(() => errors.length > 0, 'the connection to a server turned read-only errors');
      expect([(errors[0] as { code?: string }).code, errors[0].message]).toEqual(['08001', expect.stringContaining('the server turned read-only')]);
      await admin.query(`ALTER DATABASE ${name} RESET default_transaction_read_only`);
    } finally {
      await admin.end();
      await database.drop();
    }
  });

  it('behind a pooler asks the server at connect; a write refused as read-only (25006) ends its connection and forgets the primary', async () => {
    const database = await createTestDatabase({ real: true });
    try {
      const url = new URL(database.url!);
      const live = { host: url.hostname, port: Number(url.port || 5432) };
      const config = { connectionString: database.url! };
      // What each connect sends beyond the connection itself.
      const sentAtConnect = async (router: PrimaryRouter) => {
        const client = new (router.clientClass())(config);
        const sent: unknown[] = [];
        const query = client.query.bind(client) as (...args: unknown[]) => unknown;
        client.query = ((...args: unknown[]) => (sent.push(args[0]), query(...args))) as typeof client.query;
        await client.connect();
        await client.end();
        return sent;
      };
      // PostgreSQL 15 reports in_hot_standby at connect: trusted directly, asked through a pooler
      // (PgBouncer caches the first server connection's report).
      expect(await sentAtConnect(new PrimaryRouter([live], config))).toEqual([]);
      expect(await sentAtConnect(new PrimaryRouter([live], config, { pooler: true }))).toEqual(['SHOW transaction_read_only']);

      const router = new PrimaryRouter([live, { ...live }], config, { pooler: true });
      const forget = vi.spyOn(router, 'forget');
      const client = new (router.clientClass())(config);
      const ended = new Promise((resolve) => client.once('end', resolve));
      await client.connect();
      await client.query('BEGIN');
      // A read-only transaction: refused as a demoted server refuses, with nothing reported.
      await client.query('SET TRANSACTION READ ONLY');
      const refused = await failure(client.query('CREATE TABLE never_made (id int)'));
      expect(refused?.code).toBe('25006');
      expect(isConnectionLoss(refused)).toBe(true);
      await ended;
      expect(forget).toHaveBeenCalledWith(live);
    } finally {
      await database.drop();
    }
  });
});
