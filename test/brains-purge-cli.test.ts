/**
 * brainPurge under a race (two operators at once, on real connections: exactly one purges, the
 * other answers alreadyPurged with the same receipt) and `npm run burrow -- brain purge` (the
 * built CLI, real processes and exit codes; run `npm run build` first). On a real PostgreSQL.
 */
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BurrowClient } from '../clients/typescript/sdk.js';
import { hasRealServer, NEEDS_REAL_SERVER, startServer, waitUntil, type TestServer } from './support/harness.js';
import { ok } from './support/continuity.js';
import { purgeState, tombstone } from './support/purge.js';
import { runNpm, userEnv } from './support/shipped.js';
import { saveMemory } from './support/brains.js';

const AGENT = 'purge-racer';
let server: TestServer;
let agent: BurrowClient;

describe.skipIf(!hasRealServer)(`brainPurge races and the CLI (${NEEDS_REAL_SERVER})`, () => {
  beforeAll(async () => {
    server = await startServer({ realServer: true });
    agent = await server.agentClient(AGENT);
  });
  afterAll(async () => server?.stop());

  it('two operators purging one memory at once: one purges, the other answers alreadyPurged with the same receipt', async () => {
    const [first, second] = await Promise.all([server.client(), server.client()]);
    for (let round = 0; round < 3; round++) {
      const memoryId = await tombstone(server, agent, { title: `race ${round}`, content: 'raced content' });
      // A third connection holds the memory's row, so both purges are waiting on it when it lets go.
      const blocker = new pg.Client({ connectionString: server.testDatabase.url! });
      await blocker.connect();
      try {
        await blocker.query('BEGIN');
        await blocker.query('SELECT 1 FROM brain_memories WHERE agent_id = $1 AND id = $2 FOR UPDATE', [AGENT, memoryId]);
        const racing = Promise.all([first, second].map((client) => client.brainPurge({ input: { agentId: AGENT, memoryId } }).then((r) => ok(r.brainPurge, 'BrainPurgeSuccess'))));
        // Asked outside the blocker's transaction, which would keep seeing its first snapshot of the activity.
        await waitUntil(async () => {
          const { rows } = await server.database.pool.query(
            `SELECT count(*)::int AS n FROM pg_stat_activity WHERE datname = current_database() AND wait_event_type = 'Lock' AND query LIKE '%brain_memories%for update%'`,
          );
          return rows[0].n === 2;
        }, 'both purges wait on the memory');
        await blocker.query('COMMIT');
        const results = await racing;
        expect(results.map((r) => r.alreadyPurged).sort()).toEqual([false, true]);
        expect(results[0].receipt).toEqual(results[1].receipt);
        expect(results[0].memory).toEqual(results[1].memory);
        const state = await purgeState(server, AGENT, memoryId, [`race ${round}`, 'raced content']);
        expect([state.receipts, state.textAnywhere, state.events.filter((e) => e.type === 'brain.purged').length]).toEqual([1, 0, 1]);
      } finally {
        await blocker.end();
      }
    }
  });

  const burrow = (args: string[]) =>
    runNpm(
      ['run', 'burrow', '--', ...args],
      userEnv({
        BURROW_LOG_LEVEL: 'error',
        BURROW_POSTGRES_LIFECYCLE: 'external',
        BURROW_POSTGRES_URL: server.testDatabase.url!,
        BURROW_POSTGRES_REQUIRED_MAJOR: '13',
      }),
    );

  it('burrow brain purge prints the receipt and exits 0; run again it says so and prints the same receipt', async () => {
    const memoryId = await tombstone(server, agent, { title: 'cli purge', content: 'cli content', sourceRefs: ['conv:cli'] });
    const run = await burrow(['brain', 'purge', '--agent', AGENT, '--memory', memoryId]);
    expect([run.code, run.stderr]).toEqual([0, '']);
    const { dataRemovalReceipts } = await server.operator.dataRemovalReceipts({ agentId: AGENT, first: 1 });
    const receipt = dataRemovalReceipts.edges[0].node;
    expect(receipt).toMatchObject({ kind: 'MEMORY_PURGE', memoryId, actor: { kind: 'OPERATOR', principalId: 'cli:brain-purge' } });
    const printedReceipt = [
      `receipt ${receipt.receiptId} (MEMORY_PURGE) by OPERATOR cli:brain-purge, completed ${receipt.completedAt}`,
      '  agent_events\t3',
      '  brain_memories\t1',
      '  brain_memory_revisions\t3',
      `content hash (SHA-256): ${receipt.contentHash}`,
    ];
    expect(run.stdout).toBe([`purged memory ${memoryId} of agent ${AGENT}`, ...printedReceipt, ''].join('\n'));
    expect((await purgeState(server, AGENT, memoryId, ['cli purge', 'cli content', 'conv:cli'])).textAnywhere).toBe(0);

    const again = await burrow(['brain', 'purge', '--agent', AGENT, '--memory', memoryId]);
    expect([again.code, again.stderr]).toEqual([0, '']);
    expect(again.stdout).toBe(
      [`memory ${memoryId} of agent ${AGENT} was already purged at ${receipt.completedAt}; nothing changed. Its receipt:`, ...printedReceipt, ''].join('\n'),
    );
  });

  it('refuses a live memory, an unknown memory and missing flags with a message and exit 1, changing nothing', async () => {
    const live = await saveMemory(server, agent, { title: 'cli live', content: 'still here' });
    const before = await purgeState(server, AGENT, live.memoryId);
    const refused = await burrow(['brain', 'purge', '--agent', AGENT, '--memory', live.memoryId]);
    expect([refused.code, refused.stdout, refused.stderr]).toEqual([
      1,
      '',
      `burrow: cannot purge: BrainMemory ${live.memoryId} is live: only a removed memory (a tombstone, brainRemove) can be purged; nothing was changed\n`,
    ]);
    expect(await purgeState(server, AGENT, live.memoryId)).toEqual(before);

    const unknown = await burrow(['brain', 'purge', '--agent', AGENT, '--memory', 'no-such-memory']);
    expect([unknown.code, unknown.stdout, unknown.stderr]).toEqual([1, '', `burrow: cannot purge: agent "${AGENT}" has no memory "no-such-memory"; nothing was changed\n`]);

    const missing = await burrow(['brain', 'purge', '--agent', AGENT]);
    expect([missing.code, missing.stdout, missing.stderr]).toEqual([1, '', 'burrow: brain purge needs --agent AGENT_ID and --memory MEMORY_ID\n']);
  });
});
