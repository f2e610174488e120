import { IntervalJob } from '../../lib/interval.js';
import type { Logger } from '../../lib/logger.js';
import { SCHEDULER_INTERVAL_MS, type PassOutcome } from './tiddle.model.js';

/**
 * Checks every 60 seconds and ticks once immediately at start. tick() is public and serialised
 * within the instance, so a caller awaiting it knows every earlier tick has finished too. Each
 * tick runs the due passes it was given (TiddleService.runDuePasses, passed in as a function so
 * this file need not import the service).
 */
export class TiddleScheduler {
  readonly name = 'tiddle scheduler';
  private readonly job: IntervalJob;
  private chain: Promise<unknown> = Promise.resolve();

  constructor(
    private readonly runDuePasses: () => Promise<PassOutcome[]>,
    logger: Logger,
  ) {
    this.job = new IntervalJob(this.name, SCHEDULER_INTERVAL_MS, async () => void (await this.tick()), logger);
  }

  tick(): Promise<PassOutcome[]> {
    const run = this.chain.then(() => this.runDuePasses());
    this.chain = run.catch(() => undefined);
    return run;
  }

  start(): void {
    this.job.start();
  }

  async stop(): Promise<void> {
    await this.job.stop();
    await this.chain;
  }
}
