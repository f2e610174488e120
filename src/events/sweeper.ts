import type { Db } from '../db/database.js';
import type { Clock } from '../lib/clock.js';
import { daysBefore } from '../lib/expiry.js';
import { IntervalJob } from '../lib/interval.js';
import type { Logger } from '../lib/logger.js';
import { pruneEvents } from './events.service.js';

/** Prunes the event log by age, hourly. Subscribers resuming from older sequences get what remains. */
export class EventLogSweeper extends IntervalJob {
  constructor(db: Db, clock: Clock, retentionDays: number, logger: Logger) {
    super(
      'event log pruning',
      60 * 60 * 1000,
      async () => {
        const removed = await pruneEvents(db, daysBefore(clock.now(), retentionDays));
        if (removed > 0) logger.info('pruned agent events', { removed, retentionDays });
      },
      logger,
    );
  }
}
