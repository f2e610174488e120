/**
 * A connection whose ROLLBACK failed is discarded, never handed to another request: it may still
 * be inside the failed transaction. Drizzle's transaction() releases its client the same way
 * whether its rollback worked or not, so the pool does it for every holder (db/database.pool.ts).
 *
 * On a real server: a write fails inside its transaction (an injected fault), and the ROLLBACK
 * that follows is made to fail before it reaches PostgreSQL, leaving that backend "idle in
 * transaction (aborted)". The backend must be gone, and the pool keeps serving on others.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import pg from 'pg';
import { faultSwitch, hasRealServer, NEEDS_REAL_SERVER, requestError, startServer, waitUntil, type TestServer } from './support/harness.js';

const AGENT = 'rollback-a';
const faults = faultSwitch();
const original = pg.Client.prototype.query;
/** Armed: the next ROLLBACK a client sends fails without reaching the server; records that backend. */
const rollbackFault = { armed: false, pid: null as number | null };
let server: TestServer;
let admin: pg.Client;

beforeAll(async () => {
  if (!hasRealServer) return;
  // Before the server starts, so that every client it opens sends through this.
  pg.Client.prototype.query = function (this: pg.Client & { processID: number }, ...args: unknown[]) {
    const first = args[0] as string | { text?: string } | undefined;
    const text = typeof first === 'string' ? first : first?.text;
    if (rollbackFault.armed && typeof text === 'string' && /^\s*rollback\b/i.test(text)) {
      rollbackFault.armed = false;
      rollbackFault.pid = this.processID;
      return Promise.reject(new Error('injected: the ROLLBACK failed'));
    }
    return (original as (...a: unknown[]) => unknown).apply(this, args);
  } as typeof original;
  server = await startServer({ realServer: true, faults: faults.inject });
  await server.operator.createAgent({ input: { agentId: AGENT, name: AGENT } });
  admin = new pg.Client({ connectionString: server.testDatabase.url! });
  await admin.connect();
});
afterAll(async () => {
  pg.Client.prototype.query = original;
  await admin?.end();
  await server?.stop();
});

const backend = async (pid: number) => (await admin.query<{ state: string }>('SELECT state FROM pg_stat_activity WHERE pid = $1', [pid])).rows[0]?.state ?? null;

describe.skipIf(!hasRealServer)(`a failed ROLLBACK (${NEEDS_REAL_SERVER})`, () => {
  it('discards its connection: the backend is gone and never serves again', async () => {
    faults.arm('preferences.after_document');
    rollbackFault.armed = true;
    try {
      const error = await requestError(server.operator.applyPreferenceLearning({ input: { agentId: AGENT, content: 'learned', expectedRevision: 1, reason: 'r' } }));
      expect(error.code).toBe('INTERNAL_SERVER_ERROR');
    } finally {
      faults.arm(null);
      rollbackFault.armed = false;
    }
    const pid = rollbackFault.pid;
    expect(pid).toEqual(expect.any(Number));
    // At once (before the pool's idle timeout could end anything): every connection the pool can
    // hand out, all together. Left in the pool, that backend would be among them, inside its
    // aborted transaction.
    const pool = server.database.pool;
    const held = await Promise.all(Array.from({ length: pool.options.max ?? 10 }, () => pool.connect()));
    try {
      const answers = await Promise.allSettled(held.map(async (client) => (await client.query<{ pid: number }>('SELECT pg_backend_pid() AS pid')).rows[0].pid));
      expect(answers.map((a) => (a.status === 'fulfilled' ? (a.value === pid ? 'the failed backend' : 'ok') : a.reason.message))).toEqual(answers.map(() => 'ok'));
    } finally {
      for (const client of held) client.release();
    }
    // Discarded: its backend ends.
    await waitUntil(async () => (await backend(pid!)) === null, `backend ${pid} is gone`);
    // Nothing was written by the failed call, and the same write now succeeds.
    const { preferenceLearning } = await server.operator.preferenceLearning({ agentId: AGENT });
    expect(preferenceLearning.appliedCount).toBe(0);
    const applied = await server.operator.applyPreferenceLearning({ input: { agentId: AGENT, content: 'learned', expectedRevision: 1, reason: 'r' } });
    expect(applied.applyPreferenceLearning.__typename).toBe('ApplyPreferenceLearningSuccess');
  });
});
