/**
 * Queries and mutations over HTTP against the shipped server, on both of its paths: the direct
 * JSON path (one plain JSON POST to /graphql, src/ops/direct-graphql.ts) and Yoga's (a POST whose
 * Accept or media type the direct path leaves to Yoga; a GET, which Yoga's gate refuses). The same operation answers the same
 * bytes on both (a query, a scoped query, a mutation's refusal, an unauthenticated request), and burrow_graphql_http_requests_total{path} (read from /metrics, as an operator
 * would) counts each request on the path that answered it.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readMetrics, startShipped, type ShippedServer } from '../support/shipped.js';

interface Answer {
  status: number;
  type: string | null;
  hash: string | null;
  body: string;
}

let server: ShippedServer;
beforeAll(async () => {
  server = await startShipped();
});
afterAll(async () => {
  const { code } = await server.stop();
  expect(code).toBe(0);
});

const auth = () => ({ authorization: `Bearer ${server.operatorToken}` });

async function answerOf(response: Response): Promise<Answer> {
  return { status: response.status, type: response.headers.get('content-type'), hash: response.headers.get('burrow-schema-hash'), body: await response.text() };
}

/** burrow_graphql_http_requests_total by path, from the main port's /metrics (operator token). */
async function pathCounts(): Promise<{ direct: number; yoga: number }> {
  const metrics = await readMetrics(server.origin, server.operatorToken);
  const of = (path: string) => metrics.get(`burrow_graphql_http_requests_total{path="${path}"}`) ?? 0;
  return { direct: of('direct'), yoga: of('yoga') };
}

/** Sends a request and returns its answer with the path that counted it (exactly one more on one path). */
async function counted(send: () => Promise<Response>): Promise<Answer & { path: 'direct' | 'yoga' | 'unclear' }> {
  const before = await pathCounts();
  const answer = await answerOf(await send());
  const after = await pathCounts();
  const direct = after.direct - before.direct;
  const yoga = after.yoga - before.yoga;
  return { ...answer, path: direct === 1 && yoga === 0 ? 'direct' : yoga === 1 && direct === 0 ? 'yoga' : 'unclear' };
}

/** One plain JSON POST: what the direct path serves (`headers`: the token and runtime headers, the operator's by default). */
const postDirect =
  (body: unknown, headers: Record<string, string> = auth()) =>
  () =>
    fetch(server.url, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify(body) });
/** The same POST with an Accept that means the same to Yoga but that the direct path hands to it. */
const postViaYoga =
  (body: unknown, headers: Record<string, string> = auth()) =>
  () =>
    fetch(server.url, { method: 'POST', headers: { 'content-type': 'application/json', accept: 'application/json;q=1', ...headers }, body: JSON.stringify(body) });
/** The same POST with a media-type parameter the direct path does not serve: Yoga reads it. */
const postCharsetViaYoga = (body: unknown) => () =>
  fetch(server.url, { method: 'POST', headers: { 'content-type': 'application/json; charset=UTF-8; x=1', ...auth() }, body: JSON.stringify(body) });
/** A GET: the direct path leaves every GET to Yoga, whose gate answers it. */
const getViaYoga = (query: string, variables: Record<string, unknown>) => () =>
  fetch(`${server.url}?${new URLSearchParams({ query, variables: JSON.stringify(variables) })}`, { headers: auth() });

const CREATE =
  'mutation C($input: CreateAgentInput!) { createAgent(input: $input) { __typename ... on CreateAgentSuccess { agent { agentId name } } ... on Error { code message } } }';
const READ = 'query R($id: String!) { agent(agentId: $id) { __typename agentId name } agents(first: 10) { totalCount } }';

describe('HTTP on the shipped server', () => {
  it('a mutation on the direct path and on the Yoga path: each counted on its path, each created', async () => {
    const direct = await counted(postDirect({ query: CREATE, variables: { input: { agentId: 'http-direct', name: 'made directly' } } }));
    expect(direct.path).toBe('direct');
    expect([direct.status, direct.type]).toEqual([200, 'application/json; charset=utf-8']);
    expect(JSON.parse(direct.body)).toEqual({ data: { createAgent: { __typename: 'CreateAgentSuccess', agent: { agentId: 'http-direct', name: 'made directly' } } } });

    const yoga = await counted(postViaYoga({ query: CREATE, variables: { input: { agentId: 'http-yoga', name: 'made through yoga' } } }));
    expect(yoga.path).toBe('yoga');
    expect([yoga.status, yoga.type]).toEqual([200, 'application/json; charset=utf-8']);
    expect(JSON.parse(yoga.body)).toEqual({ data: { createAgent: { __typename: 'CreateAgentSuccess', agent: { agentId: 'http-yoga', name: 'made through yoga' } } } });
    expect(direct.hash).toMatch(/^[0-9a-f]{64}$/);
    expect(yoga.hash).toBe(direct.hash);
  });

  it('the same mutation answers the same bytes on both paths (a refused create), and changes nothing', async () => {
    const body = { query: CREATE, variables: { input: { agentId: 'http-direct', name: 'taken' } } };
    const direct = await counted(postDirect(body));
    const yoga = await counted(postViaYoga(body));
    expect([direct.path, yoga.path]).toEqual(['direct', 'yoga']);
    const { path: _d, ...directAnswer } = direct;
    const { path: _y, ...yogaAnswer } = yoga;
    expect(directAnswer).toEqual(yogaAnswer);
    expect(JSON.parse(direct.body)).toEqual({
      data: { createAgent: { __typename: 'AlreadyExists', code: 'ALREADY_EXISTS', message: 'Agent http-direct already exists' } },
    });
    const read = JSON.parse((await answerOf(await postDirect({ query: READ, variables: { id: 'http-direct' } })())).body);
    expect(read).toEqual({ data: { agent: { __typename: 'Agent', agentId: 'http-direct', name: 'made directly' }, agents: { totalCount: 2 } } });
  });

  it('the same query answers the same bytes on the direct path and on two kinds of Yoga POST', async () => {
    const variables = { id: 'http-yoga' };
    const direct = await counted(postDirect({ query: READ, variables }));
    const byAccept = await counted(postViaYoga({ query: READ, variables }));
    const byMediaType = await counted(postCharsetViaYoga({ query: READ, variables }));
    expect([direct.path, byAccept.path, byMediaType.path]).toEqual(['direct', 'yoga', 'yoga']);
    const strip = ({ path: _path, ...answer }: Answer & { path: string }) => answer;
    expect(strip(byAccept)).toEqual(strip(direct));
    expect(strip(byMediaType)).toEqual(strip(direct));
    expect(direct.body).toBe(JSON.stringify({ data: { agent: { __typename: 'Agent', agentId: 'http-yoga', name: 'made through yoga' }, agents: { totalCount: 2 } } }));
  });

  it('a query with runtime scope headers answers the same bytes on both paths, the scope read from the headers', async () => {
    const headers = { ...auth(), 'burrow-continuity-scope': ' proj-http ', 'burrow-session': 'sess-http', 'burrow-conversation': '  ' };
    const query = { query: 'query V { viewer { principal tokenName project sessionId conversationId } }' };
    const direct = await counted(postDirect(query, headers));
    const yoga = await counted(postViaYoga(query, headers));
    expect([direct.path, yoga.path]).toEqual(['direct', 'yoga']);
    const strip = ({ path: _path, ...answer }: Answer & { path: string }) => answer;
    expect(strip(yoga)).toEqual(strip(direct));
    expect(JSON.parse(direct.body)).toEqual({
      data: { viewer: { principal: 'OPERATOR', tokenName: expect.any(String) as string, project: 'proj-http', sessionId: 'sess-http', conversationId: null } },
    });
  });

  it('an unauthenticated request answers the same bytes whichever path its shape chose (no token, no Bearer, an unknown token)', async () => {
    const query = { query: READ, variables: { id: 'http-yoga' } };
    for (const headers of [{}, { authorization: server.operatorToken }, { authorization: 'Bearer brw_not-a-token' }] as Record<string, string>[]) {
      const direct = await counted(postDirect(query, headers));
      const yoga = await counted(postViaYoga(query, headers));
      // The direct path hands a refused token to Yoga's gate, body unread: both are Yoga's answers.
      expect([direct.path, yoga.path]).toEqual(['yoga', 'yoga']);
      const strip = ({ path: _path, ...answer }: Answer & { path: string }) => answer;
      expect(strip(yoga)).toEqual(strip(direct));
      expect([direct.status, JSON.parse(direct.body)]).toEqual([
        401,
        { errors: [{ message: 'a valid bearer token is required (Authorization: Bearer <token>)', extensions: { code: 'UNAUTHENTICATED' } }] },
      ]);
    }
  });

  it('a GET query or mutation goes to Yoga and is refused (405, POST only); the mutation creates nothing', async () => {
    for (const [query, variables] of [
      [READ, { id: 'http-yoga' }],
      [CREATE, { input: { agentId: 'http-get', name: 'never' } }],
    ] as const) {
      const refused = await counted(getViaYoga(query, variables));
      expect(refused.path).toBe('yoga');
      expect([refused.status, JSON.parse(refused.body)]).toEqual([
        405,
        { errors: [{ message: 'GraphQL requests are POSTs with a JSON body', extensions: { code: 'METHOD_NOT_ALLOWED' } }] },
      ]);
    }
    const read = JSON.parse((await answerOf(await postDirect({ query: READ, variables: { id: 'http-get' } })())).body);
    expect(read).toEqual({ data: { agent: null, agents: { totalCount: 2 } } });
  });
});
