/**
 * Tokens in the API (operators only): createApiToken returns the secret once, apiTokens lists
 * without secrets or hashes, revokeApiToken refuses the token from then on and closes its open
 * WebSocket; agent tokens are refused (FORBIDDEN) on all three.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BurrowRequestError, createBurrowClient } from '../clients/typescript/sdk.js';
import { ok } from './support/continuity.js';
import { requestError, startServer, type TestServer } from './support/harness.js';

let server: TestServer;
beforeAll(async () => {
  server = await startServer();
  await server.operator.createAgent({ input: { id: 'tapi-a', name: 'tapi-a' } });
});
afterAll(async () => server?.stop());

const clientFor = (token: string) => createBurrowClient({ url: server.url, token });

describe('createApiToken', () => {
  it('creates an agent token whose secret works once handed to a client, and lists it without the secret', async () => {
    const created = ok((await server.operator.createApiToken({ input: { kind: 'AGENT', agentId: 'tapi-a', name: 'runtime 1' } })).createApiToken, 'CreateApiTokenSuccess');
    expect(created.secret).toMatch(/^brw_/);
    expect(created.token).toMatchObject({ name: 'runtime 1', kind: 'AGENT', agentId: 'tapi-a', expiresAt: null, lastUsedAt: null, revokedAt: null, active: true });

    const agent = clientFor(created.secret);
    try {
      expect((await agent.viewer()).viewer).toMatchObject({ principal: 'AGENT', agentId: 'tapi-a', tokenName: 'runtime 1' });
    } finally {
      await agent.close();
    }

    const listed = (await server.operator.apiTokens()).apiTokens.find((t) => t.id === created.token.id);
    expect(listed).toMatchObject({ name: 'runtime 1', kind: 'AGENT', agentId: 'tapi-a', active: true });
    expect(listed!.lastUsedAt).not.toBeNull();
    // Neither the secret nor anything derived from it is reachable through the listing.
    const raw = JSON.stringify(await server.operator.request('{ apiTokens { id name kind agentId createdAt expiresAt lastUsedAt revokedAt active } }'));
    expect(raw).not.toContain(created.secret);
    expect(raw).not.toContain(created.secret.slice(4, 20));
    const fields = (await server.operator.request<{ __type: { fields: { name: string }[] } }>('{ __type(name: "ApiToken") { fields { name } } }')).__type.fields.map((f) => f.name);
    expect(fields.sort()).toEqual(['active', 'agentId', 'createdAt', 'expiresAt', 'id', 'kind', 'lastUsedAt', 'name', 'revokedAt']);
  });

  it('creates an operator token with a lifetime: expiresAt is createdAt + expiresIn, and the token expires with the clock', async () => {
    const created = ok((await server.operator.createApiToken({ input: { kind: 'OPERATOR', name: 'dashboard', expiresIn: '2h' } })).createApiToken, 'CreateApiTokenSuccess');
    expect(new Date(created.token.expiresAt!).getTime() - new Date(created.token.createdAt).getTime()).toBe(2 * 3_600_000);
    const dashboard = clientFor(created.secret);
    try {
      expect((await dashboard.viewer()).viewer.principal).toBe('OPERATOR');
      server.clock.advance(2 * 3_600_000 - 1);
      expect((await dashboard.viewer()).viewer.principal).toBe('OPERATOR');
      server.clock.advance(1);
      expect((await requestError(dashboard.viewer())).code).toBe('UNAUTHENTICATED');
      expect((await server.operator.apiTokens()).apiTokens.find((t) => t.id === created.token.id)!.active).toBe(false);
    } finally {
      await dashboard.close();
    }
  });

  it('refuses bad input with a typed member and creates nothing', async () => {
    const before = (await server.operator.apiTokens()).apiTokens.length;
    const cases = [
      [{ kind: 'AGENT' as const, name: 'x' }, 'ValidationFailed', 'agentId'],
      [{ kind: 'OPERATOR' as const, agentId: 'tapi-a', name: 'x' }, 'ValidationFailed', 'agentId'],
      [{ kind: 'OPERATOR' as const, name: '' }, 'ValidationFailed', 'name'],
      [{ kind: 'OPERATOR' as const, name: 'x'.repeat(201) }, 'ValidationFailed', 'name'],
      [{ kind: 'OPERATOR' as const, name: 'x', expiresIn: '0d' }, 'ValidationFailed', 'expiresIn'],
      [{ kind: 'OPERATOR' as const, name: 'x', expiresIn: '30 days' }, 'ValidationFailed', 'expiresIn'],
      [{ kind: 'OPERATOR' as const, name: 'x', expiresIn: '-1h' }, 'ValidationFailed', 'expiresIn'],
    ] as const;
    for (const [input, type, field] of cases) {
      const result = (await server.operator.createApiToken({ input })).createApiToken;
      expect({ input, type: result.__typename }).toEqual({ input, type });
      if (result.__typename === 'ValidationFailed') expect(result.field).toBe(field);
    }
    const missing = (await server.operator.createApiToken({ input: { kind: 'AGENT', agentId: 'no-such-agent', name: 'x' } })).createApiToken;
    expect(missing).toMatchObject({ __typename: 'NotFound', code: 'NOT_FOUND', resource: 'agent', id: 'no-such-agent' });
    // 200 characters is the longest name.
    ok((await server.operator.createApiToken({ input: { kind: 'OPERATOR', name: 'x'.repeat(200) } })).createApiToken, 'CreateApiTokenSuccess');
    expect((await server.operator.apiTokens()).apiTokens.length).toBe(before + 1);
  });
});

describe('revokeApiToken', () => {
  it('refuses the token from then on and closes its open subscription; a second revoke is NotFound', async () => {
    const created = ok((await server.operator.createApiToken({ input: { kind: 'AGENT', agentId: 'tapi-a', name: 'to revoke' } })).createApiToken, 'CreateApiTokenSuccess');
    const agent = clientFor(created.secret);
    try {
      // Open: the replay from sequence 0 has delivered the first event.
      const events = agent.agentEvents({ agentId: 'tapi-a', after: 0 })[Symbol.asyncIterator]();
      expect((await events.next()).value?.agentEvents.type).toBe('AGENT_CREATED');
      const ended = events.next().then(
        (next) => (next.done ? 'ended' : `event ${next.value.agentEvents.type}`),
        () => 'ended',
      );

      const revoked = ok((await server.operator.revokeApiToken({ id: created.token.id })).revokeApiToken, 'RevokeApiTokenSuccess');
      expect(revoked.token).toMatchObject({ id: created.token.id, active: false });
      expect(revoked.token.revokedAt).not.toBeNull();
      // The revocation's NOTIFY closes the socket (token-lifecycle.test.ts covers the code 4403).
      expect(await ended).toBe('ended');
      expect((await requestError(agent.viewer())).code).toBe('UNAUTHENTICATED');
      expect((await server.operator.revokeApiToken({ id: created.token.id })).revokeApiToken).toMatchObject({ __typename: 'NotFound', code: 'NOT_FOUND' });
      expect((await server.operator.revokeApiToken({ id: 'no-such-token' })).revokeApiToken).toMatchObject({ __typename: 'NotFound', code: 'NOT_FOUND' });
    } finally {
      await agent.close();
    }
  });
});

describe('agent tokens', () => {
  it('are refused (FORBIDDEN) on every token field, and create or revoke nothing', async () => {
    const agent = await server.agentClient('tapi-a');
    const before = await server.operator.apiTokens();
    const victim = before.apiTokens.find((t) => t.active)!;
    expect((await requestError(agent.apiTokens())).code).toBe('FORBIDDEN');
    expect((await requestError(agent.createApiToken({ input: { kind: 'AGENT', agentId: 'tapi-a', name: 'self-made' } }))).code).toBe('FORBIDDEN');
    expect((await requestError(agent.createApiToken({ input: { kind: 'OPERATOR', name: 'escalate' } }))).code).toBe('FORBIDDEN');
    expect((await requestError(agent.revokeApiToken({ id: victim.id }))).code).toBe('FORBIDDEN');
    // The refused calls used the agent's token, so only its lastUsedAt may have moved.
    const withoutUse = (list: typeof before) => list.apiTokens.map(({ lastUsedAt: _, ...t }) => t);
    expect(withoutUse(await server.operator.apiTokens())).toEqual(withoutUse(before));
  });
});
