/**
 * Agents: creation, reads and the operator's list. Each agent has six profile documents
 * (agents.documents.ts), a PREFERENCES learning path (agents.preferences.ts) and overview counts
 * (agents.counts.ts), reached through this service's fields of those names.
 */
import { and, desc, eq, inArray, isNull, lt, or, sql, type SQL } from 'drizzle-orm';
import type { Db, DbOrTx, RoutedReader, RoutedReads } from '../../db/database.js';
import { primaryReads } from '../../db/replicas.js';
import { preparedSelect } from '../../db/prepared-select.js';
import type { Clock } from '../../lib/clock.js';
import { AlreadyExistsError, NotFoundError, ValidationError } from '../../lib/errors.js';
import type { FaultInjector } from '../../lib/faults.js';
import { newId } from '../../lib/ids.js';
import { charLength } from '../../lib/text.js';
import { assertCleanText } from '../../lib/text-policy.js';
import { actorOf, assertAgentAccess, requireOperator, requireViewer, type Actor, type Viewer } from '../../auth/viewer.js';
import { appendEvent } from '../../events/events.service.js';
import { AgentCountsReader } from './agents.counts.js';
import { ProfileDocuments } from './agents.documents.js';
import { PreferenceLearning } from './agents.preferences.js';
import { agentProfileDocuments, agentProfileRevisions, agents, PROFILE_KINDS } from './agents.sql.js';
import type { AgentRow } from './agents.types.js';
import { validateAgentId } from './agents.validation.js';

/**
 * The one condition that makes an agent visible: an agent whose erasure started reads as absent
 * everywhere (agent-erasure.ts), while its stores are removed in batches.
 */
const notErasing = isNull(agents.erasureStartedAt);

/**
 * The hot reads as prepared statements: Drizzle builds their SQL once instead of per call, and
 * each pooled connection parses and plans them once (named statements) instead of per request.
 */
function preparedReads(db: Db) {
  return {
    agentById: preparedSelect(
      db,
      'burrow_agent_by_id',
      db
        .select()
        .from(agents)
        .where(and(eq(agents.id, sql.placeholder('id')), notErasing)),
    ),
    firstPage: preparedSelect(
      db,
      'burrow_agents_first_page',
      db.select().from(agents).where(notErasing).orderBy(desc(agents.createdAt), desc(agents.id)).limit(sql.placeholder('limit')),
    ),
    nextPage: preparedSelect(
      db,
      'burrow_agents_next_page',
      db
        .select()
        .from(agents)
        .where(
          and(notErasing, or(lt(agents.createdAt, sql.placeholder('createdAt')), and(eq(agents.createdAt, sql.placeholder('createdAt')), lt(agents.id, sql.placeholder('id'))))),
        )
        .orderBy(desc(agents.createdAt), desc(agents.id))
        .limit(sql.placeholder('limit')),
    ),
  };
}

export class AgentsService {
  private readonly reads: ReturnType<typeof preparedReads>;
  /** The operator's list may lag: on a read replica when one is configured (db/replicas.ts). */
  private readonly listReads: RoutedReader<ReturnType<typeof preparedReads>>;
  /** The overview counts of Agent.counts (batched over agents). */
  readonly counts: AgentCountsReader;
  /** The six profile documents and their revisions. */
  readonly documents: ProfileDocuments;
  /** The PREFERENCES learning path: automatic changes, their audit and the preference signals. */
  readonly preferences: PreferenceLearning;

  constructor(
    private readonly db: Db,
    private readonly clock: Clock,
    faults: FaultInjector,
    reads: RoutedReads = primaryReads(db),
  ) {
    this.reads = preparedReads(db);
    this.listReads = reads.per(preparedReads);
    this.counts = new AgentCountsReader(db, clock);
    this.documents = new ProfileDocuments(db, clock);
    this.preferences = new PreferenceLearning(db, clock, faults, this.documents);
  }

  /** Creates an agent with its six empty documents at revision 1. Operators only. */
  async createAgent(viewer: Viewer | null, input: { agentId?: string | null; name: string }): Promise<AgentRow> {
    const operator = requireOperator(viewer);
    const id = input.agentId?.trim() || `agent-${newId().slice(0, 8)}`;
    validateAgentId(id);
    const name = input.name.trim();
    assertCleanText('name', name, 200);
    if (name.length < 1 || charLength(name) > 200) throw new ValidationError('name', 'agent name must be 1 to 200 characters', 200);
    return this.insertAgent(this.db, { id, name }, actorOf(operator));
  }

  /** Returns the agent, creating it (with its documents) when absent. Used by importers. */
  async ensureAgent(tx: DbOrTx, id: string, name: string, actor: Actor): Promise<AgentRow> {
    validateAgentId(id);
    const [existing] = await tx.select().from(agents).where(eq(agents.id, id));
    return existing ?? this.insertAgent(tx, { id, name }, actor);
  }

  private async insertAgent(db: DbOrTx, input: { id: string; name: string }, actor: Actor): Promise<AgentRow> {
    const now = this.clock.now();
    return db.transaction(async (tx) => {
      const inserted = await tx.insert(agents).values({ id: input.id, name: input.name, createdAt: now, createdBy: actor.id }).onConflictDoNothing().returning();
      if (inserted.length === 0) throw new AlreadyExistsError('Agent', input.id);
      await tx
        .insert(agentProfileDocuments)
        .values(PROFILE_KINDS.map((kind) => ({ agentId: input.id, kind, content: '', revision: 1, updatedAt: now, updatedByKind: actor.kind, updatedById: actor.id })));
      await tx
        .insert(agentProfileRevisions)
        .values(PROFILE_KINDS.map((kind) => ({ agentId: input.id, kind, revision: 1, content: '', actorKind: actor.kind, actorId: actor.id, reason: 'created', createdAt: now })));
      await appendEvent(tx, this.clock, {
        agentId: input.id,
        stream: 'profile',
        type: 'agent.created',
        subjectId: input.id,
        payload: { name: input.name },
      });
      return inserted[0];
    });
  }

  async getAgent(viewer: Viewer | null, id: string): Promise<AgentRow | null> {
    assertAgentAccess(viewer, id);
    const [row] = await this.reads.agentById.execute({ id });
    return row ?? null;
  }

  /** For subscriptions: an unknown agent is NotFound at once rather than a stream that never speaks. */
  async requireAgent(viewer: Viewer | null, id: string): Promise<AgentRow> {
    const agent = await this.getAgent(viewer, id);
    if (!agent) throw new NotFoundError('Agent', id);
    return agent;
  }

  /** For DataLoader: one row per id in order; a missing agent is a NotFound in its place. */
  async agentsInOrder(ids: readonly string[]): Promise<(AgentRow | NotFoundError)[]> {
    const rows = await this.agentsByIds(ids);
    const byId = new Map(rows.map((row) => [row.id, row]));
    return ids.map((id) => byId.get(id) ?? new NotFoundError('Agent', id));
  }

  /** How many agents the token sees: every agent for an operator, its own for an agent. */
  async countAgents(viewer: Viewer | null): Promise<number> {
    const v = requireViewer(viewer);
    if (v.principal === 'AGENT') return 1;
    const [row] = await this.db
      .select({ count: sql<number>`count(*)::int` })
      .from(agents)
      .where(notErasing);
    return row.count;
  }

  async agentsByIds(ids: readonly string[]): Promise<AgentRow[]> {
    return ids.length === 0
      ? []
      : this.db
          .select()
          .from(agents)
          .where(and(inArray(agents.id, [...ids]), notErasing));
  }

  /**
   * Newest first, keyset-paginated on (created_at, id). An agent token sees only its own agent:
   * the list is the operator's cross-agent view.
   */
  async listAgents(viewer: Viewer | null, page: { limit: number; after: { createdAt: Date; id: string } | null }): Promise<AgentRow[]> {
    const v = requireViewer(viewer);
    if (v.principal === 'OPERATOR') {
      return this.listReads.run((on) =>
        page.after ? on.nextPage.execute({ createdAt: page.after.createdAt, id: page.after.id, limit: page.limit }) : on.firstPage.execute({ limit: page.limit }),
      );
    }
    const conditions: (SQL | undefined)[] = [notErasing];
    if (v.principal === 'AGENT') conditions.push(eq(agents.id, v.agentId!));
    if (page.after) {
      conditions.push(or(lt(agents.createdAt, page.after.createdAt), and(eq(agents.createdAt, page.after.createdAt), lt(agents.id, page.after.id))));
    }
    return this.db
      .select()
      .from(agents)
      .where(and(...conditions))
      .orderBy(desc(agents.createdAt), desc(agents.id))
      .limit(page.limit);
  }
}
