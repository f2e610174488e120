/**
 * HTTP keep-alive of the shipped server, seen by Node's own fetch: an idle connection outlives
 * the client's reuse, so a request after an idle pause goes out on the same connection and
 * succeeds. Node's default (5 s) made the server close first and fetch's next request on that
 * connection failed ("other side closed"). A counting TCP relay between fetch and the server
 * shows how many connections fetch opened.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createServer, connect, type Server } from 'node:net';
import { startShipped, type ShippedServer } from '../support/shipped.js';

let server: ShippedServer;
let relay: Server;
let relayOrigin: string;
let accepted = 0;

beforeAll(async () => {
  server = await startShipped();
  // Each client connection gets its own upstream connection; either side's close ends both.
  relay = createServer((client) => {
    accepted++;
    const upstream = connect(server.port, '127.0.0.1');
    client.pipe(upstream).pipe(client);
    const end = () => (client.destroy(), upstream.destroy());
    client.on('close', end).on('error', end);
    upstream.on('close', end).on('error', end);
  });
  await new Promise<void>((resolve) => relay.listen(0, '127.0.0.1', resolve));
  relayOrigin = `http://127.0.0.1:${(relay.address() as { port: number }).port}`;
});
afterAll(async () => {
  await new Promise((resolve) => relay?.close(resolve));
  const stopped = await server?.stop();
  expect(stopped?.code).toBe(0);
});

const graphql = () =>
  fetch(`${relayOrigin}/graphql`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${server.operatorToken}` },
    body: JSON.stringify({ query: '{ __typename }' }),
  });

describe('HTTP keep-alive', () => {
  it('announces an idle timeout longer than load balancers keep connections (65 s)', async () => {
    const response = await graphql();
    expect(response.status).toBe(200);
    expect(response.headers.get('keep-alive')).toBe('timeout=65');
    await response.text();
  });

  it("reuses the connection for a request after an idle pause past Node's 5 s default", async () => {
    const first = await graphql();
    expect(await first.json()).toEqual({ data: { __typename: 'Query' } });
    const connections = accepted;
    // The pause is the condition of the fault: just past the 5 s after which the server used to close.
    await new Promise((resolve) => setTimeout(resolve, 5_300));
    const second = await graphql();
    expect(await second.json()).toEqual({ data: { __typename: 'Query' } });
    // The same connection: fetch opened none after the pause.
    expect(accepted).toBe(connections);
  });
});
