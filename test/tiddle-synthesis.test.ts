/**
 * Tiddle cross-scope synthesis through the real server: once per UTC date, from live cards of at
 * least two scopes.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DAY_MS } from '../src/lib/clock.js';
import type { ChatServer } from './support/chat-server.js';
import { type TestServer } from './support/harness.js';
import { append, mine, startTiddleServer, tiddleHelpers } from './support/tiddle.js';

let server: TestServer;
let chat: ChatServer;
beforeAll(async () => {
  ({ server, chat } = await startTiddleServer());
});
afterAll(async () => {
  await server?.stop();
  await chat?.close();
});

const { tick, runtime, cards } = tiddleHelpers(() => server);

describe('cross-scope synthesis', () => {
  it('runs at the first due pass on a new UTC date and needs two existing source cards across two scopes', async () => {
    const agentId = 'syn-a';
    const old = await runtime(agentId, 'old');
    const a = await runtime(agentId, 'a');
    const b = await runtime(agentId, 'b');
    let failNextSynthesis = false;
    chat.script(agentId, (req) => {
      if (req.mode === 'synthesis' && failNextSynthesis) {
        failNextSynthesis = false;
        return { status: 503, body: 'synthesis model unavailable' };
      }
      if (req.mode === 'pass') {
        const refs = req.residue!.map((r) => r.reference).sort();
        if (req.project === 'a') {
          return {
            proposals: [
              { action: 'create', title: 'Topic A1', body: 'first a', evidence: refs.slice(0, 2) },
              { action: 'create', title: 'Topic A2', body: 'second a', evidence: refs.slice(0, 2) },
            ],
          };
        }
        return { proposals: [{ action: 'create', title: `Topic ${req.project}`, body: `from ${req.project}`, evidence: refs.slice(0, 2) }] };
      }
      const byTitle = new Map(req.cards.map((c) => [c.title, { agentId: c.agentId, project: c.project, cardId: c.cardId }]));
      const [a1, a2, b1] = ['Topic A1', 'Topic A2', 'Topic b'].map((t) => byTitle.get(t)!);
      return {
        proposals: [
          { action: 'create', title: 'Same scope only', body: 'x', sources: [a1, a2] },
          { action: 'create', title: 'One card', body: 'x', sources: [a1] },
          { action: 'create', title: 'Ghost source', body: 'x', sources: [a1, { ...b1, cardId: 'card-ghost' }] },
          { action: 'create', title: 'Old source', body: 'x', sources: [a1, oldIdentity] },
          { action: 'create', title: 'Staging everywhere', body: 'Both projects deploy with the staging flag.', sources: [a1, b1] },
        ],
      };
    });

    // A card 22 days before the synthesis: outside its 21-day window.
    await append(old, 'o1');
    await append(old, 'o2');
    const oldRun = await server.operator.tiddleRunPass({ agentId, project: 'old' });
    if (oldRun.tiddleRunPass.__typename !== 'TiddleRunPassSuccess') throw new Error('old pass');
    const [oldCard] = await cards(agentId, 'old');
    const oldIdentity = { agentId, project: 'old', cardId: oldCard.cardId };

    const day = new Date(server.clock.now().getTime() + 22 * DAY_MS).toISOString().slice(0, 10);
    const next = new Date(new Date(`${day}T00:00:00.000Z`).getTime() + DAY_MS).toISOString().slice(0, 10);
    server.clock.set(`${day}T19:00:00.000Z`);
    await append(a, 'a-1');
    await append(a, 'a-2');
    server.clock.set(`${day}T20:00:00.000Z`);
    await append(b, 'b-1');
    await append(b, 'b-2');

    // 23:00 UTC: scope a (and the overdue old scope) pass; the agent's first synthesis of this
    // date sees cards of one scope only, so no proposer call, but the date is taken.
    server.clock.set(`${day}T23:00:00.000Z`);
    const evening = mine(await tick(), agentId);
    expect(
      evening
        .filter((o) => o.kind === 'pass')
        .map((o) => `${o.project} ${o.status} ${o.error ?? ''}`.trim())
        .sort(),
    ).toEqual(['a SUCCEEDED', 'old SUCCEEDED']);
    expect(evening.filter((o) => o.kind === 'synthesis').map((o) => o.status)).toEqual(['SUCCEEDED']);
    expect(chat.requestsFor(agentId, 'synthesis')).toEqual([]);
    expect((await server.operator.tiddleStatus({ agentId })).tiddleStatus.lastSynthesisDate).toBe(day);

    server.clock.set(`${day}T23:59:59.999Z`);
    expect(mine(await tick(), agentId)).toEqual([]);

    // 00:00 UTC: scope b is due; this first due pass on the new UTC date runs the synthesis.
    server.clock.set(`${next}T00:00:00.000Z`);
    const midnight = mine(await tick(), agentId);
    expect(midnight.map((o) => [o.kind, o.project, o.status])).toEqual([
      ['pass', 'b', 'SUCCEEDED'],
      ['synthesis', '*', 'SUCCEEDED'],
    ]);
    const [request] = chat.requestsFor(agentId, 'synthesis');
    expect(request.date).toBe(next);
    expect(request.cards.map((c) => c.title).sort()).toEqual(['Topic A1', 'Topic A2', 'Topic b']);
    const synthesis = midnight[1];
    expect(synthesis.rejected.map((r) => r.reason)).toEqual([
      expect.stringContaining('at least two source cards across at least two scopes (got 2 cards in 1 scopes)'),
      expect.stringContaining('at least two source cards across at least two scopes (got 1 cards in 1 scopes)'),
      expect.stringContaining('card-ghost does not exist'),
      expect.stringContaining(`${oldCard.cardId} does not exist among this agent's live cards of the last 21 days`),
    ]);
    const crossCards = await cards(agentId, '*');
    expect(crossCards.map((c) => c.title)).toEqual(['Staging everywhere']);
    const sources = (crossCards[0].card as { sources: { project: string }[] }).sources.map((s) => s.project);
    expect(sources).toEqual(['a', 'b']);
    const status = (await server.operator.tiddleStatus({ agentId })).tiddleStatus;
    expect(status.lastSynthesisDate).toBe(next);
    expect(status.lastSynthesisAt).toBe(`${next}T00:00:00.000Z`);

    // Later due passes on the same UTC date do not synthesise again.
    server.clock.set(`${next}T04:00:00.000Z`);
    const later = mine(await tick(), agentId);
    expect(later.filter((o) => o.kind === 'synthesis')).toEqual([]);
    expect(
      later
        .filter((o) => o.kind === 'pass')
        .map((o) => o.project)
        .sort(),
    ).toEqual(['a', 'b', 'old']);
    expect(chat.requestsFor(agentId, 'synthesis').length).toBe(1);
    let history = (await server.operator.tiddleHistory({ agentId, project: '*' })).tiddleHistory.edges.map((e) => e.node);
    expect(history.length).toBe(2);

    // A failed synthesis leaves the date unclaimed; the next due pass of that date retries it.
    const third = new Date(new Date(`${next}T00:00:00.000Z`).getTime() + DAY_MS).toISOString().slice(0, 10);
    failNextSynthesis = true;
    server.clock.set(`${third}T08:00:00.000Z`);
    const retry = mine(await tick(), agentId);
    expect(retry.map((o) => [o.kind, o.status])).toEqual([
      ['pass', 'SUCCEEDED'],
      ['synthesis', 'FAILED'],
      ['pass', 'SUCCEEDED'],
      ['synthesis', 'SUCCEEDED'],
      ['pass', 'SUCCEEDED'],
    ]);
    expect(retry[1].error).toContain('synthesis model unavailable');
    const healed = (await server.operator.tiddleStatus({ agentId })).tiddleStatus;
    expect(healed.lastSynthesisDate).toBe(third);
    expect(healed.scopes.find((s) => s.project === '*')).toMatchObject({
      lastError: null,
      nextRunAt: new Date(new Date(`${third}T00:00:00.000Z`).getTime() + DAY_MS).toISOString(),
    });
    history = (await server.operator.tiddleHistory({ agentId, project: '*' })).tiddleHistory.edges.map((e) => e.node);
    expect(history.length).toBe(3);
  });
});
