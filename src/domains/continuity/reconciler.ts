import { IntervalJob } from '../../lib/interval.js';
import type { Logger } from '../../lib/logger.js';
import type { ContinuityService } from './continuity.service.js';

/**
 * Reconciles continuity on an interval (BURROW_CONTINUITY_RECONCILE_INTERVAL_SECONDS; 0 turns it
 * off). Every instance may run it: each abandoned run is still interrupted exactly once.
 */
export class ContinuityReconciler extends IntervalJob {
  constructor(continuity: ContinuityService, intervalSeconds: number, logger: Logger) {
    super('continuity reconciliation', intervalSeconds * 1000, async () => void (await continuity.reconcile()), logger);
  }
}
