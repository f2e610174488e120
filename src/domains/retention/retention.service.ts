/**
 * Retention is per store, and this sweeper covers every store that has a lifetime:
 * - working records (default 90 days) and handoffs (14 days) expire by their own `expires_at`,
 *   rolling cards by `refreshedAt` + the agent's persisted TTL (90 days by default). Reads hide
 *   them at once; the sweep physically removes them once they have been expired for longer than
 *   the grace period. Pinned working records never expire.
 * - Tiddle history (180 days) and residue (24 hours) are windows their appends already prune;
 *   the sweep applies the same windows, so a scope that stops getting passes or residue does
 *   not keep them forever.
 * - the event log, older than BURROW_EVENT_RETENTION_DAYS (the same rule the hourly event
 *   pruning applies).
 * - Dream diary entries, BURROW_DREAM_DIARY_RETENTION_DAYS (default 365) after they were written,
 *   by their own `expires_at` and the same grace.
 * - idempotency keys, IDEMPOTENCY_WINDOW_HOURS (24) after they were written: past the window a
 *   key no longer answers (db/idempotency.ts), so the sweep removes it without a grace period.
 * Brains never expire, and conversation originals stay until an operator acts: no sweep touches
 * them, and removing a record never removes the originals it cites.
 */
import type { Db } from '../../db/database.js';
import { pruneEvents } from '../../events/events.service.js';
import { IDEMPOTENCY_WINDOW_HOURS, idempotencyCutoff, pruneIdempotencyKeys } from '../../db/idempotency.js';
import type { Clock } from '../../lib/clock.js';
import { daysBefore } from '../../lib/expiry.js';
import { IntervalJob } from '../../lib/interval.js';
import type { Logger } from '../../lib/logger.js';
import { requireOperator, type Viewer } from '../../auth/viewer.js';
import type { WorkingMemoryService } from '../working-memory/working-memory.service.js';
import type { HandoffsService } from '../handoffs/handoffs.service.js';
import type { TiddleService } from '../tiddle/tiddle.service.js';
import type { DreamDiaryService } from '../dream-diary/dream-diary.service.js';

export type RetentionStore =
  'working_records' | 'session_handoffs' | 'rolling_cards' | 'tiddle_history' | 'tiddle_residue' | 'agent_events' | 'dream_diary_entries' | 'idempotency_keys';

export interface RetentionStoreReport {
  store: RetentionStore;
  removed: number;
  /** What of this store was removed: what expired, or (for windows) was written, before this instant. */
  olderThan: Date;
  rule: string;
}

export interface RetentionReport {
  ranAt: Date;
  graceDays: number;
  /** Records whose expiry is before this instant were removed (ranAt − graceDays). */
  cutoff: Date;
  stores: RetentionStoreReport[];
}

export interface RetentionStores {
  working: WorkingMemoryService;
  handoffs: HandoffsService;
  tiddle: TiddleService;
  dreamDiary: DreamDiaryService;
}

export class RetentionService {
  constructor(
    private readonly db: Db,
    private readonly clock: Clock,
    private readonly graceDays: number,
    private readonly eventRetentionDays: number,
    private readonly stores: RetentionStores,
  ) {}

  /** One sweep of every store with a lifetime, against the injected clock. */
  async run(): Promise<RetentionReport> {
    const ranAt = this.clock.now();
    const cutoff = daysBefore(ranAt, this.graceDays);
    const grace = `expired more than ${this.graceDays} days ago`;
    const working = await this.stores.working.sweepExpired(cutoff);
    const handoffs = await this.stores.handoffs.sweepExpired(cutoff);
    const cards = await this.stores.tiddle.sweepExpiredCards(cutoff);
    const history = await this.stores.tiddle.sweepHistory(ranAt);
    const residue = await this.stores.tiddle.sweepResidue(ranAt);
    const eventsOlderThan = daysBefore(ranAt, this.eventRetentionDays);
    const events = await pruneEvents(this.db, eventsOlderThan);
    const dreamDiary = await this.stores.dreamDiary.sweepExpired(cutoff);
    const keysOlderThan = idempotencyCutoff(ranAt);
    const keys = await pruneIdempotencyKeys(this.db, keysOlderThan);
    return {
      ranAt,
      graceDays: this.graceDays,
      cutoff,
      stores: [
        { store: 'working_records', removed: working, olderThan: cutoff, rule: `unpinned records ${grace}` },
        { store: 'session_handoffs', removed: handoffs, olderThan: cutoff, rule: `handoffs ${grace}` },
        { store: 'rolling_cards', removed: cards, olderThan: cutoff, rule: `cards ${grace} (refreshedAt + the agent's rolling TTL)` },
        { store: 'tiddle_history', removed: history.removed, olderThan: history.olderThan, rule: 'pass history older than 180 days' },
        { store: 'tiddle_residue', removed: residue.removed, olderThan: residue.olderThan, rule: 'residue older than 24 hours' },
        { store: 'agent_events', removed: events, olderThan: eventsOlderThan, rule: `events older than ${this.eventRetentionDays} days` },
        { store: 'dream_diary_entries', removed: dreamDiary, olderThan: cutoff, rule: `diary entries ${grace}` },
        { store: 'idempotency_keys', removed: keys, olderThan: keysOlderThan, rule: `idempotency keys older than ${IDEMPOTENCY_WINDOW_HOURS} hours` },
      ],
    };
  }

  async runAsOperator(viewer: Viewer | null): Promise<RetentionReport> {
    requireOperator(viewer);
    return this.run();
  }
}

/** The server's sweeper: every BURROW_RETENTION_INTERVAL_SECONDS (0 turns it off). */
export class RetentionSweeper extends IntervalJob {
  constructor(retention: RetentionService, intervalSeconds: number, logger: Logger) {
    super(
      'retention sweep',
      intervalSeconds * 1000,
      async () => {
        const report = await retention.run();
        const removed = report.stores.filter((s) => s.removed > 0).map((s) => ({ store: s.store, removed: s.removed }));
        if (removed.length > 0) logger.info('retention removed expired records', { cutoff: report.cutoff.toISOString(), removed });
      },
      logger,
    );
  }
}
