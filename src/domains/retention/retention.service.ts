/**
 * Retention is per store. Working records (default 90 days) and handoffs (14 days) expire by
 * their own `expires_at`, and so do Dream diary entries (BURROW_DREAM_DIARY_RETENTION_DAYS, default 365); reads hide them at once, and this sweeper physically removes them once
 * they have been expired for longer than the grace period. Brains never expire here, and
 * conversation originals stay until an operator acts: no sweep touches them, and removing a
 * memory never removes the originals it cites.
 */
import { addDays, type Clock } from '../../lib/clock.js';
import { IntervalJob } from '../../lib/interval.js';
import type { Logger } from '../../lib/logger.js';
import { requireOperator, type Viewer } from '../../auth/viewer.js';
import type { WorkingMemoryService } from '../working-memory/working-memory.service.js';
import type { HandoffsService } from '../handoffs/handoffs.service.js';
import type { DreamDiaryService } from '../dream-diary/dream-diary.service.js';

export interface RetentionReport {
  ranAt: Date;
  graceDays: number;
  /** Records whose expiry is before this instant were removed. */
  cutoff: Date;
  stores: { store: 'working_records' | 'session_handoffs' | 'dream_diary_entries'; removed: number }[];
}

export class RetentionService {
  constructor(
    private readonly clock: Clock,
    private readonly graceDays: number,
    private readonly working: WorkingMemoryService,
    private readonly handoffs: HandoffsService,
    private readonly dreamDiary: DreamDiaryService,
  ) {}

  /** One sweep of every store with an expiry, against the injected clock. */
  async run(): Promise<RetentionReport> {
    const ranAt = this.clock.now();
    const cutoff = addDays(ranAt, -this.graceDays);
    const working = await this.working.sweepExpired(cutoff);
    const handoffs = await this.handoffs.sweepExpired(cutoff);
    const dreamDiary = await this.dreamDiary.sweepExpired(cutoff);
    return {
      ranAt,
      graceDays: this.graceDays,
      cutoff,
      stores: [
        { store: 'working_records', removed: working },
        { store: 'session_handoffs', removed: handoffs },
        { store: 'dream_diary_entries', removed: dreamDiary },
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
        const removed = report.stores.filter((s) => s.removed > 0);
        if (removed.length > 0) logger.info('retention removed expired records', { cutoff: report.cutoff.toISOString(), removed });
      },
      logger,
    );
  }
}
