/**
 * Request limits (src/limits) over HTTP, SSE and WebSocket: authentication before parsing, and for
 * every limit the boundary and one past it, at the documented defaults where that is cheap and on
 * a second server with small values where it is not.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { parse } from 'graphql';
import { DEFAULT_LIMITS } from '../src/config.server.js';
import { analyzeOperation } from '../src/limits/operation-policy.js';
import { schema } from '../src/schema/index.js';
import { scaled, startServer, type TestServer } from './support/harness.js';
import { bearer, postJson, postRaw, RawSocket, type Message } from './support/wire.js';

let server: TestServer;
let tight: TestServer;
let token: string;
let tightToken: string;

beforeAll(async () => {
  server = await startServer();
  tight = await startServer({ config: { limits: { ...DEFAULT_LIMITS, maxCost: 201, subscriptionsPerSocket: 2, subscriptionsPerToken: 3 } } });
  token = (await server.app.services.tokens.create({ kind: 'operator', name: 'limits' })).token;
  tightToken = (await tight.app.services.tokens.create({ kind: 'operator', name: 'tight' })).token;
  await tight.operator.createAgent({ input: { agentId: 'tight-a', name: 'tight-a' } });
});
afterAll(async () => {
  await server?.stop();
  await tight?.stop();
});

const codeOf = (response: { body: { errors?: { extensions?: { code?: string } }[] } | null }) => response.body?.errors?.[0]?.extensions?.code;
type ErrorList = { message: string; extensions?: { code?: string; limit?: string; max?: number } }[];
/** The errors of an operation over graphql-ws: an `error` message (refused before execution) or a `next` carrying errors. */
const wsErrors = (message: { type: string; payload?: unknown } | null): ErrorList | null =>
  message?.type === 'error' ? (message.payload as ErrorList) : message?.type === 'next' ? ((message.payload as { errors?: ErrorList }).errors ?? null) : null;
const wsErrorCode = (message: { type: string; payload?: unknown } | null) =>
  message === null ? 'CLOSED' : (wsErrors(message)?.[0]?.extensions?.code ?? (message.type === 'next' ? 'NEXT' : 'NONE'));

/** Answers over HTTP and over one WebSocket for the same query, to hold both to one rule. */
async function bothTransports(url: string, secret: string, query: string, variables?: Record<string, unknown>) {
  const http = await postJson(url, { query, variables }, { ...bearer(secret), accept: 'application/graphql-response+json' });
  const socket = await RawSocket.open(url);
  await socket.init(secret);
  const ws = await socket.operation('1', { query, variables });
  // The socket survives a refused operation: the next one on it is answered.
  const after = await socket.operation('2', { query: '{ __typename }' });
  socket.close();
  return { http, ws, wsSurvived: after?.type === 'next' };
}

describe('authentication comes before parsing', () => {
  it('answers 401 to a request without a valid token whatever its body: too large, not JSON, not GraphQL', async () => {
    const huge = await postRaw(server.url, JSON.stringify({ query: `{ ${'a '.repeat(3_000_000)}}` }));
    expect(huge.status).toBe(401);
    expect(huge.headers.get('connection')).toBe('close');
    expect(codeOf(huge)).toBe('UNAUTHENTICATED');
    const notJson = await postRaw(server.url, '{not json', bearer('brw_wrong'));
    expect([notJson.status, codeOf(notJson)]).toEqual([401, 'UNAUTHENTICATED']);
    const syntax = await postJson(server.url, { query: '{ viewer { ' });
    expect([syntax.status, codeOf(syntax)]).toEqual([401, 'UNAUTHENTICATED']);
    const form = await postRaw(server.url, 'query=%7B__typename%7D', { 'content-type': 'application/x-www-form-urlencoded' });
    expect(form.status).toBe(401);
  });

  it('answers 401 to an SSE subscription without a token', async () => {
    const response = await fetch(server.url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'text/event-stream' },
      body: JSON.stringify({ query: 'subscription { agentEvents(agentId: "x") { sequence } }' }),
    });
    expect(response.status).toBe(401);
    await response.body?.cancel();
  });

  it('closes a socket whose connection_init has no valid token (4403) and never answers its operations', async () => {
    const socket = await RawSocket.open(server.url);
    socket.send({ type: 'connection_init', payload: { authorization: 'Bearer brw_wrong' } });
    socket.send({ type: 'subscribe', id: '1', payload: { query: '{ viewer { ' } });
    // 4401 when the subscribe arrives before the refusal of the init, 4403 after: closed either way.
    expect([4401, 4403]).toContain((await socket.waitClosed())?.code);
    expect(socket.messages).toEqual([]);
  });
});

describe('request body (BURROW_MAX_BODY_BYTES, default 1 MB)', () => {
  const bodyOf = (bytes: number) => {
    const base = JSON.stringify({ query: '{ __typename }', variables: { pad: '' } });
    return JSON.stringify({ query: '{ __typename }', variables: { pad: 'x'.repeat(bytes - base.length) } });
  };

  it('accepts exactly 4,194,304 bytes and refuses one more with 413', async () => {
    expect(DEFAULT_LIMITS.bodyBytes).toBe(4_194_304);
    const atLimit = await postRaw(server.url, bodyOf(4_194_304), bearer(token));
    expect([atLimit.status, atLimit.body?.data]).toEqual([200, { __typename: 'Query' }]);
    const over = await postRaw(server.url, bodyOf(4_194_305), bearer(token));
    expect(over.status).toBe(413);
    expect(codeOf(over)).toBe('LIMIT_EXCEEDED');
    expect(over.body?.errors?.[0].extensions).toMatchObject({ limit: 'BURROW_MAX_BODY_BYTES', max: 4_194_304 });
    expect(over.headers.get('connection')).toBe('close');
  });

  it('counts a streamed body without Content-Length as it arrives: the limit passes, one byte more does not', async () => {
    const streamed = (bytes: number) => {
      const body = new TextEncoder().encode(bodyOf(bytes));
      const stream = new ReadableStream({
        start(controller) {
          for (let i = 0; i < body.length; i += 65_536) controller.enqueue(body.subarray(i, i + 65_536));
          controller.close();
        },
      });
      return fetch(server.url, { method: 'POST', headers: { 'content-type': 'application/json', ...bearer(token) }, body: stream, duplex: 'half' } as RequestInit);
    };
    const atLimit = await streamed(4_194_304);
    expect([atLimit.status, await atLimit.json()]).toEqual([200, { data: { __typename: 'Query' } }]);
    const response = await streamed(4_194_305);
    expect(response.status).toBe(413);
    expect(((await response.json()) as { errors: { extensions: unknown }[] }).errors[0].extensions).toMatchObject({ code: 'LIMIT_EXCEEDED', limit: 'BURROW_MAX_BODY_BYTES' });
  });
});

describe('document limits, the same over HTTP and WebSocket', () => {
  it('tokens (BURROW_MAX_TOKENS, default 2000): 2000 pass, 2001 are refused', async () => {
    // 18 tokens around a list of n enum values: n + 18 tokens.
    const query = (tokens: number) => `{ continuityRuns(agentId: "x", first: 1, states: [${'RUNNING '.repeat(tokens - 18)}]) { __typename } }`;
    const ok = await bothTransports(server.url, token, query(2000));
    expect(ok.http.body).toEqual({ data: { continuityRuns: { __typename: 'ContinuityRunConnection' } } });
    expect(wsErrorCode(ok.ws)).toBe('NEXT');
    const over = await bothTransports(server.url, token, query(2001));
    expect(codeOf(over.http)).toBe('LIMIT_EXCEEDED');
    expect(over.http.body?.errors?.[0].extensions).toMatchObject({ limit: 'BURROW_MAX_TOKENS', max: 2000 });
    expect(over.http.status).toBe(400);
    expect(wsErrorCode(over.ws)).toBe('LIMIT_EXCEEDED');
    expect(over.wsSurvived).toBe(true);
  });

  it('a 5000-deep query is a LIMIT_EXCEEDED error on that operation: no 500, no socket close, no stack', async () => {
    const deep = `${'{ a '.repeat(5000)}${'}'.repeat(5000)}`;
    const result = await bothTransports(server.url, token, deep);
    expect(result.http.status).toBe(400);
    expect(codeOf(result.http)).toBe('LIMIT_EXCEEDED');
    expect(wsErrorCode(result.ws)).toBe('LIMIT_EXCEEDED');
    expect(result.wsSurvived).toBe(true);
    expect(JSON.stringify([result.http.body, result.ws])).not.toMatch(/\.ts:\d+|at [A-Za-z]+ \(/);
  });

  it('depth (BURROW_MAX_DEPTH, default 12): 12 levels are validated as usual, 13 are refused', async () => {
    const query = (levels: number) => `{ ${'a { '.repeat(levels - 1)}a${' }'.repeat(levels - 1)} }`;
    const atLimit = await bothTransports(server.url, token, query(12));
    // Unknown fields: refused by ordinary validation, not by the depth limit.
    expect(atLimit.http.body?.errors?.[0].message).toMatch(/Cannot query field "a"/);
    expect(wsErrorCode(atLimit.ws)).not.toBe('LIMIT_EXCEEDED');
    const over = await bothTransports(server.url, token, query(13));
    expect(over.http.body?.errors?.[0]).toMatchObject({
      message: 'Query depth limit of 12 exceeded, found 13.',
      extensions: { code: 'LIMIT_EXCEEDED', limit: 'BURROW_MAX_DEPTH' },
    });
    expect(wsErrorCode(over.ws)).toBe('LIMIT_EXCEEDED');
    expect(over.wsSurvived).toBe(true);
  });

  it('aliases (BURROW_MAX_ALIASES, default 15): 15 pass, 16 are refused', async () => {
    const query = (n: number) => `{ ${Array.from({ length: n }, (_, i) => `v${i}: viewer { principal }`).join(' ')} }`;
    const ok = await bothTransports(server.url, token, query(15));
    expect(Object.keys(ok.http.body?.data as object)).toHaveLength(15);
    expect(wsErrorCode(ok.ws)).toBe('NEXT');
    const over = await bothTransports(server.url, token, query(16));
    expect(over.http.body?.errors?.[0].extensions).toMatchObject({ code: 'LIMIT_EXCEEDED', limit: 'BURROW_MAX_ALIASES', max: 15 });
    expect(wsErrorCode(over.ws)).toBe('LIMIT_EXCEEDED');
  });

  it('directives (BURROW_MAX_DIRECTIVES, default 20): 20 pass, 21 are refused', async () => {
    const query = (n: number) => `{ ${'__typename @include(if: true) '.repeat(n)}}`;
    const ok = await bothTransports(server.url, token, query(20));
    expect(ok.http.body?.data).toEqual({ __typename: 'Query' });
    const over = await bothTransports(server.url, token, query(21));
    expect(over.http.body?.errors?.[0].extensions).toMatchObject({ code: 'LIMIT_EXCEEDED', limit: 'BURROW_MAX_DIRECTIVES', max: 20 });
    expect(wsErrorCode(over.ws)).toBe('LIMIT_EXCEEDED');
  });

  it('root mutation fields (BURROW_MAX_MUTATION_FIELDS, default 10): 10 run, 11 are refused and change nothing', async () => {
    const mutation = (prefix: string, n: number) =>
      `mutation { ${Array.from({ length: n }, (_, i) => `m${i}: createAgent(input: { agentId: "${prefix}-${i}", name: "n" }) { __typename }`).join(' ')} }`;
    const ok = await postJson(server.url, { query: mutation('mf-ok', 10) }, bearer(token));
    expect(Object.values(ok.body?.data as object)).toEqual(Array(10).fill({ __typename: 'CreateAgentSuccess' }));
    const over = await bothTransports(server.url, token, mutation('mf-over', 11));
    expect(over.http.body?.errors?.[0].extensions).toMatchObject({ code: 'LIMIT_EXCEEDED', limit: 'BURROW_MAX_MUTATION_FIELDS', max: 10 });
    expect(wsErrorCode(over.ws)).toBe('LIMIT_EXCEEDED');
    const { rows } = await server.database.pool.query("SELECT count(*)::int AS n FROM agents WHERE id LIKE 'mf-over-%'");
    expect(rows[0].n).toBe(0);
  });

  it('cost (BURROW_MAX_COST): page sizes multiply, from literals and variables; at the limit passes, one past is refused', async () => {
    // agents(first: N) { edges { cursor } } costs 1 + N × 2; a root __typename adds 1. The limit here is 201.
    const ok = await bothTransports(tight.url, tightToken, 'query($n: Int) { agents(first: $n) { edges { cursor } } }', { n: 100 });
    expect(ok.http.body).toEqual({ data: { agents: { edges: [{ cursor: expect.any(String) }] } } });
    expect(wsErrorCode(ok.ws)).toBe('NEXT');
    const over = await bothTransports(tight.url, tightToken, 'query($n: Int) { __typename agents(first: $n) { edges { cursor } } }', { n: 100 });
    expect(over.http.body?.errors?.[0]).toMatchObject({ message: 'query cost limit of 201 exceeded, found 202', extensions: { code: 'LIMIT_EXCEEDED', limit: 'BURROW_MAX_COST' } });
    expect(wsErrorCode(over.ws)).toBe('LIMIT_EXCEEDED');
    // The verdict is remembered per document and page-size value, never carried to another value.
    const sameDocument = 'query($n: Int) { agents(first: $n) { edges { cursor } } }';
    for (const [n, code] of [
      [101, 'LIMIT_EXCEEDED'],
      [100, null],
      [101, 'LIMIT_EXCEEDED'],
      [1, null],
    ] as const) {
      const answer = await postJson(tight.url, { query: sameDocument, variables: { n } }, bearer(tightToken));
      expect(answer.body?.errors?.[0]?.extensions?.code ?? null, `first: ${n}`).toBe(code);
    }
    const literal = await postJson(tight.url, { query: '{ agents(first: 101) { edges { cursor } } }' }, bearer(tightToken));
    expect(codeOf(literal)).toBe('LIMIT_EXCEEDED');
    // A left-out page size counts as the field's default page (100 here).
    const defaulted = await postJson(tight.url, { query: '{ __typename agents { edges { cursor } } }' }, bearer(tightToken));
    expect(codeOf(defaulted)).toBe('LIMIT_EXCEEDED');
  });

  it('every operation of the generated client passes the default limits at its largest page', async () => {
    const manifest = JSON.parse(readFileSync('clients/typescript/generated/trusted-documents.json', 'utf8')) as Record<string, string>;
    const enveloped = server.app.yoga.getEnveloped({ request: new Request('http://x/graphql', { method: 'POST' }) });
    for (const text of Object.values(manifest)) {
      const document = enveloped.parse(text);
      expect(enveloped.validate(enveloped.schema, document), text).toEqual([]);
      // Overviews of several agents with their nested stores (agentsBrains, agentsTiddle, …) multiply
      // their pages: they pass at a dashboard's page (20 agents, 10 per nested list), and the cost
      // limit refuses the product of the largest pages (that is what it is for).
      const overview = /^query agents[A-Z]/.test(text);
      const pages = Object.fromEntries([...text.matchAll(/\$(\w*(?:first|First|limit))\b/g)].map(([, name]) => [name, overview ? (name === 'first' ? 20 : 10) : 100]));
      const facts = analyzeOperation(schema, parse(text), null, { first: 100, last: 100, limit: 100, ...pages });
      expect(facts!.cost, text).toBeLessThanOrEqual(DEFAULT_LIMITS.maxCost);
    }
  });
});

describe('WebSocket limits', () => {
  it('message size (BURROW_WS_MAX_PAYLOAD_BYTES, default 4 MiB): a 4,194,304-byte message is read, one more byte closes with 1009', async () => {
    const message = (bytes: number) => {
      const base = JSON.stringify({ type: 'subscribe', id: '1', payload: { query: '{ __typename }', variables: { pad: '' } } });
      return JSON.stringify({ type: 'subscribe', id: '1', payload: { query: '{ __typename }', variables: { pad: 'x'.repeat(bytes - base.length) } } });
    };
    const ok = await RawSocket.open(server.url);
    await ok.init(token);
    ok.sendText(message(4_194_304));
    expect((await ok.until((m) => m.id === '1'))?.type).toBe('next');
    ok.close();
    const over = await RawSocket.open(server.url);
    await over.init(token);
    over.sendText(message(4_194_305));
    expect((await over.waitClosed())?.code).toBe(1009);
  });

  it('connection_init size (BURROW_WS_CONNECTION_INIT_BYTES, default 16384): at the limit it is acknowledged, one byte more closes with 4413', async () => {
    const init = (bytes: number) => {
      const base = JSON.stringify({ type: 'connection_init', payload: { authorization: `Bearer ${token}`, pad: '' } });
      return JSON.stringify({ type: 'connection_init', payload: { authorization: `Bearer ${token}`, pad: 'x'.repeat(bytes - base.length) } });
    };
    const ok = await RawSocket.open(server.url);
    ok.sendText(init(16_384));
    expect(await ok.until((m) => m.type === 'connection_ack')).not.toBeNull();
    ok.close();
    const over = await RawSocket.open(server.url);
    over.sendText(init(16_385));
    expect(await over.waitClosed()).toEqual({ code: 4413, reason: 'connection_init larger than 16384 bytes' });
    expect(over.messages).toEqual([]);
  });

  // From the start of the log: a registered subscription answers at once with agent.created, so
  // its first `next` proves it is open (and counted).
  const subscription = (id: string) => ({ query: `subscription S${id} { agentEvents(agentId: "tight-a", after: 0) { sequence } }` });
  /** Tries `attempt` until it is not refused for the limit: a slot frees once the server has seen the release. */
  async function untilAccepted<T>(attempt: (n: number) => Promise<T>, refused: (answer: T) => boolean): Promise<T> {
    const deadline = Date.now() + scaled(10_000);
    for (let n = 0; ; n++) {
      const answer = await attempt(n);
      if (!refused(answer)) return answer;
      if (Date.now() > deadline) throw new Error('the slot was never freed');
    }
  }
  const limitRefusal = (message: Message | null) => JSON.stringify(message).includes('LIMIT_EXCEEDED');

  it('operations open on one socket (limit 2 here): the third is refused on that operation, and a slot frees when one completes', async () => {
    const socket = await RawSocket.open(tight.url);
    await socket.init(tightToken);
    expect((await socket.operation('s1', subscription('1')))?.type).toBe('next');
    expect((await socket.operation('s2', subscription('2')))?.type).toBe('next');
    const third = await socket.operation('s3', subscription('3'));
    expect(wsErrors(third)).toMatchObject([{ extensions: { code: 'LIMIT_EXCEEDED', limit: 'BURROW_SUBSCRIPTIONS_PER_SOCKET', max: 2 } }]);
    expect(socket.messages.filter((m) => m.id === 's1' || m.id === 's2').filter((m) => m.type === 'error')).toEqual([]);
    socket.send({ type: 'complete', id: 's1' });
    const answer = await untilAccepted((n) => socket.operation(`s4-${n}`, subscription(`4${n}`)), limitRefusal);
    expect([answer?.type, wsErrors(answer)]).toEqual(['next', null]);
    expect(socket.closed).toBeNull();
    socket.close();
  });

  it('subscriptions per token (limit 3 here), across sockets and SSE, released when a socket closes', async () => {
    const { token: secret } = await tight.app.services.tokens.create({ kind: 'operator', name: 'per-token' });
    const a = await RawSocket.open(tight.url);
    await a.init(secret);
    const b = await RawSocket.open(tight.url);
    await b.init(secret);
    for (const [socket, id] of [
      [a, 'a1'],
      [a, 'a2'],
      [b, 'b1'],
    ] as const)
      expect((await socket.operation(id, subscription(id)))?.type).toBe('next');
    const fourth = await b.operation('b2', subscription('b2'));
    expect(wsErrors(fourth)).toMatchObject([{ extensions: { code: 'LIMIT_EXCEEDED', limit: 'BURROW_SUBSCRIPTIONS_PER_TOKEN', max: 3 } }]);
    const sse = await fetch(tight.url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'text/event-stream', ...bearer(secret) },
      body: JSON.stringify(subscription('sse')),
    });
    const firstChunk = new TextDecoder().decode((await sse.body!.getReader().read()).value);
    expect(firstChunk).toContain('BURROW_SUBSCRIPTIONS_PER_TOKEN');
    a.close();
    await a.waitClosed();
    const answer = await untilAccepted((n) => b.operation(`b3-${n}`, subscription(`b3${n}`)), limitRefusal);
    expect([answer?.type, wsErrors(answer)]).toEqual(['next', null]);
    b.close();
  });

  it('SSE streams count against the token too, and an aborted stream frees its slot', async () => {
    const { token: secret } = await tight.app.services.tokens.create({ kind: 'operator', name: 'sse-per-token' });
    const open = async () => {
      const controller = new AbortController();
      const response = await fetch(tight.url, {
        method: 'POST',
        headers: { 'content-type': 'application/json', accept: 'text/event-stream', ...bearer(secret) },
        body: JSON.stringify(subscription('sse')),
        signal: controller.signal,
      });
      const reader = response.body!.getReader();
      let text = '';
      /** Reads until `marker` shows up in the stream. */
      const readUntil = async (marker: string) => {
        while (!text.includes(marker)) text += new TextDecoder().decode((await reader.read()).value);
        return text;
      };
      return { controller, readUntil };
    };
    const streams = [await open(), await open(), await open()];
    // Each answered with its first event: all three are open and counted.
    for (const stream of streams) await stream.readUntil('"sequence"');
    const fourth = await open();
    expect(await fourth.readUntil('BURROW_SUBSCRIPTIONS_PER_TOKEN')).toContain('LIMIT_EXCEEDED');
    streams[0].controller.abort();
    const replacement = await untilAccepted(
      async () => {
        const stream = await open();
        return { stream, text: await stream.readUntil('data:') };
      },
      ({ text }) => text.includes('LIMIT_EXCEEDED'),
    );
    expect(await replacement.stream.readUntil('"sequence"')).not.toContain('LIMIT_EXCEEDED');
    for (const stream of [...streams.slice(1), replacement.stream]) stream.controller.abort();
  });
});
