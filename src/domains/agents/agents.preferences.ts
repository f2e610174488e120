/**
 * The PREFERENCES learning path: automatic PREFERENCES changes with their learning state and
 * audit (committed together with the document), and the preference signals waiting for it.
 */
import { and, asc, desc, eq, gt, inArray, lt, or, sql } from 'drizzle-orm';
import type { Db, DbOrTx } from '../../db/database.js';
import type { Clock } from '../../lib/clock.js';
import { ValidationError } from '../../lib/errors.js';
import type { FaultInjector } from '../../lib/faults.js';
import { newId } from '../../lib/ids.js';
import { charLength } from '../../lib/text.js';
import { assertCleanText } from '../../lib/text-policy.js';
import { actorOf, assertAgentAccess, type Viewer } from '../../auth/viewer.js';
import type { ProfileDocuments } from './agents.documents.js';
import { preferenceLearningState, preferenceSignals, profileAuditLog, type PreferenceSignalStatus } from './agents.sql.js';
import type { PreferenceLearningStateRow, PreferenceSignalRow, ProfileAuditRow, ProfileDocumentRow } from './agents.types.js';
import { validateContent, validateRevision } from './agents.validation.js';

/** Rows strictly after a (created_at, id) keyset position of a newest-first list. */
const before = (table: typeof profileAuditLog, after: { createdAt: Date; id: string }) =>
  or(lt(table.createdAt, after.createdAt), and(eq(table.createdAt, after.createdAt), lt(table.id, after.id)));

export class PreferenceLearning {
  constructor(
    private readonly db: Db,
    private readonly clock: Clock,
    private readonly faults: FaultInjector,
    private readonly documents: ProfileDocuments,
  ) {}

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
      const document = await this.documents.writeDocument(
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
}
