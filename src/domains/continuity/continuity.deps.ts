/**
 * What every continuity operation works with. Its own module so the part files (runs, fencing,
 * transitions, recovery, reads) name it without importing the service that imports them.
 */
import type { Db } from '../../db/database.js';
import type { Clock } from '../../lib/clock.js';
import type { FaultInjector } from '../../lib/faults.js';
import type { Logger } from '../../lib/logger.js';
import type { OwnershipRegistry } from './ownership.js';

export interface ContinuityDeps {
  db: Db;
  clock: Clock;
  faults: FaultInjector;
  owners: OwnershipRegistry;
  logger: Logger;
}
