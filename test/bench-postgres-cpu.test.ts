/**
 * The writes bench prints what each write costs PostgreSQL's processes (bench/process-cpu.ts:
 * postgresCpu): a save through the server against a pgbench transaction. pgbench's backends exit
 * when its run ends, so their CPU is read once the postmaster has reaped them (its children's
 * time); until then a zombie shows none. This checks both halves on a real server of this machine.
 */
import { existsSync } from 'node:fs';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { postgresCpu } from '../bench/process-cpu.js';
import { createTestDatabase, hasRealServer, NEEDS_REAL_SERVER, type TestDatabase } from './support/harness.js';

/** A busy loop of `ms` wall-clock milliseconds inside the backend. */
const spin = (ms: number) => `DO $$ DECLARE t timestamptz := clock_timestamp(); BEGIN WHILE clock_timestamp() < t + interval '${ms} ms' LOOP END LOOP; END $$`;

describe.skipIf(!hasRealServer)(`PostgreSQL's CPU as the writes bench reads it (${NEEDS_REAL_SERVER})`, () => {
  let database: TestDatabase;
  let client: pg.Client;
  beforeAll(async () => {
    database = await createTestDatabase({ real: true });
    client = new pg.Client({ connectionString: database.url! });
    await client.connect();
  });
  afterAll(async () => {
    await client?.end();
    await database?.drop();
  });

  it('counts a backend whose connection closed during the work, once the postmaster has reaped it', async () => {
    const cpu = postgresCpu((await client.query<{ pid: number }>('SELECT pg_backend_pid() AS pid')).rows[0].pid);
    expect(cpu).not.toBeNull();
    const { result: pid, ms } = await cpu!.during(async () => {
      const busy = new pg.Client({ connectionString: database.url! });
      await busy.connect();
      const { pid } = (await busy.query<{ pid: number }>('SELECT pg_backend_pid() AS pid')).rows[0];
      await busy.query(spin(500));
      await busy.end();
      return pid;
    });
    // Gone from /proc: not a live child nor a zombie, so its CPU can only have come from the
    // postmaster's reaped children's time.
    expect(existsSync(`/proc/${pid}`)).toBe(false);
    // Half a second of spinning, of which a loaded 2-core machine still gives it a fifth.
    expect(ms).toBeGreaterThanOrEqual(100);
  });

  it('reads nothing for a process that is not a PostgreSQL backend of this machine', () => {
    expect(postgresCpu(process.pid)).toBeNull();
    expect(postgresCpu(2 ** 22 + 1)).toBeNull();
  });
});
