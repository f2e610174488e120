import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createClient } from 'graphql-ws';
import WebSocket from 'ws';
import { createBurrowClient } from '../clients/typescript/sdk.js';
import { startServer, take, type TestServer } from './support/harness.js';

let server: TestServer;
beforeAll(async () => {
  server = await startServer();
  for (const id of ['auth-a', 'auth-b']) await server.operator.createAgent({ input: { agentId: id, name: id } });
});
afterAll(async () => server?.stop());

async function post(body: unknown, headers: Record<string, string> = {}) {
  const response = await fetch(server.url, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify(body) });
  return { status: response.status, body: (await response.json()) as { data?: unknown; errors?: { message: string; extensions?: { code?: string } }[] } };
}

describe('authentication', () => {
  it('refuses a request without a token, with a bad token, and with a revoked token', async () => {
    const none = await post({ query: '{ viewer { principal } }' });
    expect(none.status).toBe(401);
    expect(none.body.errors?.[0].extensions?.code).toBe('UNAUTHENTICATED');
    const bad = await post({ query: '{ viewer { principal } }' }, { authorization: 'Bearer brw_not-a-token' });
    expect(bad.body.errors?.[0].extensions?.code).toBe('UNAUTHENTICATED');
    const { token, record } = await server.app.services.tokens.create({ kind: 'operator', name: 'short-lived' });
    const ok = await post({ query: '{ viewer { principal } }' }, { authorization: `Bearer ${token}` });
    expect(ok.body.data).toEqual({ viewer: { principal: 'OPERATOR' } });
    await server.app.services.tokens.revoke(record.id);
    const revoked = await post({ query: '{ viewer { principal } }' }, { authorization: `Bearer ${token}` });
    expect(revoked.body.errors?.[0].extensions?.code).toBe('UNAUTHENTICATED');
    expect(JSON.stringify(revoked.body)).not.toMatch(/at .*\.ts/);
  });

  it('stores only the hash of a token', async () => {
    const { token, record } = await server.app.services.tokens.create({ kind: 'operator', name: 'hashed' });
    const { rows } = await server.database.pool.query('SELECT token_hash FROM api_tokens WHERE id = $1', [record.id]);
    expect(rows[0].token_hash).toMatch(/^[0-9a-f]{64}$/);
    expect(JSON.stringify(rows)).not.toContain(token);
  });

  it('refuses a WebSocket connection whose connection_init carries no valid token', async () => {
    const ws = createClient({ url: server.url.replace('http', 'ws'), webSocketImpl: WebSocket, connectionParams: { authorization: 'Bearer brw_wrong' }, retryAttempts: 0 });
    const subscription = ws.iterate({ query: 'subscription { agentEvents(agentId: "auth-a") { sequence } }' });
    await expect(subscription.next()).rejects.toMatchObject({ code: 4403 });
    await ws.dispose();
  });

  it('viewer returns the principal, agent and runtime scope', async () => {
    const client = await server.client({ agentId: 'auth-a', scope: 'proj-x', session: 's-1', conversation: 'c-1' });
    const { viewer } = await client.viewer();
    expect(viewer).toEqual({
      principal: 'AGENT',
      tokenName: 'agent-auth-a',
      agentId: 'auth-a',
      project: 'proj-x',
      sessionId: 's-1',
      conversationId: 'c-1',
      agent: { agentId: 'auth-a', name: 'auth-a' },
    });
    const ws = await client.viewer(undefined, { transport: 'ws' });
    expect(ws).toEqual({ viewer });
    expect((await server.operator.viewer()).viewer).toMatchObject({ principal: 'OPERATOR', agentId: null, project: null, agent: null });
  });
});

describe('an agent token acts only as its agent', () => {
  it('fails with AGENT_MISMATCH for another agent named in an argument, and reveals nothing', async () => {
    const a = await server.client({ agentId: 'auth-a' });
    for (const call of [
      () => a.agent({ id: 'auth-b' }),
      () => a.profileDocument({ agentId: 'auth-b', kind: 'SOUL' }),
      () => a.preferenceLearning({ agentId: 'auth-b' }),
      () => a.updateProfileDocument({ input: { agentId: 'auth-b', kind: 'SOUL', content: 'hijack', expectedRevision: 1 } }),
      // A missing agent answers the same as an existing one: nothing is revealed.
      () => a.agent({ id: 'does-not-exist' }),
    ]) {
      const error = await call().then(
        () => null,
        (e) => e,
      );
      expect(error).toMatchObject({ code: 'AGENT_MISMATCH' });
      expect(JSON.stringify(error.errors)).not.toContain('auth-b"');
    }
    const { profileDocument } = await server.operator.profileDocument({ agentId: 'auth-b', kind: 'SOUL' });
    expect(profileDocument).toMatchObject({ revision: 1, content: '' });
  });

  it('fails with AGENT_MISMATCH through node(id:)', async () => {
    const a = await server.client({ agentId: 'auth-a' });
    const { agent } = await server.operator.agent({ id: 'auth-b' });
    await expect(a.node({ id: agent!.id })).rejects.toMatchObject({ code: 'AGENT_MISMATCH' });
    await expect(a.node({ id: agent!.profile[0].id })).rejects.toMatchObject({ code: 'AGENT_MISMATCH' });
    const own = await a.node({ id: (await server.operator.agent({ id: 'auth-a' })).agent!.id });
    expect(own.node).toMatchObject({ __typename: 'Agent', agentId: 'auth-a' });
  });

  it('sees only itself in the agents connection', async () => {
    const a = await server.client({ agentId: 'auth-a' });
    const { agents } = await a.agents({ first: 50 });
    expect(agents.edges.map((e) => e.node.agentId)).toEqual(['auth-a']);
    const all = await server.operator.agents({ first: 50 });
    expect(all.agents.edges.map((e) => e.node.agentId)).toEqual(expect.arrayContaining(['auth-a', 'auth-b']));
  });

  it('fails with AGENT_MISMATCH when subscribing to another agent', async () => {
    const a = await server.client({ agentId: 'auth-a' });
    await expect(take(a.agentEvents({ agentId: 'auth-b', after: 0 }), 1)).rejects.toMatchObject({ code: 'AGENT_MISMATCH' });
  });
});

describe('bad input', () => {
  it('answers malformed requests with typed errors, never a 500', async () => {
    const token = (await server.app.services.tokens.create({ kind: 'operator', name: 'bad-input' })).token;
    const headers = { authorization: `Bearer ${token}` };
    const syntax = await post({ query: '{ viewer { ' }, headers);
    expect(syntax.status).toBeLessThan(500);
    expect(syntax.body.errors?.[0].message).toMatch(/Syntax Error/);
    const unknownField = await post({ query: '{ nope }' }, headers);
    expect(unknownField.status).toBeLessThan(500);
    const badEnum = await post({ query: '{ profileDocument(agentId: "auth-a", kind: SOULZ) { content } }' }, headers);
    expect(badEnum.status).toBeLessThan(500);
    const badCursor = await post({ query: '{ agents(after: "garbage") { edges { cursor } } }' }, headers);
    expect(badCursor.body.errors?.[0].extensions?.code).toBe('BAD_CURSOR');
    const hugePage = await post({ query: '{ agents(first: 100000) { edges { cursor } } }' }, headers);
    expect(hugePage.body.errors?.[0].extensions?.code).toBe('BAD_REQUEST');
    const negativePage = await post({ query: '{ agents(first: -1) { edges { cursor } } }' }, headers);
    expect(negativePage.body.errors?.[0].extensions?.code).toBe('BAD_REQUEST');
    const notJson = await fetch(server.url, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: '{not json' });
    expect(notJson.status).toBe(400);
    // Errors GraphQL raises itself carry a code too.
    const badGlobalId = await post({ query: '{ node(id: "garbage") { id } }' }, headers);
    expect(badGlobalId.body.errors?.[0].extensions?.code).toBe('BAD_REQUEST');
    const badVariable = await post({ query: 'query($n: Int) { agents(first: $n) { edges { cursor } } }', variables: { n: 'abc' } }, headers);
    expect(badVariable.status).toBeLessThan(500);
    expect(badVariable.body.errors?.[0].extensions?.code).toBeTruthy();
    // Text PostgreSQL cannot store (U+0000) is refused by the text policy wherever it arrives.
    const nulId = await post({ query: 'query($id: String!) { agent(agentId: $id) { name } }', variables: { id: 'a\u0000' } }, headers);
    expect(nulId.body.errors?.[0].extensions).toMatchObject({ code: 'VALIDATION_FAILED', field: 'agentId' });
  });

  it('rejects a cursor from another list (CURSOR_MISMATCH)', async () => {
    const forged = Buffer.from(JSON.stringify({ b: 'someotherlist000', p: ['2026-01-01T00:00:00.000Z', 'x'] })).toString('base64url');
    await expect(server.operator.agents({ first: 1, after: forged })).rejects.toMatchObject({ code: 'CURSOR_MISMATCH' });
  });

  it('builds clients that send runtime scope headers', async () => {
    const { token } = await server.app.services.tokens.create({ kind: 'agent', name: 'sdk', agentId: 'auth-b' });
    const client = createBurrowClient({ url: server.url, token, scope: 'p1' });
    expect((await client.viewer()).viewer).toMatchObject({ agentId: 'auth-b', project: 'p1', sessionId: null });
    await client.close();
  });
});
