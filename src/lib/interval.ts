/**
 * A repeating job that runs once at start and then every `intervalMs`, never overlapping
 * itself, and whose stop() waits for a run in progress.
 */
import { describeError } from './connection-errors.js';
import type { Logger } from './logger.js';

/**
 * Runs and failures of every background job in this process, by job name, read by the
 * Prometheus exporter (ops/metrics.ts). Process-wide like the process it describes.
 */
export const backgroundJobStats = new Map<string, { runs: number; failures: number }>();

function statsOf(name: string) {
  let stats = backgroundJobStats.get(name);
  if (!stats) backgroundJobStats.set(name, (stats = { runs: 0, failures: 0 }));
  return stats;
}

export class IntervalJob {
  private timer: NodeJS.Timeout | null = null;
  private running: Promise<void> | null = null;
  private stopped = true;

  constructor(
    readonly name: string,
    private readonly intervalMs: number,
    private readonly run: () => Promise<void>,
    private readonly logger: Logger,
  ) {}

  start(): void {
    if (this.intervalMs <= 0) return;
    this.stopped = false;
    this.tick();
  }

  private tick() {
    if (this.stopped) return;
    const stats = statsOf(this.name);
    stats.runs++;
    this.running = this.run()
      .catch((error) => {
        stats.failures++;
        // A lost database connection is an expected, logged failure: the next run retries.
        this.logger.warn(`${this.name} failed`, { job: this.name, ...describeError(error) });
      })
      .finally(() => {
        this.running = null;
        if (!this.stopped) this.timer = setTimeout(() => this.tick(), this.intervalMs);
      });
  }

  async stop(): Promise<void> {
    this.stopped = true;
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    await this.running;
  }
}
