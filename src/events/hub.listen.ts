/**
 * The hub's LISTEN on burrow_events, kept up. The connection itself is the instance's one
 * listening connection (db/listener.ts, through Database.listen); this keeps the hub's
 * registration on it alive. NOTIFY carries only "agentId:sequence".
 *
 * Losing the database is normal (failover, restart, an administrator ending sessions). The
 * LISTEN is re-established with capped, jittered backoff, and the hub then has every channel read
 * again after its newest sequence: whatever committed while nobody was listening is delivered once.
 *
 * This instance's own writes wake their channels at commit, in process (Database.hearLocally),
 * without waiting for PostgreSQL's copy, which comes an event-loop turn later and is skipped when
 * its sequence has been read.
 */
import type { Database } from '../db/database.js';
import { backoffDelay } from '../lib/backoff.js';
import { describeError } from '../lib/connection-errors.js';
import type { Logger } from '../lib/logger.js';
import { EVENTS_CHANNEL } from './events.service.js';

export interface ListenHooks {
  /** An "agentId:sequence" notification, from PostgreSQL or from this instance's own commit. */
  heard(payload: string): void;
  /** A notification from PostgreSQL (after `heard`). */
  heardFromDatabase(): void;
  /** LISTEN is back after a loss (before the recovery is logged). */
  reconnected(): void;
  /** LISTEN is back and the recovery logged: what was sent meanwhile must be read again. */
  recovered(): void;
}

export class HubListener {
  private unlisten: (() => Promise<void>) | null = null;
  private generation = 0;
  private stopped = true;
  private reconnectTimer: NodeJS.Timeout | null = null;
  private reconnectAttempt = 0;
  private lostAt = 0;
  private unhearLocal: (() => void) | null = null;

  constructor(
    private readonly database: Database,
    private readonly logger: Logger,
    private readonly hooks: ListenHooks,
  ) {}

  /** LISTEN is up: notifications reach this instance. */
  get listening(): boolean {
    return this.unlisten !== null;
  }

  async start(): Promise<void> {
    this.stopped = false;
    // This instance's own writes wake their channels at commit; PostgreSQL's copy comes later.
    this.unhearLocal = this.database.hearLocally(EVENTS_CHANNEL, (payload) => this.hooks.heard(payload));
    await this.listenOnce();
  }

  async stop(): Promise<void> {
    this.stopped = true;
    this.generation++;
    this.unhearLocal?.();
    this.unhearLocal = null;
    if (this.reconnectTimer) clearTimeout(this.reconnectTimer);
    this.reconnectTimer = null;
    const unlisten = this.unlisten;
    this.unlisten = null;
    await unlisten?.();
  }

  private async listenOnce(): Promise<void> {
    const generation = ++this.generation;
    let ready = false;
    let lostEarly = false;
    const unlisten = await this.database.listen(
      EVENTS_CHANNEL,
      (payload) => {
        this.hooks.heard(payload);
        this.hooks.heardFromDatabase();
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
          this.hooks.reconnected();
          this.logger.info('event LISTEN connection recovered; subscribers catch up from the event log', {
            attempts,
            downtimeMs: Math.round(performance.now() - this.lostAt),
          });
          this.hooks.recovered();
        },
        () => {
          if (!this.stopped) this.scheduleReconnect();
        },
      );
    }, delay);
    this.reconnectTimer.unref?.();
  }
}
