/**
 * Fan-out of events to many subscribers through the real server over real WebSockets: reads are
 * per agent (one event-log read per event, whatever the number of subscribers), every subscriber
 * gets every event once and in order, a resume joins the shared live stream without a gap or a
 * duplicate while events keep coming, and a subscriber that stops reading holds nobody up and no
 * more than its buffer, then catches up from the log on its own.
 */
import { Socket } from 'node:net';
import WebSocket from 'ws';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BurrowClient } from '../clients/typescript/sdk.js';
import { EVENTS_CHANNEL } from '../src/events/events.service.js';
import { sharedExecutions } from '../src/events/shared-execution.js';
import { collect, logUnannouncedEvent, startServer, waitUntil, type TestServer } from './support/harness.js';

const range = (from: number, to: number) => Array.from({ length: to - from + 1 }, (_, i) => from + i);
const KINDS = ['SOUL', 'RULES', 'ORIENTATION', 'PREFERENCES', 'TOOLS', 'DREAM_MEMORY'] as const;

let server: TestServer;
beforeAll(async () => {
  server = await startServer();
});
afterAll(async () => server?.stop());

async function newAgent(target: TestServer, id: string) {
  await target.operator.createAgent({ input: { agentId: id, name: id } });
}

/** `count` profile updates of one agent, one after the other (each waits for the previous commit). */
async function updates(target: TestServer, agentId: string, count: number, startRevision = 1) {
  for (let n = 0; n < count; n++) {
    const result = await target.operator.updateProfileDocument({ input: { agentId, kind: 'SOUL', content: `v${startRevision + n}`, expectedRevision: startRevision + n } });
    if (result.updateProfileDocument.__typename !== 'UpdateProfileDocumentSuccess') throw new Error(JSON.stringify(result));
  }
}

/** Counts the reads of the event log (SELECTs on agent_events) issued while `during` runs. */
async function eventLogReads(target: TestServer, during: () => Promise<void>): Promise<number> {
  let reads = 0;
  target.database.statements.onQuery = (query) => {
    if (/^select\b[\s\S]*\bfrom "agent_events"/i.test(query)) reads++;
  };
  try {
    await during();
  } finally {
    target.database.statements.onQuery = undefined;
  }
  return reads;
}

describe('event fan-out', () => {
  const SOCKETS = 4;
  const PER_SOCKET = 50;
  let clients: BurrowClient[] = [];
  let streams: ReturnType<typeof collect<{ agentEvents: { sequence: number; type: string } }>>[] = [];

  beforeAll(async () => {
    await newAgent(server, 'fan-many');
    clients = await Promise.all(Array.from({ length: SOCKETS }, () => server.client()));
    // After sequence 1 (agent.created): each subscriber replays nothing and then waits live.
    streams = clients.flatMap((client) => Array.from({ length: PER_SOCKET }, () => collect(client.agentEvents({ agentId: 'fan-many', after: 1 }))));
    await waitUntil(() => server.app.services.hub.openSubscriptions === SOCKETS * PER_SOCKET, 'every subscription is open', 60_000);
  });
  afterAll(async () => {
    await Promise.all(streams.map((stream) => stream.stop()));
    await Promise.all(clients.map((client) => client.close()));
  });

  it('delivers every event of a burst to 200 subscribers on 4 sockets exactly once, in order, and observes the delivery lag', async () => {
    const lagObservations = async () => {
      const { body } = await server.app.metrics.render();
      return Number(/^burrow_event_delivery_lag_seconds_count (\d+)/m.exec(body)?.[1] ?? NaN);
    };
    const observedBefore = await lagObservations();
    // Six writers at once, one per profile document: 24 events committed as fast as the agent's lock allows.
    await Promise.all(
      KINDS.map(async (kind) => {
        for (let revision = 1; revision <= 4; revision++) {
          await server.operator.updateProfileDocument({ input: { agentId: 'fan-many', kind, content: `${kind}${revision}`, expectedRevision: revision } });
        }
      }),
    );
    await Promise.all(streams.map((stream) => stream.waitFor(24, 30_000)));
    // The barrier: one more event; a duplicate or a straggler of the burst would arrive before it.
    await updates(server, 'fan-many', 1, 5);
    await Promise.all(streams.map((stream) => stream.waitFor(25, 30_000)));
    for (const stream of streams) expect(stream.items.map((item) => item.agentEvents.sequence)).toEqual(range(2, 26));
    expect(streams.every((stream) => stream.error === null)).toBe(true);
    // At least once per subscriber: the first row handed to each came with its notification's time.
    expect((await lagObservations()) - observedBefore).toBeGreaterThanOrEqual(SOCKETS * PER_SOCKET);
  });

  it('reads the event log once per event, the same for 1 subscriber as for 200', async () => {
    await newAgent(server, 'fan-one');
    const single = collect(server.operator.agentEvents({ agentId: 'fan-one', after: 1 }));
    await waitUntil(() => server.app.services.hub.openSubscriptions === SOCKETS * PER_SOCKET + 1, 'the single subscription is open', 60_000);

    const one = await eventLogReads(server, async () => {
      await updates(server, 'fan-one', 1);
      await single.waitFor(1);
    });
    const many = await eventLogReads(server, async () => {
      // fan-many's SOUL is at revision 6 after the burst and the barrier above.
      await updates(server, 'fan-many', 1, 6);
      await Promise.all(streams.map((stream) => stream.waitFor(26)));
    });
    await single.stop();
    expect(single.items.map((item) => item.agentEvents.sequence)).toEqual([2]);
    for (const stream of streams) expect(stream.items.at(-1)!.agentEvents.sequence).toBe(27);
    expect(one).toBe(1);
    expect(many).toBe(1);
  });

  it('executes an event once per (document, variables, principal scope): 200 identical subscriptions share one execution, others get their own answer', async () => {
    // Beside the 200 operators with one document: an agent token, and an operator with another selection.
    const agent = await server.client({ agentId: 'fan-many' });
    const asAgent = collect(agent.agentEvents({ agentId: 'fan-many', after: 27 }));
    const other = collect(
      server.operator.subscribe<{ agentEvents: { sequence: number; stream: string } }>('subscription { agentEvents(agentId: "fan-many", after: 27) { sequence stream } }'),
    );
    await waitUntil(() => server.app.services.hub.openSubscriptions === SOCKETS * PER_SOCKET + 2, 'the two other subscriptions are open', 60_000);
    const before = { ...sharedExecutions };
    await updates(server, 'fan-many', 1, 7);
    await Promise.all([...streams, asAgent, other].map((stream) => stream.waitFor(stream === asAgent || stream === other ? 1 : 27)));
    expect({
      executed: sharedExecutions.executed - before.executed,
      shared: sharedExecutions.shared - before.shared,
      serialized: sharedExecutions.serialized - before.serialized,
    }).toEqual({ executed: 3, shared: SOCKETS * PER_SOCKET - 1, serialized: 3 });
    expect(other.items).toEqual([{ agentEvents: { sequence: 28, stream: 'PROFILE' } }]);
    expect(asAgent.items.map((item) => [item.agentEvents.sequence, item.agentEvents.type, item.agentEvents.payload])).toEqual([
      [28, 'PROFILE_UPDATED', { kind: 'SOUL', revision: 8, reason: 'updated', actor: 'OPERATOR' }],
    ]);
    for (const stream of streams) expect(stream.items.at(-1)).toEqual(asAgent.items[0]);
    await Promise.all([asAgent.stop(), other.stop()]);
    await agent.close();
  });

  it('sends one event to the 50 subscriptions of a socket in a few socket writes, not one per frame', async () => {
    const port = Number(new URL(server.url).port);
    // Counts the server side's socket writes (its sockets' local port is the server's).
    const proto = Socket.prototype as unknown as Record<'_writev' | '_writeGeneric', (...args: unknown[]) => unknown>;
    const originals = { _writev: proto._writev, _writeGeneric: proto._writeGeneric };
    let writes = 0;
    for (const name of ['_writev', '_writeGeneric'] as const) {
      proto[name] = function (this: Socket, ...args: unknown[]) {
        if (this.localPort === port) writes++;
        return originals[name].apply(this, args);
      };
    }
    try {
      // fan-many's SOUL is at revision 8 after the tests above.
      await updates(server, 'fan-many', 1, 8);
      await Promise.all(streams.map((stream) => stream.waitFor(28)));
    } finally {
      Object.assign(proto, originals);
    }
    for (const stream of streams) expect(stream.items.at(-1)!.agentEvents.sequence).toBe(29);
    // 200 frames on 4 sockets: without coalescing that was two writes per frame (406 measured);
    // now a few per socket for each of the two batches the hub hands the 200 out in (100 per turn;
    // the frames of a batch reach a socket over a few turns), plus the mutation's answer.
    expect(writes).toBeLessThanOrEqual(SOCKETS * 4 * 2 + 1);
  });

  it('hands each event to the 200 subscribers over more than one turn; subscribers joining or resuming meanwhile miss nothing and get nothing twice', async () => {
    // fan-many's SOUL is at revision 9 and its newest sequence 29 after the tests above. Writes go
    // on until every subscriber below has joined, and three more after that.
    let joining = true;
    let writes = 0;
    const writing = (async () => {
      for (let more = 3; joining || more-- > 0; writes++) await updates(server, 'fan-many', 1, 9 + writes);
    })();
    const resumed: { after: number; stream: ReturnType<typeof collect<{ agentEvents: { sequence: number } }>> }[] = [];
    const joined: ReturnType<typeof collect<{ agentEvents: { sequence: number } }>>[] = [];
    for (let i = 0; i < 10; i++) {
      await streams[0].waitFor(28 + 1 + i * 2, 30_000);
      const after = streams[0].items.at(-1)!.agentEvents.sequence - 1;
      resumed.push({ after, stream: collect(clients[i % SOCKETS].agentEvents({ agentId: 'fan-many', after })) });
      joined.push(collect(clients[(i + 1) % SOCKETS].agentEvents({ agentId: 'fan-many' })));
    }
    await waitUntil(() => server.app.services.hub.openSubscriptions === SOCKETS * PER_SOCKET + 20, 'the joined subscriptions are open', 60_000);
    joining = false;
    await writing;
    // The barrier: one more event after the writers'; a duplicate or a straggler arrives before it.
    await updates(server, 'fan-many', 1, 9 + writes);
    const last = 29 + writes + 1;
    await Promise.all(streams.map((stream) => stream.waitFor(last - 1, 30_000)));
    for (const { stream, after } of resumed) await stream.waitFor(last - after, 30_000);
    await waitUntil(() => joined.every((stream) => stream.items.at(-1)?.agentEvents.sequence === last), 'the joined subscribers have the last event', 60_000);
    for (const stream of streams) expect(stream.items.map((item) => item.agentEvents.sequence)).toEqual(range(2, last));
    for (const { stream, after } of resumed) expect(stream.items.map((item) => item.agentEvents.sequence)).toEqual(range(after + 1, last));
    // Without `after` a subscriber starts where it joined: from then on, every event once, in order.
    for (const stream of joined) {
      const sequences = stream.items.map((item) => item.agentEvents.sequence);
      expect(sequences).toEqual(range(sequences[0], last));
    }
    // The joins really raced the writes.
    expect(resumed.some(({ after }) => after < last - 4)).toBe(true);
    await Promise.all([...resumed.map((r) => r.stream), ...joined].map((stream) => stream.stop()));
  });
});

describe("the hub's re-check", () => {
  /** The re-check, called by the test alone: its timer is stopped meanwhile and restarted after. */
  async function withRecheckInHand(during: (recheck: () => Promise<void>) => Promise<void>) {
    const hub = server.app.services.hub as unknown as { recheckTimer: NodeJS.Timeout | null; recheck(): Promise<void> };
    clearInterval(hub.recheckTimer!);
    try {
      await during(() => hub.recheck());
    } finally {
      hub.recheckTimer = setInterval(() => void hub.recheck(), 1000);
      hub.recheckTimer.unref();
    }
  }
  it('leaves an event in flight to its announcement (one read for it), and reads one still unannounced at the next re-check', async () => {
    await newAgent(server, 'recheck');
    const stream = collect(server.operator.agentEvents({ agentId: 'recheck', after: 1 }));
    await updates(server, 'recheck', 1);
    await stream.waitFor(1);
    await withRecheckInHand(async (recheck) => {
      // The hub counts a read when it starts one, before its first await: once recheck() has
      // returned, every read it set off is counted (no window to wait out).
      const hub = server.app.services.hub;
      const hubReads = async (during: () => Promise<void>) => {
        const before = hub.channelReads;
        await during();
        return hub.channelReads - before;
      };
      const readsOfRecheck = () => hubReads(recheck);
      // In flight: the re-check sees it logged and unread, and reads nothing yet.
      const inFlight = await logUnannouncedEvent(server, 'recheck', 2);
      expect(await readsOfRecheck()).toBe(0);
      expect(stream.items).toHaveLength(1);
      // Its announcement comes: one read, and the next re-check finds nothing behind.
      expect(
        await hubReads(async () => {
          await server.database.pool.query('SELECT pg_notify($1, $2)', [EVENTS_CHANNEL, `recheck:${inFlight}`]);
          await stream.waitFor(2);
          await recheck();
        }),
      ).toBe(1);
      // Never announced: the first re-check notes it, the second reads it.
      const lost = await logUnannouncedEvent(server, 'recheck', 3);
      expect(await readsOfRecheck()).toBe(0);
      expect(stream.items).toHaveLength(2);
      expect(
        await hubReads(async () => {
          await recheck();
          await stream.waitFor(3);
        }),
      ).toBe(1);
      await stream.stop();
      expect(stream.items.map((item) => item.agentEvents.sequence)).toEqual([2, inFlight, lost]);
    });
  });
});

describe('resume while events keep coming', () => {
  it('replays from `after` and joins the live stream with no gap and no duplicate, for resumes at 10 different moments', async () => {
    await newAgent(server, 'fan-resume');
    // A live subscriber keeps the agent's shared stream running the whole time.
    const live = collect(server.operator.agentEvents({ agentId: 'fan-resume', after: 1 }));
    const WRITES = 40;
    const writing = updates(server, 'fan-resume', WRITES);
    const resumed: { after: number; stream: ReturnType<typeof collect<{ agentEvents: { sequence: number } }>> }[] = [];
    for (let i = 0; i < 10; i++) {
      await live.waitFor(1 + i * 3, 30_000);
      // Two events back from the newest one seen: the replay and the live queue overlap.
      const after = Math.max(1, live.items.at(-1)!.agentEvents.sequence - 2);
      resumed.push({ after, stream: collect(server.operator.agentEvents({ agentId: 'fan-resume', after })) });
    }
    await writing;
    // The barrier: one more event; a duplicate at a resume's seam would arrive before it.
    await updates(server, 'fan-resume', 1, WRITES + 1);
    const last = 1 + WRITES + 1;
    await live.waitFor(WRITES + 1, 30_000);
    for (const { stream, after } of resumed) await stream.waitFor(last - after, 30_000);
    expect(live.items.map((item) => item.agentEvents.sequence)).toEqual(range(2, last));
    for (const { stream, after } of resumed) expect(stream.items.map((item) => item.agentEvents.sequence)).toEqual(range(after + 1, last));
    // The resumes really raced the writes: some started before the last write committed.
    expect(resumed.some(({ after }) => after < last - 4)).toBe(true);
    await Promise.all([live, ...resumed.map((r) => r.stream)].map((stream) => stream.stop()));
  });
});

/** A graphql-ws client written out by hand, so the test can stop reading its socket and see the frames' bytes. */
async function rawSocket(target: TestServer, token: string) {
  const socket = new WebSocket(target.url.replace(/^http/, 'ws'), 'graphql-transport-ws');
  const messages: { id?: string; type: string; payload?: { data?: { agentEvents?: { sequence: number } | null } | null; errors?: unknown[] } }[] = [];
  const frames: string[] = [];
  socket.on('message', (data) => {
    frames.push(String(data));
    messages.push(JSON.parse(String(data)));
  });
  await new Promise((resolve, reject) => socket.once('open', resolve).once('error', reject));
  socket.send(JSON.stringify({ type: 'connection_init', payload: { authorization: `Bearer ${token}` } }));
  await waitUntil(() => messages.some((m) => m.type === 'connection_ack'), 'connection_ack', 60_000);
  const subscribeTo = (id: string, query: string, variables?: Record<string, unknown>) => socket.send(JSON.stringify({ id, type: 'subscribe', payload: { query, variables } }));
  return {
    socket,
    subscribeTo,
    subscribe(id: string, agentId: string, after: number) {
      subscribeTo(id, `subscription { agentEvents(agentId: "${agentId}", after: ${after}) { sequence payload } }`);
    },
    of: (id: string) => messages.filter((m) => m.id === id),
    /** The `next` frames of a subscription as received, with the sequence they carry (null for an error). */
    nextFrames: (id: string) =>
      messages.flatMap((m, i) => (m.id === id && m.type === 'next' ? [{ sequence: m.payload?.data?.agentEvents?.sequence ?? null, frame: frames[i] }] : [])),
  };
}

describe('serialization of a shared result', () => {
  const EVENTS = 'subscription Bytes($agentId: String!, $after: Int) { agentEvents(agentId: $agentId, after: $after) { sequence type stream subjectId occurredAt payload } }';

  it('is done once per (event, document, variables, principal scope), and every subscriber gets the frame graphql-ws writes itself for the same result', async () => {
    await newAgent(server, 'fan-bytes');
    const { token } = await server.app.services.tokens.create({ kind: 'operator', name: 'bytes' });
    const [first, second] = await Promise.all([rawSocket(server, token), rawSocket(server, token)]);
    const open = server.app.services.hub.openSubscriptions;
    // Live after sequence 1: a and b on one socket and a on the other share a key; c's variables differ.
    first.subscribeTo('a', EVENTS, { agentId: 'fan-bytes', after: 1 });
    first.subscribeTo('b', EVENTS, { agentId: 'fan-bytes', after: 1 });
    second.subscribeTo('a', EVENTS, { agentId: 'fan-bytes', after: 1 });
    second.subscribeTo('c', EVENTS, { agentId: 'fan-bytes' });
    await waitUntil(() => server.app.services.hub.openSubscriptions === open + 4, 'the four subscriptions are open', 60_000);

    const before = { ...sharedExecutions };
    await updates(server, 'fan-bytes', 2);
    // Written as the writers would: a payload whose JSON needs escapes, then an event whose type
    // the schema does not know (executing it is an error, which graphql-ws sends as it always does).
    const payload = JSON.stringify({ note: 'é "quoted" \\ <b>\n\u2028 🦡', list: [1.5, null, true] });
    await server.database.pool.query(
      `BEGIN;
       UPDATE agents SET last_event_sequence = 5 WHERE id = 'fan-bytes';
       INSERT INTO agent_events (agent_id, sequence, stream, type, subject_id, payload, occurred_at) VALUES
         ('fan-bytes', 4, 'profile', 'profile.updated', 'SOUL', '${payload.replaceAll("'", "''")}', now()),
         ('fan-bytes', 5, 'profile', 'profile.unknown', 'SOUL', '{}', now());
       SELECT pg_notify('burrow_events', 'fan-bytes:5');
       COMMIT;`,
    );
    const live = () => [first.nextFrames('a'), first.nextFrames('b'), second.nextFrames('a'), second.nextFrames('c')];
    await waitUntil(() => live().every((frames) => frames.length === 4), 'four frames for each live subscription', 60_000);
    const [firstA, firstB, secondA, secondC] = live();
    // Four events for two keys; the three without errors serialized once per key.
    expect({
      executed: sharedExecutions.executed - before.executed,
      shared: sharedExecutions.shared - before.shared,
      serialized: sharedExecutions.serialized - before.serialized,
    }).toEqual({ executed: 8, shared: 8, serialized: 6 });

    // A replay of the same events: rows read for that subscriber alone, executed and serialized by graphql-ws as usual.
    const replay = await rawSocket(server, token);
    const beforeReplay = { ...sharedExecutions };
    replay.subscribeTo('a', EVENTS, { agentId: 'fan-bytes', after: 1 });
    await waitUntil(() => replay.nextFrames('a').length === 4, 'the replay of the four events', 60_000);
    expect(sharedExecutions).toEqual(beforeReplay);

    const replayed = replay.nextFrames('a');
    expect(replayed.map((f) => f.sequence)).toEqual([2, 3, 4, null]);
    expect(JSON.parse(replayed[2].frame).payload.data.agentEvents.payload).toEqual(JSON.parse(payload));
    expect(JSON.parse(replayed[3].frame).payload).toMatchObject({ data: null, errors: [expect.objectContaining({ message: expect.stringContaining('AgentEventType') })] });
    // The same bytes as the replay's frames, with the subscription's own id.
    const asReplayed = (id: string) => replayed.map((f) => f.frame.replace('{"id":"a",', `{"id":"${id}",`));
    expect([firstA, firstB, secondA, secondC].map((frames) => frames.map((f) => f.frame))).toEqual([asReplayed('a'), asReplayed('b'), asReplayed('a'), asReplayed('c')]);
    // And each frame is exactly JSON of the message it holds.
    for (const { frame } of [...firstA, ...secondC, ...replayed]) expect(frame).toBe(JSON.stringify(JSON.parse(frame)));
    for (const socket of [first, second, replay]) socket.socket.close();
  });
});

describe('a subscriber that stops reading', () => {
  const BUFFER = 5;
  const BURST = 300;
  let small: TestServer;
  beforeAll(async () => {
    small = await startServer({ config: { events: { retentionDays: 30, subscriberBufferEvents: BUFFER } } });
  });
  afterAll(async () => small?.stop());

  it('holds up nobody and at most the buffer in memory, then catches up from the log: every event once, in order, stream still open', async () => {
    await newAgent(small, 'fan-slow');
    const fast = collect(small.operator.agentEvents({ agentId: 'fan-slow', after: 1 }));
    const { token } = await small.app.services.tokens.create({ kind: 'operator', name: 'slow' });
    const slow = await rawSocket(small, token);
    slow.subscribe('1', 'fan-slow', 1);
    await waitUntil(() => small.app.services.hub.openSubscriptions === 2, 'both subscriptions are open', 60_000);
    const catchUpsBefore = small.app.services.hub.catchUps;
    // The slow client stops reading: once the kernel's buffers are full, the server cannot send to it.
    slow.socket.pause();

    // A burst of large events (64 KB each, ~19 MB in all: more than any socket buffer holds),
    // written in one transaction with its notification, as the writers would.
    await small.database.pool.query(`
      BEGIN;
      UPDATE agents SET last_event_sequence = last_event_sequence + ${BURST} WHERE id = 'fan-slow';
      INSERT INTO agent_events (agent_id, sequence, stream, type, subject_id, payload, occurred_at)
        SELECT 'fan-slow', s, 'profile', 'profile.updated', 'burst', jsonb_build_object('pad', repeat('x', 65536)), now()
        FROM generate_series(2, ${BURST + 1}) AS s;
      SELECT pg_notify('burrow_events', 'fan-slow:${BURST + 1}');
      COMMIT;`);

    // The subscriber that reads gets all of it, in order, while the other one is stuck.
    await fast.waitFor(BURST, 60_000);
    expect(fast.items.map((item) => item.agentEvents.sequence)).toEqual(range(2, BURST + 1));
    const delivered = () =>
      slow
        .of('1')
        .filter((m) => m.type === 'next')
        .map((m) => m.payload?.data?.agentEvents?.sequence);
    // Stuck behind its socket, the slow one holds no more than its buffer.
    expect(small.app.services.hub.queuedEvents).toBeLessThanOrEqual(BUFFER);

    slow.socket.resume();
    await waitUntil(() => delivered().length >= BURST, 'the slow subscriber catches up', 60_000);
    // Subscribers left the shared stream (the burst was larger than the buffer) and read the rest from the log.
    expect(small.app.services.hub.catchUps).toBeGreaterThan(catchUpsBefore);

    // Back on the shared stream: the next event reaches both, once.
    await updates(small, 'fan-slow', 1);
    // And a barrier after it: a second delivery of anything would arrive before it.
    await updates(small, 'fan-slow', 1, 2);
    await fast.waitFor(BURST + 2);
    await waitUntil(() => delivered().includes(BURST + 3), 'the barrier reaches the slow subscriber', 60_000);
    expect(delivered()).toEqual(range(2, BURST + 3));
    expect(fast.items.map((item) => item.agentEvents.sequence)).toEqual(range(2, BURST + 3));
    expect(slow.of('1').filter((m) => m.type !== 'next')).toEqual([]);
    expect(slow.socket.readyState).toBe(WebSocket.OPEN);
    slow.socket.close();
    await fast.stop();
  });
});
