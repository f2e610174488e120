/**
 * Fan-out of the event log to this instance's subscribers. One LISTEN per instance; NOTIFY
 * carries only "agentId:sequence", so every subscriber reads the rows themselves from the log.
 * A subscription registers its wake-up before it reads, then always reads "after the last
 * sequence I delivered": replay and live delivery are the same loop, so there is no gap and no
 * duplicate at the seam.
 */
import { Repeater } from 'graphql-yoga';
import type { Database } from '../db/database.js';
import type { Logger } from '../lib/logger.js';
import { EVENTS_CHANNEL, latestSequence, readEventsAfter, type AgentEventRow, type EventQuery } from './events.service.js';

const PAGE = 200;

interface Waiter {
  pending: boolean;
  wake: (() => void) | null;
}

export class EventHub {
  private readonly waiters = new Map<string, Set<Waiter>>();
  private unlisten: (() => Promise<void>) | null = null;

  constructor(
    private readonly database: Database,
    private readonly logger: Logger,
  ) {}

  async start(): Promise<void> {
    this.unlisten = await this.database.listen(EVENTS_CHANNEL, (payload) => {
      const agentId = payload.slice(0, payload.lastIndexOf(':'));
      for (const waiter of this.waiters.get(agentId) ?? []) this.wake(waiter);
    });
  }

  async stop(): Promise<void> {
    await this.unlisten?.();
    this.unlisten = null;
    for (const set of this.waiters.values()) for (const waiter of set) this.wake(waiter);
  }

  private wake(waiter: Waiter) {
    waiter.pending = true;
    const wake = waiter.wake;
    waiter.wake = null;
    wake?.();
  }

  /** Events of one agent after `after` (or from now when null), then live, until the consumer stops. */
  subscribe(query: Omit<EventQuery, 'afterSequence' | 'limit'> & { after: number | null }): AsyncIterable<AgentEventRow> {
    const { db } = this.database;
    return new Repeater<AgentEventRow>(async (push, stop) => {
      const waiter: Waiter = { pending: false, wake: null };
      let set = this.waiters.get(query.agentId);
      if (!set) this.waiters.set(query.agentId, (set = new Set()));
      set.add(waiter);
      let stopped = false;
      void stop.then(() => {
        stopped = true;
        this.wake(waiter);
      });
      try {
        let last = query.after ?? (await latestSequence(db, query.agentId));
        while (!stopped) {
          waiter.pending = false;
          const rows = await readEventsAfter(db, { ...query, afterSequence: last, limit: PAGE });
          for (const row of rows) {
            if (stopped) break;
            await push(row);
            last = row.sequence;
          }
          if (rows.length === PAGE || stopped) continue;
          if (!waiter.pending) await new Promise<void>((resolve) => (waiter.wake = resolve));
        }
      } catch (error) {
        this.logger.warn('subscription ended by an error', { agentId: query.agentId, error: (error as Error).message });
        stop(error);
      } finally {
        set.delete(waiter);
        if (set.size === 0) this.waiters.delete(query.agentId);
      }
    });
  }
}
