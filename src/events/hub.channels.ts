/**
 * The hub's per-agent reads. Reads are per agent, not per subscriber: for every agent with live
 * subscribers there is a channel holding the newest sequence it has read. A notification (or a
 * batch of them arriving while a read is under way) makes the channel read the new rows of that
 * agent once, and every subscriber of the agent gets them from memory. With 1,000 subscribers on
 * one agent an event costs one read, not 1,000.
 *
 * A read that loses its connection waits and reads again from the same place. A notification is
 * a hint, not the record (db/notify-after-commit.ts): every re-check (events/hub.ts runs it each
 * second) compares each channel's newest sequence with the log's, in one statement for all its
 * agents, and reads the channels still behind what the previous comparison saw logged: such an
 * event arrives within one to two seconds instead of at the agent's next notification.
 */
import type { Database } from '../db/database.js';
import { backoffDelay } from '../lib/backoff.js';
import { describeError, isConnectionLoss } from '../lib/connection-errors.js';
import type { Logger } from '../lib/logger.js';
import { NotFoundError } from '../lib/errors.js';
import { AGENT_ERASED, channelStart, latestSequences, readEventsAfter, type AgentEventRow, type EventQuery } from './events.service.js';

/** Rows per read of the log, by a channel or by one subscriber's catch-up. */
export const PAGE = 200;
/** Subscribers woken per turn of the event loop when a read is handed out (see handOut). */
const WAKE_BATCH = 100;

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

export type Subscription = Omit<EventQuery, 'afterSequence' | 'limit'> & { after: number | null };

export interface Subscriber {
  query: Subscription;
  /** Rows the agent's channel read after this subscriber joined, not yet handed on. */
  queue: AgentEventRow[];
  overflowed: boolean;
  wake: (() => void) | null;
  /** performance.now() of the notification behind the oldest queued row, for the delivery-lag histogram. */
  notifiedAt: number | null;
}

export interface Channel {
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

/** Wakes a subscriber waiting for rows (or for its end); a no-op when it is not waiting. */
export function wake(subscriber: Subscriber): void {
  const wakeUp = subscriber.wake;
  subscriber.wake = null;
  wakeUp?.();
}

export class AgentChannels {
  private readonly channels = new Map<string, Channel>();
  /**
   * Channels that handed out agent.erased: out of `channels`, so the agent's next subscriber starts
   * a fresh channel (which finds the erasure, or a new agent given the same id), and kept here
   * until their subscribers, who have that last event queued, are gone.
   */
  private readonly ending = new Set<Channel>();
  private readonly failures = new WeakMap<Subscriber, unknown>();
  private rechecking = false;
  /** Reads of the log made for live delivery (one per agent per batch of notifications). */
  reads = 0;

  constructor(
    private readonly database: Database,
    private readonly logger: Logger,
    private readonly bufferLimit: number,
    private readonly stopped: () => boolean,
  ) {}

  /** Rows waiting in subscribers' queues (each at most the buffer). */
  get queuedEvents(): number {
    let count = 0;
    for (const channel of this.everyChannel()) for (const subscriber of channel.subscribers) count += subscriber.queue.length;
    return count;
  }

  get openSubscriptions(): number {
    let count = 0;
    for (const channel of this.everyChannel()) count += channel.subscribers.size;
    return count;
  }

  /**
   * Open subscriptions whose channel has not yet read the agent's newest sequence. A live-only
   * subscription (no `after`) starts there, so until this is 0 its "from now" is not yet fixed.
   */
  get startingSubscriptions(): number {
    let count = 0;
    for (const channel of this.channels.values()) if (channel.last === null) count += channel.subscribers.size;
    return count;
  }

  /** The hub stopped: no read is retried, and every subscriber wakes to see its end. */
  stopAll(): void {
    for (const channel of this.everyChannel()) {
      if (channel.retry) clearTimeout(channel.retry);
      for (const subscriber of channel.subscribers) wake(subscriber);
    }
  }

  /**
   * An "agentId:sequence" notification, from PostgreSQL or from this instance's own commit. A
   * sequence the channel has already read needs no read (the second copy of a local one).
   */
  heard(payload: string): void {
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

  /** Notifications sent while nobody listened are gone: every channel reads again. */
  readAll(): void {
    for (const channel of this.channels.values()) this.notify(channel, null);
  }

  /**
   * Reads the channels that are still behind a sequence the previous re-check saw logged: an
   * announcement that never came. One that is merely in flight (committed, its batch not yet
   * sent) is read within milliseconds of the re-check that saw it, so it is left to its
   * announcement, and the hub keeps one read per notification batch.
   */
  async recheck(): Promise<void> {
    if (this.rechecking || this.stopped()) return;
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

  /** Adds the subscriber to its agent's channel (started if there is none): from here on it is kept alive and offered rows. */
  join(subscriber: Subscriber): Channel {
    const channel = this.channelFor(subscriber.query.agentId);
    channel.subscribers.add(subscriber);
    return channel;
  }

  /** Takes the subscriber out of its channel; the channel ends with its last subscriber. */
  leave(channel: Channel, subscriber: Subscriber): void {
    channel.subscribers.delete(subscriber);
    if (channel.subscribers.size > 0) return;
    if (channel.retry) clearTimeout(channel.retry);
    this.ending.delete(channel);
    if (this.channels.get(channel.agentId) === channel) this.channels.delete(channel.agentId);
  }

  private *everyChannel(): Iterable<Channel> {
    yield* this.channels.values();
    yield* this.ending;
  }

  /** The error that ended the subscriber's channel's reads, if one did. */
  failureOf(subscriber: Subscriber): unknown {
    return this.failures.get(subscriber);
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

  /**
   * The channel's starting point (events.service.ts channelStart), retried across a lost
   * connection. An agent erased since its subscribers' agent check ends them with NotFound; one
   * whose erasure has started starts before agent.erased, and reads it at once.
   */
  private async initialize(channel: Channel): Promise<void> {
    for (let failures = 0; ;) {
      try {
        const start = await channelStart(this.database.pool, channel.agentId);
        if (start === null) throw new NotFoundError('Agent', channel.agentId);
        channel.last = start.after;
        if (start.erased) channel.dirty = true;
        break;
      } catch (error) {
        if (!isConnectionLoss(error) || this.stopped() || channel.subscribers.size === 0) {
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
      while (channel.dirty && channel.subscribers.size > 0 && !this.stopped()) {
        channel.dirty = false;
        channel.readCovers = channel.heardUpTo;
        const notifiedAt = channel.notifiedAt;
        channel.notifiedAt = null;
        let rows: AgentEventRow[];
        try {
          this.reads++;
          rows = await readEventsAfter(this.database.db, { agentId: channel.agentId, afterSequence: channel.last, limit: PAGE });
          channel.failures = 0;
        } catch (error) {
          channel.dirty = true;
          if (this.stopped()) return;
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
    if (rows[rows.length - 1].type === AGENT_ERASED && this.channels.get(channel.agentId) === channel) {
      this.channels.delete(channel.agentId);
      this.ending.add(channel);
    }
    const subscribers = [...channel.subscribers];
    for (let from = 0; from < subscribers.length; from += WAKE_BATCH) {
      if (from > 0) await new Promise((resolve) => setImmediate(resolve));
      for (const subscriber of subscribers.slice(from, from + WAKE_BATCH)) {
        if (!channel.subscribers.has(subscriber)) continue;
        for (const row of rows) this.offer(subscriber, row, notifiedAt);
      }
    }
  }

  /**
   * A slow subscriber does not hold anyone up, and its memory is bounded: its queue holds at most
   * BURROW_SUBSCRIBER_BUFFER_EVENTS rows. One more and it leaves the shared stream (its queue is
   * dropped) and catches up from the log on its own (events/hub.subscription.ts).
   */
  private offer(subscriber: Subscriber, row: AgentEventRow, notifiedAt: number | null) {
    if (subscriber.overflowed || !matches(subscriber.query, row)) return;
    if (subscriber.queue.length >= this.bufferLimit) {
      subscriber.overflowed = true;
      subscriber.queue = [];
    } else {
      subscriber.queue.push(row);
      if (notifiedAt !== null && subscriber.notifiedAt === null) subscriber.notifiedAt = notifiedAt;
    }
    wake(subscriber);
  }

  private fail(channel: Channel, error: unknown) {
    for (const subscriber of channel.subscribers) {
      this.failures.set(subscriber, error);
      wake(subscriber);
    }
  }
}

function matches(query: Subscription, row: AgentEventRow): boolean {
  if (row.type === AGENT_ERASED) return true;
  if (query.streams && !query.streams.includes(row.stream as never)) return false;
  if (query.project !== undefined && row.project !== query.project) return false;
  if (query.subjectId !== undefined && row.subjectId !== query.subjectId) return false;
  return true;
}
