/**
 * Fan-out of the event log to this instance's subscribers. One LISTEN per instance; NOTIFY
 * carries only "agentId:sequence", so every subscriber reads the rows themselves from the log.
 * A subscription registers its wake-up before it reads, then always reads "after the last
 * sequence I delivered": replay and live delivery are the same loop, so there is no gap and no
 * duplicate at the seam.
 *
 * Losing the database is normal (failover, restart, an administrator ending sessions). The
 * LISTEN connection is re-established with capped, jittered backoff, and every subscriber is
 * then woken to catch up from the log after its last delivered sequence: whatever committed
 * while nobody was listening is delivered once. A subscriber whose own read loses its
 * connection waits and reads again from the same place.
 */
import { Repeater } from 'graphql-yoga';
import type { Database } from '../db/database.js';
import { describeError, isConnectionLoss } from '../lib/connection-errors.js';
import type { Logger } from '../lib/logger.js';
import { EVENTS_CHANNEL, latestSequence, readEventsAfter, type AgentEventRow, type EventQuery } from './events.service.js';

const PAGE = 200;
/** Backoff of LISTEN reconnects and of a subscriber's retried read: doubles from MIN to MAX. */
const BACKOFF_MIN_MS = 100;
const BACKOFF_MAX_MS = 5000;

/** Full jitter over the upper half, so instances cut at once do not reconnect in lockstep. */
export function backoffDelay(attempt: number): number {
  const ceiling = Math.min(BACKOFF_MAX_MS, BACKOFF_MIN_MS * 2 ** Math.min(attempt, 16));
  return ceiling / 2 + Math.random() * (ceiling / 2);
}

interface Waiter {
  pending: boolean;
  wake: (() => void) | null;
  /** performance.now() of the notification that woke it, for the delivery-lag histogram. */
  notifiedAt: number | null;
}

/** What ops/metrics.ts observes; the hub works without one. */
export interface HubObserver {
  delivered(lagSeconds: number): void;
  reconnected(): void;
}

export class EventHub {
  private readonly waiters = new Map<string, Set<Waiter>>();
  /** Woken by every notification of any agent, and after a reconnect (the operator stream). */
  private readonly anyAgent = new Set<() => void>();
  private unlisten: (() => Promise<void>) | null = null;
  private generation = 0;
  private stopped = true;
  private reconnectTimer: NodeJS.Timeout | null = null;
  private reconnectAttempt = 0;
  private lostAt = 0;
  observer: HubObserver | null = null;

  constructor(
    private readonly database: Database,
    private readonly logger: Logger,
  ) {}

  /** LISTEN is up: notifications reach this instance. */
  get listening(): boolean {
    return this.unlisten !== null;
  }

  get openSubscriptions(): number {
    let count = 0;
    for (const set of this.waiters.values()) count += set.size;
    return count;
  }

  async start(): Promise<void> {
    this.stopped = false;
    await this.listenOnce();
  }

  /** Stops listening and ends every open subscription (their streams complete). */
  async stop(): Promise<void> {
    this.stopped = true;
    this.generation++;
    if (this.reconnectTimer) clearTimeout(this.reconnectTimer);
    this.reconnectTimer = null;
    const unlisten = this.unlisten;
    this.unlisten = null;
    await unlisten?.();
    this.wakeAll(false);
  }

  private async listenOnce(): Promise<void> {
    const generation = ++this.generation;
    let ready = false;
    let lostEarly = false;
    const unlisten = await this.database.listen(
      EVENTS_CHANNEL,
      (payload) => {
        const agentId = payload.slice(0, payload.lastIndexOf(':'));
        const now = performance.now();
        for (const waiter of this.waiters.get(agentId) ?? []) this.wake(waiter, now);
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
          // Notifications sent while nobody listened are gone: every subscriber re-reads.
          this.wakeAll(null);
        },
        () => {
          if (!this.stopped) this.scheduleReconnect();
        },
      );
    }, delay);
    this.reconnectTimer.unref?.();
  }

  /** Calls `listener` on every event notification of any agent and after LISTEN recovers; returns the unsubscribe. */
  onAnyEvent(listener: () => void): () => void {
    this.anyAgent.add(listener);
    return () => this.anyAgent.delete(listener);
  }

  private wakeAll(notifiedAt: number | null | false) {
    for (const listener of this.anyAgent) listener();
    for (const set of this.waiters.values()) for (const waiter of set) this.wake(waiter, notifiedAt === false ? null : notifiedAt);
  }

  private wake(waiter: Waiter, notifiedAt: number | null) {
    waiter.pending = true;
    if (notifiedAt !== null && waiter.notifiedAt === null) waiter.notifiedAt = notifiedAt;
    const wake = waiter.wake;
    waiter.wake = null;
    wake?.();
  }

  /** Events of one agent after `after` (or from now when null), then live, until the consumer stops. */
  subscribe(query: Omit<EventQuery, 'afterSequence' | 'limit'> & { after: number | null }): AsyncIterable<AgentEventRow> {
    const { db } = this.database;
    return new Repeater<AgentEventRow>(async (push, stop) => {
      const waiter: Waiter = { pending: false, wake: null, notifiedAt: null };
      let set = this.waiters.get(query.agentId);
      if (!set) this.waiters.set(query.agentId, (set = new Set()));
      set.add(waiter);
      let stopped = false;
      void stop.then(() => {
        stopped = true;
        this.wake(waiter, null);
      });
      const ended = () => stopped || this.stopped;
      let last: number | null = query.after;
      let failures = 0;
      try {
        while (!ended()) {
          try {
            if (last === null) last = await latestSequence(db, query.agentId);
            waiter.pending = false;
            const notifiedAt = waiter.notifiedAt;
            waiter.notifiedAt = null;
            const rows = await readEventsAfter(db, { ...query, afterSequence: last, limit: PAGE });
            failures = 0;
            for (const row of rows) {
              if (ended()) break;
              await push(row);
              last = row.sequence;
              if (notifiedAt !== null) this.observer?.delivered((performance.now() - notifiedAt) / 1000);
            }
            if (rows.length === PAGE || ended()) continue;
            if (!waiter.pending) await new Promise<void>((resolve) => (waiter.wake = resolve));
          } catch (error) {
            if (!isConnectionLoss(error) || ended()) throw error;
            // The read's connection was lost: wait, then read again after the last delivered sequence.
            await new Promise<void>((resolve) => {
              const timer = setTimeout(resolve, backoffDelay(failures++));
              waiter.wake = () => {
                clearTimeout(timer);
                resolve();
              };
            });
          }
        }
        stop();
      } catch (error) {
        this.logger.warn('subscription ended by an error', { agentId: query.agentId, ...describeError(error) });
        stop(error);
      } finally {
        set.delete(waiter);
        if (set.size === 0) this.waiters.delete(query.agentId);
      }
    });
  }
}
