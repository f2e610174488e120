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
 *   - continuity runs: every run, by its current state (runs are never removed);
 *   - handoffs: not yet expired (what sessionReadHandoff returns);
 *   - conversation sessions: every session, archived ones included, and their originals (the
 *     session row's counters, active and archived, kept under the session lock).
 * `project` narrows working records and rolling cards to one continuity scope (an agent token's
 * runtime scope); null counts every scope (operators).
 */
import { and, eq, inArray, isNull, or, gt, sql, type SQL } from 'drizzle-orm';
import type { Db } from '../../db/database.js';
import type { Clock } from '../../lib/clock.js';
import { daysBeforeSql } from '../../lib/expiry.js';
import { brainMemories } from '../brains/brains.sql.js';
import { workingRecords } from '../working-memory/working-memory.sql.js';
import { CARD_TTL_DEFAULT_DAYS, tiddleCards, tiddleSettings } from '../tiddle/tiddle.sql.js';
import { sessionHandoffs } from '../handoffs/handoffs.sql.js';
import { conversationSessions } from '../conversations/conversations.sql.js';
import { CONTINUITY_RUN_STATES, continuityState, type ContinuityRunState } from '../continuity/continuity.sql.js';

export interface AgentCounts {
  brains: number;
  workingRecords: number;
  rollingCards: number;
  runsByState: { state: ContinuityRunState; count: number }[];
}

/** One continuity scope's live records (AgentCounts.scopes). */
export interface ScopeCounts {
  project: string;
  workingRecords: number;
  handoffs: number;
  rollingCards: number;
}

/** Sessions (archived included) and their originals, active and archived. */
export interface ConversationCounts {
  sessions: number;
  originals: number;
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

  /** working-memory.conditions.ts `visible`: pinned, or not yet expired. */
  private liveWorkingRecord(): SQL | undefined {
    return or(eq(workingRecords.pinned, true), gt(workingRecords.expiresAt, this.clock.now()));
  }

  /** tiddle.model.ts `liveCard`: not marked expired, refreshed within the agent's TTL (the query joins tiddle_settings). */
  private liveCard(): SQL | undefined {
    const ttlDays = sql`COALESCE(${tiddleSettings.cardTtlDays}, ${CARD_TTL_DEFAULT_DAYS})`;
    return and(isNull(tiddleCards.expiredAt), sql`${tiddleCards.refreshedAt} > ${daysBeforeSql(this.clock.now(), ttlDays)}`);
  }

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
      .where(and(inArray(workingRecords.agentId, [...agentIds]), project !== null ? eq(workingRecords.project, project) : undefined, this.liveWorkingRecord()))
      .groupBy(workingRecords.agentId);
    return perAgent(agentIds, rows);
  }

  async liveRollingCards(agentIds: readonly string[], project: string | null): Promise<number[]> {
    if (agentIds.length === 0) return [];
    const rows = await this.db
      .select({ agentId: tiddleCards.agentId, count: sql<number>`count(*)::int` })
      .from(tiddleCards)
      .leftJoin(tiddleSettings, eq(tiddleSettings.agentId, tiddleCards.agentId))
      .where(and(inArray(tiddleCards.agentId, [...agentIds]), project !== null ? eq(tiddleCards.project, project) : undefined, this.liveCard()))
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

  /**
   * Per continuity scope, every scope where the agent has a live working record, an unexpired
   * handoff or a live rolling card (`project` narrows it to one), sorted by project: three
   * grouped statements for every agent of a response.
   */
  async byScope(agentIds: readonly string[], project: string | null): Promise<ScopeCounts[][]> {
    if (agentIds.length === 0) return [];
    const ids = [...agentIds];
    const count = sql<number>`count(*)::int`;
    const [records, handoffs, cards] = await Promise.all([
      this.db
        .select({ agentId: workingRecords.agentId, project: workingRecords.project, count })
        .from(workingRecords)
        .where(and(inArray(workingRecords.agentId, ids), project !== null ? eq(workingRecords.project, project) : undefined, this.liveWorkingRecord()))
        .groupBy(workingRecords.agentId, workingRecords.project),
      this.db
        .select({ agentId: sessionHandoffs.agentId, project: sessionHandoffs.project, count })
        .from(sessionHandoffs)
        .where(and(inArray(sessionHandoffs.agentId, ids), project !== null ? eq(sessionHandoffs.project, project) : undefined, gt(sessionHandoffs.expiresAt, this.clock.now())))
        .groupBy(sessionHandoffs.agentId, sessionHandoffs.project),
      this.db
        .select({ agentId: tiddleCards.agentId, project: tiddleCards.project, count })
        .from(tiddleCards)
        .leftJoin(tiddleSettings, eq(tiddleSettings.agentId, tiddleCards.agentId))
        .where(and(inArray(tiddleCards.agentId, ids), project !== null ? eq(tiddleCards.project, project) : undefined, this.liveCard()))
        .groupBy(tiddleCards.agentId, tiddleCards.project),
    ]);
    const byAgent = new Map<string, Map<string, ScopeCounts>>(ids.map((id) => [id, new Map()]));
    const add = (rows: { agentId: string; project: string; count: number }[], key: 'workingRecords' | 'handoffs' | 'rollingCards') => {
      for (const row of rows) {
        const scopes = byAgent.get(row.agentId)!;
        const scope = scopes.get(row.project) ?? { project: row.project, workingRecords: 0, handoffs: 0, rollingCards: 0 };
        scope[key] = Number(row.count);
        scopes.set(row.project, scope);
      }
    };
    add(records, 'workingRecords');
    add(handoffs, 'handoffs');
    add(cards, 'rollingCards');
    return ids.map((id) => [...byAgent.get(id)!.values()].sort((a, b) => (a.project < b.project ? -1 : a.project > b.project ? 1 : 0)));
  }

  /** Every conversation session of each agent (archived included) and the originals they hold. */
  async conversations(agentIds: readonly string[]): Promise<ConversationCounts[]> {
    if (agentIds.length === 0) return [];
    const rows = await this.db
      .select({
        agentId: conversationSessions.agentId,
        sessions: sql<number>`count(*)::int`,
        originals: sql<number>`COALESCE(sum(${conversationSessions.activeEntryCount} + ${conversationSessions.archivedEntryCount}), 0)::int`,
      })
      .from(conversationSessions)
      .where(inArray(conversationSessions.agentId, [...agentIds]))
      .groupBy(conversationSessions.agentId);
    return agentIds.map((agentId) => {
      const row = rows.find((r) => r.agentId === agentId);
      return { sessions: Number(row?.sessions ?? 0), originals: Number(row?.originals ?? 0) };
    });
  }
}
