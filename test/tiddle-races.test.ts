/**
 * Concurrent Tiddle writers of one agent on real connections: every write of an agent's Tiddle
 * state takes the per-agent lock, so racing appends of one reference leave one entry (the first
 * write creates it, every other replaces it), racing appends of distinct references lose none,
 * and passes racing them and each other run a scope once at a time (the others SKIPPED), each
 * committed once.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BurrowClient } from '../clients/typescript/sdk.js';
import { HOUR_MS } from '../src/lib/clock.js';
import { startChatServer, type ChatServer } from './support/chat-server.js';
import { hasRealServer, NEEDS_REAL_SERVER, startServer, type TestServer } from './support/harness.js';
import { providerTimeoutMs } from './support/load.js';

describe.skipIf(!hasRealServer)(`concurrent Tiddle writers of one agent (${NEEDS_REAL_SERVER})`, () => {
  let server: TestServer;
  let chat: ChatServer;
  beforeAll(async () => {
    chat = await startChatServer();
    server = await startServer({
      realServer: true,
      config: { tiddle: { scheduler: false, proposer: { kind: 'openai', url: chat.url, model: 'races', apiKey: null, timeoutMs: providerTimeoutMs() } } },
    });
  });
  afterAll(async () => {
    await server?.stop();
    await chat?.close();
  });

  const append = async (client: BurrowClient, turnRef: string, text: string) => {
    const result = (await client.tiddleAppendResidue({ input: { turnRef, excerpts: [{ role: 'USER', text }] } })).tiddleAppendResidue;
    if (result.__typename !== 'TiddleAppendResidueSuccess') throw new Error(JSON.stringify(result));
    return result.append;
  };

  it('ten appends of one reference at once: one creates it, nine replace it, one entry stays', async () => {
    await server.agentClient('race-same');
    const clients = await Promise.all(Array.from({ length: 10 }, (_, i) => server.client({ agentId: 'race-same', scope: 'p', session: `s-${i}` })));
    const appended = await Promise.all(clients.map((client, i) => append(client, 'same-turn', `version ${i}`)));
    expect(appended.filter((a) => !a.replaced)).toHaveLength(1);
    expect(appended.filter((a) => a.replaced)).toHaveLength(9);
    const residue = (await server.operator.tiddleResidue({ agentId: 'race-same', project: 'p' })).tiddleResidue;
    expect(residue.map((r) => r.reference)).toEqual(['same-turn']);
  });

  it('appends of distinct references racing passes of the scope: none lost, each pass run once at a time and recorded once', async () => {
    await server.agentClient('race-pass');
    let calls = 0;
    chat.script('race-pass', (req) => ({ proposals: [{ action: 'create', title: `Card ${++calls}`, body: 'b', evidence: req.residue!.slice(0, 2).map((r) => r.reference) }] }));
    const clients = await Promise.all(Array.from({ length: 8 }, (_, i) => server.client({ agentId: 'race-pass', scope: 'p', session: `s-${i}` })));
    await append(clients[0], 'seed-1', 'seed');
    await append(clients[0], 'seed-2', 'seed');
    server.clock.advance(4 * HOUR_MS);
    chat.delayMs = 50;
    const [, passes] = await Promise.all([
      Promise.all(
        clients.map(async (client, w) => {
          for (let i = 0; i < 5; i++) await append(client, `w${w}-${i}`, `writer ${w} turn ${i}`);
        }),
      ),
      Promise.all(
        Array.from({ length: 4 }, async () => {
          const run = (await server.operator.tiddleRunPass({ agentId: 'race-pass', project: 'p' })).tiddleRunPass;
          if (run.__typename !== 'TiddleRunPassSuccess') throw new Error(JSON.stringify(run));
          return run.outcomes.map((o) => o.status);
        }),
      ),
    ]);
    chat.delayMs = 0;
    const residue = (await server.operator.tiddleResidue({ agentId: 'race-pass', project: 'p', first: 100 })).tiddleResidue;
    expect(residue.map((r) => r.reference).sort()).toEqual(['seed-1', 'seed-2', ...clients.flatMap((_, w) => Array.from({ length: 5 }, (_, i) => `w${w}-${i}`))].sort());
    const statuses = passes.flat();
    expect(statuses.every((s) => s === 'SUCCEEDED' || s === 'SKIPPED')).toBe(true);
    const succeeded = statuses.filter((s) => s === 'SUCCEEDED').length;
    expect(succeeded).toBeGreaterThanOrEqual(1);
    // A skipped pass never calls the model; each pass that ran did once and committed its card once.
    expect(chat.requestsFor('race-pass', 'pass')).toHaveLength(succeeded);
    const cards = (await server.operator.rollingCards({ agentId: 'race-pass', project: 'p', first: 100 })).rollingCards.edges;
    expect(cards.map((e) => e.node.title).sort()).toEqual(Array.from({ length: succeeded }, (_, i) => `Card ${i + 1}`).sort());
  });
});
