/**
 * The Tiddle scheduler as a server runs it: the immediate first tick at start, and several
 * instances on one database processing each due scope exactly once.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BurrowConfig } from '../src/config.js';
import { HOUR_MS, ManualClock } from '../src/lib/clock.js';
import { SCHEDULER_INTERVAL_MS, type PassOutcome } from '../src/domains/tiddle/tiddle.service.js';
import { startChatServer, type ChatServer } from './support/chat-server.js';
import { NEEDS_REAL_SERVER, collect, createTestDatabase, hasRealServer, onRealServer, startServer, take, type TestDatabase } from './support/harness.js';
import { providerTimeoutMs } from './support/load.js';

let chat: ChatServer;
beforeAll(async () => {
  chat = await startChatServer();
});
afterAll(async () => chat?.close());

const tiddleConfig = (scheduler: boolean): Partial<BurrowConfig> => ({
  tiddle: { scheduler, proposer: { kind: 'openai', url: chat.url, model: 'tiddle-test', apiKey: null, timeoutMs: providerTimeoutMs() } },
});

/** A database that outlives one server: a data directory embedded, a fresh database on the real server. */
async function durableDatabase(): Promise<TestDatabase> {
  if (onRealServer) return createTestDatabase();
  const dir = mkdtempSync(join(tmpdir(), 'burrow-tiddle-'));
  return { config: { lifecycle: 'embedded', dataDir: dir }, name: null, url: null, drop: async () => rmSync(dir, { recursive: true, force: true }) };
}

describe('scheduler start', () => {
  it('ticks once immediately at start: a scope already due is processed without any clock advance', async () => {
    const database = await durableDatabase();
    const clock = new ManualClock('2026-06-01T12:00:00.000Z');
    try {
      const first = await startServer({ database, clock, config: tiddleConfig(false) });
      const runtime = await first.agentClient('boot-a', { scope: 'alpha', session: 's1' });
      for (const turnRef of ['b1', 'b2']) {
        await runtime.tiddleAppendResidue({ input: { turnRef, excerpts: [{ role: 'USER', text: turnRef }] } });
      }
      clock.advance(4 * HOUR_MS);
      // Not yet processed: this instance has no scheduler.
      expect((await first.operator.tiddleStatus({ agentId: 'boot-a' })).tiddleStatus.scopes[0].lastSuccessAt).toBeNull();
      await first.stop();

      const before = chat.requestsFor('boot-a').length;
      const second = await startServer({ database, clock, config: tiddleConfig(true) });
      try {
        const [event] = await take(second.operator.tiddleStatusEvents({ agentId: 'boot-a', after: 0 }), 1);
        expect(event.tiddleStatusEvents).toMatchObject({ type: 'TIDDLE_PASS_SUCCEEDED', project: 'alpha' });
        expect(clock.now().toISOString()).toBe('2026-06-01T16:00:00.000Z');
        const status = (await second.operator.tiddleStatus({ agentId: 'boot-a' })).tiddleStatus;
        expect(status.schedulerEnabled).toBe(true);
        expect(status.scopes.find((s) => s.project === 'alpha')).toMatchObject({
          lastSuccessAt: '2026-06-01T16:00:00.000Z',
          nextRunAt: '2026-06-01T20:00:00.000Z',
        });
        expect(
          chat
            .requestsFor('boot-a', 'pass')
            .slice(before)
            .map((r) => r.residue!.map((x) => x.reference).sort()),
        ).toEqual([['b1', 'b2']]);
        // The loop then checks every 60 seconds (real time; business time comes from the clock).
        expect(SCHEDULER_INTERVAL_MS).toBe(60_000);
        // A tick awaited now finds nothing more to do at this time.
        expect((await second.app.services.tiddle.scheduler.tick()).filter((o) => o.agentId === 'boot-a')).toEqual([]);
      } finally {
        await second.stop();
      }
    } finally {
      await database.drop();
    }
  });
});

describe('default proposer', () => {
  it('is a no-op: passes succeed and change no card', async () => {
    const server = await startServer();
    try {
      const runtime = await server.agentClient('noop-a', { scope: 'alpha', session: 's1' });
      for (const turnRef of ['n1', 'n2', 'n3']) {
        await runtime.tiddleAppendResidue({ input: { turnRef, excerpts: [{ role: 'USER', text: 'recurring topic' }] } });
      }
      const before = chat.requests.length;
      const run = await server.operator.tiddleRunPass({ agentId: 'noop-a' });
      if (run.tiddleRunPass.__typename !== 'TiddleRunPassSuccess') throw new Error(JSON.stringify(run));
      expect(run.tiddleRunPass.outcomes.map((o) => [o.status, o.residueConsidered, o.created, o.updated, o.rejected])).toEqual([['SUCCEEDED', 3, [], [], []]]);
      expect(chat.requests.length).toBe(before);
      expect((await server.operator.rollingCards({ agentId: 'noop-a', project: 'alpha' })).rollingCards.edges).toEqual([]);
      const status = (await server.operator.tiddleStatus({ agentId: 'noop-a' })).tiddleStatus;
      expect([status.proposer, status.schedulerEnabled, status.cardTtlDays]).toEqual(['NOOP', false, 90]);
    } finally {
      await server.stop();
    }
  });
});

describe.skipIf(!hasRealServer)(`several instances (${NEEDS_REAL_SERVER})`, () => {
  it('three instances on one database process each due scope exactly once, and subscribers of every instance hear it', async () => {
    const clock = new ManualClock('2026-06-01T12:00:00.000Z');
    const first = await startServer({ realServer: true, clock, config: tiddleConfig(true) });
    const second = await startServer({ clock, database: first.testDatabase, config: tiddleConfig(true) });
    const third = await startServer({ clock, database: first.testDatabase, config: tiddleConfig(true) });
    const instances = [first, second, third];
    try {
      const agentId = 'multi-a';
      const scopes = Array.from({ length: 9 }, (_, i) => `scope-${i}`);
      await first.agentClient(agentId);
      for (const [index, scope] of scopes.entries()) {
        const client = await instances[index % 3].client({ agentId, scope, session: `s-${index}` });
        for (const turnRef of ['m1', 'm2']) {
          await client.tiddleAppendResidue({ input: { turnRef, excerpts: [{ role: 'USER', text: `${scope} ${turnRef}` }] } });
        }
      }
      chat.script(agentId, (req) =>
        req.mode === 'pass' ? { proposals: [{ action: 'create', title: `Card ${req.project}`, body: 'recurring', evidence: ['m1', 'm2'] }] } : { proposals: [] },
      );
      // A subscriber on the third instance; the passes run wherever the claims land.
      const cardEvents = collect(third.operator.rollingCardEvents({ agentId, project: 'scope-0', after: 0 }));
      const statusEvents = collect(second.operator.tiddleStatusEvents({ agentId, after: 0 }));

      chat.delayMs = 40;
      clock.advance(4 * HOUR_MS);
      const outcomes = (await Promise.all(instances.map((i) => i.app.services.tiddle.scheduler.tick()))).map((list) => list.filter((o: PassOutcome) => o.agentId === agentId));
      chat.delayMs = 0;
      const passes = outcomes.flat().filter((o) => o.kind === 'pass');
      expect(passes.every((o) => o.status === 'SUCCEEDED')).toBe(true);
      expect(passes.map((o) => o.project).sort()).toEqual(scopes);
      // The work really spread: more than one instance ran passes.
      expect(outcomes.filter((list) => list.some((o) => o.kind === 'pass')).length).toBeGreaterThan(1);
      expect(chat.requestsFor(agentId, 'pass').length).toBe(9);

      const history = (await first.operator.tiddleHistory({ agentId, first: 100 })).tiddleHistory.edges.map((e) => e.node);
      const perScope = new Map<string, number>();
      for (const entry of history) perScope.set(entry.project, (perScope.get(entry.project) ?? 0) + 1);
      expect(Object.fromEntries(perScope)).toEqual({ ...Object.fromEntries(scopes.map((s) => [s, 1])), '*': 1 });
      for (const scope of scopes) {
        const { rollingCards } = await first.operator.rollingCards({ agentId, project: scope });
        expect(rollingCards.edges.map((e) => e.node.title)).toEqual([`Card ${scope}`]);
      }

      const status = await statusEvents.waitFor(10);
      const passEvents = status.filter((e) => e.tiddleStatusEvents.type === 'TIDDLE_PASS_SUCCEEDED');
      expect(passEvents.map((e) => e.tiddleStatusEvents.project).sort()).toEqual(scopes);
      expect(status.filter((e) => e.tiddleStatusEvents.type === 'TIDDLE_SYNTHESIS_SUCCEEDED').length).toBe(1);
      const [created] = await cardEvents.waitFor(1);
      expect(created.rollingCardEvents).toMatchObject({ type: 'ROLLING_CARD_CREATED', project: 'scope-0', payload: { title: 'Card scope-0' } });

      // Ticking again at the same time on every instance does nothing more.
      const again = (await Promise.all(instances.map((i) => i.app.services.tiddle.scheduler.tick()))).flat().filter((o) => o.agentId === agentId);
      expect(again).toEqual([]);
      expect(statusEvents.items.length).toBe(10);
    } finally {
      await third.stop();
      await second.stop();
      await first.stop();
    }
  });
});
