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
  await server.operator.createAgent({ input: { agentId: 'tapi-a', name: 'tapi-a' } });
});
afterAll(async () => server?.stop());

const clientFor = (token: string) => createBurrowClient({ url: server.url, token });

/** Every token, newest first, through the paged listing. */
const tokens = async () => (await server.operator.apiTokens({ first: 200 })).apiTokens.edges.map((e) => e.node);

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

    const listed = (await tokens()).find((t) => t.tokenId === created.token.tokenId);
    expect(listed).toMatchObject({ name: 'runtime 1', kind: 'AGENT', agentId: 'tapi-a', active: true });
    expect(listed!.lastUsedAt).not.toBeNull();
    // Neither the secret nor anything derived from it is reachable through the listing.
    const raw = JSON.stringify(
      await server.operator.request('{ apiTokens(first: 200) { edges { node { id tokenId name kind agentId createdAt expiresAt lastUsedAt revokedAt active } } } }'),
    );
    expect(raw).not.toContain(created.secret);
    expect(raw).not.toContain(created.secret.slice(4, 20));
    const fields = (await server.operator.request<{ __type: { fields: { name: string }[] } }>('{ __type(name: "ApiToken") { fields { name } } }')).__type.fields.map((f) => f.name);
    expect(fields.sort()).toEqual(['active', 'agent', 'agentId', 'createdAt', 'expiresAt', 'id', 'kind', 'lastUsedAt', 'name', 'revokedAt', 'tokenId']);
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
      expect((await tokens()).find((t) => t.tokenId === created.token.tokenId)!.active).toBe(false);
    } finally {
      await dashboard.close();
    }
  });

  it('refuses bad input with a typed member and creates nothing', async () => {
    const before = (await tokens()).length;
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
    expect(missing).toMatchObject({ __typename: 'NotFound', code: 'NOT_FOUND', resource: 'Agent', resourceId: 'no-such-agent' });
    // 200 characters is the longest name.
    ok((await server.operator.createApiToken({ input: { kind: 'OPERATOR', name: 'x'.repeat(200) } })).createApiToken, 'CreateApiTokenSuccess');
    expect((await tokens()).length).toBe(before + 1);
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

      const revoked = ok((await server.operator.revokeApiToken({ tokenId: created.token.tokenId })).revokeApiToken, 'RevokeApiTokenSuccess');
      expect(revoked.token).toMatchObject({ tokenId: created.token.tokenId, active: false });
      expect(revoked.token.revokedAt).not.toBeNull();
      // The revocation's NOTIFY closes the socket (token-lifecycle.test.ts covers the code 4403).
      expect(await ended).toBe('ended');
      expect((await requestError(agent.viewer())).code).toBe('UNAUTHENTICATED');
      expect((await server.operator.revokeApiToken({ tokenId: created.token.tokenId })).revokeApiToken).toMatchObject({ __typename: 'NotFound', code: 'NOT_FOUND' });
      expect((await server.operator.revokeApiToken({ tokenId: 'no-such-token' })).revokeApiToken).toMatchObject({ __typename: 'NotFound', code: 'NOT_FOUND' });
    } finally {
      await agent.close();
    }
  });
});

describe('agent tokens', () => {
  it('are refused (FORBIDDEN) on every token field, and create or revoke nothing', async () => {
    const agent = await server.agentClient('tapi-a');
    const before = await tokens();
    const victim = before.find((t) => t.active)!;
    expect((await requestError(agent.apiTokens())).code).toBe('FORBIDDEN');
    expect((await requestError(agent.agentTokens({ agentId: 'tapi-a' }))).code).toBe('FORBIDDEN');
    expect((await requestError(agent.node({ id: victim.id }))).code).toBe('FORBIDDEN');
    expect((await requestError(agent.createApiToken({ input: { kind: 'AGENT', agentId: 'tapi-a', name: 'self-made' } }))).code).toBe('FORBIDDEN');
    expect((await requestError(agent.createApiToken({ input: { kind: 'OPERATOR', name: 'escalate' } }))).code).toBe('FORBIDDEN');
    expect((await requestError(agent.revokeApiToken({ tokenId: victim.tokenId }))).code).toBe('FORBIDDEN');
    // The refused calls used the agent's token, so only its lastUsedAt may have moved.
    const withoutUse = (list: typeof before) => list.map(({ lastUsedAt: _, ...t }) => t);
    expect(withoutUse(await tokens())).toEqual(withoutUse(before));
  });
});

describe('paging and the agent link', () => {
  it('apiTokens pages forward newest first with a totalCount; node(id) reads a token back', async () => {
    const all = await tokens();
    const first = (await server.operator.apiTokens({ first: 2 })).apiTokens;
    expect(first.totalCount).toBe(all.length);
    expect(first.edges.map((e) => e.node.tokenId)).toEqual(all.slice(0, 2).map((t) => t.tokenId));
    expect(first.pageInfo).toMatchObject({ hasNextPage: true, hasPreviousPage: false });
    const rest = (await server.operator.apiTokens({ first: 200, after: first.pageInfo.endCursor })).apiTokens;
    expect(rest.edges.map((e) => e.node.tokenId)).toEqual(all.slice(2).map((t) => t.tokenId));
    expect(rest.pageInfo).toMatchObject({ hasNextPage: false, hasPreviousPage: true });
    await expect(server.operator.apiTokens({ first: 201 })).rejects.toMatchObject({ code: 'BAD_REQUEST' });
    const node = (await server.operator.node({ id: all[0].id })).node;
    expect(node).toMatchObject({ __typename: 'ApiToken', id: all[0].id, tokenId: all[0].tokenId });
  });

  it("Agent.tokens lists only that agent's tokens, newest first, and pages within the agent", async () => {
    await server.operator.createAgent({ input: { agentId: 'tapi-b', name: 'tapi-b' } });
    for (const name of ['b1', 'b2', 'b3']) {
      server.clock.advance(1_000);
      ok((await server.operator.createApiToken({ input: { kind: 'AGENT', agentId: 'tapi-b', name } })).createApiToken, 'CreateApiTokenSuccess');
    }
    const expected = (await tokens()).filter((t) => t.agentId === 'tapi-b');
    expect(expected.map((t) => t.name)).toEqual(['b3', 'b2', 'b1']);
    const page = (await server.operator.agentTokens({ agentId: 'tapi-b', first: 2 })).agent!.tokens;
    expect(page.edges.map((e) => e.node)).toEqual(expected.slice(0, 2));
    expect(page.pageInfo).toMatchObject({ hasNextPage: true, hasPreviousPage: false });
    const next = (await server.operator.agentTokens({ agentId: 'tapi-b', first: 2, after: page.pageInfo.endCursor })).agent!.tokens;
    expect(next.edges.map((e) => e.node.name)).toEqual(['b1']);
    expect(next.pageInfo).toMatchObject({ hasNextPage: false, hasPreviousPage: true });
    // A cursor of tapi-b's list means nothing for tapi-a's.
    await expect(server.operator.agentTokens({ agentId: 'tapi-a', after: page.pageInfo.endCursor })).rejects.toMatchObject({ code: 'CURSOR_MISMATCH' });
    const ofA = (await server.operator.agentTokens({ agentId: 'tapi-a', first: 200 })).agent!.tokens.edges.map((e) => e.node.agentId);
    expect(new Set(ofA)).toEqual(new Set(['tapi-a']));
  });
});
