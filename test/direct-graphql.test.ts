/**
 * The direct JSON path (src/ops/direct-graphql.ts) answers exactly as Yoga does. Every request
 * is sent twice: as is, and with an Accept that means the same to Yoga but that the direct path
 * leaves to Yoga (`;q=1`). The two answers must be equal (status, content type, schema hash,
 * body), and burrow_graphql_http_requests_total must show which path answered each.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadTrustedDocuments } from '../src/limits/trusted-documents.js';
import { DEFAULT_LIMITS } from '../src/config.server.js';
import { startServer, type TestServer } from './support/harness.js';

interface Answer {
  status: number;
  type: string | null;
  hash: string | null;
  retryAfter: string | null;
  body: string;
}

const documents = loadTrustedDocuments();
const hashOf = (pattern: RegExp) => [...documents].find(([, text]) => pattern.test(text))![0];
const AGENT_QUERY_HASH = hashOf(/^query agent\(\$id: String!\)/);
const PROFILE = 'query P($id: String!) { agent(agentId: $id) { agentId name profile { kind revision } } }';

async function pathCounts(server: TestServer): Promise<{ direct: number; yoga: number }> {
  const metric = server.app.metrics.registry.getSingleMetric('burrow_graphql_http_requests_total')!;
  const values = (await metric.get()).values;
  const of = (path: string) => values.find((v) => v.labels.path === path)?.value ?? 0;
  return { direct: of('direct'), yoga: of('yoga') };
}

async function post(server: TestServer, body: string, headers: Record<string, string>): Promise<Answer> {
  const response = await fetch(`${server.url}`, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body });
  return {
    status: response.status,
    type: response.headers.get('content-type'),
    hash: response.headers.get('burrow-schema-hash'),
    retryAfter: response.headers.get('retry-after'),
    body: await response.text(),
  };
}

/**
 * Sends `body` on the direct path and again through Yoga; returns both answers and which path
 * each took. `accept` is the Accept of the direct request (absent by default).
 */
async function both(server: TestServer, body: string, options: { token: string; accept?: string; headers?: Record<string, string> }) {
  const auth = { authorization: `Bearer ${options.token}`, ...options.headers };
  const before = await pathCounts(server);
  const direct = await post(server, body, options.accept === undefined ? auth : { ...auth, accept: options.accept });
  const middle = await pathCounts(server);
  const yoga = await post(server, body, { ...auth, accept: `${options.accept ?? '*/*'};q=1` });
  const after = await pathCounts(server);
  const took = (from: typeof before, to: typeof before) =>
    to.direct - from.direct === 1 && to.yoga === from.yoga ? 'direct' : to.yoga - from.yoga === 1 && to.direct === from.direct ? 'yoga' : 'unclear';
  expect(took(middle, after)).toBe('yoga');
  return { direct, yoga, took: took(before, middle) };
}

describe('the direct JSON path', () => {
  let server: TestServer;
  let operatorToken: string;
  let agentToken: string;

  beforeAll(async () => {
    server = await startServer({ config: { limits: { ...DEFAULT_LIMITS, bodyBytes: 4096 } } });
    operatorToken = server.operator.options.token!;
    agentToken = (await server.agentClient('direct-a')).options.token!;
  });
  afterAll(async () => {
    await server?.stop();
  });

  it('answers a plain query exactly as Yoga, with either result media type', async () => {
    const body = JSON.stringify({ query: PROFILE, variables: { id: 'direct-a' } });
    for (const accept of [undefined, '*/*', 'application/json', 'application/graphql-response+json, application/json']) {
      const { direct, yoga, took } = await both(server, body, { token: operatorToken, accept });
      expect(took).toBe('direct');
      expect(direct).toEqual(yoga);
      expect(direct.status).toBe(200);
      expect(direct.type).toBe(accept?.startsWith('application/graphql-response+json') ? 'application/graphql-response+json; charset=utf-8' : 'application/json; charset=utf-8');
      expect(direct.hash).toMatch(/^[0-9a-f]{64}$/);
      expect(JSON.parse(direct.body)).toEqual({ data: { agent: { agentId: 'direct-a', name: 'direct-a', profile: expect.any(Array) } } });
    }
  });

  it('runs a trusted document sent by hash, as the generated client does', async () => {
    const body = JSON.stringify({ extensions: { persistedQuery: { version: 1, sha256Hash: AGENT_QUERY_HASH } }, variables: { id: 'direct-a' } });
    const { direct, yoga, took } = await both(server, body, { token: agentToken, accept: 'application/graphql-response+json, application/json' });
    expect(took).toBe('direct');
    expect(direct).toEqual(yoga);
    expect(JSON.parse(direct.body).data.agent.agentId).toBe('direct-a');
  });

  it("writes Yoga's answer for an executed result with errors (a variable Yoga coerces at execution)", async () => {
    const body = JSON.stringify({ query: PROFILE, variables: { id: 7 } });
    for (const accept of [undefined, 'application/graphql-response+json']) {
      const { direct, yoga, took } = await both(server, body, { token: operatorToken, accept });
      expect(took).toBe('direct');
      expect(direct).toEqual(yoga);
      expect(JSON.parse(direct.body).errors[0].message).toBe('Variable "$id" got invalid value; expected a value of type "String!"');
    }
  });

  it('leaves every request that is not one plain executable operation to Yoga, which answers it as it always did', async () => {
    const cases: Array<[string, string, string, string?]> = [
      ['not JSON', '{"query": ', operatorToken],
      ['a batch', JSON.stringify([{ query: '{ __typename }' }]), operatorToken],
      ['an unknown parameter', JSON.stringify({ query: '{ __typename }', extra: 1 }), operatorToken],
      ['variables that are not an object', JSON.stringify({ query: '{ __typename }', variables: [] }), operatorToken],
      ['an operation name that is not a string', JSON.stringify({ query: '{ __typename }', operationName: 3 }), operatorToken],
      ['no query', JSON.stringify({ variables: {} }), operatorToken],
      ['an unknown trusted document', JSON.stringify({ extensions: { persistedQuery: { version: 1, sha256Hash: '0'.repeat(64) } } }), agentToken],
      ['a syntax error', JSON.stringify({ query: '{ agent(' }), operatorToken],
      ['a validation error', JSON.stringify({ query: '{ nope }' }), operatorToken],
      ['an unknown operation name', JSON.stringify({ query: 'query A { __typename }', operationName: 'B' }), operatorToken],
      // (With Accept */*, Yoga would answer it as an event stream.)
      ['a subscription over POST', JSON.stringify({ query: 'subscription { agentEvents(agentId: "direct-a") { __typename } }' }), operatorToken, 'application/json'],
    ];
    for (const [what, body, token, accept] of cases) {
      const { direct, yoga, took } = await both(server, body, { token, accept });
      expect([what, took]).toEqual([what, 'yoga']);
      expect([what, direct]).toEqual([what, yoga]);
      expect([what, direct.status < 500]).toEqual([what, true]);
    }
  });

  it('leaves refused tokens and oversized bodies to Yoga before reading them', async () => {
    const unauthenticated = await both(server, JSON.stringify({ query: '{ __typename }' }), { token: 'brw_not-a-token' });
    expect(unauthenticated.took).toBe('yoga');
    expect(unauthenticated.direct).toEqual(unauthenticated.yoga);
    expect(unauthenticated.direct.status).toBe(401);

    const big = JSON.stringify({ query: `{ __typename }${' '.repeat(5000)}` });
    const oversized = await both(server, big, { token: operatorToken });
    expect(oversized.took).toBe('yoga');
    expect(oversized.direct).toEqual(oversized.yoga);
    expect(oversized.direct.status).toBe(413);
    // At the limit, the direct path's; one byte past it, Yoga's 413.
    const padded = (bytes: number) => {
      const base = JSON.stringify({ query: '{ __typename }' });
      return `${base.slice(0, -1)}${' '.repeat(bytes - base.length)}}`;
    };
    expect(Buffer.byteLength(padded(4096))).toBe(4096);
    const atLimit = await both(server, padded(4096), { token: operatorToken });
    expect(atLimit.took).toBe('direct');
    expect(atLimit.direct).toEqual(atLimit.yoga);
    expect(JSON.parse(atLimit.direct.body)).toEqual({ data: { __typename: 'Query' } });
    const pastLimit = await both(server, padded(4097), { token: operatorToken });
    expect(pastLimit.took).toBe('yoga');
    expect(pastLimit.direct).toEqual(pastLimit.yoga);
    expect(pastLimit.direct.status).toBe(413);
  });

  it('runs a mutation once, and counts each operation once in the operation metrics', async () => {
    const operations = server.app.metrics.registry.getSingleMetric('burrow_graphql_operations_total')!;
    const count = async (operation: string, outcome: string) =>
      (await operations.get()).values.find((v) => v.labels.operation === operation && v.labels.outcome === outcome)?.value ?? 0;
    const update = (expectedRevision: number) =>
      JSON.stringify({
        query:
          'mutation U($input: UpdateProfileDocumentInput!) { updateProfileDocument(input: $input) { __typename ... on UpdateProfileDocumentSuccess { document { revision content } } } }',
        variables: { input: { agentId: 'direct-a', kind: 'SOUL', content: `Revision after ${expectedRevision}.`, expectedRevision } },
      });
    const start = (await server.operator.profileDocument({ agentId: 'direct-a', kind: 'SOUL' })).profileDocument!.revision;
    const okBefore = await count('updateProfileDocument', 'OK');
    const answer = await post(server, update(start), { authorization: `Bearer ${operatorToken}` });
    expect(answer.status).toBe(200);
    expect(JSON.parse(answer.body)).toEqual({
      data: { updateProfileDocument: { __typename: 'UpdateProfileDocumentSuccess', document: { revision: start + 1, content: `Revision after ${start}.` } } },
    });
    expect((await server.operator.profileDocument({ agentId: 'direct-a', kind: 'SOUL' })).profileDocument!.revision).toBe(start + 1);
    expect(await count('updateProfileDocument', 'OK')).toBe(okBefore + 1);

    // Refused in validation on the direct path's first look, answered by Yoga: counted once.
    const invalidBefore = await count('unknown', 'GRAPHQL_VALIDATION_FAILED');
    await post(server, JSON.stringify({ query: '{ nope }' }), { authorization: `Bearer ${operatorToken}` });
    expect(await count('unknown', 'GRAPHQL_VALIDATION_FAILED')).toBe(invalidBefore + 1);
  });

  it('leaves a rate-limited request to Yoga, which refuses it with 429 and runs nothing', async () => {
    const limited = await startServer({ config: { rateLimit: { perSecond: 0.001, burst: 2 } } });
    try {
      const token = limited.operator.options.token!;
      const body = JSON.stringify({ query: PROFILE, variables: { id: 'direct-none' } });
      // The harness's own set-up may have taken the burst already; spend what is left.
      for (let i = 0; i < 3; i++) await post(limited, body, { authorization: `Bearer ${token}` });
      const before = await pathCounts(limited);
      const refused = await post(limited, body, { authorization: `Bearer ${token}` });
      const after = await pathCounts(limited);
      expect(after).toEqual({ direct: before.direct, yoga: before.yoga + 1 });
      expect(refused.status).toBe(429);
      expect(Number(refused.retryAfter)).toBeGreaterThan(0);
      expect(JSON.parse(refused.body).errors[0].extensions.code).toBe('RATE_LIMITED');
    } finally {
      await limited.stop();
    }
  });
});
