/**
 * Per-token rate limiting (token bucket, per instance): RATE_LIMITED with HTTP 429 and
 * Retry-After; over the WebSocket the operation fails and the socket stays open. Refills follow
 * the server's clock, moved by hand here.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { requestError, startServer, type TestServer } from './support/harness.js';
import { RateLimitedError } from '../clients/typescript/sdk.js';

let server: TestServer;
beforeAll(async () => {
  server = await startServer({ config: { rateLimit: { perSecond: 2, burst: 5 } } });
});
afterAll(async () => server?.stop());

async function post(token: string, accept = 'application/json') {
  const response = await fetch(server.url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept, authorization: `Bearer ${token}` },
    body: JSON.stringify({ query: '{ viewer { tokenName } }' }),
  });
  const text = await response.text();
  return { status: response.status, retryAfter: response.headers.get('retry-after'), text };
}

describe('per-token token bucket', () => {
  it('answers a burst up to BURROW_RATE_LIMIT_BURST, then 429 RATE_LIMITED with Retry-After; refills at BURROW_RATE_LIMIT_PER_SECOND', async () => {
    const { token } = await server.app.services.tokens.create({ kind: 'operator', name: 'bursty' });
    const { token: other } = await server.app.services.tokens.create({ kind: 'operator', name: 'calm' });
    const burst = [];
    for (let i = 0; i < 5; i++) burst.push((await post(token)).status);
    expect(burst).toEqual([200, 200, 200, 200, 200]);
    const refused = await post(token);
    expect([refused.status, refused.retryAfter]).toEqual([429, '1']);
    expect(JSON.parse(refused.text).errors[0].extensions).toMatchObject({ code: 'RATE_LIMITED', retryAfterSeconds: 1 });
    // SSE is refused the same way before any stream starts.
    expect((await post(token, 'text/event-stream')).status).toBe(429);
    // Another token has its own bucket.
    expect((await post(other)).status).toBe(200);
    // Half a second refills one unit at 2 per second: one more request, then refused again.
    server.clock.advance(500);
    expect((await post(token)).status).toBe(200);
    expect((await post(token)).status).toBe(429);
    server.clock.advance(10_000);
    const refilled = [];
    for (let i = 0; i < 6; i++) refilled.push((await post(token)).status);
    expect(refilled).toEqual([200, 200, 200, 200, 200, 429]);
  });

  it('over the WebSocket, refuses the operation with RATE_LIMITED and keeps the socket open', async () => {
    const client = await server.agentClient('rate-ws');
    // agentClient's createAgent was the operator's; this token's bucket is full.
    const statuses: string[] = [];
    for (let i = 0; i < 5; i++) statuses.push((await client.viewer(undefined, { transport: 'ws' })).viewer.principal);
    expect(statuses).toEqual(Array(5).fill('AGENT'));
    const refused = await requestError(client.viewer(undefined, { transport: 'ws' }));
    expect(refused.code).toBe('RATE_LIMITED');
    expect(refused.errors[0].extensions).not.toHaveProperty('http');
    server.clock.advance(500);
    expect((await client.viewer(undefined, { transport: 'ws' })).viewer.principal).toBe('AGENT');
  });

  it('the client throws a RateLimitedError carrying the retry advice, over HTTP and over the WebSocket', async () => {
    const client = await server.agentClient('rate-typed');
    for (let i = 0; i < 5; i++) expect((await client.viewer()).viewer.principal).toBe('AGENT');
    const overHttp = await requestError(client.viewer());
    expect(overHttp).toBeInstanceOf(RateLimitedError);
    expect([overHttp.code, overHttp.status, overHttp.retryable, overHttp.retryAfterSeconds]).toEqual(['RATE_LIMITED', 429, true, 1]);
    const overWs = await requestError(client.viewer(undefined, { transport: 'ws' }));
    expect(overWs).toBeInstanceOf(RateLimitedError);
    expect([overWs.code, overWs.retryable, overWs.retryAfterSeconds]).toEqual(['RATE_LIMITED', true, 1]);
    server.clock.advance(500);
    expect((await client.viewer()).viewer.principal).toBe('AGENT');
  });

  it('MCP requests take from the same bucket: 429 RATE_LIMITED with Retry-After', async () => {
    const client = await server.agentClient('rate-mcp');
    const mcp = () =>
      fetch(server.url.replace(/\/graphql$/, '/mcp'), {
        method: 'POST',
        headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', authorization: `Bearer ${client.options.token}` },
        body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }),
      });
    for (let i = 0; i < 5; i++) expect((await mcp()).status).toBeLessThan(429);
    const refused = await mcp();
    expect([refused.status, refused.headers.get('retry-after')]).toEqual([429, '1']);
    expect(JSON.stringify(await refused.json())).toContain('RATE_LIMITED');
  });
});
