/**
 * Subscriptions on the shipped server, from outside its process: SSE and graphql-ws, each with
 * resume (`after:`): events of mutations arrive in order, a reconnect with `after:` gets exactly
 * the missed ones, and a later event, arriving next, proves nothing was repeated or added. Then
 * graphql-ws's close code for a duplicate subscription id (4409), the per-socket limit (2,000
 * subscribes on one socket: 100 open, the rest refused on their operation, the socket stays
 * open), and the per-token limit (200): its slots are all free again once the sockets holding
 * them closed, however they closed.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createBurrowClient } from '../../clients/typescript/sdk.js';
import pg from 'pg';
import { collect, createTestDatabase, hasRealServer, NEEDS_REAL_SERVER, waitUntil, type TestDatabase } from '../support/harness.js';
import { postGraphQL, startShipped, type ShippedServer } from '../support/shipped.js';
import { RawSocket, type Message } from '../support/wire.js';

interface Event {
  sequence: number;
  type: string;
}

const EVENTS = 'subscription E($agentId: String!, $after: Int) { agentEvents(agentId: $agentId, after: $after) { sequence type } }';
const PER_SOCKET = 100;
const PER_TOKEN = 200;

let server: ShippedServer;
beforeAll(async () => {
  // The documented defaults of both limits, stated so a change of default shows here; rate
  // limiting off, since a quota test opens hundreds of operations with one token in a moment.
  server = await startShipped({
    env: { BURROW_SUBSCRIPTIONS_PER_SOCKET: String(PER_SOCKET), BURROW_SUBSCRIPTIONS_PER_TOKEN: String(PER_TOKEN), BURROW_RATE_LIMIT_PER_SECOND: '0' },
  });
});
afterAll(async () => {
  const { code } = await server.stop();
  expect(code).toBe(0);
});

async function operator<T = any>(query: string, variables: Record<string, unknown> = {}): Promise<T> {
  const answer = await postGraphQL(server, server.operatorToken, { query, variables });
  expect([answer.status, answer.body.errors]).toEqual([200, undefined]);
  return answer.body.data as T;
}

async function createAgent(agentId: string) {
  const data = await operator('mutation($input: CreateAgentInput!) { createAgent(input: $input) { __typename } }', { input: { agentId, name: agentId } });
  expect(data.createAgent.__typename).toBe('CreateAgentSuccess');
}

/** One memory saved: one event in the agent's log. Returns the agent's newest sequence after it. */
async function save(agentId: string, title: string): Promise<number> {
  const data = await operator('mutation($input: BrainSaveInput!) { brainSave(input: $input) { __typename } }', { input: { agentId, title, content: `content of ${title}` } });
  expect(data.brainSave.__typename).toBe('BrainSaveSuccess');
  return (await operator('query($id: String!) { agent(agentId: $id) { lastEventSequence } }', { id: agentId })).agent.lastEventSequence;
}

/** A new operator token, so each quota test starts from its own count. */
async function newOperatorToken(name: string): Promise<string> {
  const data = await operator('mutation($input: CreateApiTokenInput!) { createApiToken(input: $input) { __typename ... on CreateApiTokenSuccess { secret } } }', {
    input: { kind: 'OPERATOR', name },
  });
  expect(data.createApiToken.__typename).toBe('CreateApiTokenSuccess');
  return data.createApiToken.secret;
}

interface Stream {
  items: Event[];
  waitFor(count: number): Promise<Event[]>;
  /** Ends the stream and its connection (the SSE response, the WebSocket). */
  close(): Promise<void>;
}

/** An SSE subscription (POST, Accept: text/event-stream): its `next` frames' events, in order. */
async function openSse(agentId: string, after: number): Promise<Stream> {
  const controller = new AbortController();
  const response = await fetch(server.url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'text/event-stream', authorization: `Bearer ${server.operatorToken}` },
    body: JSON.stringify({ query: EVENTS, variables: { agentId, after } }),
    signal: controller.signal,
  });
  expect([response.status, response.headers.get('content-type')]).toEqual([200, 'text/event-stream']);
  const items: Event[] = [];
  const frames: string[] = [];
  let failure: unknown = null;
  const reading = (async () => {
    const decoder = new TextDecoder();
    let buffered = '';
    for await (const chunk of response.body!) {
      buffered += decoder.decode(chunk as Uint8Array, { stream: true });
      let end: number;
      while ((end = buffered.indexOf('\n\n')) >= 0) {
        const frame = buffered.slice(0, end);
        buffered = buffered.slice(end + 2);
        frames.push(frame);
        if (!frame.startsWith('event: next\n')) continue;
        const payload = JSON.parse(frame.slice(frame.indexOf('data: ') + 6)) as { data?: { agentEvents: Event }; errors?: unknown };
        if (payload.errors) throw new Error(`an SSE event carried errors: ${JSON.stringify(payload.errors)}`);
        items.push(payload.data!.agentEvents);
      }
    }
  })().catch((error) => {
    if (!controller.signal.aborted) failure = error;
  });
  return {
    items,
    async waitFor(count) {
      await waitUntil(
        () => {
          if (failure) throw failure;
          return items.length >= count;
        },
        `${count} SSE events arrived (have ${items.length}; frames ${JSON.stringify(frames).slice(0, 300)})`,
      );
      return items;
    },
    async close() {
      controller.abort();
      await reading;
    },
  };
}

/** A graphql-ws subscription on its own socket (the typed client's), closed with the socket. */
async function openWs(agentId: string, after: number): Promise<Stream> {
  const client = createBurrowClient({ url: server.url, token: server.operatorToken });
  const events = collect(client.subscribe<{ agentEvents: Event }>(EVENTS, { agentId, after }));
  const items: Event[] = [];
  return {
    items,
    async waitFor(count) {
      await events.waitFor(count);
      items.splice(0, items.length, ...events.items.map((item) => item.agentEvents));
      return items;
    },
    async close() {
      await events.stop();
      await client.close();
    },
  };
}

const range = (from: number, to: number) => Array.from({ length: to - from + 1 }, (_, n) => from + n);

describe.each([
  ['SSE', openSse],
  ['graphql-ws', openWs],
])('agentEvents over %s with resume', (transport, open) => {
  it("delivers mutations' events in order; a reconnect with after: gets exactly the missed ones, then the next live one", async () => {
    const agentId = `resume-${transport === 'SSE' ? 'sse' : 'ws'}`;
    await createAgent(agentId);
    const first = await open(agentId, 0);
    expect(await first.waitFor(1)).toEqual([{ sequence: 1, type: 'AGENT_CREATED' }]);
    for (const n of [1, 2, 3]) expect(await save(agentId, `seen ${n}`)).toBe(1 + n);
    await first.waitFor(4);
    expect(first.items).toEqual([{ sequence: 1, type: 'AGENT_CREATED' }, ...range(2, 4).map((sequence) => ({ sequence, type: 'BRAIN_CREATED' }))]);
    await first.close();

    // Written while nobody listens: the resumed stream must replay exactly these.
    for (const n of [1, 2, 3]) expect(await save(agentId, `missed ${n}`)).toBe(4 + n);
    const resumed = await open(agentId, 4);
    await resumed.waitFor(3);
    // The barrier: a live event written now arrives right after the replay, and nothing between.
    expect(await save(agentId, 'after the resume')).toBe(8);
    await resumed.waitFor(4);
    expect(resumed.items).toEqual(range(5, 8).map((sequence) => ({ sequence, type: 'BRAIN_CREATED' })));
    await resumed.close();
  });
});

const subscribePayload = (agentId: string, after = 0) => ({ query: EVENTS, variables: { agentId, after } });
type Refusal = { message: string; extensions?: { code?: string; limit?: string } };
/**
 * The error an operation was refused with: a graphql-ws `error` message (refused before it ran:
 * the per-socket limit), or a `next` carrying only errors (refused as it ran: the per-token limit).
 */
const refusalOf = (message: Message | null): Refusal | null =>
  message?.type === 'error' ? (message.payload as Refusal[])[0] : message?.type === 'next' ? ((message.payload as { errors?: Refusal[] }).errors?.[0] ?? null) : null;

/** Opens `count` subscriptions on `socket` (ids `prefix-N`), each proven open by its first event. */
async function openMany(socket: RawSocket, prefix: string, count: number, agentId: string) {
  for (let n = 0; n < count; n++) socket.send({ type: 'subscribe', id: `${prefix}-${n}`, payload: subscribePayload(agentId) });
  for (let n = 0; n < count; n++) {
    const first = await socket.until((m) => m.id === `${prefix}-${n}` && (m.type === 'next' || m.type === 'error'));
    expect([first?.type, refusalOf(first)]).toEqual(['next', null]);
  }
}

/**
 * Subscribes on `socket` until one is accepted: a completed subscription's slot frees once the
 * server has processed the `complete`, which nothing on the wire acknowledges. Refusals before
 * that are for the limit only.
 */
async function waitForAccepted(socket: RawSocket, prefix: string): Promise<Message | null> {
  for (let n = 0; ; n++) {
    const answer = await socket.operation(`${prefix}-${n}`, subscribePayload('limits-agent'));
    const refusal = refusalOf(answer);
    if (!refusal) return answer;
    expect(refusal.extensions?.limit).toBe('BURROW_SUBSCRIPTIONS_PER_SOCKET');
    if (n > 200) throw new Error('the completed subscription never freed its slot');
  }
}

/** Subscribes once more with `token` on a new socket and returns the first answer (next or error). */
async function oneMore(token: string, agentId: string): Promise<Message | null> {
  return oneMoreOn(server, agentId, token);
}

async function oneMoreOn(target: ShippedServer, agentId: string, token = target.operatorToken): Promise<Message | null> {
  const socket = await RawSocket.open(target.url);
  await socket.init(token);
  const answer = await socket.operation('one-more', subscribePayload(agentId));
  socket.close();
  await socket.waitClosed();
  return answer;
}

describe('graphql-ws limits and close codes', () => {
  beforeAll(async () => {
    await createAgent('limits-agent');
  });

  it('a duplicate subscription id closes the socket with 4409, as the graphql-ws protocol says', async () => {
    const socket = await RawSocket.open(server.url);
    await socket.init(server.operatorToken);
    expect((await socket.operation('twice', subscribePayload('limits-agent')))?.type).toBe('next');
    socket.send({ type: 'subscribe', id: 'twice', payload: subscribePayload('limits-agent') });
    expect(await socket.waitClosed()).toEqual({ code: 4409, reason: 'Subscriber for twice already exists' });
  });

  it(`2,000 subscribes on one socket: exactly ${PER_SOCKET} open, the other 1,900 refused on their own operation, the socket stays open`, async () => {
    const token = await newOperatorToken('per-socket');
    const socket = await RawSocket.open(server.url);
    await socket.init(token);
    for (let n = 0; n < 2000; n++) socket.send({ type: 'subscribe', id: `s-${n}`, payload: subscribePayload('limits-agent') });
    const firstAnswer = (n: number) => socket.messages.find((m) => m.id === `s-${n}` && (m.type === 'next' || m.type === 'error'));
    await waitUntil(() => socket.closed !== null || range(0, 1999).every((n) => firstAnswer(n)), 'every one of the 2,000 subscribes was answered', 30_000);
    expect(socket.closed).toBeNull();
    const answers = range(0, 1999).map((n) => firstAnswer(n)!);
    expect(answers.filter((m) => m.type === 'next' && !refusalOf(m))).toHaveLength(PER_SOCKET);
    const refusals = answers.filter((m) => m.type === 'error').map(refusalOf);
    expect(refusals).toHaveLength(2000 - PER_SOCKET);
    expect(new Set(refusals.map((r) => JSON.stringify(r)))).toEqual(
      new Set([
        JSON.stringify({
          message: `at most ${PER_SOCKET} operations may be open on one socket`,
          extensions: { code: 'LIMIT_EXCEEDED', limit: 'BURROW_SUBSCRIPTIONS_PER_SOCKET', max: PER_SOCKET },
        }),
      ]),
    );
    // The socket still serves: once one of its subscriptions completes, the next subscribe runs.
    const open = answers.find((m) => m.type === 'next' && !refusalOf(m))!.id!;
    socket.send({ type: 'complete', id: open });
    const after = await waitForAccepted(socket, 'after-complete');
    expect([after?.type, refusalOf(after)]).toEqual(['next', null]);
    socket.close();
    await socket.waitClosed();
  });

  it(`per-token slots (${PER_TOKEN}) are all free again after the sockets holding them closed`, async () => {
    const token = await newOperatorToken('per-token');
    const full = async (round: string) => {
      const sockets = [await RawSocket.open(server.url), await RawSocket.open(server.url)];
      for (const socket of sockets) await socket.init(token);
      await openMany(sockets[0], `${round}-a`, PER_SOCKET, 'limits-agent');
      await openMany(sockets[1], `${round}-b`, PER_TOKEN - PER_SOCKET, 'limits-agent');
      return sockets;
    };
    const overQuota = {
      message: `this token already has ${PER_TOKEN} open subscriptions on this server (at most ${PER_TOKEN})`,
      extensions: { code: 'LIMIT_EXCEEDED', limit: 'BURROW_SUBSCRIPTIONS_PER_TOKEN', max: PER_TOKEN },
    };

    // Round 1: the whole quota, and one past it refused.
    const first = await full('r1');
    expect(refusalOf(await oneMore(token, 'limits-agent'))).toEqual(overQuota);
    // Closed from the client side, with the subscriptions still open.
    for (const socket of first) socket.close();
    for (const socket of first) expect((await socket.waitClosed())?.code).toBe(1005);

    // Round 2: the whole quota again, at once (no slot left taken). A refusal here is the leak.
    const second = await full('r2');
    expect(refusalOf(await oneMore(token, 'limits-agent'))).toEqual(overQuota);
    // Closed by the server this time: a duplicate id on one socket, the other terminated.
    second[0].send({ type: 'subscribe', id: 'r2-a-0', payload: subscribePayload('limits-agent') });
    expect((await second[0].waitClosed())?.code).toBe(4409);
    second[1].ws.terminate();
    await second[1].waitClosed();

    const third = await full('r3');
    expect(refusalOf(await oneMore(token, 'limits-agent'))).toEqual(overQuota);
    for (const socket of third) socket.close();
    for (const socket of third) await socket.waitClosed();
  });
});

/**
 * A subscription the server ends with an error (here: the hub's read of the event log fails, so
 * it ends every subscription of that agent) must give its per-token slot back, as one that
 * completes or whose socket closes does. On the real server, where the test can make the read
 * fail: the event table is renamed away for a moment, and a notification makes the hub read.
 */
describe.skipIf(!hasRealServer)(`per-token slots of subscriptions ended by an error (${NEEDS_REAL_SERVER})`, () => {
  const LIMIT = 3;
  let external: ShippedServer;
  let database: TestDatabase;
  beforeAll(async () => {
    database = await createTestDatabase({ real: true });
    external = await startShipped({ lifecycle: 'external', database, env: { BURROW_SUBSCRIPTIONS_PER_TOKEN: String(LIMIT) } });
  });
  afterAll(async () => {
    await external?.stop();
    await database?.drop();
  });

  it('are free again once the error has ended them', async () => {
    const created = await postGraphQL(external, external.operatorToken, { query: 'mutation { createAgent(input: { agentId: "fails", name: "fails" }) { __typename } }' });
    expect(created.body).toEqual({ data: { createAgent: { __typename: 'CreateAgentSuccess' } } });
    const socket = await RawSocket.open(external.url);
    await socket.init(external.operatorToken);
    // Live subscriptions (no after): each proven registered by the 429 of the one past the limit.
    for (const id of ['l1', 'l2', 'l3']) socket.send({ type: 'subscribe', id, payload: { query: 'subscription { agentEvents(agentId: "fails") { sequence } }' } });
    await waitUntil(async () => refusalOf(await oneMoreOn(external, 'fails'))?.extensions?.limit === 'BURROW_SUBSCRIPTIONS_PER_TOKEN', 'all three are open');

    const admin = new pg.Client({ connectionString: database.url! });
    await admin.connect();
    try {
      await admin.query('ALTER TABLE agent_events RENAME TO agent_events_away');
      await admin.query("SELECT pg_notify('burrow_events', 'fails:99')");
      for (const id of ['l1', 'l2', 'l3']) expect((await socket.until((m) => m.id === id && m.type === 'error'))?.type).toBe('error');
    } finally {
      await admin.query('ALTER TABLE agent_events_away RENAME TO agent_events');
      await admin.end();
    }
    // The three have ended (their `error` arrived): the token's whole quota is free again.
    const answer = await oneMoreOn(external, 'fails');
    expect([answer?.type, refusalOf(answer)]).toEqual(['next', null]);
    expect(socket.closed).toBeNull();
    socket.close();
  });
});
