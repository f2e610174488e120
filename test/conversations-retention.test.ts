/** Retention of records, originals kept: the sweep per store, the `burrow retention run` CLI and the server's sweeper. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, hasRealServer, NEEDS_REAL_SERVER, waitUntil, type TestServer, requestError } from './support/harness.js';
import { runNpm, userEnv } from './support/shipped.js';
import { append, allOriginals } from './support/conversations.js';

let server: TestServer;
beforeAll(async () => {
  server = await startServer();
});
afterAll(async () => server?.stop());

describe('retention', () => {
  it('removes records expired longer than the grace period per store, never pinned records, brains or the originals they cite', async () => {
    const own = await startServer({ config: { retention: { graceDays: 7, intervalSeconds: 0 } } });
    try {
      const client = await own.agentClient('rt-agent', { scope: 'p', session: 's' });
      const original = await append(client, '{"evidence":1}');
      const write = async (title: string, ttlDays: number, pinned = false) => {
        const r = (await client.memoryWorkingWrite({ input: { kind: 'FINDING', title, content: 'c', ttlDays, pinned, sourceRefs: [original.reference] } })).memoryWorkingWrite;
        if (r.__typename !== 'MemoryWorkingWriteSuccess') throw new Error('write failed');
        return r.record;
      };
      await write('one day', 1);
      await write('pinned one day', 1, true);
      await write('long', 365);
      const h = (await client.sessionWriteHandoff({ input: { title: 'h', goal: 'g', outcome: 'o', body: 'b' } })).sessionWriteHandoff;
      expect(h.__typename).toBe('SessionWriteHandoffSuccess');
      const count = async (table: string) => (await own.database.pool.query(`SELECT count(*)::int AS n FROM ${table}`)).rows[0].n as number;
      // The stores this test is about; every store is covered in test/retention.test.ts.
      const removed = (report: { stores: { store: string; removed: number }[] }) =>
        // The API names stores by enum (WORKING_RECORDS), the service by table (working_records).
        Object.fromEntries(
          report.stores
            .map((s) => ({ ...s, store: s.store.toLowerCase() }))
            .filter((s) => ['working_records', 'session_handoffs'].includes(s.store))
            .map((s) => [s.store, s.removed]),
        );
      const start = own.clock.now();
      const DAY = 86_400_000;

      own.clock.set(new Date(start.getTime() + 8 * DAY)); // one-day record expired 7 days ago: within grace
      expect(removed((await own.operator.runRetention()).runRetention)).toEqual({ working_records: 0, session_handoffs: 0 });
      expect(await count('working_records')).toBe(3);

      own.clock.set(new Date(start.getTime() + 8 * DAY + 1));
      const report = (await own.operator.runRetention()).runRetention;
      expect(report).toMatchObject({ graceDays: 7, cutoff: new Date(start.getTime() + DAY + 1).toISOString() });
      expect(removed(report)).toEqual({ working_records: 1, session_handoffs: 0 });
      expect(await count('working_records')).toBe(2);

      own.clock.set(new Date(start.getTime() + 21 * DAY + 1)); // the 14-day handoff, 7 days of grace later
      expect(removed(await own.app.services.retention.run())).toEqual({ working_records: 0, session_handoffs: 1 });
      expect(await count('session_handoffs')).toBe(0);
      expect((await client.memoryWorkingSearch({ query: '' })).memoryWorkingSearch.map((r) => r.title).sort()).toEqual(['long', 'pinned one day']);
      // Originals are never swept, and removing a memory that cites one leaves it alone.
      own.clock.set(new Date(start.getTime() + 40_000 * DAY));
      expect(removed(await own.app.services.retention.run())).toEqual({ working_records: 1, session_handoffs: 0 });
      expect((await allOriginals(client, 's')).map((o) => o.payload)).toEqual(['{"evidence":1}']);
      expect(await count('working_records')).toBe(1); // the pinned one
      const agentOnly = await own.client({ agentId: 'rt-agent' });
      expect((await requestError(agentOnly.runRetention())).code).toBe('FORBIDDEN');
    } finally {
      await own.stop();
    }
  });
});

describe.skipIf(!hasRealServer)(`burrow retention run (${NEEDS_REAL_SERVER})`, () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startServer({ realServer: true });
  });
  afterAll(async () => server?.stop());

  it('sweeps the configured database and reports per store', async () => {
    const client = await server.agentClient('cli-agent', { scope: 'p', session: 's' });
    // Expired by the system clock the CLI uses: written "now" on a clock set far in the past.
    const saved = server.clock.now();
    server.clock.set('2000-01-01T00:00:00.000Z');
    const r = (await client.memoryWorkingWrite({ input: { kind: 'FINDING', title: 'ancient', content: 'x', ttlDays: 1 } })).memoryWorkingWrite;
    expect(r.__typename).toBe('MemoryWorkingWriteSuccess');
    server.clock.set(saved);
    const due = await server.database.pool.query(`SELECT count(*)::int AS n FROM working_records WHERE NOT pinned AND expires_at < now() - interval '7 days'`);
    const dueHandoffs = await server.database.pool.query(`SELECT count(*)::int AS n FROM session_handoffs WHERE expires_at < now() - interval '7 days'`);
    const { code, stdout } = await runNpm(
      ['run', 'burrow', '--', 'retention', 'run'],
      userEnv({
        BURROW_POSTGRES_LIFECYCLE: 'external',
        BURROW_POSTGRES_URL: server.testDatabase.url!,
        BURROW_POSTGRES_REQUIRED_MAJOR: '13',
        BURROW_RETENTION_GRACE_DAYS: '7',
        BURROW_LOG_LEVEL: 'silent',
      }),
    );
    expect(code).toBe(0);
    expect(stdout).toMatch(/grace 7 days/);
    expect(due.rows[0].n).toBeGreaterThanOrEqual(1);
    expect(stdout).toContain(`working_records\t${due.rows[0].n} removed`);
    expect(stdout).toContain(`session_handoffs\t${dueHandoffs.rows[0].n} removed`);
    expect(stdout).toContain('brains and conversation originals are never removed');
    const left = await server.database.pool.query(`SELECT count(*)::int AS n FROM working_records WHERE agent_id = 'cli-agent'`);
    expect(left.rows[0].n).toBe(0);
  });
});

describe.skipIf(!hasRealServer)(`the server's retention sweeper (${NEEDS_REAL_SERVER})`, () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startServer({ realServer: true });
  });
  afterAll(async () => server?.stop());

  it('runs on its interval in a server instance, using that instance clock', async () => {
    const client = await server.agentClient('sweep-agent', { scope: 'p' });
    const r = (await client.memoryWorkingWrite({ input: { kind: 'FINDING', title: 'to be swept', content: 'x', ttlDays: 1 } })).memoryWorkingWrite;
    if (r.__typename !== 'MemoryWorkingWriteSuccess') throw new Error('write failed');
    const { ManualClock } = await import('../src/lib/clock.js');
    const later = new ManualClock(new Date(server.clock.now().getTime() + 9 * 86_400_000));
    const count = async () => (await server.database.pool.query(`SELECT count(*)::int AS n FROM working_records WHERE id = $1`, [r.record.recordId])).rows[0].n as number;
    expect(await count()).toBe(1);
    // A second instance on the same database whose sweeper starts with an immediate run.
    const second = await startServer({ database: server.testDatabase, clock: later, config: { retention: { graceDays: 7, intervalSeconds: 3600 } } });
    try {
      await waitUntil(async () => (await count()) === 0, 'the second instance sweeps the record', 5_000, 25);
    } finally {
      await second.stop();
    }
  });
});
