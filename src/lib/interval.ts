/**
 * A repeating job that runs once at start and then every `intervalMs`, never overlapping
 * itself, and whose stop() waits for a run in progress.
 */
import type { Logger } from './logger.js';

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
    this.running = this.run()
      .catch((error) => this.logger.warn(`${this.name} failed`, { error: (error as Error).message }))
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
