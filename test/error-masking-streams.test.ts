/**
 * Error masking of subscriptions on both transports. Burrow masks without Yoga's per-stream
 * wrappers (src/lib/error-masking.ts): a subscription refused by its resolver, an event whose
 * execution fails and a stream that throws must still reach graphql-ws and SSE clients as
 * INTERNAL_SERVER_ERROR with the generic message, never the error's own text, and be logged once.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { faultSwitch, recordingLogger, startServer, type TestServer } from './support/harness.js';
import { RawSocket, type Message } from './support/wire.js';

const faults = faultSwitch();
const recorded = recordingLogger();
let server: TestServer;
let token: string;

beforeAll(async () => {
  server = await startServer({ faults: faults.inject, logger: recorded.logger });
  token = (await server.app.services.tokens.create({ kind: 'operator', name: 'masking' })).token;
});
afterAll(async () => server?.stop());
beforeEach(() => faults.arm(null));

const INTERNAL = { message: 'Unexpected error.', extensions: { code: 'INTERNAL_SERVER_ERROR' } };
const unexpectedLogged = () => recorded.lines.filter((line) => line.level === 'error' && line.msg === 'unexpected error').length;

async function newAgent(agentId: string) {
  await server.operator.createAgent({ input: { agentId, name: agentId } });
}

async function updateSoul(agentId: string, content: string, expectedRevision: number) {
  const result = await server.operator.updateProfileDocument({ input: { agentId, kind: 'SOUL', content, expectedRevision } });
  expect(result.updateProfileDocument.__typename).toBe('UpdateProfileDocumentSuccess');
}

const subscription = (agentId: string, after: number) => `subscription { agentEvents(agentId: "${agentId}", after: ${after}) { sequence type } }`;

/** One SSE subscription: its `data:` events as they arrive, parsed. */
async function openSse(query: string) {
  const controller = new AbortController();
  const response = await fetch(server.url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'text/event-stream', authorization: `Bearer ${token}` },
    body: JSON.stringify({ query }),
    signal: controller.signal,
  });
  expect(response.status).toBe(200);
  const reader = response.body!.getReader();
  const decoder = new TextDecoder();
  let text = '';
  const events: unknown[] = [];
  let ended = false;
  const pump = (async () => {
    try {
      for (;;) {
        const { value, done } = await reader.read();
        if (done) break;
        text += decoder.decode(value, { stream: true });
        let end: number;
        while ((end = text.indexOf('\n\n')) >= 0) {
          const block = text.slice(0, end);
          text = text.slice(end + 2);
          const data = block
            .split('\n')
            .filter((line) => line.startsWith('data:'))
            .map((line) => line.slice(5).trim())
            .join('\n');
          if (data) events.push(JSON.parse(data));
        }
      }
    } catch {
      // aborted
    }
    ended = true;
  })();
  return {
    events,
    get ended() {
      return ended;
    },
    async waitFor(count: number) {
      const deadline = Date.now() + 10_000;
      while (events.length < count && !ended && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 20));
      expect(events.length).toBeGreaterThanOrEqual(count);
      return events.slice(0, count);
    },
    async close() {
      controller.abort();
      await pump;
    },
  };
}

/** Runs `body` on a graphql-ws socket of the operator token, closed afterwards. */
async function onSocket(body: (socket: RawSocket) => Promise<void>) {
  const socket = await RawSocket.open(server.url);
  await socket.init(token);
  try {
    await body(socket);
  } finally {
    socket.ws.close();
  }
}

const frameOf = (socket: RawSocket, id: string, type: string, nth = 0) =>
  socket.until((m: Message) => m.id === id && m.type === type && socket.messages.filter((o) => o.id === id && o.type === type).indexOf(m) === nth);

describe('over graphql-ws', () => {
  it('masks a subscription its resolver refused with an unexpected error, and logs it once', async () => {
    await newAgent('mask-ws-subscribe');
    await onSocket(async (socket) => {
      const before = unexpectedLogged();
      faults.arm('events.subscribe');
      socket.send({ type: 'subscribe', id: 's', payload: { query: subscription('mask-ws-subscribe', 1) } });
      const answer = await socket.until((m) => m.id === 's' && (m.type === 'next' || m.type === 'error'));
      // Refused before a stream existed: a result with errors and no data, as GraphQL answers it.
      expect(answer?.payload).toEqual({ errors: [{ ...INTERNAL, path: ['agentEvents'] }] });
      expect(JSON.stringify(socket.messages)).not.toMatch(/injected|events\.subscribe|\.ts:\d+/);
      expect(unexpectedLogged()).toBe(before + 1);
    });
  });

  it('masks an event whose execution failed, and the stream goes on with the next event', async () => {
    await newAgent('mask-ws-event');
    await onSocket(async (socket) => {
      socket.send({ type: 'subscribe', id: 'e', payload: { query: subscription('mask-ws-event', 1) } });
      // The subscription is registered once a replayed event arrives: after 1 replays the first update.
      await updateSoul('mask-ws-event', 'one', 1);
      expect((await frameOf(socket, 'e', 'next'))?.payload).toEqual({ data: { agentEvents: { sequence: 2, type: 'PROFILE_UPDATED' } } });
      const before = unexpectedLogged();
      faults.arm('events.resolve');
      await updateSoul('mask-ws-event', 'two', 2);
      expect((await frameOf(socket, 'e', 'next', 1))?.payload).toEqual({ data: null, errors: [{ ...INTERNAL, path: ['agentEvents'] }] });
      faults.arm(null);
      await updateSoul('mask-ws-event', 'three', 3);
      expect((await frameOf(socket, 'e', 'next', 2))?.payload).toEqual({ data: { agentEvents: { sequence: 4, type: 'PROFILE_UPDATED' } } });
      expect(JSON.stringify(socket.messages)).not.toMatch(/injected|events\.resolve/);
      expect(unexpectedLogged()).toBe(before + 1);
    });
  });

  it('masks a stream that threw as an error frame, and the socket serves the next subscription', async () => {
    await newAgent('mask-ws-stream');
    await onSocket(async (socket) => {
      const before = unexpectedLogged();
      faults.arm('events.replay_page');
      socket.send({ type: 'subscribe', id: 't', payload: { query: subscription('mask-ws-stream', 0) } });
      const answer = await socket.until((m) => m.id === 't' && (m.type === 'next' || m.type === 'error'));
      expect(answer).toEqual({ type: 'error', id: 't', payload: [INTERNAL] });
      expect(JSON.stringify(socket.messages)).not.toMatch(/injected|replay_page/);
      expect(unexpectedLogged()).toBe(before + 1);
      faults.arm(null);
      socket.send({ type: 'subscribe', id: 'u', payload: { query: subscription('mask-ws-stream', 0) } });
      expect((await frameOf(socket, 'u', 'next'))?.payload).toEqual({ data: { agentEvents: { sequence: 1, type: 'AGENT_CREATED' } } });
      expect(socket.closed).toBeNull();
    });
  });
});

describe('over SSE', () => {
  it('masks a subscription its resolver refused with an unexpected error', async () => {
    await newAgent('mask-sse-subscribe');
    const before = unexpectedLogged();
    faults.arm('events.subscribe');
    const stream = await openSse(subscription('mask-sse-subscribe', 1));
    try {
      expect(await stream.waitFor(1)).toEqual([{ errors: [{ ...INTERNAL, path: ['agentEvents'] }] }]);
      expect(unexpectedLogged()).toBe(before + 1);
    } finally {
      await stream.close();
    }
  });

  it('masks an event whose execution failed, and the stream goes on with the next event', async () => {
    await newAgent('mask-sse-event');
    const stream = await openSse(subscription('mask-sse-event', 1));
    try {
      await updateSoul('mask-sse-event', 'one', 1);
      await stream.waitFor(1);
      const before = unexpectedLogged();
      faults.arm('events.resolve');
      await updateSoul('mask-sse-event', 'two', 2);
      await stream.waitFor(2);
      faults.arm(null);
      await updateSoul('mask-sse-event', 'three', 3);
      expect(await stream.waitFor(3)).toEqual([
        { data: { agentEvents: { sequence: 2, type: 'PROFILE_UPDATED' } } },
        { data: null, errors: [{ ...INTERNAL, path: ['agentEvents'] }] },
        { data: { agentEvents: { sequence: 4, type: 'PROFILE_UPDATED' } } },
      ]);
      expect(unexpectedLogged()).toBe(before + 1);
    } finally {
      await stream.close();
    }
  });

  it('masks a stream that threw as its last event', async () => {
    await newAgent('mask-sse-stream');
    const before = unexpectedLogged();
    faults.arm('events.replay_page');
    const stream = await openSse(subscription('mask-sse-stream', 0));
    try {
      expect(await stream.waitFor(1)).toEqual([{ errors: [INTERNAL] }]);
      expect(unexpectedLogged()).toBe(before + 1);
    } finally {
      await stream.close();
    }
  });
});
