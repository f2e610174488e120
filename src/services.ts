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
import { TokenCache } from './auth/token-cache.js';
import { TokenWatch } from './auth/token-watch.js';
import { RateLimiter } from './limits/rate-limit.js';
import { EventHub } from './events/hub.js';
import { EventLogSweeper } from './events/sweeper.js';
import { AgentsService } from './domains/agents/agents.service.js';
import { WorkingMemoryService } from './domains/working-memory/working-memory.service.js';
import { HandoffsService } from './domains/handoffs/handoffs.service.js';
import { ConversationsService } from './domains/conversations/conversations.service.js';
import { RetentionService, RetentionSweeper } from './domains/retention/retention.service.js';
import { ContinuityService } from './domains/continuity/continuity.service.js';
import { OwnershipRegistry } from './domains/continuity/ownership.js';
import { ContinuityReconciler } from './domains/continuity/reconciler.js';
import { TiddleService } from './domains/tiddle/tiddle.service.js';
import { proposerFromConfig } from './domains/tiddle/tiddle.proposer.js';
import { BrainsService } from './domains/brains/brains.service.js';
import { IntervalJob } from './lib/interval.js';
import { SettingsService } from './domains/settings/settings.service.js';
import { ConfigurationTransfer } from './domains/settings/settings.transfer.js';
import { DreamDiaryService } from './domains/dream-diary/dream-diary.service.js';
import { RemovalReceipts } from './domains/data-rights/data-rights.service.js';
import { AgentErasure } from './domains/data-rights/agent-erasure.js';
import { ErasingAgents } from './domains/data-rights/erasing-agents.js';

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
  const hub = new EventHub(database, logger.child({ component: 'events' }), config.events.subscriberBufferEvents, faults);
  const tokenCache = new TokenCache(clock, config.tokens.cacheSeconds * 1000, config.tokens.cacheMax);
  const tokens = new TokensService(db, clock, config.tokens.lastUsedIntervalSeconds * 1000, tokenCache);
  const rateLimiter = new RateLimiter(clock, config.rateLimit);
  const tokenWatch = new TokenWatch(database, clock, logger.child({ component: 'tokens' }), config.tokens.recheckSeconds, tokenCache);
  const agents = new AgentsService(db, clock, faults, database.reads);
  const working = new WorkingMemoryService(db, clock, faults, config.workingMemory.defaultTtlDays);
  const handoffs = new HandoffsService(db, clock, faults);
  const conversations = new ConversationsService(db, clock, faults, database.reads);
  const agentExists = async (id: string) => (await agents.agentsByIds([id])).length > 0;
  const settings = new SettingsService(db, clock, config.settings.key);
  const transfer = new ConfigurationTransfer(db, clock, settings, agents);
  const dreamDiary = new DreamDiaryService(db, clock, config.dreamDiary.retentionDays, agentExists);
  const receipts = new RemovalReceipts(db);
  const continuityLogger = logger.child({ component: 'continuity' });
  const owners = new OwnershipRegistry(database, clock, continuityLogger, { perAgent: config.owners.perAgent, total: config.owners.max });
  const erasure = new AgentErasure(db, clock, owners, faults);
  const erasingAgents = new ErasingAgents(database, logger.child({ component: 'erasure' }));
  const continuity = new ContinuityService(db, clock, faults, owners, continuityLogger);
  const proposer = config.tiddle.proposer;
  const tiddle = new TiddleService(
    db,
    clock,
    faults,
    agents,
    proposerFromConfig(proposer),
    logger.child({ component: 'tiddle' }),
    proposer.kind === 'openai' ? proposer.timeoutMs : 30_000,
  );
  const retention = new RetentionService(db, clock, config.retention.graceDays, config.events.retentionDays, { working, handoffs, tiddle, dreamDiary });
  const brains = new BrainsService(db, clock, faults, logger.child({ component: 'brains' }), database.capabilities, config.embeddings, agents, database.reads);
  const background: BackgroundJob[] = [
    tokenWatch.recheck,
    erasingAgents.recheck,
    new EventLogSweeper(db, clock, config.events.retentionDays, logger),
    new RetentionSweeper(retention, config.retention.intervalSeconds, logger.child({ component: 'retention' })),
    new ContinuityReconciler(continuity, config.continuity.reconcileIntervalSeconds, continuityLogger),
    // Stopping the server ends its ownership sessions, which releases their locks.
    { name: 'continuity owners', start: () => {}, stop: () => owners.closeAll() },
  ];
  if (config.tiddle.scheduler) background.push(tiddle.scheduler);
  if (config.embeddings && config.embeddings.indexIntervalMs > 0) {
    const interval = config.embeddings.indexIntervalMs;
    background.push(new IntervalJob('brain-embedding-indexer', interval, async () => void (await brains.indexPendingEmbeddings()), logger));
  }
  return {
    config,
    database,
    clock,
    hub,
    tokens,
    tokenCache,
    tokenWatch,
    rateLimiter,
    agents,
    working,
    handoffs,
    conversations,
    retention,
    continuity,
    tiddle,
    brains,
    settings,
    transfer,
    dreamDiary,
    receipts,
    erasure,
    erasingAgents,
    background,
    /** Fault points of resolvers (lib/faults.ts); production's does nothing. */
    faults,
  };
}

export type Services = ReturnType<typeof createServices>;
