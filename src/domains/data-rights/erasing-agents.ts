/**
 * The agents whose erasure has started, in memory on every instance, so that a root field that
 * names one by `agentId` answers NotFound without a statement per request (the absent-agent
 * plugin, src/schema/absent-agent-plugin.ts). The first step of an erasure and its last one
 * NOTIFY on ERASURES_CHANNEL inside their transactions; every notification reloads the set (one
 * small statement: erasures are rare). A lost LISTEN connection is covered by the re-check, which
 * reloads every few seconds.
 */
import type { Database } from '../../db/database.js';
import { IntervalJob } from '../../lib/interval.js';
import type { Logger } from '../../lib/logger.js';

export const ERASURES_CHANNEL = 'burrow_erasures';

export class ErasingAgents {
  private ids = new Set<string>();
  private unlisten: (() => Promise<void>) | null = null;
  readonly recheck: IntervalJob;

  constructor(
    private readonly database: Database,
    logger: Logger,
    recheckSeconds = 5,
  ) {
    this.recheck = new IntervalJob('erasing-agents-recheck', recheckSeconds * 1000, () => this.reload(), logger);
  }

  async start(): Promise<void> {
    this.unlisten = await this.database.listen(
      ERASURES_CHANNEL,
      () => void this.reload().catch(() => {}),
      () => (this.unlisten = null),
    );
    await this.reload();
  }

  async stop(): Promise<void> {
    await this.unlisten?.();
    this.unlisten = null;
  }

  has(agentId: string): boolean {
    return this.ids.has(agentId);
  }

  /** Through the pool, not Drizzle: it is no request's statement. */
  async reload(): Promise<void> {
    const { rows } = await this.database.pool.query<{ id: string }>('SELECT id FROM agents WHERE erasure_started_at IS NOT NULL');
    this.ids = new Set(rows.map((row) => row.id));
  }
}
