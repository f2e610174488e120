/**
 * Tiddle rolling continuity. The terminal append is cheap (no model call, no card change); the
 * scheduler claims due scopes (SKIP LOCKED lease), asks the proposer, validates every proposal and
 * commits card changes, history and the scope's success mark in one transaction under the
 * agent-scoped advisory lock. Success is tracked per scope, so a failed scope retries alone.
 *
 * This is the domain's one public surface; each rule lives in the file named for it:
 * tiddle.residue.ts (appends, residue and history reads), tiddle.cards.ts (card reads and search),
 * tiddle.ttl.ts (the TTL and expiry), tiddle.status.ts, tiddle.claims.ts (scope leases),
 * tiddle.passes.ts (the pass), tiddle.proposals.ts (proposal gating), tiddle.synthesis.ts
 * (cross-scope cards), tiddle.outcomes.ts (history and status events), tiddle.scheduler.ts,
 * tiddle.retention.ts (what the retention sweeper removes).
 */
import type { Db, DbOrTx } from '../../db/database.js';
import type { Clock } from '../../lib/clock.js';
import type { FaultInjector } from '../../lib/faults.js';
import type { Logger } from '../../lib/logger.js';
import type { Viewer } from '../../auth/viewer.js';
import type { AgentsService } from '../agents/agents.service.js';
import type { Proposer } from './tiddle.proposer.js';
import type { TiddleDeps } from './tiddle.model.js';
import { appendResidue, getEntry, listHistory, listResidue } from './tiddle.residue.js';
import { cardPagesForAgents, getCard, listCards, search } from './tiddle.cards.js';
import { readTtlDays, setCardTtl } from './tiddle.ttl.js';
import { status, statusForAgents } from './tiddle.status.js';
import { runDuePasses, runPassNow } from './tiddle.passes.js';
import { TiddleScheduler } from './tiddle.scheduler.js';
import { sweepExpiredCards, sweepHistory, sweepResidue } from './tiddle.retention.js';

// The shapes and numbers callers (the GraphQL layer, tests) import from the domain.
export {
  CROSS_SCOPE_PROJECT,
  HISTORY_RETENTION_DAYS,
  PASS_CARD_BUDGET,
  PASS_INTERVAL_MS,
  RESIDUE_SELECTION_CHARS,
  RESIDUE_SELECTION_LIMIT,
  RESIDUE_WINDOW_MS,
  RETRY_DELAY_MS,
  SCHEDULER_INTERVAL_MS,
  SYNTHESIS_CARD_BUDGET,
  SYNTHESIS_WINDOW_DAYS,
  cardEvidence,
  checkScopedRead,
  cardExpiresAt,
  type CardIdentity,
  type CardRow,
  type EnvelopeRow,
  type PassOutcome,
  type PassStatus,
  type RejectedProposal,
  type ResidueRow,
} from './tiddle.model.js';

export class TiddleService {
  readonly scheduler: TiddleScheduler;
  private readonly deps: TiddleDeps;

  constructor(db: Db, clock: Clock, faults: FaultInjector, agents: AgentsService, proposer: Proposer, logger: Logger, proposerTimeoutMs: number) {
    this.deps = { db, clock, faults, agents, proposer, logger, proposerTimeoutMs };
    this.scheduler = new TiddleScheduler(() => this.runDuePasses(), logger);
  }

  /** Replaces the proposer (tests of the service itself; the server uses the configured one). */
  useProposer(proposer: Proposer) {
    this.deps.proposer = proposer;
  }

  appendResidue(viewer: Viewer | null, input: Parameters<typeof appendResidue>[2]) {
    return appendResidue(this.deps, viewer, input);
  }

  listResidue(viewer: Viewer | null, agentId: string, project: string, limit: number) {
    return listResidue(this.deps, viewer, agentId, project, limit);
  }

  listHistory(viewer: Viewer | null, agentId: string, requestedProject: string | null, page: Parameters<typeof listHistory>[4]) {
    return listHistory(this.deps, viewer, agentId, requestedProject, page);
  }

  getEntry(viewer: Viewer | null, agentId: string, kind: 'residue' | 'history', id: string) {
    return getEntry(this.deps, viewer, agentId, kind, id);
  }

  getCard(viewer: Viewer | null, agentId: string, project: string, cardId: string) {
    return getCard(this.deps, viewer, agentId, project, cardId);
  }

  cardPagesForAgents(keys: Parameters<typeof cardPagesForAgents>[1], project: string, limit: number) {
    return cardPagesForAgents(this.deps, keys, project, limit);
  }

  statusForAgents(agentIds: readonly string[], project: string | null) {
    return statusForAgents(this.deps, agentIds, project);
  }

  listCards(viewer: Viewer | null, agentId: string, project: string, page: Parameters<typeof listCards>[4]) {
    return listCards(this.deps, viewer, agentId, project, page);
  }

  search(viewer: Viewer | null, input: Parameters<typeof search>[2]) {
    return search(this.deps, viewer, input);
  }

  readTtlDays(db: DbOrTx, agentId: string) {
    return readTtlDays(db, agentId);
  }

  setCardTtl(viewer: Viewer | null, input: { agentId: string; days: number }) {
    return setCardTtl(this.deps, viewer, input);
  }

  status(viewer: Viewer | null, agentId: string) {
    return status(this.deps, viewer, agentId);
  }

  runDuePasses(maxScopes?: number) {
    return runDuePasses(this.deps, maxScopes);
  }

  runPassNow(viewer: Viewer | null, input: { agentId: string; project?: string | null }) {
    return runPassNow(this.deps, viewer, input);
  }

  /** Retention: cards expired before `cutoff` (marked and announced first). */
  sweepExpiredCards(cutoff: Date) {
    return sweepExpiredCards(this.deps, cutoff);
  }

  /** Retention: history older than 180 days and residue older than 24 hours, at `now`. */
  sweepHistory(now: Date) {
    return sweepHistory(this.deps, now);
  }

  sweepResidue(now: Date) {
    return sweepResidue(this.deps, now);
  }
}
