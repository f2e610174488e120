/**
 * Verified tokens are cached in memory (src/auth/token-cache.ts): repeated requests with one
 * token do not read api_tokens, yet a revocation through the API is refused at the next request
 * (on this instance at once, on another instance sharing the database when its NOTIFY arrives,
 * never by waiting for the cache's lifetime: the test clock stands still), an expiring token is
 * refused from its expiresAt on, an entry is read again after BURROW_TOKEN_CACHE_SECONDS, and
 * the cache holds at most BURROW_TOKEN_CACHE_MAX tokens.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createBurrowClient, type BurrowClient } from '../clients/typescript/sdk.js';
import { ok } from './support/continuity.js';
import { hasRealServer, NEEDS_REAL_SERVER, requestError, startServer, waitUntil, type TestServer } from './support/harness.js';

let server: TestServer;
const clients: BurrowClient[] = [];
beforeAll(async () => {
  server = await startServer({ config: { tokens: { lastUsedIntervalSeconds: 60, recheckSeconds: 3600, cacheSeconds: 30, cacheMax: 10_000 } } });
  await server.operator.createAgent({ input: { agentId: 'cache-a', name: 'cache-a' } });
});
afterAll(async () => {
  await Promise.all(clients.map((c) => c.close()));
  await server?.stop();
});

async function agentToken(s: TestServer, name: string, expiresIn?: string) {
  const created = ok((await s.operator.createApiToken({ input: { kind: 'AGENT', agentId: 'cache-a', name, expiresIn } })).createApiToken, 'CreateApiTokenSuccess');
  const client = createBurrowClient({ url: s.url, token: created.secret });
  clients.push(client);
  return { id: created.token.tokenId, secret: created.secret, client };
}

/** Runs `body` and returns the statements it issued that read or write api_tokens. */
async function tokenStatements(s: TestServer, body: () => Promise<unknown>): Promise<string[]> {
  const seen: string[] = [];
  const previous = s.database.statements.onQuery;
  s.database.statements.onQuery = (query) => {
    if (query.includes('"api_tokens"')) seen.push(query.split(' ')[0]);
    previous?.(query, []);
  };
  try {
    await body();
  } finally {
    s.database.statements.onQuery = previous;
  }
  return seen;
}

describe('repeated requests with one token', () => {
  it('read api_tokens once: the first request looks the token up (and notes its use), the next 20 touch nothing', async () => {
    const { client } = await agentToken(server, 'repeat');
    expect(await tokenStatements(server, () => client.viewer())).toEqual(['select', 'update']);
    expect(
      await tokenStatements(server, async () => {
        for (let i = 0; i < 20; i++) expect((await client.viewer()).viewer.tokenName).toBe('repeat');
      }),
    ).toEqual([]);
  });

  it('read it again once BURROW_TOKEN_CACHE_SECONDS have passed, not a millisecond before', async () => {
    const { client } = await agentToken(server, 'ttl');
    await client.viewer();
    server.clock.advance(29_999);
    expect(await tokenStatements(server, () => client.viewer())).toEqual([]);
    server.clock.advance(1);
    expect(await tokenStatements(server, () => client.viewer())).toEqual(['select']);
    expect(await tokenStatements(server, () => client.viewer())).toEqual([]);
  });
});

describe('revocation through the API', () => {
  it('refuses the cached token at the very next request with 401 UNAUTHENTICATED, and leaves other tokens cached', async () => {
    const victim = await agentToken(server, 'victim');
    const bystander = await agentToken(server, 'bystander');
    await victim.client.viewer();
    await bystander.client.viewer();
    expect(await tokenStatements(server, () => victim.client.viewer())).toEqual([]);

    ok((await server.operator.revokeApiToken({ tokenId: victim.id })).revokeApiToken, 'RevokeApiTokenSuccess');
    const refused = await requestError(victim.client.viewer());
    expect([refused.status, refused.code]).toEqual([401, 'UNAUTHENTICATED']);
    // The bystander is still served from the cache.
    expect(await tokenStatements(server, () => bystander.client.viewer())).toEqual([]);
  });
});

describe('revocation on the revoking instance', () => {
  it('refuses the token at the next request without its NOTIFY: the revoking instance forgets it itself', async () => {
    const deaf = await startServer({ config: { tokens: { lastUsedIntervalSeconds: 60, recheckSeconds: 3600, cacheSeconds: 3600, cacheMax: 10_000 } } });
    try {
      await deaf.operator.createAgent({ input: { agentId: 'cache-a', name: 'cache-a' } });
      // No LISTEN: the notification that would make any instance forget the token never arrives.
      await deaf.app.services.tokenWatch.stop();
      const victim = await agentToken(deaf, 'deaf-victim');
      await victim.client.viewer();
      expect(await tokenStatements(deaf, () => victim.client.viewer())).toEqual([]);
      ok((await deaf.operator.revokeApiToken({ tokenId: victim.id })).revokeApiToken, 'RevokeApiTokenSuccess');
      const refused = await requestError(victim.client.viewer());
      expect([refused.status, refused.code]).toEqual([401, 'UNAUTHENTICATED']);
    } finally {
      await deaf.stop();
    }
  });
});

describe('expiry', () => {
  it('serves a cached token until its expiresAt and refuses it from that millisecond on', async () => {
    const expiring = await agentToken(server, 'expiring', '10s');
    await expiring.client.viewer();
    server.clock.advance(9_999);
    expect(await tokenStatements(server, async () => expect((await expiring.client.viewer()).viewer.tokenName).toBe('expiring'))).toEqual([]);
    server.clock.advance(1);
    const refused = await requestError(expiring.client.viewer());
    expect([refused.status, refused.code]).toEqual([401, 'UNAUTHENTICATED']);
  });
});

describe('size', () => {
  it('holds at most BURROW_TOKEN_CACHE_MAX tokens, dropping the least recently used', async () => {
    const small = await startServer({ config: { tokens: { lastUsedIntervalSeconds: 60, recheckSeconds: 3600, cacheSeconds: 30, cacheMax: 2 } } });
    try {
      await small.operator.createAgent({ input: { agentId: 'cache-a', name: 'cache-a' } });
      const [a, b, c] = [await agentToken(small, 'a'), await agentToken(small, 'b'), await agentToken(small, 'c')];
      for (const t of [a, b, c]) await t.client.viewer();
      // The operator's requests above filled the cache too; a, b, c were the last three: b and c remain.
      expect(small.app.services.tokenCache.size).toBe(2);
      expect(await tokenStatements(small, () => c.client.viewer())).toEqual([]);
      expect(await tokenStatements(small, () => b.client.viewer())).toEqual([]);
      expect(await tokenStatements(small, () => a.client.viewer())).toEqual(['select']);
      // a came back in and pushed out c, the least recently used.
      expect(await tokenStatements(small, () => c.client.viewer())).toEqual(['select']);
      expect(small.app.services.tokenCache.size).toBe(2);
    } finally {
      await small.stop();
    }
  });
});

describe.skipIf(!hasRealServer)(`revocation across instances (${NEEDS_REAL_SERVER})`, () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startServer({ realServer: true, config: { tokens: { lastUsedIntervalSeconds: 60, recheckSeconds: 3600, cacheSeconds: 30, cacheMax: 10_000 } } });
    await server.operator.createAgent({ input: { agentId: 'cache-a', name: 'cache-a' } });
  });
  afterAll(async () => server?.stop());

  it('a token revoked on one instance is refused by another that had it cached, as soon as the NOTIFY arrives', async () => {
    const second = await startServer({
      database: server.testDatabase,
      clock: server.clock,
      config: { tokens: { lastUsedIntervalSeconds: 60, recheckSeconds: 3600, cacheSeconds: 3600, cacheMax: 10_000 } },
    });
    try {
      const { id, secret } = await agentToken(server, 'two-instances');
      const onSecond = createBurrowClient({ url: second.url, token: secret });
      clients.push(onSecond);
      await onSecond.viewer();
      expect(await tokenStatements(second, () => onSecond.viewer())).toEqual([]);

      ok((await server.operator.revokeApiToken({ tokenId: id })).revokeApiToken, 'RevokeApiTokenSuccess');
      // The clock stands still and the second instance caches for an hour: only the
      // notification can make it refuse. Wait for it to arrive (milliseconds), not for a TTL.
      let refused = null as Awaited<ReturnType<typeof requestError>> | null;
      await waitUntil(async () => (refused = await requestError(onSecond.viewer()).catch(() => null)) !== null, 'the second instance refuses the token', 10_000, 5);
      expect([refused?.status, refused?.code]).toEqual([401, 'UNAUTHENTICATED']);
      // From then on it stays refused, read from the database (the entry is gone).
      expect(await tokenStatements(second, async () => expect((await requestError(onSecond.viewer())).code).toBe('UNAUTHENTICATED'))).toEqual(['select']);
    } finally {
      await second.stop();
    }
  });
});
