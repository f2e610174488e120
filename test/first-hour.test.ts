/**
 * What a new user meets in the first hour: a subscription naming an agent that does not exist
 * answers NOT_FOUND at once over graphql-ws (instead of a stream that never speaks), and a
 * duplicate createAgent id answers the typed AlreadyExists member and changes nothing.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BurrowRequestError } from '../clients/typescript/sdk.js';
import { startServer, type TestServer } from './support/harness.js';

let server: TestServer;
beforeAll(async () => {
  server = await startServer();
  await server.operator.createAgent({ input: { agentId: 'fh-known', name: 'Known' } });
});
afterAll(async () => server?.stop());

/** The first answer of a subscription: its error code, or "event" / "ended"; "silent" after 5 s. */
async function firstAnswer(iterable: AsyncIterable<unknown>): Promise<string> {
  const iterator = iterable[Symbol.asyncIterator]();
  let timer: NodeJS.Timeout | undefined;
  try {
    const next = await Promise.race([iterator.next(), new Promise<null>((resolve) => (timer = setTimeout(() => resolve(null), 5_000)))]);
    if (next === null) return 'silent';
    return next.done ? 'ended' : 'event';
  } catch (error) {
    if (error instanceof BurrowRequestError) return `${error.code}: ${error.message}`;
    throw error;
  } finally {
    clearTimeout(timer);
    await iterator.return?.();
  }
}

const SUBSCRIPTIONS = {
  agentEvents: (agentId: string) => server.operator.agentEvents({ agentId, after: 0 }),
  rollingCardEvents: (agentId: string) => server.operator.rollingCardEvents({ agentId, project: 'p', after: 0 }),
  tiddleStatusEvents: (agentId: string) => server.operator.tiddleStatusEvents({ agentId, after: 0 }),
  continuityEvents: (agentId: string) =>
    server.operator.subscribe('subscription($agentId: String!) { continuityEvents(agentId: $agentId, runId: "r", after: 0) { sequence } }', { agentId }),
};

describe('per-agent subscriptions for an unknown agent', () => {
  for (const [name, open] of Object.entries(SUBSCRIPTIONS)) {
    it(`${name} answers NOT_FOUND over graphql-ws`, async () => {
      expect(await firstAnswer(open('fh-nobody'))).toBe('NOT_FOUND: Agent fh-nobody was not found');
    });
  }

  it('an agent token naming an unknown agent gets AGENT_MISMATCH, which tells nothing about existence', async () => {
    const agent = await server.agentClient('fh-agent');
    expect(await firstAnswer(agent.agentEvents({ agentId: 'fh-nobody', after: 0 }))).toMatch(/^AGENT_MISMATCH/);
    expect(await firstAnswer(agent.agentEvents({ agentId: 'fh-known', after: 0 }))).toMatch(/^AGENT_MISMATCH/);
  });

  it('a known agent still streams', async () => {
    expect(await firstAnswer(SUBSCRIPTIONS.agentEvents('fh-known'))).toBe('event');
  });
});

describe('createAgent with an id that is taken', () => {
  it('answers AlreadyExists (ALREADY_EXISTS) and changes nothing', async () => {
    const before = (await server.operator.agent({ id: 'fh-known' })).agent!;
    const result = (await server.operator.createAgent({ input: { agentId: 'fh-known', name: 'Impostor' } })).createAgent;
    expect(result).toEqual({ __typename: 'AlreadyExists', code: 'ALREADY_EXISTS', message: 'Agent fh-known already exists', resource: 'Agent', resourceId: 'fh-known' });
    const after = (await server.operator.agent({ id: 'fh-known' })).agent!;
    expect(after).toEqual(before);
    expect(after.name).toBe('Known');
  });
});
