/**
 * Tiddle's selection budgets, at each bound and one past it, as the model receives them: a pass
 * sees the newest 40 residue entries of its scope's last 24 hours, at most 24,000 excerpt
 * characters (newest first, stopping at the first entry that does not fit), and at most 100 live
 * cards; a synthesis sees at most 60 live cards. Cards are written straight into tiddle_cards
 * (what passes would have made), so a bound of 100 costs one statement, not 100 passes.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BurrowClient } from '../clients/typescript/sdk.js';
import { DAY_MS, HOUR_MS } from '../src/lib/clock.js';
import { startChatServer, type ChatServer } from './support/chat-server.js';
import { startServer, type TestServer } from './support/harness.js';
import { providerTimeoutMs } from './support/load.js';

let server: TestServer;
let chat: ChatServer;

beforeAll(async () => {
  chat = await startChatServer();
  server = await startServer({
    config: { tiddle: { scheduler: false, proposer: { kind: 'openai', url: chat.url, model: 'budgets', apiKey: null, timeoutMs: providerTimeoutMs() } } },
  });
});
afterAll(async () => {
  await server?.stop();
  await chat?.close();
});

async function runtime(agentId: string, scope: string): Promise<BurrowClient> {
  if (!(await server.operator.agent({ id: agentId })).agent) return server.agentClient(agentId, { scope, session: 's' });
  return server.client({ agentId, scope, session: 's' });
}

/** One residue entry of `chars` characters in all (excerpts of at most 1,000 each). */
async function entry(client: BurrowClient, turnRef: string, chars: number) {
  const excerpts = [];
  for (let left = chars; left > 0; left -= 1000) excerpts.push({ role: 'USER' as const, text: 'x'.repeat(Math.min(1000, left)) });
  const result = await client.tiddleAppendResidue({ input: { turnRef, excerpts } });
  if (result.tiddleAppendResidue.__typename !== 'TiddleAppendResidueSuccess') throw new Error(JSON.stringify(result));
}

/** `count` live cards of a scope, the newest refreshed `newestAt`, each a minute older than the one before. */
async function cards(agentId: string, project: string, count: number, newestAt: Date) {
  await server.database.pool.query(
    `INSERT INTO tiddle_cards (agent_id, project, card_id, title, body, card, created_at, updated_at, refreshed_at)
     SELECT $1, $2, 'card-' || lpad(n::text, 3, '0'), 'Card ' || n, 'body', '{"evidence": []}'::jsonb, t, t, t
       FROM generate_series(1, $3::int) AS n, LATERAL (SELECT $4::timestamptz - make_interval(mins => n) AS t) times`,
    [agentId, project, count, newestAt.toISOString()],
  );
}

const lastPass = (agentId: string) => chat.requestsFor(agentId, 'pass').at(-1)!;

async function pass(agentId: string, project: string) {
  const run = await server.operator.tiddleRunPass({ agentId, project });
  if (run.tiddleRunPass.__typename !== 'TiddleRunPassSuccess') throw new Error(JSON.stringify(run));
  expect(run.tiddleRunPass.outcomes.map((o) => o.status)).toEqual(['SUCCEEDED']);
  return lastPass(agentId);
}

describe('a pass', () => {
  it('sees the newest 40 residue entries: 40 of 40, and 40 of 41 (the oldest left out)', async () => {
    for (const [agentId, count] of [
      ['budget-40', 40],
      ['budget-41', 41],
    ] as const) {
      const client = await runtime(agentId, 'p');
      for (let i = 1; i <= count; i++) {
        server.clock.advance(1000);
        await entry(client, `t${String(i).padStart(2, '0')}`, 10);
      }
      const seen = (await pass(agentId, 'p')).residue!.map((r) => r.reference);
      expect(seen).toHaveLength(40);
      expect(seen[0]).toBe(`t${count}`);
      expect(seen.at(-1)).toBe(`t${String(count - 39).padStart(2, '0')}`);
    }
  });

  it('considers the last 24 hours: an entry exactly 24 h old is in, one a millisecond older is out', async () => {
    const client = await runtime('budget-window', 'w');
    await entry(client, 'older', 10);
    server.clock.advance(1);
    const edge = server.clock.now().getTime();
    await entry(client, 'edge', 10);
    server.clock.advance(1000);
    await entry(client, 'newest', 10);
    server.clock.set(new Date(edge + DAY_MS));
    expect((await pass('budget-window', 'w')).residue!.map((r) => r.reference)).toEqual(['newest', 'edge']);
  });

  it('sees at most 24,000 excerpt characters: 24,000 all, 24,001 stops before the entry that does not fit', async () => {
    const at = await runtime('budget-chars', 'at');
    for (const ref of ['a1', 'a2', 'a3']) {
      server.clock.advance(1000);
      await entry(at, ref, 8000);
    }
    expect((await pass('budget-chars', 'at')).residue!.map((r) => r.reference)).toEqual(['a3', 'a2', 'a1']);

    const past = await runtime('budget-chars', 'past');
    for (const [ref, chars] of [
      ['b1', 8000],
      ['b2', 8000],
      ['b3', 7999],
      ['b4', 2],
    ] as const) {
      server.clock.advance(1000);
      await entry(past, ref, chars);
    }
    // Newest first: 2 + 7,999 + 8,000 = 16,001; b1 would make 24,001.
    expect((await pass('budget-chars', 'past')).residue!.map((r) => r.reference)).toEqual(['b4', 'b3', 'b2']);
  });

  it('sees at most 100 live cards of its scope: 100 of 100, and the newest 100 of 101', async () => {
    for (const [agentId, count] of [
      ['budget-cards-100', 100],
      ['budget-cards-101', 101],
    ] as const) {
      const client = await runtime(agentId, 'c');
      await cards(agentId, 'c', count, server.clock.now());
      server.clock.advance(1000);
      await entry(client, 'r1', 10);
      const seen = (await pass(agentId, 'c')).cards.map((c) => c.cardId);
      expect(seen).toHaveLength(100);
      expect(seen[0]).toBe('card-001');
      expect(seen).not.toContain(count === 101 ? 'card-101' : 'none');
      expect(seen.at(-1)).toBe('card-100');
    }
  });
});

describe('a synthesis', () => {
  it('sees at most 60 live cards across the scopes: 60 of 60, and the newest 60 of 61', async () => {
    for (const [agentId, count] of [
      ['synth-60', 60],
      ['synth-61', 61],
    ] as const) {
      // Cards of two scopes, refreshed within the synthesis window.
      const client = await runtime(agentId, 'one');
      const half = Math.ceil(count / 2);
      await cards(agentId, 'one', half, new Date(server.clock.now().getTime() - HOUR_MS));
      await cards(agentId, 'two', count - half, new Date(server.clock.now().getTime() - HOUR_MS + 30_000));
      // The first due pass on a new UTC date runs the agent's synthesis.
      const day = new Date(server.clock.now().getTime() + DAY_MS).toISOString().slice(0, 10);
      server.clock.set(`${day}T00:30:00.000Z`);
      await entry(client, 'n1', 10);
      server.clock.advance(4 * HOUR_MS);
      await server.app.services.tiddle.scheduler.tick();
      const [request] = chat.requestsFor(agentId, 'synthesis');
      expect(request.cards).toHaveLength(60);
      // Newest first by refresh: with 61 the oldest ("one"'s last) is left out.
      const oldest = `card-${String(half).padStart(3, '0')}`;
      expect(request.cards.some((c) => c.project === 'one' && c.cardId === oldest)).toBe(count === 60);
    }
  });
});
