/**
 * One subscription of the hub: events of one agent after `after` (or from now when null), then
 * live, until the consumer stops. A plain async iterator that does its work when asked for the
 * next event: it joins the agent's channel at the first ask and hands on one row per ask. (A
 * Repeater did the same with a producer loop pushing into it, at ten times the cost per row: its
 * bookkeeping was the largest item of a 1,000-subscriber fan-out's profile.) One ask at a time,
 * as for-await asks.
 *
 * Joining: a subscriber records its place in the channel (the channel's newest sequence, B)
 * before it reads anything, and from then on the channel queues every row after B for it. A
 * resume (`after: N`) then replays N..end from the log for that subscriber alone; that read
 * starts after B was read, so it sees at least everything up to B, and the queue holds
 * everything after B. The replay and the queue may overlap (rows committed between the two);
 * the subscriber skips what it already delivered (sequence <= its last), so there is no gap and
 * no duplicate at the seam.
 *
 * A subscriber whose queue passed the buffer left the shared stream (events/hub.channels.ts);
 * when its consumer next asks, it rejoins and catches up from the log on its own, at its own
 * pace, exactly as a resume does. Nothing is lost or repeated, and the stream stays open: a
 * client stuck behind a full socket costs one parked row, and a burst larger than the buffer
 * costs each subscriber its own catch-up reads instead of memory.
 */
import type { Db } from '../db/database.js';
import { backoffDelay } from '../lib/backoff.js';
import { describeError, isConnectionLoss } from '../lib/connection-errors.js';
import type { FaultInjector } from '../lib/faults.js';
import type { Logger } from '../lib/logger.js';
import { AGENT_ERASED, readEventsAfter, type AgentEventRow } from './events.service.js';
import { PAGE, wake, type AgentChannels, type Channel, type Subscriber, type Subscription } from './hub.channels.js';
import { returnThis } from '../lib/async-iterators.js';

/** Where a subscription is; `transition` below is the only place that moves it. */
export type SubscriptionState =
  /** Not yet in its agent's channel: the first ask joins. */
  | { name: 'joining' }
  /** Reading the log for itself, a page at a time, while the channel queues what comes after. */
  | { name: 'catching-up'; page: AgentEventRow[]; morePages: boolean; failures: number }
  /** Taking the rows its channel read for every subscriber of the agent from its queue. */
  | { name: 'live' }
  /** Ended by the consumer (return), an error, or the hub's stop: nothing more is handed on. */
  | { name: 'closed' };

export type SubscriptionEvent = 'joined-behind' | 'joined-at-newest' | 'caught-up' | 'overflowed' | 'ended';

/** Every move between states, and why it exists. */
export function transition(state: SubscriptionState, event: SubscriptionEvent): SubscriptionState {
  switch (event) {
    // joining: a resume (`after` older than the channel's newest) must first read what it missed
    // from the log; the channel queues everything after its newest meanwhile (see the header).
    case 'joined-behind':
      return { name: 'catching-up', page: [], morePages: true, failures: 0 };
    // joining: no `after` (or one at the newest): the queue holds every row from here on.
    case 'joined-at-newest':
      return { name: 'live' };
    // catching-up: the log has no more pages, so the rest is in the queue (the overlap is skipped).
    case 'caught-up':
      return { name: 'live' };
    // live: the queue passed the buffer and was dropped; the subscriber is back in the channel
    // (it queues from its newest sequence on) and reads the rest from the log on its own.
    case 'overflowed':
      return { name: 'catching-up', page: [], morePages: true, failures: 0 };
    // any state: the consumer returned or threw, an error ended it, or the hub stopped.
    case 'ended':
      return state.name === 'closed' ? state : { name: 'closed' };
  }
}

/** What a subscription needs of its hub. */
export interface SubscriptionHost {
  db: Db;
  logger: Logger;
  channels: AgentChannels;
  stopped(): boolean;
  /** The subscriber fell more than the buffer behind and catches up from the log on its own. */
  caughtUp(): void;
  /** A row was delivered, `lagSeconds` after the notification behind it. */
  delivered(lagSeconds: number): void;
  /** Fault points (lib/faults.ts): `events.replay_page` before each page of a replay is read. */
  faults: FaultInjector;
}

export function openSubscription(query: Subscription, host: SubscriptionHost): AsyncIterableIterator<AgentEventRow> {
  const subscriber: Subscriber = { query, queue: [], overflowed: false, wake: null, notifiedAt: null };
  let state: SubscriptionState = { name: 'joining' };
  let channel: Channel | null = null;
  let asking = false;
  let erased = false;
  /** The newest sequence handed on. */
  let last = 0;
  /** The notification behind the row handed on last: it was delivered once the consumer asks again. */
  let handedOn: number | null = null;

  const ended = () => state.name === 'closed' || host.stopped();
  const waitForWake = (ms?: number) =>
    new Promise<void>((resolve) => {
      const timer = ms === undefined ? null : setTimeout(resolve, ms);
      subscriber.wake = () => {
        if (timer) clearTimeout(timer);
        resolve();
      };
    });
  const finish = () => {
    if (state.name === 'closed') return;
    state = transition(state, 'ended');
    wake(subscriber);
    if (channel) host.channels.leave(channel, subscriber);
  };
  const join = async () => {
    // Joined before anything is read: keeps the channel alive while it starts.
    const joined = (channel = host.channels.join(subscriber));
    while (joined.last === null && !ended()) await Promise.race([joined.ready, waitForWake()]);
    if (ended()) return;
    // The channel queues every row after `last` from here on (see the header).
    last = query.after ?? joined.last!;
    state = transition(state, query.after !== null && query.after < joined.last! ? 'joined-behind' : 'joined-at-newest');
  };
  /** The next row from the log, for a subscriber catching up; null when this page is done (look at the state again). */
  const catchUp = async (catching: Extract<SubscriptionState, { name: 'catching-up' }>): Promise<AgentEventRow | null> => {
    const row = catching.page.shift();
    if (row) return row;
    if (!catching.morePages) {
      state = transition(state, 'caught-up');
      return null;
    }
    try {
      host.faults('events.replay_page');
      catching.page = await readEventsAfter(host.db, { ...query, afterSequence: last, limit: PAGE });
      catching.morePages = catching.page.length === PAGE;
      catching.failures = 0;
    } catch (error) {
      if (!isConnectionLoss(error) || ended()) throw error;
      await waitForWake(backoffDelay(catching.failures++));
    }
    return null;
  };
  /** A row left the queue to be handed on: the notification behind it is delivered at the next ask. */
  const takenFromQueue = () => {
    handedOn = subscriber.notifiedAt;
    if (subscriber.queue.length === 0) subscriber.notifiedAt = null;
  };
  /** The next row from the channel's queue; null when there is none yet or it overflowed (look at the state again). */
  const takeQueued = async (): Promise<AgentEventRow | null> => {
    if (subscriber.overflowed) {
      // Rejoin first (the channel queues from its newest sequence on), then read the rest.
      subscriber.overflowed = false;
      subscriber.notifiedAt = null;
      state = transition(state, 'overflowed');
      host.caughtUp();
      return null;
    }
    const row = subscriber.queue.shift();
    if (!row) {
      await waitForWake();
      return null;
    }
    // Already delivered by the replay (it overlapped the queue).
    if (row.sequence <= last) return null;
    takenFromQueue();
    return row;
  };
  const nextRow = async (): Promise<AgentEventRow | null> => {
    if (state.name === 'joining' && !ended()) await join();
    while (!ended()) {
      const failure = host.channels.failureOf(subscriber);
      if (failure) throw failure;
      const row = state.name === 'catching-up' ? await catchUp(state) : state.name === 'live' ? await takeQueued() : null;
      if (row) return row;
    }
    return null;
  };
  /** Hands a row on: the newest sequence moves, and an erasure's event is the last. */
  const handOn = (row: AgentEventRow): IteratorResult<AgentEventRow> => {
    last = row.sequence;
    erased = row.type === AGENT_ERASED;
    return { done: false, value: row };
  };
  /** Live with nothing else to do first (not ended, erased, overflowed or failed): the fast path may take or wait. */
  const plainlyLive = () => state.name === 'live' && !erased && !ended() && !subscriber.overflowed && !host.channels.failureOf(subscriber);
  /** A plainly live subscriber's next queued row; null when the queue is empty or starts with a row the replay delivered (the general path skips it). */
  const queuedRow = (): AgentEventRow | null => {
    const row = subscriber.queue[0];
    if (!row || row.sequence <= last) return null;
    subscriber.queue.shift();
    takenFromQueue();
    return row;
  };
  /** Every state: join, catch up, take from the queue or end (one ask at a time). */
  const ask = async (): Promise<IteratorResult<AgentEventRow>> => {
    asking = true;
    try {
      // The agent was erased: its last event was handed on, and nothing can follow it.
      const row = erased ? null : await nextRow();
      if (row && state.name !== 'closed') return handOn(row);
      finish();
      return { done: true, value: undefined };
    } catch (error) {
      if (state.name !== 'closed') host.logger.warn('subscription ended by an error', { agentId: query.agentId, ...describeError(error) });
      finish();
      throw error;
    } finally {
      asking = false;
    }
  };
  /**
   * The live steady state is an ask that waits for the channel's wake-up and takes the row it
   * queued: one pending promise per subscriber between events instead of the four nested async
   * calls of the general path. With 10,000 subscribers of an agent, those pending asks are what
   * an event's burst leaves for the garbage collector to copy.
   */
  const afterWake = () => {
    asking = false;
    const row = plainlyLive() ? queuedRow() : null;
    return row ? handOn(row) : ask();
  };
  const stream: AsyncIterableIterator<AgentEventRow> = {
    [Symbol.asyncIterator]: returnThis,
    next: () => {
      if (asking) return Promise.reject(new Error('the event stream was asked for its next event while an ask was pending'));
      if (handedOn !== null) host.delivered((performance.now() - handedOn) / 1000);
      handedOn = null;
      if (!plainlyLive()) return ask();
      const row = queuedRow();
      if (row) return Promise.resolve(handOn(row));
      if (subscriber.queue.length > 0) return ask();
      asking = true;
      return waitForWake().then(afterWake);
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
