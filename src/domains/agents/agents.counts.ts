/**
 * The overview counts of `Agent.counts`: one GROUP BY statement per kind for every agent of a
 * response, so a dashboard of 50 agents costs the same four statements as one.
 *
 * These read the other stores' tables directly rather than through their services because each
 * count must cover a whole page of agents in one statement, which no per-agent service method
 * does; "live" is each store's own definition, repeated here and pinned by test/counts.test.ts:
 *   - Brains: not tombstoned (deleted_at IS NULL), as the listing and search read them;
 *   - working records: pinned, or not yet expired (`visible` in working-memory.conditions.ts);
 *   - rolling cards: not marked expired and refreshed within the agent's persisted rolling TTL
 *     (tiddle.model.ts `liveCard`);
 *   - continuity runs: every run, by its current state (runs are never removed).
 * `project` narrows working records and rolling cards to one continuity scope (an agent token's
 * runtime scope); null counts every scope (operators).
 */
import { and, eq, inArray, isNull, or, gt, sql } from 'drizzle-orm';
import type { Db } from '../../db/database.js';
import type { Clock } from '../../lib/clock.js';
import { daysBeforeSql } from '../../lib/expiry.js';
import { brainMemories } from '../brains/brains.sql.js';
import { workingRecords } from '../working-memory/working-memory.sql.js';
import { CARD_TTL_DEFAULT_DAYS, tiddleCards, tiddleSettings } from '../tiddle/tiddle.sql.js';
import { CONTINUITY_RUN_STATES, continuityState, type ContinuityRunState } from '../continuity/continuity.sql.js';

export interface AgentCounts {
  brains: number;
  workingRecords: number;
  rollingCards: number;
  runsByState: { state: ContinuityRunState; count: number }[];
}

/** A count per agent, zero where the statement returned no row. */
const perAgent = (agentIds: readonly string[], rows: { agentId: string; count: number }[]) => {
  const byAgent = new Map(rows.map((r) => [r.agentId, Number(r.count)]));
  return agentIds.map((id) => byAgent.get(id) ?? 0);
};

export class AgentCountsReader {
  constructor(
    private readonly db: Db,
    private readonly clock: Clock,
  ) {}

  async liveBrains(agentIds: readonly string[]): Promise<number[]> {
    if (agentIds.length === 0) return [];
    const rows = await this.db
      .select({ agentId: brainMemories.agentId, count: sql<number>`count(*)::int` })
      .from(brainMemories)
      .where(and(inArray(brainMemories.agentId, [...agentIds]), isNull(brainMemories.deletedAt)))
      .groupBy(brainMemories.agentId);
    return perAgent(agentIds, rows);
  }

  async liveWorkingRecords(agentIds: readonly string[], project: string | null): Promise<number[]> {
    if (agentIds.length === 0) return [];
    const rows = await this.db
      .select({ agentId: workingRecords.agentId, count: sql<number>`count(*)::int` })
      .from(workingRecords)
      .where(
        and(
          inArray(workingRecords.agentId, [...agentIds]),
          project !== null ? eq(workingRecords.project, project) : undefined,
          or(eq(workingRecords.pinned, true), gt(workingRecords.expiresAt, this.clock.now())),
        ),
      )
      .groupBy(workingRecords.agentId);
    return perAgent(agentIds, rows);
  }

  async liveRollingCards(agentIds: readonly string[], project: string | null): Promise<number[]> {
    if (agentIds.length === 0) return [];
    const ttlDays = sql`COALESCE(${tiddleSettings.cardTtlDays}, ${CARD_TTL_DEFAULT_DAYS})`;
    const rows = await this.db
      .select({ agentId: tiddleCards.agentId, count: sql<number>`count(*)::int` })
      .from(tiddleCards)
      .leftJoin(tiddleSettings, eq(tiddleSettings.agentId, tiddleCards.agentId))
      .where(
        and(
          inArray(tiddleCards.agentId, [...agentIds]),
          project !== null ? eq(tiddleCards.project, project) : undefined,
          isNull(tiddleCards.expiredAt),
          sql`${tiddleCards.refreshedAt} > ${daysBeforeSql(this.clock.now(), ttlDays)}`,
        ),
      )
      .groupBy(tiddleCards.agentId);
    return perAgent(agentIds, rows);
  }

  /** Every state of the enum, in its order, with zero where an agent has no run in it. */
  async runsByState(agentIds: readonly string[]): Promise<AgentCounts['runsByState'][]> {
    if (agentIds.length === 0) return [];
    const rows = await this.db
      .select({ agentId: continuityState.agentId, state: continuityState.state, count: sql<number>`count(*)::int` })
      .from(continuityState)
      .where(inArray(continuityState.agentId, [...agentIds]))
      .groupBy(continuityState.agentId, continuityState.state);
    return agentIds.map((agentId) =>
      CONTINUITY_RUN_STATES.map((state) => ({
        state,
        count: Number(rows.find((r) => r.agentId === agentId && r.state === state)?.count ?? 0),
      })),
    );
  }
}
