/**
 * Subscribers that catch up from the event log, through the real server over real WebSockets: an
 * event whose notification never came is read at the hub's re-check, a resume joins the shared
 * live stream without a gap or a duplicate while events keep coming, and a subscriber that stops
 * reading holds nobody up and no more than its buffer, then catches up from the log on its own.
 */
import WebSocket from 'ws';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EVENTS_CHANNEL } from '../src/events/events.service.js';
import { newAgent, range, rawSocket, updates } from './support/events-fanout.js';
import { collect, logUnannouncedEvent, startServer, waitUntil, type TestServer } from './support/harness.js';

let server: TestServer;
beforeAll(async () => {
  server = await startServer();
});
afterAll(async () => server?.stop());

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
