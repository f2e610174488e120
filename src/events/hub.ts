/**
 * Fan-out of the event log to this instance's subscribers. One LISTEN per instance
 * (events/hub.listen.ts, on db/listener.ts's shared connection); NOTIFY carries only
 * "agentId:sequence". Reads are per agent, not per subscriber (events/hub.channels.ts): a
 * notification makes the agent's channel read its new rows once, and every subscriber of the
 * agent gets them from memory. Each subscription (events/hub.subscription.ts) joins its agent's
 * channel, replays from the log what it asked for or fell behind on, then takes the channel's rows.
 *
 * A notification is a hint, not the record: it is sent after its write commits
 * (db/notify-after-commit.ts), so a writer that stops between the two never sends it. Every
 * RECHECK_MS the hub has its channels compare their newest sequences with the log's, and read
 * those still behind (AgentChannels.recheck).
 */
import type { Database } from '../db/database.js';
import { noFaults, type FaultInjector } from '../lib/faults.js';
import type { Logger } from '../lib/logger.js';
import type { AgentEventRow } from './events.service.js';
import { AgentChannels, type Subscription } from './hub.channels.js';
import { HubListener } from './hub.listen.js';
import { openSubscription, type SubscriptionHost } from './hub.subscription.js';

/** How often the channels' newest sequences are compared with the log's (see the header). */
const RECHECK_MS = 1000;

/** What ops/metrics.ts observes; the hub works without one. */
export interface HubObserver {
  delivered(lagSeconds: number): void;
  reconnected(): void;
}

export class EventHub {
  private readonly channels: AgentChannels;
  private readonly listener: HubListener;
  private readonly subscriptionHost: SubscriptionHost;
  /** Called on every notification of any agent, and after a reconnect (the operator stream). */
  private readonly anyAgent = new Set<() => void>();
  private stopped = true;
  private recheckTimer: NodeJS.Timeout | null = null;
  observer: HubObserver | null = null;
  /** Times a subscriber fell more than the buffer behind and caught up from the log on its own. */
  catchUps = 0;

  constructor(database: Database, logger: Logger, bufferLimit = 1000, faults: FaultInjector = noFaults) {
    this.channels = new AgentChannels(database, logger, bufferLimit, () => this.stopped);
    this.listener = new HubListener(database, logger, {
      heard: (payload) => this.channels.heard(payload),
      heardFromDatabase: () => {
        for (const listener of this.anyAgent) listener();
      },
      reconnected: () => this.observer?.reconnected(),
      recovered: () => {
        // Notifications sent while nobody listened are gone: every channel reads again.
        this.channels.readAll();
        for (const listener of this.anyAgent) listener();
      },
    });
    this.subscriptionHost = {
      db: database.db,
      logger,
      channels: this.channels,
      stopped: () => this.stopped,
      caughtUp: () => this.catchUps++,
      delivered: (lagSeconds) => this.observer?.delivered(lagSeconds),
      faults,
    };
  }

  /** LISTEN is up: notifications reach this instance. */
  get listening(): boolean {
    return this.listener.listening;
  }

  /** Rows waiting in subscribers' queues (each at most the buffer). */
  get queuedEvents(): number {
    return this.channels.queuedEvents;
  }

  get openSubscriptions(): number {
    return this.channels.openSubscriptions;
  }

  /** Open subscriptions not yet placed in their agent's log (see AgentChannels.startingSubscriptions). */
  get startingSubscriptions(): number {
    return this.channels.startingSubscriptions;
  }

  /** Reads of the log made for live delivery (one per agent per batch of notifications). */
  get channelReads(): number {
    return this.channels.reads;
  }

  async start(): Promise<void> {
    this.stopped = false;
    await this.listener.start();
    this.recheckTimer = setInterval(() => void this.recheck(), RECHECK_MS);
    this.recheckTimer.unref?.();
  }

  /** Stops listening and ends every open subscription (their streams complete). */
  async stop(): Promise<void> {
    this.stopped = true;
    if (this.recheckTimer) clearInterval(this.recheckTimer);
    this.recheckTimer = null;
    await this.listener.stop();
    this.channels.stopAll();
  }

  /** Calls `listener` on every event notification of any agent and after LISTEN recovers; returns the unsubscribe. */
  onAnyEvent(listener: () => void): () => void {
    this.anyAgent.add(listener);
    return () => this.anyAgent.delete(listener);
  }

  /** Events of one agent after `after` (or from now when null), then live, until the consumer stops (events/hub.subscription.ts). */
  subscribe(query: Subscription): AsyncIterableIterator<AgentEventRow> {
    return openSubscription(query, this.subscriptionHost);
  }

  private recheck(): Promise<void> {
    return this.channels.recheck();
  }
}
