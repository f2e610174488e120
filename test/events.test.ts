import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { notifyAfterCommit } from '../src/db/notify-after-commit.js';
import { EventLogSweeper } from '../src/events/sweeper.js';
import { DAY_MS } from '../src/lib/clock.js';
import { createLogger } from '../src/lib/logger.js';
import { collect, hasRealServer, logUnannouncedEvent, NEEDS_REAL_SERVER, startServer, take, type TestServer, faultSwitch } from './support/harness.js';

let server: TestServer;
const faults = faultSwitch();
beforeAll(async () => {
  server = await startServer({ faults: faults.inject });
});
afterAll(async () => server?.stop());

async function newAgent(id: string, on = server) {
  await on.operator.createAgent({ input: { agentId: id, name: id } });
}

async function update(agentId: string, content: string, expectedRevision: number, kind: 'SOUL' | 'RULES' = 'SOUL', on = server) {
  const result = await on.operator.updateProfileDocument({ input: { agentId, kind, content, expectedRevision } });
  if (result.updateProfileDocument.__typename !== 'UpdateProfileDocumentSuccess') throw new Error(JSON.stringify(result));
}

describe('agentEvents', () => {
  it('streams profile changes live with per-agent sequences', async () => {
    await newAgent('ev-live');
    // After sequence 1 (agent.created): no race with the subscription's registration.
    const stream = collect(server.operator.agentEvents({ agentId: 'ev-live', after: 1 }));
    await update('ev-live', 'one', 1);
    await update('ev-live', 'two', 2, 'SOUL');
    const events = await stream.waitFor(2);
    await stream.stop();
    expect(events.map((e) => [e.agentEvents.sequence, e.agentEvents.type, e.agentEvents.payload])).toEqual([
      [2, 'PROFILE_UPDATED', { kind: 'SOUL', revision: 2, reason: 'updated', actor: 'OPERATOR' }],
      [3, 'PROFILE_UPDATED', { kind: 'SOUL', revision: 3, reason: 'updated', actor: 'OPERATOR' }],
    ]);
    expect(events[0].agentEvents.subjectId).toBe('postgres:agent_profile_documents/ev-live/SOUL');
  });

  it('replays from `after`, then continues live with no gap and no duplicate at the seam', async () => {
    await newAgent('ev-replay');
    for (let revision = 1; revision <= 5; revision++) await update('ev-replay', `v${revision}`, revision);
    // Sequence 1 is agent.created; 2..6 are the five updates.
    const stream = collect(server.operator.agentEvents({ agentId: 'ev-replay', after: 3 }));
    const writes = (async () => {
      for (let revision = 6; revision <= 15; revision++) await update('ev-replay', `v${revision}`, revision);
    })();
    await writes;
    await stream.waitFor(13);
    // A barrier: one more change; a duplicate at the seam would arrive before it.
    await update('ev-replay', 'barrier', 16);
    const events = await stream.waitFor(14);
    await stream.stop();
    expect(events.map((e) => e.agentEvents.sequence)).toEqual(Array.from({ length: 14 }, (_, i) => i + 4));
  });

  it('replays everything from after: 0 and only later events for a larger after', async () => {
    await newAgent('ev-zero');
    await update('ev-zero', 'x', 1);
    const all = await take(server.operator.agentEvents({ agentId: 'ev-zero', after: 0 }), 2);
    expect(all.map((e) => [e.agentEvents.sequence, e.agentEvents.type])).toEqual([
      [1, 'AGENT_CREATED'],
      [2, 'PROFILE_UPDATED'],
    ]);
  });

  it('publishes nothing for a rolled-back change, and the next change takes the next sequence', async () => {
    await newAgent('ev-rollback');
    const stream = collect(server.operator.agentEvents({ agentId: 'ev-rollback', after: 1 }));
    faults.arm('preferences.after_audit');
    try {
      await expect(server.operator.applyPreferenceLearning({ input: { agentId: 'ev-rollback', content: 'x', expectedRevision: 1, reason: 'r' } })).rejects.toMatchObject({
        code: 'INTERNAL_SERVER_ERROR',
      });
    } finally {
      faults.arm(null);
    }
    await update('ev-rollback', 'kept', 1, 'RULES');
    // A barrier: a later change; anything of the rolled-back one would have arrived before it.
    await update('ev-rollback', 'barrier', 2, 'RULES');
    const events = await stream.waitFor(2);
    await stream.stop();
    expect(events.map((e) => [e.agentEvents.sequence, e.agentEvents.payload])).toEqual([
      [2, { kind: 'RULES', revision: 2, reason: 'updated', actor: 'OPERATOR' }],
      [3, { kind: 'RULES', revision: 3, reason: 'updated', actor: 'OPERATOR' }],
    ]);
  });

  it("delivers an event that committed but was never announced (its writer stopped in between), by the hub's re-check", async () => {
    await newAgent('ev-unannounced');
    const stream = collect(server.operator.agentEvents({ agentId: 'ev-unannounced', after: 1 }));
    await update('ev-unannounced', 'announced', 1);
    expect((await stream.waitFor(1)).map((e) => e.agentEvents.sequence)).toEqual([2]);
    // What a writer that died after its commit leaves behind: the bumped sequence and the row, no NOTIFY.
    await logUnannouncedEvent(server, 'ev-unannounced', 3);
    const events = await stream.waitFor(2);
    await update('ev-unannounced', 'announced again', 2);
    await stream.waitFor(3);
    // A barrier: one more change; a second delivery of sequence 3 would arrive before it.
    await update('ev-unannounced', 'barrier', 3);
    await stream.waitFor(4);
    await stream.stop();
    expect(events.map((e) => [e.agentEvents.sequence, e.agentEvents.type])).toEqual([
      [2, 'PROFILE_UPDATED'],
      [3, 'PROFILE_UPDATED'],
      [4, 'PROFILE_UPDATED'],
      [5, 'PROFILE_UPDATED'],
    ]);
  });

  it("announces after commit only: nothing for a rolled-back transaction or savepoint, a released savepoint's with its transaction", async () => {
    const heard: string[] = [];
    const stopHearing = server.database.hearLocally('burrow_test_channel', (payload) => heard.push(payload));
    try {
      const { db } = server.database;
      await db.transaction(async (tx) => {
        notifyAfterCommit(tx, 'burrow_test_channel', 'outer');
        await tx.transaction(async (inner) => notifyAfterCommit(inner, 'burrow_test_channel', 'released'));
        await expect(
          tx.transaction(async (inner) => {
            notifyAfterCommit(inner, 'burrow_test_channel', 'rolled-back savepoint');
            throw new Error('undo the savepoint');
          }),
        ).rejects.toThrow('undo the savepoint');
        expect(heard).toEqual([]);
      });
      await expect(
        db.transaction(async (tx) => {
          notifyAfterCommit(tx, 'burrow_test_channel', 'rolled-back transaction');
          throw new Error('undo the transaction');
        }),
      ).rejects.toThrow('undo the transaction');
      notifyAfterCommit(db, 'burrow_test_channel', 'autocommit');
      expect(heard).toEqual(['outer', 'released', 'autocommit']);
    } finally {
      stopHearing();
    }
  });

  it('works over SSE as well as WebSocket', async () => {
    await newAgent('ev-sse');
    await update('ev-sse', 'sse', 1);
    const token = (await server.app.services.tokens.create({ kind: 'operator', name: 'sse' })).token;
    const controller = new AbortController();
    const response = await fetch(server.url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'text/event-stream', authorization: `Bearer ${token}` },
      body: JSON.stringify({ query: 'subscription { agentEvents(agentId: "ev-sse", after: 0) { sequence type } }' }),
      signal: controller.signal,
    });
    expect(response.headers.get('content-type')).toContain('text/event-stream');
    const reader = response.body!.getReader();
    let text = '';
    while (!text.includes('"sequence":2')) text += new TextDecoder().decode((await reader.read()).value);
    controller.abort();
    expect(text).toContain('{"data":{"agentEvents":{"sequence":1,"type":"AGENT_CREATED"}}}');
  });
});

describe('sequences across pruning', () => {
  const lastEventSequence = async (agentId: string) => (await server.operator.agent({ id: agentId })).agent!.lastEventSequence;

  /** One run of the event log sweeper with the server's retention (it runs once when started; stop waits for that run). */
  async function sweep() {
    const sweeper = new EventLogSweeper(server.database.db, server.clock, server.app.services.config.events.retentionDays, createLogger('silent'));
    sweeper.start();
    await sweeper.stop();
  }

  it("continues an agent's sequence after its whole log was pruned, and lastEventSequence is the newest delivered", async () => {
    await newAgent('ev-pruned');
    await update('ev-pruned', 'one', 1);
    await update('ev-pruned', 'two', 2);
    expect(await lastEventSequence('ev-pruned')).toBe(3);
    const logged = async () =>
      (await server.database.pool.query('SELECT sequence FROM agent_events WHERE agent_id = $1 ORDER BY sequence', ['ev-pruned'])).rows.map((r) => Number(r.sequence));
    expect(await logged()).toEqual([1, 2, 3]);

    // One day past the retention: the sweeper removes every event of the agent.
    server.clock.advance((server.app.services.config.events.retentionDays + 1) * DAY_MS);
    await sweep();
    expect(await logged()).toEqual([]);
    expect(await lastEventSequence('ev-pruned')).toBe(3);

    await update('ev-pruned', 'three', 3);
    const replayed = await take(server.operator.agentEvents({ agentId: 'ev-pruned', after: 0 }), 1);
    expect(replayed.map((e) => [e.agentEvents.sequence, e.agentEvents.type])).toEqual([[4, 'PROFILE_UPDATED']]);
    expect(await lastEventSequence('ev-pruned')).toBe(4);

    const live = collect(server.operator.agentEvents({ agentId: 'ev-pruned', after: 4 }));
    await update('ev-pruned', 'four', 4);
    const delivered = await live.waitFor(1);
    await live.stop();
    expect(delivered.map((e) => e.agentEvents.sequence)).toEqual([5]);
    expect(await lastEventSequence('ev-pruned')).toBe(5);
    expect(await logged()).toEqual([4, 5]);
  });
});

describe.skipIf(!hasRealServer)(`events across instances (${NEEDS_REAL_SERVER})`, () => {
  let first: TestServer;
  beforeAll(async () => {
    first = await startServer({ realServer: true });
  });
  afterAll(async () => first?.stop());

  it('delivers a change made through one instance to a subscriber on another', async () => {
    const second = await startServer({ database: first.testDatabase });
    try {
      await newAgent('ev-cross', first);
      const stream = collect(second.operator.agentEvents({ agentId: 'ev-cross', after: 1 }));
      await update('ev-cross', 'from instance one', 1, 'SOUL', first);
      await update('ev-cross', 'again', 2, 'SOUL', first);
      const events = await stream.waitFor(2);
      await stream.stop();
      expect(events.map((e) => e.agentEvents.sequence)).toEqual([2, 3]);
    } finally {
      await second.stop();
    }
  });

  it('keeps sequences gap-free and commit-ordered under concurrent writers', async () => {
    await newAgent('ev-concurrent', first);
    const stream = collect(first.operator.agentEvents({ agentId: 'ev-concurrent', after: 1 }));
    const kinds = ['SOUL', 'RULES', 'ORIENTATION', 'PREFERENCES', 'TOOLS', 'DREAM_MEMORY'] as const;
    await Promise.all(
      kinds.map(async (kind) => {
        for (let revision = 1; revision <= 5; revision++) {
          await first.operator.updateProfileDocument({ input: { agentId: 'ev-concurrent', kind, content: `${kind}${revision}`, expectedRevision: revision } });
        }
      }),
    );
    const events = await stream.waitFor(30);
    await stream.stop();
    expect(events.map((e) => e.agentEvents.sequence)).toEqual(Array.from({ length: 30 }, (_, i) => i + 2));
  });
});
