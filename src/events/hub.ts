/**
 * Fan-out of the event log to this instance's subscribers. One LISTEN per instance; NOTIFY
 * carries only "agentId:sequence". Reads are per agent, not per subscriber: the hub keeps, for
 * every agent with live subscribers, a channel holding the newest sequence it has read. A
 * notification (or a batch of them arriving while a read is under way) makes the channel read
 * the new rows of that agent once, and every subscriber of the agent gets them from memory. With
 * 1,000 subscribers on one agent an event costs one read, not 1,000.
 *
 * Joining: a subscriber records its place in the channel (the channel's newest sequence, B)
 * before it reads anything, and from then on the channel queues every row after B for it. A
 * resume (`after: N`) then replays N..end from the log for that subscriber alone; that read
 * starts after B was read, so it sees at least everything up to B, and the queue holds
 * everything after B. The replay and the queue may overlap (rows committed between the two);
 * the subscriber skips what it already delivered (sequence <= its last), so there is no gap and
 * no duplicate at the seam.
 *
 * A slow subscriber does not hold anyone up, and its memory is bounded: its queue holds at most
 * BURROW_SUBSCRIBER_BUFFER_EVENTS rows. One more and it leaves the shared stream (its queue is
 * dropped); when its consumer next asks, it rejoins and catches up from the log on its own, at
 * its own pace, exactly as a resume does. Nothing is lost or repeated, and the stream stays open:
 * a client stuck behind a full socket costs one parked row, and a burst larger than the buffer
 * costs each subscriber its own catch-up reads instead of memory.
 *
 * Losing the database is normal (failover, restart, an administrator ending sessions). The
 * LISTEN connection is re-established with capped, jittered backoff, and every channel then
 * reads again after its newest sequence: whatever committed while nobody was listening is
 * delivered once. A read that loses its connection waits and reads again from the same place.
 *
 * A notification is a hint, not the record. It is sent after its write commits
 * (db/notify-after-commit.ts), so a writer that stops between the two never sends it. Every
 * RECHECK_MS the hub compares each channel's newest sequence with the log's (one statement for
 * all its agents) and reads the channels still behind what the previous comparison saw logged:
 * such an event arrives within one to two seconds instead of at the agent's next notification. This instance's own writes wake their
 * channels at commit, in process (Database.hearLocally), without waiting for PostgreSQL's copy,
 * which comes an event-loop turn later and is skipped when its sequence has been read.
 */
import type { Database } from '../db/database.js';
import { describeError, isConnectionLoss } from '../lib/connection-errors.js';
import type { Logger } from '../lib/logger.js';
import { EVENTS_CHANNEL, latestSequences, readEventsAfter, type AgentEventRow, type EventQuery } from './events.service.js';

const PAGE = 200;
/** Subscribers woken per turn of the event loop when a read is handed out (see handOut). */
const WAKE_BATCH = 100;
/** Backoff of LISTEN reconnects and of retried reads: doubles from MIN to MAX. */
const BACKOFF_MIN_MS = 100;
const BACKOFF_MAX_MS = 5000;
/** How often the channels' newest sequences are compared with the log's (see the header). */
const RECHECK_MS = 1000;

/** Full jitter over the upper half, so instances cut at once do not reconnect in lockstep. */
export function backoffDelay(attempt: number): number {
  const ceiling = Math.min(BACKOFF_MAX_MS, BACKOFF_MIN_MS * 2 ** Math.min(attempt, 16));
  return ceiling / 2 + Math.random() * (ceiling / 2);
}

/**
 * The rows a channel read: one object handed to every live subscriber of the agent, so work done
 * per row rather than per subscriber (events/shared-execution.ts) is done once. A replay's rows
 * are read for one subscriber and are not in here.
 */
const sharedRows = new WeakSet<object>();

/** Whether a subscription payload is a row every live subscriber of its agent was handed. */
export function isSharedEvent(payload: unknown): boolean {
  return typeof payload === 'object' && payload !== null && sharedRows.has(payload);
}

type Subscription = Omit<EventQuery, 'afterSequence' | 'limit'> & { after: number | null };

interface Subscriber {
  query: Subscription;
  /** Rows the agent's channel read after this subscriber joined, not yet handed on. */
  queue: AgentEventRow[];
  overflowed: boolean;
  wake: (() => void) | null;
  /** performance.now() of the notification behind the oldest queued row, for the delivery-lag histogram. */
  notifiedAt: number | null;
}

interface Channel {
  agentId: string;
  subscribers: Set<Subscriber>;
  /** The newest sequence read for this agent; null until known. */
  last: number | null;
  /** Resolves once `last` is known. */
  ready: Promise<void>;
  /** A notification arrived since the last read started. */
  dirty: boolean;
  /** The newest sequence a notification named. */
  heardUpTo: number;
  /** heardUpTo when the running read started: what it will see. */
  readCovers: number;
  /** The log's newest sequence at the last re-check, when this channel had not read it yet. */
  unreadAtRecheck: number | null;
  reading: boolean;
  notifiedAt: number | null;
  failures: number;
  retry: NodeJS.Timeout | null;
}

/** What ops/metrics.ts observes; the hub works without one. */
export interface HubObserver {
  delivered(lagSeconds: number): void;
  reconnected(): void;
}

export class EventHub {
  private readonly channels = new Map<string, Channel>();
  /** Called on every notification of any agent, and after a reconnect (the operator stream). */
  private readonly anyAgent = new Set<() => void>();
  private unlisten: (() => Promise<void>) | null = null;
  private generation = 0;
  private stopped = true;
  private reconnectTimer: NodeJS.Timeout | null = null;
  private reconnectAttempt = 0;
  private lostAt = 0;
  private recheckTimer: NodeJS.Timeout | null = null;
  private unhearLocal: (() => void) | null = null;
  private rechecking = false;
  observer: HubObserver | null = null;
  /** Reads of the log made for live delivery (one per agent per batch of notifications). */
  channelReads = 0;
  /** Times a subscriber fell more than the buffer behind and caught up from the log on its own. */
  catchUps = 0;

  constructor(
    private readonly database: Database,
    private readonly logger: Logger,
    private readonly bufferLimit = 1000,
  ) {}

  /** LISTEN is up: notifications reach this instance. */
  get listening(): boolean {
    return this.unlisten !== null;
  }

  /** Rows waiting in subscribers' queues (each at most the buffer). */
  get queuedEvents(): number {
    let count = 0;
    for (const channel of this.channels.values()) for (const subscriber of channel.subscribers) count += subscriber.queue.length;
    return count;
  }

  get openSubscriptions(): number {
    let count = 0;
    for (const channel of this.channels.values()) count += channel.subscribers.size;
    return count;
  }

  async start(): Promise<void> {
    this.stopped = false;
    // This instance's own writes wake their channels at commit; PostgreSQL's copy comes later.
    this.unhearLocal = this.database.hearLocally(EVENTS_CHANNEL, (payload) => this.heard(payload));
    await this.listenOnce();
    this.recheckTimer = setInterval(() => void this.recheck(), RECHECK_MS);
    this.recheckTimer.unref?.();
  }

  /** Stops listening and ends every open subscription (their streams complete). */
  async stop(): Promise<void> {
    this.stopped = true;
    this.generation++;
    if (this.recheckTimer) clearInterval(this.recheckTimer);
    this.recheckTimer = null;
    this.unhearLocal?.();
    this.unhearLocal = null;
    if (this.reconnectTimer) clearTimeout(this.reconnectTimer);
    this.reconnectTimer = null;
    const unlisten = this.unlisten;
    this.unlisten = null;
    await unlisten?.();
    for (const channel of this.channels.values()) {
      if (channel.retry) clearTimeout(channel.retry);
      for (const subscriber of channel.subscribers) this.wake(subscriber);
    }
  }

  private async listenOnce(): Promise<void> {
    const generation = ++this.generation;
    let ready = false;
    let lostEarly = false;
    const unlisten = await this.database.listen(
      EVENTS_CHANNEL,
      (payload) => {
        this.heard(payload);
        for (const listener of this.anyAgent) listener();
      },
      (error) => {
        if (generation !== this.generation) return;
        if (!ready) lostEarly = true;
        else this.lost(error);
      },
    );
    ready = true;
    if (lostEarly || generation !== this.generation) {
      await unlisten();
      throw new Error('the LISTEN connection was lost while it was being set up');
    }
    this.unlisten = unlisten;
  }

  private lost(error: Error) {
    if (this.stopped) return;
    this.unlisten = null;
    this.generation++;
    this.lostAt = performance.now();
    this.logger.warn('event LISTEN connection lost; reconnecting with backoff', describeError(error));
    this.scheduleReconnect();
  }

  private scheduleReconnect() {
    const delay = backoffDelay(this.reconnectAttempt++);
    this.reconnectTimer = setTimeout(() => {
      this.reconnectTimer = null;
      if (this.stopped) return;
      this.listenOnce().then(
        () => {
          if (this.stopped) return;
          const attempts = this.reconnectAttempt;
          this.reconnectAttempt = 0;
          this.observer?.reconnected();
          this.logger.info('event LISTEN connection recovered; subscribers catch up from the event log', {
            attempts,
            downtimeMs: Math.round(performance.now() - this.lostAt),
          });
          // Notifications sent while nobody listened are gone: every channel reads again.
          for (const channel of this.channels.values()) this.notify(channel, null);
          for (const listener of this.anyAgent) listener();
        },
        () => {
          if (!this.stopped) this.scheduleReconnect();
        },
      );
    }, delay);
    this.reconnectTimer.unref?.();
  }

  /**
   * An "agentId:sequence" notification, from PostgreSQL or from this instance's own commit. A
   * sequence the channel has already read needs no read (the second copy of a local one).
   */
  private heard(payload: string) {
    const colon = payload.lastIndexOf(':');
    const channel = this.channels.get(payload.slice(0, colon));
    if (!channel) return;
    const sequence = Number(payload.slice(colon + 1));
    if (channel.last !== null && sequence <= channel.last) return;
    // Heard before the running read started, so that read sees it (its statement began after the commit).
    if (channel.reading && sequence <= channel.readCovers) return;
    if (sequence > channel.heardUpTo) channel.heardUpTo = sequence;
    this.notify(channel, performance.now());
  }

  /**
   * Reads the channels that are still behind a sequence the previous re-check saw logged: an
   * announcement that never came. One that is merely in flight (committed, its batch not yet
   * sent) is read within milliseconds of the re-check that saw it, so it is left to its
   * announcement, and the hub keeps one read per notification batch.
   */
  private async recheck(): Promise<void> {
    if (this.rechecking || this.stopped) return;
    const known = [...this.channels.values()].filter((channel) => channel.last !== null);
    if (known.length === 0) return;
    this.rechecking = true;
    try {
      const latest = await latestSequences(
        this.database.pool,
        known.map((channel) => channel.agentId),
      );
      for (const channel of known) {
        if (channel.last === null || this.channels.get(channel.agentId) !== channel) continue;
        const newest = latest.get(channel.agentId);
        if (channel.unreadAtRecheck !== null && channel.unreadAtRecheck > channel.last) this.notify(channel, null);
        channel.unreadAtRecheck = newest !== undefined && newest > channel.last ? newest : null;
      }
    } catch (error) {
      // A lost connection is the reconnect's business; the next re-check tries again.
      if (!isConnectionLoss(error)) this.logger.warn('event re-check failed', describeError(error));
    } finally {
      this.rechecking = false;
    }
  }

  /** Calls `listener` on every event notification of any agent and after LISTEN recovers; returns the unsubscribe. */
  onAnyEvent(listener: () => void): () => void {
    this.anyAgent.add(listener);
    return () => this.anyAgent.delete(listener);
  }

  private notify(channel: Channel, notifiedAt: number | null) {
    channel.dirty = true;
    if (notifiedAt !== null && channel.notifiedAt === null) channel.notifiedAt = notifiedAt;
    if (channel.retry) {
      // A read is waiting out a lost connection; a notification means the database is back.
      clearTimeout(channel.retry);
      channel.retry = null;
    }
    void this.pump(channel);
  }

  private wake(subscriber: Subscriber) {
    const wake = subscriber.wake;
    subscriber.wake = null;
    wake?.();
  }

  private channelFor(agentId: string): Channel {
    const existing = this.channels.get(agentId);
    if (existing) return existing;
    const channel: Channel = {
      agentId,
      subscribers: new Set(),
      last: null,
      ready: Promise.resolve(),
      dirty: false,
      heardUpTo: 0,
      readCovers: 0,
      unreadAtRecheck: null,
      reading: false,
      notifiedAt: null,
      failures: 0,
      retry: null,
    };
    channel.ready = this.initialize(channel);
    // Subscribers see the failure through their own await; this keeps it from being unhandled.
    channel.ready.catch(() => {});
    this.channels.set(agentId, channel);
    return channel;
  }

  /** The channel's starting point: the agent's newest logged sequence, retried across a lost connection. */
  private async initialize(channel: Channel): Promise<void> {
    for (let failures = 0; ;) {
      try {
        channel.last = (await latestSequences(this.database.pool, [channel.agentId])).get(channel.agentId) ?? 0;
        break;
      } catch (error) {
        if (!isConnectionLoss(error) || this.stopped || channel.subscribers.size === 0) {
          // The next subscriber of this agent starts a fresh channel instead of inheriting the failure.
          if (this.channels.get(channel.agentId) === channel) this.channels.delete(channel.agentId);
          throw error;
        }
        await new Promise((resolve) => setTimeout(resolve, backoffDelay(failures++)));
      }
    }
    if (channel.dirty) void this.pump(channel);
  }

  /** One read of the agent's new rows for all its subscribers; notifications during a read make one more. */
  private async pump(channel: Channel): Promise<void> {
    if (channel.reading || channel.last === null || channel.retry) return;
    channel.reading = true;
    try {
      while (channel.dirty && channel.subscribers.size > 0 && !this.stopped) {
        channel.dirty = false;
        channel.readCovers = channel.heardUpTo;
        const notifiedAt = channel.notifiedAt;
        channel.notifiedAt = null;
        let rows: AgentEventRow[];
        try {
          this.channelReads++;
          rows = await readEventsAfter(this.database.db, { agentId: channel.agentId, afterSequence: channel.last, limit: PAGE });
          channel.failures = 0;
        } catch (error) {
          channel.dirty = true;
          if (this.stopped) return;
          if (!isConnectionLoss(error)) {
            this.logger.warn("event read failed; ending the agent's subscriptions", { agentId: channel.agentId, ...describeError(error) });
            this.fail(channel, error);
            return;
          }
          // Wait, then read again after the newest sequence (or sooner, on the next notification).
          channel.retry = setTimeout(() => {
            channel.retry = null;
            void this.pump(channel);
          }, backoffDelay(channel.failures++));
          channel.retry.unref?.();
          return;
        }
        if (rows.length > 0) await this.handOut(channel, rows, notifiedAt);
        if (rows.length === PAGE) channel.dirty = true;
      }
    } finally {
      channel.reading = false;
    }
  }

  /**
   * Offers a read's rows to the channel's subscribers, WAKE_BATCH subscribers per turn of the
   * event loop. A woken subscriber delivers in the microtasks that follow (execution, frame,
   * socket write); with 1,000 subscribers that was one turn of tens of milliseconds in which no
   * request, answer or database reply of anyone else was handled. Between batches the loop gets
   * to its I/O. Order and uniqueness hold: one pump per channel at a time hands out one read
   * after the other, each subscriber gets a read's rows in order from one offer each, and the
   * channel's newest sequence moves before the first batch, so a subscriber joining in between
   * starts after these rows (and is not in the list handed to); one leaving is skipped.
   */
  private async handOut(channel: Channel, rows: AgentEventRow[], notifiedAt: number | null) {
    channel.last = rows[rows.length - 1].sequence;
    for (const row of rows) sharedRows.add(row);
    const subscribers = [...channel.subscribers];
    for (let from = 0; from < subscribers.length; from += WAKE_BATCH) {
      if (from > 0) await new Promise((resolve) => setImmediate(resolve));
      for (const subscriber of subscribers.slice(from, from + WAKE_BATCH)) {
        if (!channel.subscribers.has(subscriber)) continue;
        for (const row of rows) this.offer(subscriber, row, notifiedAt);
      }
    }
  }

  private offer(subscriber: Subscriber, row: AgentEventRow, notifiedAt: number | null) {
    if (subscriber.overflowed || !matches(subscriber.query, row)) return;
    if (subscriber.queue.length >= this.bufferLimit) {
      subscriber.overflowed = true;
      subscriber.queue = [];
    } else {
      subscriber.queue.push(row);
      if (notifiedAt !== null && subscriber.notifiedAt === null) subscriber.notifiedAt = notifiedAt;
    }
    this.wake(subscriber);
  }

  private readonly failures = new WeakMap<Subscriber, unknown>();

  private fail(channel: Channel, error: unknown) {
    for (const subscriber of channel.subscribers) {
      this.failures.set(subscriber, error);
      this.wake(subscriber);
    }
  }

  /**
   * Events of one agent after `after` (or from now when null), then live, until the consumer
   * stops. A plain async iterator that does its work when asked for the next event: it joins the
   * agent's channel at the first ask and hands on one row per ask. (A Repeater did the same with
   * a producer loop pushing into it, at ten times the cost per row: its bookkeeping was the largest
   * item of a 1,000-subscriber fan-out's profile.) One ask at a time, as for-await asks.
   */
  subscribe(query: Subscription): AsyncIterableIterator<AgentEventRow> {
    const { db } = this.database;
    const subscriber: Subscriber = { query, queue: [], overflowed: false, wake: null, notifiedAt: null };
    let channel: Channel | null = null;
    /** Ended by the consumer (return), an error, or the hub's stop: nothing more is handed on. */
    let finished = false;
    let asking = false;
    /** The newest sequence handed on; the replay in progress (its page, whether the log has more). */
    let last = 0;
    let replaying = false;
    let page: AgentEventRow[] = [];
    let morePages = false;
    let failures = 0;
    /** The notification behind the row handed on last: it was delivered once the consumer asks again. */
    let handedOn: number | null = null;

    const ended = () => finished || this.stopped;
    const waitForWake = (ms?: number) =>
      new Promise<void>((resolve) => {
        const timer = ms === undefined ? null : setTimeout(resolve, ms);
        subscriber.wake = () => {
          if (timer) clearTimeout(timer);
          resolve();
        };
      });
    const finish = () => {
      if (finished) return;
      finished = true;
      this.wake(subscriber);
      if (!channel) return;
      channel.subscribers.delete(subscriber);
      if (channel.subscribers.size === 0 && this.channels.get(query.agentId) === channel) {
        if (channel.retry) clearTimeout(channel.retry);
        this.channels.delete(query.agentId);
      }
    };
    const join = async (joined: Channel) => {
      // Joined before anything is read: keeps the channel alive while it starts.
      joined.subscribers.add(subscriber);
      while (joined.last === null && !ended()) await Promise.race([joined.ready, waitForWake()]);
      if (ended()) return;
      // The channel queues every row after `last` from here on (see the header).
      last = query.after ?? joined.last!;
      replaying = morePages = query.after !== null && query.after < joined.last!;
    };
    const nextRow = async (): Promise<AgentEventRow | null> => {
      if (!channel && !ended()) await join((channel = this.channelFor(query.agentId)));
      while (!ended()) {
        const failure = this.failures.get(subscriber);
        if (failure) throw failure;
        if (replaying) {
          const row = page.shift();
          if (row) return row;
          if (!morePages) {
            replaying = false;
            continue;
          }
          try {
            page = await readEventsAfter(db, { ...query, afterSequence: last, limit: PAGE });
            morePages = page.length === PAGE;
            failures = 0;
          } catch (error) {
            if (!isConnectionLoss(error) || ended()) throw error;
            await waitForWake(backoffDelay(failures++));
          }
          continue;
        }
        if (subscriber.overflowed) {
          // Rejoin first (the channel queues from its newest sequence on), then read the rest.
          subscriber.overflowed = false;
          subscriber.notifiedAt = null;
          replaying = morePages = true;
          page = [];
          this.catchUps++;
          continue;
        }
        const row = subscriber.queue.shift();
        if (!row) {
          await waitForWake();
          continue;
        }
        // Already delivered by the replay (it overlapped the queue).
        if (row.sequence <= last) continue;
        handedOn = subscriber.notifiedAt;
        if (subscriber.queue.length === 0) subscriber.notifiedAt = null;
        return row;
      }
      return null;
    };
    const stream: AsyncIterableIterator<AgentEventRow> = {
      [Symbol.asyncIterator]: () => stream,
      next: async () => {
        if (asking) throw new Error('the event stream was asked for its next event while an ask was pending');
        asking = true;
        if (handedOn !== null) this.observer?.delivered((performance.now() - handedOn) / 1000);
        handedOn = null;
        try {
          const row = await nextRow();
          if (row && !finished) {
            last = row.sequence;
            return { done: false, value: row };
          }
          finish();
          return { done: true, value: undefined };
        } catch (error) {
          if (!finished) this.logger.warn('subscription ended by an error', { agentId: query.agentId, ...describeError(error) });
          finish();
          throw error;
        } finally {
          asking = false;
        }
      },
      return: async () => {
        finish();
        return { done: true, value: undefined };
      },
      throw: async (error: unknown) => {
        finish();
        throw error;
      },
    };
    return stream;
  }
}

function matches(query: Subscription, row: AgentEventRow): boolean {
  if (query.streams && !query.streams.includes(row.stream as never)) return false;
  if (query.project !== undefined && row.project !== query.project) return false;
  if (query.subjectId !== undefined && row.subjectId !== query.subjectId) return false;
  return true;
}
