/**
 * Fan-out of events to many subscribers through the real server over real WebSockets: reads are
 * per agent (one event-log read per event, whatever the number of subscribers), every subscriber
 * gets every event once and in order, and a result shared by many subscribers is executed and
 * serialized once. (Catching up from the log: test/events-catch-up.test.ts.)
 */
import { Socket } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BurrowClient } from '../clients/typescript/sdk.js';
import { sharedExecutions } from '../src/events/shared-execution.js';
import { eventLogReads, newAgent, range, rawSocket, updates } from './support/events-fanout.js';
import { collect, startServer, waitUntil, type TestServer } from './support/harness.js';

const KINDS = ['SOUL', 'RULES', 'ORIENTATION', 'PREFERENCES', 'TOOLS', 'DREAM_MEMORY'] as const;

let server: TestServer;
beforeAll(async () => {
  server = await startServer();
});
afterAll(async () => server?.stop());

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
    // c is live-only: it starts where its channel finds the log, so the writes wait for that read.
    const { hub } = server.app.services;
    await waitUntil(() => hub.openSubscriptions === open + 4 && hub.startingSubscriptions === 0, 'the four subscriptions are open and placed', 60_000);

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
