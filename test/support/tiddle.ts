/**
 * Helpers for the Tiddle tests: a server whose proposer is the scripted chat-completions server
 * (the scheduler off: tests tick it), runtime clients, residue appends and the reads they check.
 */
import { expect } from 'vitest';
import { BurrowRequestError, type BurrowClient } from '../../clients/typescript/sdk.js';
import type { FaultInjector } from '../../src/lib/faults.js';
import type { PassOutcome } from '../../src/domains/tiddle/tiddle.service.js';
import { startChatServer, type ChatServer } from './chat-server.js';
import { startServer, type TestServer } from './harness.js';
import { providerTimeoutMs } from './load.js';

/** A server with the fake chat model as its Tiddle proposer; `proposerTimeoutMs` is the deadline it was given. */
export async function startTiddleServer(faults?: FaultInjector): Promise<{ server: TestServer; chat: ChatServer; proposerTimeoutMs: number }> {
  const chat = await startChatServer();
  const proposerTimeoutMs = providerTimeoutMs();
  const server = await startServer({
    faults,
    config: {
      tiddle: { scheduler: false, proposer: { kind: 'openai', url: chat.url, model: 'tiddle-test', apiKey: 'sk-test', timeoutMs: proposerTimeoutMs } },
    },
  });
  return { server, chat, proposerTimeoutMs };
}

/** The helpers that read through the file's server (given late: it starts in beforeAll). */
export function tiddleHelpers(getServer: () => TestServer) {
  const tick = () => getServer().app.services.tiddle.scheduler.tick();

  async function runtime(agentId: string, scope: string, session = 'session-1'): Promise<BurrowClient> {
    const server = getServer();
    const existing = await server.operator.agent({ id: agentId });
    if (!existing.agent) return server.agentClient(agentId, { scope, session });
    return server.client({ agentId, scope, session });
  }

  async function cards(agentId: string, project: string) {
    const { rollingCards } = await getServer().operator.rollingCards({ agentId, project, first: 100 });
    return rollingCards.edges.map((e) => e.node);
  }

  async function scopeStatus(agentId: string, project: string) {
    const { tiddleStatus } = await getServer().operator.tiddleStatus({ agentId });
    return tiddleStatus.scopes.find((s) => s.project === project) ?? null;
  }

  return { tick, runtime, cards, scopeStatus };
}

export const mine = (outcomes: PassOutcome[], agentId: string) => outcomes.filter((o) => o.agentId === agentId);

export async function append(client: BurrowClient, turnRef: string, text = `we talked about ${turnRef}`) {
  const result = await client.tiddleAppendResidue({
    input: {
      turnRef,
      excerpts: [
        { role: 'USER', text },
        { role: 'ASSISTANT', text: 'noted' },
      ],
    },
  });
  if (result.tiddleAppendResidue.__typename !== 'TiddleAppendResidueSuccess') throw new Error(JSON.stringify(result));
  return result.tiddleAppendResidue.append;
}

export async function expectRequestError(promise: Promise<unknown>, code: string) {
  const error = await promise.then(
    () => null,
    (e) => e,
  );
  expect(error).toBeInstanceOf(BurrowRequestError);
  expect((error as BurrowRequestError).code).toBe(code);
}
