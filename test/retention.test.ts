/**
 * Retention covers every store that has a lifetime and reports per store, on the controlled
 * clock: working records, handoffs and rolling cards once expired longer than the grace period;
 * Tiddle history (180 days) and residue (24 hours) by their windows, also for a scope that stops
 * getting passes; the event log by its age. Brains and conversation originals are never touched.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BurrowClient } from '../clients/typescript/sdk.js';
import { DAY_MS, HOUR_MS, ManualClock } from '../src/lib/clock.js';
import { startChatServer, type ChatServer } from './support/chat-server.js';
import { startServer, type TestServer } from './support/harness.js';
import { providerTimeoutMs } from './support/load.js';

const T0 = Date.parse('2026-01-01T00:00:00.000Z');
const clock = new ManualClock(new Date(T0));
let server: TestServer;
let chat: ChatServer;

beforeAll(async () => {
  chat = await startChatServer();
  server = await startServer({
    clock,
    config: {
      retention: { graceDays: 7, intervalSeconds: 0 },
      events: { retentionDays: 30, subscriberBufferEvents: 1000 },
      tiddle: { scheduler: false, proposer: { kind: 'openai', url: chat.url, model: 'retention-test', apiKey: 'sk-test', timeoutMs: providerTimeoutMs() } },
    },
  });
});
afterAll(async () => {
  await server?.stop();
  await chat?.close();
});

const STORES = ['WORKING_RECORDS', 'SESSION_HANDOFFS', 'ROLLING_CARDS', 'TIDDLE_HISTORY', 'TIDDLE_RESIDUE', 'AGENT_EVENTS', 'DREAM_DIARY_ENTRIES', 'IDEMPOTENCY_KEYS'] as const;
type Removed = Partial<Record<(typeof STORES)[number], number>>;

/** One sweep over GraphQL at `at`; the removed count of every store (unnamed stores must be 0). */
async function sweepAt(at: number): Promise<Removed> {
  clock.set(new Date(at));
  const report = (await server.operator.runRetention()).runRetention;
  expect(report.stores.map((s) => s.store)).toEqual([...STORES]);
  return Object.fromEntries(report.stores.filter((s) => s.removed > 0).map((s) => [s.store, s.removed]));
}

const count = async (sql: string) => Number((await server.database.pool.query(sql)).rows[0].n);

async function residue(client: BurrowClient, turnRef: string) {
  const r = await client.tiddleAppendResidue({ input: { turnRef, excerpts: [{ role: 'USER', text: `about ${turnRef}` }] } });
  expect(r.tiddleAppendResidue.__typename).toBe('TiddleAppendResidueSuccess');
}

describe('retention sweeps every store with a lifetime', () => {
  it('removes per store at exact boundaries, and never Brains or originals', async () => {
    const agentId = 'ret-all';
    chat.script(agentId, (req) => ({ proposals: [{ action: 'create', title: `Card ${req.project}`, body: 'a rolling card', evidence: req.residue!.map((r) => r.reference) }] }));
    const alpha = await server.agentClient(agentId, { scope: 'alpha', session: 's1' });
    const beta = await server.client({ agentId, scope: 'beta', session: 's2' });

    // Stores that are never swept: Brains (live and tombstoned) and originals (active and archived).
    const kept = (await alpha.brainSave({ input: { title: 'kept forever', content: 'a brain memory' } })).brainSave;
    const removedMemory = (await alpha.brainSave({ input: { title: 'tombstoned', content: 'x' } })).brainSave;
    if (kept.__typename !== 'BrainSaveSuccess' || removedMemory.__typename !== 'BrainSaveSuccess') throw new Error('brainSave failed');
    expect((await alpha.brainRemove({ input: { memoryId: removedMemory.memory.memoryId, expectedRevision: 1 } })).brainRemove.__typename).toBe('BrainRemoveSuccess');
    for (const payload of ['{"n":1}', '{"n":2}'])
      expect((await alpha.appendConversationEntry({ input: { payload } })).appendConversationEntry.__typename).toBe('AppendConversationEntrySuccess');
    expect((await alpha.resetConversation({ input: { reason: 'archive one' } })).resetConversation.__typename).toBe('ResetConversationSuccess');
    expect((await alpha.appendConversationEntry({ input: { payload: '{"n":3}' } })).appendConversationEntry.__typename).toBe('AppendConversationEntrySuccess');
    const neverSwept = `SELECT (SELECT count(*) FROM brain_memories) + (SELECT count(*) FROM brain_memory_revisions) + (SELECT count(*) FROM conversation_entries)
      + (SELECT count(*) FROM conversation_archive_entries) + (SELECT count(*) FROM conversation_archives) + (SELECT count(*) FROM conversation_sessions)
      + (SELECT count(*) FROM agent_profile_documents) AS n`;
    const neverSweptBefore = await count(neverSwept);
    const brainsBefore = await server.database.pool.query('SELECT * FROM brain_memories ORDER BY id');

    // Stores with a lifetime.
    const write = async (title: string, pinned: boolean) => {
      const r = (await alpha.memoryWorkingWrite({ input: { kind: 'FINDING', title, content: 'c', ttlDays: 1, pinned } })).memoryWorkingWrite;
      expect(r.__typename).toBe('MemoryWorkingWriteSuccess');
    };
    await write('one day', false);
    await write('pinned one day', true);
    expect((await alpha.sessionWriteHandoff({ input: { title: 'h', goal: 'g', outcome: 'o', body: 'b' } })).sessionWriteHandoff.__typename).toBe('SessionWriteHandoffSuccess');
    await residue(alpha, 'a1');
    await residue(alpha, 'a2');
    await residue(beta, 'b1');
    await residue(beta, 'b2');
    await server.operator.setTiddleCardTtl({ input: { agentId, days: 10 } });
    for (const project of ['alpha', 'beta']) {
      const pass = (await server.operator.tiddleRunPass({ agentId, project })).tiddleRunPass;
      if (pass.__typename !== 'TiddleRunPassSuccess') throw new Error(JSON.stringify(pass));
      expect(pass.outcomes[0], JSON.stringify(pass.outcomes[0])).toMatchObject({ status: 'SUCCEEDED', created: [expect.any(String)] });
    }
    expect(await count(`SELECT count(*) AS n FROM tiddle_cards WHERE agent_id = '${agentId}'`)).toBe(2);
    expect(await count(`SELECT count(*) AS n FROM tiddle_entries WHERE agent_id = '${agentId}' AND kind = 'history'`)).toBe(2);

    // Residue: the 24-hour window, to the millisecond.
    expect(await sweepAt(T0 + DAY_MS)).toEqual({});
    expect(await sweepAt(T0 + DAY_MS + 1)).toEqual({ TIDDLE_RESIDUE: 4 });
    // The one-day working record: expired at T0 + 1 day, removed once 7 days of grace have passed.
    expect(await sweepAt(T0 + 8 * DAY_MS)).toEqual({});
    expect(await sweepAt(T0 + 8 * DAY_MS + 1)).toEqual({ WORKING_RECORDS: 1 });
    // Rolling cards: refreshed at T0 with a 10-day TTL, removed 7 days after that; both scopes.
    const sequence = (await server.operator.agent({ id: agentId })).agent!.lastEventSequence;
    expect(await sweepAt(T0 + 17 * DAY_MS)).toEqual({});
    expect((await server.operator.rollingCards({ agentId, project: 'alpha', first: 10 })).rollingCards.edges).toEqual([]);
    expect(await count(`SELECT count(*) AS n FROM tiddle_cards WHERE agent_id = '${agentId}'`)).toBe(2);
    expect(await sweepAt(T0 + 17 * DAY_MS + 1)).toEqual({ ROLLING_CARDS: 2 });
    expect(await count(`SELECT count(*) AS n FROM tiddle_cards WHERE agent_id = '${agentId}'`)).toBe(0);
    // No pass had noticed their expiry: the sweep announced it before removing them.
    const expired = await server.database.pool.query(`SELECT project FROM agent_events WHERE agent_id = $1 AND sequence > $2 AND type = 'rolling_card.expired' ORDER BY project`, [
      agentId,
      sequence,
    ]);
    expect(expired.rows).toEqual([{ project: 'alpha' }, { project: 'beta' }]);
    // The 14-day handoff, 7 days of grace later.
    expect(await sweepAt(T0 + 21 * DAY_MS)).toEqual({});
    expect(await sweepAt(T0 + 21 * DAY_MS + 1)).toEqual({ SESSION_HANDOFFS: 1 });
    // The event log: what happened at T0 is gone 30 days later; what happened since stays.
    const eventsAtT0 = await count(`SELECT count(*) AS n FROM agent_events WHERE occurred_at <= '${new Date(T0).toISOString()}'`);
    const eventsLater = await count(`SELECT count(*) AS n FROM agent_events WHERE occurred_at > '${new Date(T0).toISOString()}'`);
    expect(eventsAtT0).toBeGreaterThan(10);
    expect(eventsLater).toBe(2);
    expect(await sweepAt(T0 + 30 * DAY_MS)).toEqual({});
    expect(await sweepAt(T0 + 30 * DAY_MS + 1)).toEqual({ AGENT_EVENTS: eventsAtT0 });
    // History: neither scope gets another pass; both histories go after 180 days (the events of day 17 went at day 47).
    expect(await sweepAt(T0 + 180 * DAY_MS)).toEqual({ AGENT_EVENTS: eventsLater });
    expect(await sweepAt(T0 + 180 * DAY_MS + 1)).toEqual({ TIDDLE_HISTORY: 2 });
    expect(await count(`SELECT count(*) AS n FROM tiddle_entries`)).toBe(0);

    // Far in the future nothing else is left to remove, and the pinned record, Brains and originals are all still there.
    expect(await sweepAt(T0 + 40_000 * DAY_MS)).toEqual({});
    expect(await count(neverSwept)).toBe(neverSweptBefore);
    expect((await server.database.pool.query('SELECT * FROM brain_memories ORDER BY id')).rows).toEqual(brainsBefore.rows);
    expect((await alpha.brainRead({ memoryId: kept.memory.memoryId })).brainRead?.title).toBe('kept forever');
    const originals = (await alpha.conversationOriginals({ sessionId: 's1' })).conversationOriginals.edges.map((e) => e.node.payload);
    expect(originals).toEqual(['{"n":1}', '{"n":2}', '{"n":3}']);
    expect((await alpha.memoryWorkingSearch({ query: '' })).memoryWorkingSearch.map((r) => r.title)).toEqual(['pinned one day']);
  });

  it('reports each store with the instant it swept before and its rule; operators only', async () => {
    clock.set(new Date(T0 + 500 * DAY_MS));
    const report = (await server.operator.runRetention()).runRetention;
    const at = T0 + 500 * DAY_MS;
    const iso = (ms: number) => new Date(ms).toISOString();
    expect(report).toMatchObject({ ranAt: iso(at), graceDays: 7, cutoff: iso(at - 7 * DAY_MS) });
    expect(report.stores).toEqual([
      { store: 'WORKING_RECORDS', removed: 0, olderThan: iso(at - 7 * DAY_MS), rule: 'unpinned records expired more than 7 days ago' },
      { store: 'SESSION_HANDOFFS', removed: 0, olderThan: iso(at - 7 * DAY_MS), rule: 'handoffs expired more than 7 days ago' },
      { store: 'ROLLING_CARDS', removed: 0, olderThan: iso(at - 7 * DAY_MS), rule: "cards expired more than 7 days ago (refreshedAt + the agent's rolling TTL)" },
      { store: 'TIDDLE_HISTORY', removed: 0, olderThan: iso(at - 180 * DAY_MS), rule: 'pass history older than 180 days' },
      { store: 'TIDDLE_RESIDUE', removed: 0, olderThan: iso(at - 24 * HOUR_MS), rule: 'residue older than 24 hours' },
      { store: 'AGENT_EVENTS', removed: 0, olderThan: iso(at - 30 * DAY_MS), rule: 'events older than 30 days' },
      { store: 'DREAM_DIARY_ENTRIES', removed: 0, olderThan: iso(at - 7 * DAY_MS), rule: 'diary entries expired more than 7 days ago' },
      { store: 'IDEMPOTENCY_KEYS', removed: 0, olderThan: iso(at - 24 * HOUR_MS), rule: 'idempotency keys older than 24 hours' },
    ]);
    const agent = await server.agentClient('ret-agent-token');
    await expect(agent.runRetention()).rejects.toMatchObject({ code: 'FORBIDDEN' });
  });

  it('keeps a card whose TTL was raised before it was swept, and removes one marked expired even if the TTL was raised after', async () => {
    const agentId = 'ret-ttl';
    clock.set(new Date(T0 + 1000 * DAY_MS));
    const start = clock.now().getTime();
    chat.script(agentId, (req) => ({ proposals: [{ action: 'create', title: `Card ${req.residue![0].reference}`, body: 'b', evidence: req.residue!.map((r) => r.reference) }] }));
    const client = await server.agentClient(agentId, { scope: 'alpha', session: 's' });
    await server.operator.setTiddleCardTtl({ input: { agentId, days: 1 } });
    await residue(client, 'r1');
    await residue(client, 'r1b');
    await server.operator.tiddleRunPass({ agentId, project: 'alpha' });
    // Expired at start + 1 day and marked by a TTL change; then the TTL is raised again.
    clock.set(new Date(start + 2 * DAY_MS));
    await server.operator.setTiddleCardTtl({ input: { agentId, days: 1 } });
    await server.operator.setTiddleCardTtl({ input: { agentId, days: 365 } });
    // A second card under the long TTL stays live and is kept.
    await residue(client, 'r2');
    await residue(client, 'r2b');
    await server.operator.tiddleRunPass({ agentId, project: 'alpha' });
    const cards = async () =>
      (await server.database.pool.query(`SELECT expired_at IS NOT NULL AS marked FROM tiddle_cards WHERE agent_id = $1 ORDER BY created_at`, [agentId])).rows;
    expect(await cards()).toEqual([{ marked: true }, { marked: false }]);
    // The mark was set at start + 2 days; 7 days of grace later it goes, the live card stays.
    const removed = async (at: number) => {
      clock.set(new Date(at));
      const report = (await server.operator.runRetention()).runRetention;
      return report.stores.find((s) => s.store === 'ROLLING_CARDS')!.removed;
    };
    expect(await removed(start + 9 * DAY_MS)).toBe(0);
    expect(await removed(start + 9 * DAY_MS + 1)).toBe(1);
    expect(await cards()).toEqual([{ marked: false }]);
    expect((await server.operator.rollingCards({ agentId, project: 'alpha', first: 10 })).rollingCards.edges).toHaveLength(1);
  });
});
