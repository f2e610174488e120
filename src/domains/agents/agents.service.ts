/**
 * Agents and their six profile documents. Every change is revision-checked in one statement,
 * keeps a revision row with its actor, and appends an agent event in the same transaction.
 */
import { and, asc, desc, eq, gt, inArray, lt, or, sql } from 'drizzle-orm';
import type { Db, DbOrTx } from '../../db/database.js';
import { preparedSelect } from '../../db/prepared-select.js';
import type { Clock } from '../../lib/clock.js';
import { AlreadyExistsError, NotFoundError, RevisionConflictError, ValidationError } from '../../lib/errors.js';
import type { FaultInjector } from '../../lib/faults.js';
import { newId } from '../../lib/ids.js';
import { charLength } from '../../lib/text.js';
import { assertCleanText } from '../../lib/text-policy.js';
import { actorOf, assertAgentAccess, requireOperator, requireViewer, type Actor, type Viewer } from '../../auth/viewer.js';
import { appendEvent } from '../../events/events.service.js';
import { AgentCountsReader } from './agents.counts.js';
import {
  agentProfileDocuments,
  agentProfileRevisions,
  agents,
  preferenceLearningState,
  preferenceSignals,
  profileAuditLog,
  PROFILE_CONTENT_LIMIT,
  PROFILE_KINDS,
  type PreferenceSignalStatus,
  type ProfileKind,
} from './agents.sql.js';

export type AgentRow = typeof agents.$inferSelect;
export type ProfileDocumentRow = typeof agentProfileDocuments.$inferSelect;
export type ProfileRevisionRow = typeof agentProfileRevisions.$inferSelect;
export type PreferenceLearningStateRow = typeof preferenceLearningState.$inferSelect;
export type ProfileAuditRow = typeof profileAuditLog.$inferSelect;
export type PreferenceSignalRow = typeof preferenceSignals.$inferSelect;

/** Rows strictly after a (created_at, id) keyset position of a newest-first list. */
const before = (table: typeof profileAuditLog, after: { createdAt: Date; id: string }) =>
  or(lt(table.createdAt, after.createdAt), and(eq(table.createdAt, after.createdAt), lt(table.id, after.id)));

const AGENT_ID_PATTERN = /^[a-z0-9][a-z0-9_-]{0,62}$/;

/** Each kind's place in an agent's profile (the order of PROFILE_KINDS). */
const KIND_SLOT = new Map<string, number>(PROFILE_KINDS.map((kind, index) => [kind, index]));

export const profileReference = (agentId: string, kind: string) => `postgres:agent_profile_documents/${agentId}/${kind}`;

export interface DocumentInput {
  kind: ProfileKind;
  content: string;
  expectedRevision?: number | null;
}

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
        .where(eq(agents.id, sql.placeholder('id'))),
    ),
    documentsOf: preparedSelect(
      db,
      'burrow_agent_documents_of',
      db
        .select()
        .from(agentProfileDocuments)
        .where(sql`${agentProfileDocuments.agentId} = ANY(${sql.placeholder('ids')}::text[])`),
    ),
    firstPage: preparedSelect(db, 'burrow_agents_first_page', db.select().from(agents).orderBy(desc(agents.createdAt), desc(agents.id)).limit(sql.placeholder('limit'))),
    nextPage: preparedSelect(
      db,
      'burrow_agents_next_page',
      db
        .select()
        .from(agents)
        .where(or(lt(agents.createdAt, sql.placeholder('createdAt')), and(eq(agents.createdAt, sql.placeholder('createdAt')), lt(agents.id, sql.placeholder('id')))))
        .orderBy(desc(agents.createdAt), desc(agents.id))
        .limit(sql.placeholder('limit')),
    ),
  };
}

export class AgentsService {
  private readonly reads: ReturnType<typeof preparedReads>;
  /** The overview counts of Agent.counts (batched over agents). */
  readonly counts: AgentCountsReader;

  constructor(
    private readonly db: Db,
    private readonly clock: Clock,
    private readonly faults: FaultInjector,
  ) {
    this.reads = preparedReads(db);
    this.counts = new AgentCountsReader(db, clock);
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
    const [row] = await this.db.select({ count: sql<number>`count(*)::int` }).from(agents);
    return row.count;
  }

  async agentsByIds(ids: readonly string[]): Promise<AgentRow[]> {
    return ids.length === 0
      ? []
      : this.db
          .select()
          .from(agents)
          .where(inArray(agents.id, [...ids]));
  }

  /**
   * Newest first, keyset-paginated on (created_at, id). An agent token sees only its own agent:
   * the list is the operator's cross-agent view.
   */
  async listAgents(viewer: Viewer | null, page: { limit: number; after: { createdAt: Date; id: string } | null }): Promise<AgentRow[]> {
    const v = requireViewer(viewer);
    if (v.principal === 'OPERATOR') {
      return page.after
        ? this.reads.nextPage.execute({ createdAt: page.after.createdAt, id: page.after.id, limit: page.limit })
        : this.reads.firstPage.execute({ limit: page.limit });
    }
    const conditions = [];
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

  /** One statement for any number of agents (the profile DataLoader's batch). */
  async documentsForAgents(agentIds: readonly string[]): Promise<ProfileDocumentRow[][]> {
    const rows = agentIds.length ? await this.reads.documentsOf.execute({ ids: [...agentIds] }) : [];
    // One pass over the rows (a page of 50 agents brings 300): each row goes straight to its
    // kind's slot of its agent's profile, so nothing is sorted (a sort per agent allocated more
    // than the grouping). A kind an agent lacks leaves a hole, which is closed up.
    const byAgent = new Map<string, (ProfileDocumentRow | undefined)[]>(agentIds.map((id) => [id, new Array(PROFILE_KINDS.length).fill(undefined)]));
    for (const row of rows) {
      const slots = byAgent.get(row.agentId);
      if (slots) slots[KIND_SLOT.get(row.kind)!] = row;
    }
    return agentIds.map((id) => {
      const slots = byAgent.get(id)!;
      return (slots.includes(undefined) ? slots.filter((row) => row !== undefined) : slots) as ProfileDocumentRow[];
    });
  }

  async getDocument(viewer: Viewer | null, agentId: string, kind: ProfileKind): Promise<ProfileDocumentRow | null> {
    assertAgentAccess(viewer, agentId);
    const [row] = await this.db
      .select()
      .from(agentProfileDocuments)
      .where(and(eq(agentProfileDocuments.agentId, agentId), eq(agentProfileDocuments.kind, kind)));
    return row ?? null;
  }

  /** Newest first; `beforeRevision` continues a page (revision numbers are dense from 1). */
  async revisions(agentId: string, kind: string, limit: number, beforeRevision: number | null = null): Promise<ProfileRevisionRow[]> {
    return this.db
      .select()
      .from(agentProfileRevisions)
      .where(
        and(
          eq(agentProfileRevisions.agentId, agentId),
          eq(agentProfileRevisions.kind, kind),
          beforeRevision != null ? lt(agentProfileRevisions.revision, beforeRevision) : undefined,
        ),
      )
      .orderBy(desc(agentProfileRevisions.revision))
      .limit(limit);
  }

  async updateProfileDocument(viewer: Viewer | null, input: { agentId: string; kind: ProfileKind; content: string; expectedRevision: number }): Promise<ProfileDocumentRow> {
    const v = assertAgentAccess(viewer, input.agentId);
    validateContent(input.content);
    validateRevision(input.expectedRevision);
    return this.db.transaction((tx) => this.writeDocument(tx, input.agentId, { ...input }, actorOf(v), 'updated'));
  }

  /** Replaces all six documents atomically: every kind exactly once, or nothing changes. */
  async replaceProfile(viewer: Viewer | null, input: { agentId: string; documents: DocumentInput[] }): Promise<ProfileDocumentRow[]> {
    const v = assertAgentAccess(viewer, input.agentId);
    const seen = new Set<string>();
    for (const doc of input.documents) {
      if (seen.has(doc.kind)) throw new ValidationError('documents', `kind ${doc.kind} appears more than once; replaceProfile needs each of the six kinds exactly once`, 6);
      seen.add(doc.kind);
    }
    const missing = PROFILE_KINDS.filter((kind) => !seen.has(kind));
    if (missing.length > 0 || input.documents.length !== PROFILE_KINDS.length) {
      throw new ValidationError('documents', `replaceProfile needs all six kinds exactly once; missing: ${missing.join(', ') || 'none'}`, 6);
    }
    input.documents.forEach((doc) => {
      validateContent(doc.content, `documents.${doc.kind}.content`);
      if (doc.expectedRevision != null) validateRevision(doc.expectedRevision);
    });
    return this.db.transaction(async (tx) => {
      const written: ProfileDocumentRow[] = [];
      for (const kind of PROFILE_KINDS) {
        const doc = input.documents.find((d) => d.kind === kind)!;
        written.push(await this.writeDocument(tx, input.agentId, doc, actorOf(v), 'replaced'));
      }
      return written;
    });
  }

  /**
   * An automatic PREFERENCES change (learned preference). The document, the learning state and
   * the audit record commit in one transaction: a failure in any part leaves all three unchanged.
   */
  async applyPreferenceLearning(
    viewer: Viewer | null,
    input: { agentId: string; content: string; expectedRevision: number; reason: string; signalIds?: string[] | null },
  ): Promise<ProfileDocumentRow> {
    const v = assertAgentAccess(viewer, input.agentId);
    validateContent(input.content);
    validateRevision(input.expectedRevision);
    const reason = input.reason.trim();
    assertCleanText('reason', reason, 2000);
    if (reason.length < 1 || charLength(reason) > 2000) throw new ValidationError('reason', 'reason must be 1 to 2,000 characters', 2000);
    const actor = actorOf(v);
    return this.db.transaction(async (tx) => {
      const document = await this.writeDocument(
        tx,
        input.agentId,
        { kind: 'PREFERENCES', content: input.content, expectedRevision: input.expectedRevision },
        actor,
        'preference_learning',
      );
      this.faults('preferences.after_document');
      const now = this.clock.now();
      await tx
        .insert(preferenceLearningState)
        .values({ agentId: input.agentId, appliedCount: 1, lastAppliedRevision: document.revision, lastAppliedAt: now, updatedAt: now })
        .onConflictDoUpdate({
          target: preferenceLearningState.agentId,
          set: {
            appliedCount: sql`${preferenceLearningState.appliedCount} + 1`,
            lastAppliedRevision: document.revision,
            lastAppliedAt: now,
            updatedAt: now,
          },
        });
      if (input.signalIds?.length) {
        const wanted = [...new Set(input.signalIds)];
        const applied = await tx
          .update(preferenceSignals)
          .set({ status: 'applied' })
          .where(and(eq(preferenceSignals.agentId, input.agentId), inArray(preferenceSignals.id, wanted), eq(preferenceSignals.status, 'pending')))
          .returning({ id: preferenceSignals.id });
        if (applied.length !== wanted.length) {
          const found = new Set(applied.map((row) => row.id));
          const missing = wanted.filter((id) => !found.has(id));
          // Throwing rolls back the document change made above: all or nothing.
          throw new ValidationError('signalIds', `not pending preference signals of this agent: ${missing.join(', ')}`);
        }
      }
      this.faults('preferences.after_learning_state');
      await tx.insert(profileAuditLog).values({
        agentId: input.agentId,
        id: newId(),
        kind: 'PREFERENCES',
        action: 'preference_learning',
        fromRevision: input.expectedRevision,
        toRevision: document.revision,
        actorKind: actor.kind,
        actorId: actor.id,
        detail: { reason, signalIds: input.signalIds ?? [] },
        createdAt: now,
      });
      this.faults('preferences.after_audit');
      return document;
    });
  }

  async learningState(agentId: string): Promise<PreferenceLearningStateRow | null> {
    const [state] = await this.db.select().from(preferenceLearningState).where(eq(preferenceLearningState.agentId, agentId));
    return state ?? null;
  }

  /** The audit of automatic profile changes, newest first, keyset-paged on (created_at, id). */
  async auditPage(agentId: string, page: { limit: number; after: { createdAt: Date; id: string } | null }): Promise<ProfileAuditRow[]> {
    return this.db
      .select()
      .from(profileAuditLog)
      .where(and(eq(profileAuditLog.agentId, agentId), page.after ? before(profileAuditLog, page.after) : undefined))
      .orderBy(desc(profileAuditLog.createdAt), desc(profileAuditLog.id))
      .limit(page.limit);
  }

  /** One revision, for node(id): authorized like profileDocument. */
  async getRevision(viewer: Viewer | null, agentId: string, kind: string, revision: number): Promise<ProfileRevisionRow | null> {
    assertAgentAccess(viewer, agentId);
    const [row] = await this.db
      .select()
      .from(agentProfileRevisions)
      .where(and(eq(agentProfileRevisions.agentId, agentId), eq(agentProfileRevisions.kind, kind), eq(agentProfileRevisions.revision, revision)));
    return row ?? null;
  }

  /** One audit entry, for node(id): authorized like preferenceLearning. */
  async getAuditEntry(viewer: Viewer | null, agentId: string, id: string): Promise<ProfileAuditRow | null> {
    assertAgentAccess(viewer, agentId);
    const [row] = await this.db
      .select()
      .from(profileAuditLog)
      .where(and(eq(profileAuditLog.agentId, agentId), eq(profileAuditLog.id, id)));
    return row ?? null;
  }

  async countAudit(agentId: string): Promise<number> {
    const [row] = await this.db
      .select({ count: sql<number>`count(*)::int` })
      .from(profileAuditLog)
      .where(eq(profileAuditLog.agentId, agentId));
    return row.count;
  }

  /** Preference signals in the order they were recorded (a queue), keyset-paged on (created_at, id), optionally by status. */
  async signalsPage(
    agentId: string,
    page: { limit: number; after: { createdAt: Date; id: string } | null; statuses?: readonly PreferenceSignalStatus[] | null },
  ): Promise<PreferenceSignalRow[]> {
    return this.db
      .select()
      .from(preferenceSignals)
      .where(
        and(
          eq(preferenceSignals.agentId, agentId),
          page.statuses?.length ? inArray(preferenceSignals.status, [...page.statuses]) : undefined,
          page.after
            ? or(gt(preferenceSignals.createdAt, page.after.createdAt), and(eq(preferenceSignals.createdAt, page.after.createdAt), gt(preferenceSignals.id, page.after.id)))
            : undefined,
        ),
      )
      .orderBy(asc(preferenceSignals.createdAt), asc(preferenceSignals.id))
      .limit(page.limit);
  }

  /** One signal, for node(id): authorized like preferenceLearning. */
  async getSignal(viewer: Viewer | null, agentId: string, signalId: string): Promise<PreferenceSignalRow | null> {
    assertAgentAccess(viewer, agentId);
    const [row] = await this.db
      .select()
      .from(preferenceSignals)
      .where(and(eq(preferenceSignals.agentId, agentId), eq(preferenceSignals.id, signalId)));
    return row ?? null;
  }

  /** Records a preference signal for the PREFERENCES learning path (never a profile rewrite). */
  async recordPreferenceSignal(tx: DbOrTx, signal: { agentId: string; source: string; project: string | null; statement: string; evidence: unknown }): Promise<string> {
    const id = newId();
    await tx.insert(preferenceSignals).values({
      agentId: signal.agentId,
      id,
      source: signal.source,
      project: signal.project,
      statement: signal.statement.slice(0, 2000),
      evidence: signal.evidence ?? [],
      createdAt: this.clock.now(),
    });
    return id;
  }

  /**
   * Configuration import: writes the documents whose content differs from the stored one (each
   * a new revision with `reason`), leaves equal ones untouched, so a repeated import changes
   * nothing. Returns how many were written.
   */
  async writeChangedDocuments(tx: DbOrTx, agentId: string, documents: { kind: ProfileKind; content: string }[], actor: Actor, reason: string): Promise<number> {
    const current = await tx.select().from(agentProfileDocuments).where(eq(agentProfileDocuments.agentId, agentId));
    let written = 0;
    for (const doc of documents) {
      validateContent(doc.content);
      if (current.find((c) => c.kind === doc.kind)?.content === doc.content) continue;
      await this.writeDocument(tx, agentId, { kind: doc.kind, content: doc.content }, actor, reason);
      written++;
    }
    return written;
  }

  /** The revision check is one statement; only when it matches nothing do we read, to explain why. */
  private async writeDocument(tx: DbOrTx, agentId: string, doc: DocumentInput, actor: Actor, reason: string): Promise<ProfileDocumentRow> {
    const now = this.clock.now();
    const revisionMatches = doc.expectedRevision != null ? eq(agentProfileDocuments.revision, doc.expectedRevision) : undefined;
    const [updated] = await tx
      .update(agentProfileDocuments)
      .set({
        content: doc.content,
        revision: sql`${agentProfileDocuments.revision} + 1`,
        updatedAt: now,
        updatedByKind: actor.kind,
        updatedById: actor.id,
      })
      .where(and(eq(agentProfileDocuments.agentId, agentId), eq(agentProfileDocuments.kind, doc.kind), revisionMatches))
      .returning();
    if (!updated) {
      const [current] = await tx
        .select()
        .from(agentProfileDocuments)
        .where(and(eq(agentProfileDocuments.agentId, agentId), eq(agentProfileDocuments.kind, doc.kind)));
      if (!current) throw new NotFoundError('ProfileDocument', `${agentId}/${doc.kind}`);
      throw new RevisionConflictError('ProfileDocument', `${agentId}/${doc.kind}`, doc.expectedRevision!, current.revision, current.content, {
        kind: current.kind,
        content: current.content,
        revision: current.revision,
        updatedAt: current.updatedAt.toISOString(),
      });
    }
    await tx.insert(agentProfileRevisions).values({
      agentId,
      kind: doc.kind,
      revision: updated.revision,
      content: doc.content,
      actorKind: actor.kind,
      actorId: actor.id,
      reason,
      createdAt: now,
    });
    await appendEvent(tx, this.clock, {
      agentId,
      stream: 'profile',
      type: 'profile.updated',
      subjectId: profileReference(agentId, doc.kind),
      payload: { kind: doc.kind, revision: updated.revision, reason, actor: actor.kind },
    });
    return updated;
  }
}

function validateAgentId(id: string) {
  if (!AGENT_ID_PATTERN.test(id)) {
    throw new ValidationError('agentId', `agent id "${id}" is not 1 to 63 characters of a-z, 0-9, "_" or "-" starting with a letter or digit`, 63);
  }
}

function validateContent(content: string, field = 'content') {
  assertCleanText(field, content, PROFILE_CONTENT_LIMIT);
  const length = charLength(content);
  if (length > PROFILE_CONTENT_LIMIT) {
    throw new ValidationError(field, `profile documents are bounded to ${PROFILE_CONTENT_LIMIT} characters (got ${length})`, PROFILE_CONTENT_LIMIT);
  }
}

function validateRevision(revision: number) {
  if (!Number.isInteger(revision) || revision < 1) throw new ValidationError('expectedRevision', 'expectedRevision must be a positive integer', 1);
}
