/**
 * Production defaults, CORS and Origin checks, CSRF (JSON-only bodies) and trusted documents, over
 * HTTP and WebSocket. `prod` runs with what NODE_ENV=production gives plus an origin allowlist and
 * BURROW_TRUSTED_DOCUMENTS=agents; `dev` with the development defaults, to show the difference.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createBurrowClient } from '../clients/typescript/sdk.js';
import { documentHash } from '../clients/typescript/document-hash.js';
import { loadConfig } from '../src/config.js';
import { buildApp } from '../src/app.js';
import { openDatabase } from '../src/db/database.open.js';
import { migrate } from '../src/db/migrator.js';
import { createLogger } from '../src/lib/logger.js';
import { faultSwitch, requestError, startServer, take, testConfig, type TestServer } from './support/harness.js';
import { bearer, postJson, postRaw, RawSocket } from './support/wire.js';

const ALLOWED = 'https://app.example.com';
let prod: TestServer;
let dev: TestServer;
const faults = faultSwitch();
let operatorToken: string;
let agentToken: string;

beforeAll(async () => {
  const production = loadConfig({ BURROW_POSTGRES_LIFECYCLE: 'embedded', NODE_ENV: 'production', BURROW_CORS_ORIGINS: ALLOWED, BURROW_TRUSTED_DOCUMENTS: 'agents' });
  prod = await startServer({ faults: faults.inject, config: { graphiql: production.graphiql, security: production.security, limits: production.limits } });
  dev = await startServer();
  operatorToken = (await prod.app.services.tokens.create({ kind: 'operator', name: 'sec-op' })).token;
  await prod.operator.createAgent({ input: { agentId: 'sec-a', name: 'sec-a' } });
  agentToken = (await prod.app.services.tokens.create({ kind: 'agent', name: 'sec-agent', agentId: 'sec-a' })).token;
  await dev.operator.createAgent({ input: { agentId: 'dev-a', name: 'dev-a' } });
});
afterAll(async () => {
  await prod?.stop();
  await dev?.stop();
});

const codeOf = (response: { body: { errors?: { extensions?: { code?: string } }[] } | null }) => response.body?.errors?.[0]?.extensions?.code;

describe('configuration', () => {
  const base = { BURROW_POSTGRES_LIFECYCLE: 'embedded' };
  it('NODE_ENV=production turns off GraphiQL and suggestions and keeps introspection for operators', () => {
    const config = loadConfig({ ...base, NODE_ENV: 'production' });
    expect([config.graphiql, config.security]).toEqual([false, { introspection: 'operators', fieldSuggestions: false, corsOrigins: [], trustedDocuments: 'off' }]);
    expect(loadConfig(base).security).toEqual({ introspection: 'all', fieldSuggestions: true, corsOrigins: [], trustedDocuments: 'off' });
    expect(loadConfig({ ...base, NODE_ENV: 'production', BURROW_INTROSPECTION: 'all', BURROW_FIELD_SUGGESTIONS: 'true', BURROW_GRAPHIQL: 'true' })).toMatchObject({
      graphiql: true,
      security: { introspection: 'all', fieldSuggestions: true },
    });
  });

  it('reads every limit from its variable and refuses bad values by name', () => {
    const env = {
      ...base,
      BURROW_MAX_BODY_BYTES: '2048',
      BURROW_MAX_TOKENS: '11',
      BURROW_MAX_DEPTH: '2',
      BURROW_MAX_ALIASES: '3',
      BURROW_MAX_DIRECTIVES: '4',
      BURROW_MAX_COST: '5',
      BURROW_MAX_MUTATION_FIELDS: '6',
      BURROW_WS_MAX_PAYLOAD_BYTES: '4096',
      BURROW_WS_CONNECTION_INIT_BYTES: '512',
      BURROW_SUBSCRIPTIONS_PER_SOCKET: '7',
      BURROW_SUBSCRIPTIONS_PER_TOKEN: '8',
      BURROW_ARCHIVE_MAX_BYTES: '65536',
      BURROW_CORS_ORIGINS: 'https://a.example, http://localhost:5173',
    };
    const config = loadConfig(env);
    expect(config.limits).toEqual({
      bodyBytes: 2048,
      maxTokens: 11,
      maxDepth: 2,
      maxAliases: 3,
      maxDirectives: 4,
      maxCost: 5,
      maxMutationFields: 6,
      wsMaxPayloadBytes: 4096,
      connectionInitBytes: 512,
      subscriptionsPerSocket: 7,
      subscriptionsPerToken: 8,
      archiveBytes: 65536,
    });
    expect(config.security.corsOrigins).toEqual(['https://a.example', 'http://localhost:5173']);
    let problems: string[] = [];
    try {
      loadConfig({ ...base, BURROW_MAX_DEPTH: '0', BURROW_CORS_ORIGINS: '*', BURROW_TRUSTED_DOCUMENTS: 'all', BURROW_INTROSPECTION: 'agents' });
    } catch (error) {
      problems = (error as { problems: string[] }).problems;
    }
    expect(problems).toEqual([
      expect.stringMatching(/^BURROW_MAX_DEPTH="0" must be a whole number from 1/),
      expect.stringMatching(/^BURROW_INTROSPECTION="agents"/),
      expect.stringMatching(/^BURROW_TRUSTED_DOCUMENTS="all"/),
      expect.stringMatching(/^BURROW_CORS_ORIGINS entry "\*"/),
    ]);
  });
});

describe('production defaults', () => {
  it('hides "Did you mean" in validation and variable errors; development shows it', async () => {
    const typo = '{ viewer { principl } }';
    const enumVariable = { query: 'query($k: ProfileKind!) { profileDocument(agentId: "sec-a", kind: $k) { content } }', variables: { k: 'SOULL' } };
    const prodTypo = await postJson(prod.url, { query: typo }, bearer(operatorToken));
    const prodEnum = await postJson(prod.url, enumVariable, bearer(operatorToken));
    expect(prodTypo.body?.errors?.[0].message).toBe('Cannot query field "principl" on type "Viewer".');
    expect(prodEnum.body?.errors?.[0].message).not.toMatch(/Did you mean/);
    // The variable's value is never repeated (it may hold a secret): the type expected is named.
    expect(prodEnum.body?.errors?.[0].message).toBe('Variable "$k" got invalid value; expected a value of type "ProfileKind!"');
    const socket = await RawSocket.open(prod.url);
    await socket.init(operatorToken);
    const overWs = await socket.operation('1', { query: typo });
    expect(JSON.stringify(overWs)).toMatch(/Cannot query field \\"principl\\"/);
    expect(JSON.stringify(overWs)).not.toMatch(/Did you mean/);
    socket.close();

    const devToken = (await dev.app.services.tokens.create({ kind: 'operator', name: 'dev' })).token;
    const devTypo = await postJson(dev.url, { query: typo }, bearer(devToken));
    expect(devTypo.body?.errors?.[0].message).toMatch(/Did you mean "principal"\?/);
  });

  it('answers introspection to operator tokens only, over HTTP and WebSocket', async () => {
    const introspection = '{ __schema { queryType { name } } }';
    const asOperator = await postJson(prod.url, { query: introspection }, bearer(operatorToken));
    expect(asOperator.body?.data).toEqual({ __schema: { queryType: { name: 'Query' } } });
    const operator = createBurrowClient({ url: prod.url, token: operatorToken });
    try {
      expect(await operator.request('{ __type(name: "Agent") { name } }', {}, { transport: 'ws' })).toEqual({ __type: { name: 'Agent' } });
      // Agents may not send ad-hoc documents to `prod` at all: a server with trusted documents off shows the introspection rule.
      const devAgentToken = (await dev.app.services.tokens.create({ kind: 'agent', name: 'dev-agent', agentId: 'dev-a' })).token;
      const devProd = await startServer({ config: { security: { introspection: 'operators', fieldSuggestions: false, corsOrigins: [], trustedDocuments: 'off' } } });
      try {
        const { token: t } = await devProd.app.services.tokens.create({ kind: 'operator', name: 'o' });
        await devProd.operator.createAgent({ input: { agentId: 'intro-a', name: 'intro-a' } });
        const { token: agentSecret } = await devProd.app.services.tokens.create({ kind: 'agent', name: 'a', agentId: 'intro-a' });
        const refused = await postJson(devProd.url, { query: introspection }, bearer(agentSecret));
        expect(refused.body?.errors?.[0].extensions?.code).toBe('FORBIDDEN');
        expect(refused.body?.data ?? null).toBeNull();
        const agentWs = createBurrowClient({ url: devProd.url, token: agentSecret });
        expect((await requestError(agentWs.request('{ __type(name: "Agent") { name } }', {}, { transport: 'ws' }))).code).toBe('FORBIDDEN');
        await agentWs.close();
        expect((await postJson(devProd.url, { query: introspection }, bearer(t))).body?.data).toEqual({ __schema: { queryType: { name: 'Query' } } });
        // __typename is not introspection.
        expect((await postJson(devProd.url, { query: '{ __typename }' }, bearer(agentSecret))).body?.data).toEqual({ __typename: 'Query' });
      } finally {
        await devProd.stop();
      }
      // On the development server agents may introspect.
      expect((await postJson(dev.url, { query: introspection }, bearer(devAgentToken))).body?.data).toEqual({ __schema: { queryType: { name: 'Query' } } });
    } finally {
      await operator.close();
    }
  });

  it('serves no GraphiQL page', async () => {
    const page = await fetch(prod.url, { headers: { accept: 'text/html' } });
    expect(page.status).toBe(401);
    expect(await page.text()).not.toContain('GraphiQL');
  });

  it('masks unexpected errors: no message, no stack', async () => {
    faults.arm('preferences.after_audit');
    try {
      const response = await postJson(
        prod.url,
        { query: 'mutation { applyPreferenceLearning(input: { agentId: "sec-a", content: "x", expectedRevision: 1, reason: "r" }) { __typename } }' },
        bearer(operatorToken),
      );
      expect(response.body?.errors).toEqual([{ message: 'Unexpected error.', path: ['applyPreferenceLearning'], extensions: { code: 'INTERNAL_SERVER_ERROR' } }]);
      expect(JSON.stringify(response.body)).not.toMatch(/preferences\.after_audit|\.ts:\d+|stack/);
    } finally {
      faults.arm(null);
    }
  });
});

describe('CORS and Origin', () => {
  it('answers preflights with CORS headers for listed origins only, never reflecting others, never with credentials', async () => {
    const preflight = (origin: string) =>
      fetch(prod.url, { method: 'OPTIONS', headers: { origin, 'access-control-request-method': 'POST', 'access-control-request-headers': 'authorization, content-type' } });
    const allowed = await preflight(ALLOWED);
    expect(allowed.headers.get('access-control-allow-origin')).toBe(ALLOWED);
    expect(allowed.headers.get('access-control-allow-headers')).toMatch(/authorization/);
    expect(allowed.headers.get('access-control-allow-credentials')).toBeNull();
    const evil = await preflight('https://evil.example');
    expect(evil.headers.get('access-control-allow-origin')).toBeNull();
    // Default: no origin is listed, so none is reflected.
    const devPreflight = await fetch(dev.url, { method: 'OPTIONS', headers: { origin: ALLOWED, 'access-control-request-method': 'POST' } });
    expect(devPreflight.headers.get('access-control-allow-origin')).toBeNull();
  });

  it('refuses a POST from an unlisted origin (403) and serves listed and same origins', async () => {
    const query = { query: '{ viewer { principal } }' };
    const evil = await postJson(prod.url, query, { ...bearer(operatorToken), origin: 'https://evil.example' });
    expect([evil.status, codeOf(evil)]).toEqual([403, 'FORBIDDEN_ORIGIN']);
    const listed = await postJson(prod.url, query, { ...bearer(operatorToken), origin: ALLOWED });
    expect([listed.status, listed.headers.get('access-control-allow-origin')]).toEqual([200, ALLOWED]);
    const same = await postJson(prod.url, query, { ...bearer(operatorToken), origin: new URL(prod.url).origin });
    expect([same.status, same.headers.get('access-control-allow-origin')]).toEqual([200, null]);
    const opaque = await postJson(prod.url, query, { ...bearer(operatorToken), origin: 'null' });
    expect(opaque.status).toBe(403);
  });

  it('refuses a WebSocket upgrade from an unlisted origin and accepts listed, same and absent origins', async () => {
    await expect(RawSocket.open(prod.url, { origin: 'https://evil.example' })).rejects.toThrow(/403/);
    await expect(RawSocket.open(dev.url, { origin: ALLOWED })).rejects.toThrow(/403/);
    for (const headers of [{ origin: ALLOWED }, { origin: new URL(prod.url).origin }, {}] as Record<string, string>[]) {
      const socket = await RawSocket.open(prod.url, headers);
      expect(await socket.init(operatorToken)).not.toBeNull();
      socket.close();
    }
  });
});

describe('CSRF: only JSON POSTs', () => {
  const query = '{ viewer { principal } }';
  it('refuses form, multipart, text and raw GraphQL bodies with 415 and GET with 405, changing nothing', async () => {
    const headers = bearer(operatorToken);
    const form = await postRaw(prod.url, `query=${encodeURIComponent('mutation { createAgent(input: { agentId: "csrf-x", name: "x" }) { __typename } }')}`, {
      ...headers,
      'content-type': 'application/x-www-form-urlencoded',
    });
    expect([form.status, codeOf(form)]).toEqual([415, 'UNSUPPORTED_MEDIA_TYPE']);
    const multipart = new FormData();
    multipart.set('operations', JSON.stringify({ query: 'mutation { createAgent(input: { agentId: "csrf-y", name: "y" }) { __typename } }' }));
    const multi = await fetch(prod.url, { method: 'POST', headers, body: multipart });
    expect(multi.status).toBe(415);
    const text = await postRaw(prod.url, JSON.stringify({ query }), { ...headers, 'content-type': 'text/plain' });
    expect(text.status).toBe(415);
    const raw = await postRaw(prod.url, query, { ...headers, 'content-type': 'application/graphql' });
    expect(raw.status).toBe(415);
    const none = await fetch(prod.url, { method: 'POST', headers, body: new Blob([JSON.stringify({ query })]) });
    expect(none.status).toBe(415);
    const get = await fetch(`${prod.url}?query=${encodeURIComponent(query)}`, { headers });
    expect([get.status, get.headers.get('allow')]).toEqual([405, 'POST']);
    const { rows } = await prod.database.pool.query("SELECT count(*)::int AS n FROM agents WHERE id LIKE 'csrf-%'");
    expect(rows[0].n).toBe(0);
  });

  it('accepts application/json and application/graphql-response+json bodies', async () => {
    for (const type of ['application/json', 'application/json; charset=utf-8', 'application/graphql-response+json']) {
      const response = await postRaw(prod.url, JSON.stringify({ query }), { ...bearer(operatorToken), 'content-type': type });
      expect([type, response.status, response.body?.data]).toEqual([type, 200, { viewer: { principal: 'OPERATOR' } }]);
    }
  });
});

describe('trusted documents (BURROW_TRUSTED_DOCUMENTS=agents)', () => {
  const viewerQuery =
    'query viewer {\n  viewer {\n    principal\n    tokenName\n    agentId\n    project\n    sessionId\n    conversationId\n    agent {\n      agentId\n      name\n    }\n  }\n}';

  it('agents run the generated client (by hash) over HTTP, WebSocket and subscriptions', async () => {
    const agent = createBurrowClient({ url: prod.url, token: agentToken, scope: 'p' });
    try {
      expect((await agent.viewer()).viewer).toMatchObject({ principal: 'AGENT', agentId: 'sec-a' });
      expect((await agent.viewer({}, { transport: 'ws' })).viewer).toMatchObject({ principal: 'AGENT' });
      const events = agent.agentEvents({ agentId: 'sec-a', after: 0 });
      const [first] = await take(events, 1);
      expect(first.agentEvents.type).toBe('AGENT_CREATED');
    } finally {
      await agent.close();
    }
  });

  it('agents cannot send document text, over HTTP or WebSocket, even with a valid hash beside it', async () => {
    const agent = createBurrowClient({ url: prod.url, token: agentToken });
    const textClient = createBurrowClient({ url: prod.url, token: agentToken, documents: 'text' });
    try {
      expect((await requestError(agent.request('{ viewer { principal } }'))).code).toBe('TRUSTED_DOCUMENT_REQUIRED');
      expect((await requestError(agent.request('{ viewer { principal } }', {}, { transport: 'ws' }))).code).toBe('TRUSTED_DOCUMENT_REQUIRED');
      expect((await requestError(textClient.viewer())).code).toBe('TRUSTED_DOCUMENT_REQUIRED');
      const both = await postJson(
        prod.url,
        { query: '{ agents { edges { cursor } } }', extensions: { persistedQuery: { version: 1, sha256Hash: documentHash(viewerQuery) } } },
        bearer(agentToken),
      );
      expect([both.status, codeOf(both)]).toEqual([403, 'TRUSTED_DOCUMENT_REQUIRED']);
      const byHash = await postJson(prod.url, { extensions: { persistedQuery: { version: 1, sha256Hash: documentHash(viewerQuery) } } }, bearer(agentToken));
      expect(byHash.body?.data).toMatchObject({ viewer: { principal: 'AGENT' } });
      const unknown = await postJson(prod.url, { extensions: { persistedQuery: { version: 1, sha256Hash: documentHash('{ agents { edges { cursor } } }') } } }, bearer(agentToken));
      expect(codeOf(unknown)).toBe('PERSISTED_QUERY_NOT_FOUND');
      const neither = await postJson(prod.url, {}, bearer(agentToken));
      expect(codeOf(neither)).toBe('BAD_REQUEST');
    } finally {
      await agent.close();
      await textClient.close();
    }
  });

  it('operators keep ad-hoc documents; without the setting agents do too', async () => {
    const operator = createBurrowClient({ url: prod.url, token: operatorToken });
    try {
      expect(await operator.request('{ viewer { principal } }')).toEqual({ viewer: { principal: 'OPERATOR' } });
      expect(await operator.request('{ viewer { principal } }', {}, { transport: 'ws' })).toEqual({ viewer: { principal: 'OPERATOR' } });
    } finally {
      await operator.close();
    }
    const devAgent = await dev.agentClient('dev-a');
    expect(await devAgent.request('{ viewer { principal } }')).toEqual({ viewer: { principal: 'AGENT' } });
  });

  it('the SDK falls back to the text when the server does not know a hash', async () => {
    // A server built from other operations: its manifest holds none of this client's documents.
    const config = testConfig({ lifecycle: 'embedded', dataDir: 'memory://' });
    const database = await openDatabase(config.database);
    await migrate(database.pool);
    const app = buildApp({ config, database, logger: createLogger('silent'), trustedDocuments: new Map() });
    const port = await app.start(0, '127.0.0.1');
    const { token } = await app.services.tokens.create({ kind: 'operator', name: 'older-server' });
    const client = createBurrowClient({ url: `http://127.0.0.1:${port}/graphql`, token });
    try {
      const unknown = await postJson(`http://127.0.0.1:${port}/graphql`, { extensions: { persistedQuery: { version: 1, sha256Hash: documentHash(viewerQuery) } } }, bearer(token));
      expect(codeOf(unknown)).toBe('PERSISTED_QUERY_NOT_FOUND');
      expect((await client.viewer()).viewer.principal).toBe('OPERATOR');
      expect((await client.viewer({}, { transport: 'ws' })).viewer.principal).toBe('OPERATOR');
    } finally {
      await client.close();
      await app.stop();
      await database.close();
    }
  });
});
