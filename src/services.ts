/**
 * The composition root of the domain services: built once per server instance and handed to
 * every request's context. Background jobs (sweepers, schedulers) are started and stopped with
 * the server.
 */
import type { BurrowConfig } from './config.js';
import type { Database } from './db/database.js';
import type { Clock } from './lib/clock.js';
import type { FaultInjector } from './lib/faults.js';
import type { Logger } from './lib/logger.js';
import { TokensService } from './auth/tokens.service.js';
import { EventHub } from './events/hub.js';
import { EventLogSweeper } from './events/sweeper.js';
import { AgentsService } from './domains/agents/agents.service.js';
import { BrainsService } from './domains/brains/brains.service.js';
import { IntervalJob } from './lib/interval.js';

export interface ServiceDeps {
  config: BurrowConfig;
  database: Database;
  clock: Clock;
  logger: Logger;
  faults: FaultInjector;
}

/** Something the server runs beside requests (a timer loop); started after listen, stopped first. */
export interface BackgroundJob {
  name: string;
  start(): void;
  stop(): Promise<void>;
}

export function createServices(deps: ServiceDeps) {
  const { database, clock, logger, faults, config } = deps;
  const db = database.db;
  const hub = new EventHub(database, logger.child({ component: 'events' }));
  const tokens = new TokensService(db, clock);
  const agents = new AgentsService(db, clock, faults);
  const brains = new BrainsService(db, clock, faults, logger.child({ component: 'brains' }), database.capabilities, config.embeddings, agents);
  const background: BackgroundJob[] = [new EventLogSweeper(db, clock, config.events.retentionDays, logger)];
  if (config.embeddings && config.embeddings.indexIntervalMs > 0) {
    const interval = config.embeddings.indexIntervalMs;
    background.push(new IntervalJob('brain-embedding-indexer', interval, async () => void (await brains.indexPendingEmbeddings()), logger));
  }
  return { config, database, clock, hub, tokens, agents, brains, background };
}

export type Services = ReturnType<typeof createServices>;
