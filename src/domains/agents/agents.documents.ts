/**
 * The six profile documents of an agent: reads, revision-checked writes and the kept revisions.
 * Every change is revision-checked in one statement, keeps a revision row with its actor, and
 * appends a profile event in the same transaction.
 */
import { and, asc, desc, eq, inArray, lt, sql } from 'drizzle-orm';
import type { Db, DbOrTx } from '../../db/database.js';
import { preparedSelect } from '../../db/prepared-select.js';
import { asOfBound } from '../../lib/as-of.js';
import type { Clock } from '../../lib/clock.js';
import { NotFoundError, RevisionConflictError, ValidationError } from '../../lib/errors.js';
import { actorOf, assertAgentAccess, type Actor, type Viewer } from '../../auth/viewer.js';
import { appendEvent } from '../../events/events.service.js';
import { agentProfileDocuments, agentProfileRevisions, PROFILE_KINDS, type ProfileKind } from './agents.sql.js';
import { profileReference, type DocumentInput, type ProfileDocumentContent, type ProfileDocumentRow, type ProfileRevisionRow } from './agents.types.js';
import { validateContent, validateRevision } from './agents.validation.js';

/**
 * Each kind's place in an agent's profile (the order of PROFILE_KINDS). A search of six, not a
 * Map: the driver's strings are new at every read, and a Map hashes each one before comparing.
 */
const kindSlot = (kind: string) => PROFILE_KINDS.indexOf(kind as ProfileKind);

export class ProfileDocuments {
  /** The profile DataLoader's batch, a prepared statement like the agent reads (see agents.service.ts). */
  private readonly documentsOf;
  /** The same batch for a read that asks only for the content (see documentsForAgents). */
  private readonly contentsOf;

  constructor(
    private readonly db: Db,
    private readonly clock: Clock,
  ) {
    this.documentsOf = preparedSelect(
      db,
      'burrow_agent_documents_of',
      db
        .select()
        .from(agentProfileDocuments)
        .where(sql`${agentProfileDocuments.agentId} = ANY(${sql.placeholder('ids')}::text[])`),
    );
    const d = agentProfileDocuments;
    this.contentsOf = preparedSelect(
      db,
      'burrow_agent_document_contents_of',
      db
        .select({ agentId: d.agentId, kind: d.kind, content: d.content, revision: d.revision })
        .from(d)
        .where(sql`${d.agentId} = ANY(${sql.placeholder('ids')}::text[])`),
    );
  }

  /** One statement for any number of agents (the profile DataLoader's batch). */
  async documentsForAgents(agentIds: readonly string[]): Promise<ProfileDocumentRow[][]>;
  /**
   * With `contentOnly`, the documents carry only agentId, kind, content and revision: a read
   * that asks for nothing else (such as the nested agents read) leaves the time and author of
   * 300 documents unread, which were a third of their columns for the driver to parse and
   * their timestamps a Date each to build.
   */
  async documentsForAgents(agentIds: readonly string[], contentOnly: true): Promise<ProfileDocumentContent[][]>;
  async documentsForAgents(agentIds: readonly string[], contentOnly = false): Promise<ProfileDocumentContent[][]> {
    const statement = contentOnly ? this.contentsOf : this.documentsOf;
    const rows: ProfileDocumentContent[] = agentIds.length ? await statement.execute({ ids: [...agentIds] }) : [];
    // One pass over the rows (a page of 50 agents brings 300): each row goes straight to its
    // kind's slot of its agent's profile, so nothing is sorted (a sort per agent allocated more
    // than the grouping). A kind an agent lacks leaves a hole, which is closed up.
    const byAgent = new Map<string, (ProfileDocumentContent | undefined)[]>(agentIds.map((id) => [id, new Array(PROFILE_KINDS.length).fill(undefined)]));
    for (const row of rows) {
      const slots = byAgent.get(row.agentId);
      if (slots) slots[kindSlot(row.kind)] = row;
    }
    return agentIds.map((id) => {
      const slots = byAgent.get(id)!;
      return (slots.includes(undefined) ? slots.filter((row) => row !== undefined) : slots) as ProfileDocumentContent[];
    });
  }

  /**
   * The profiles of many agents as of an instant, in one statement (Agent.profile(asOf:)): each
   * document at its latest revision written at or before asOf (`created_at < asOf + 1 ms`, see
   * asOfBound), in kind order. A document's revisions carry the time of each write, the same
   * instant as its updatedAt, so a time the API showed finds the revision written then. An agent
   * that did not exist yet has no documents.
   */
  async documentsForAgentsAsOf(agentIds: readonly string[], asOf: Date): Promise<ProfileDocumentRow[][]> {
    if (agentIds.length === 0) return [];
    const r = agentProfileRevisions;
    const rows = await this.db
      .selectDistinctOn([r.agentId, r.kind])
      .from(r)
      .where(and(inArray(r.agentId, [...agentIds]), lt(r.createdAt, asOfBound(asOf))))
      .orderBy(asc(r.agentId), asc(r.kind), desc(r.revision));
    const byAgent = new Map<string, ProfileDocumentRow[]>(agentIds.map((id) => [id, []]));
    for (const row of rows) byAgent.get(row.agentId)?.push(documentAsOf(row));
    return agentIds.map((id) => byAgent.get(id)!.sort((a, b) => kindSlot(a.kind) - kindSlot(b.kind)));
  }

  /** One document as of an instant (profileDocument(asOf:)): null when its agent did not exist yet. */
  async getDocumentAsOf(viewer: Viewer | null, agentId: string, kind: ProfileKind, asOf: Date): Promise<ProfileDocumentRow | null> {
    assertAgentAccess(viewer, agentId);
    const [row] = await this.db
      .select()
      .from(agentProfileRevisions)
      .where(and(eq(agentProfileRevisions.agentId, agentId), eq(agentProfileRevisions.kind, kind), lt(agentProfileRevisions.createdAt, asOfBound(asOf))))
      .orderBy(desc(agentProfileRevisions.revision))
      .limit(1);
    return row ? documentAsOf(row) : null;
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

  /** One revision, for node(id): authorized like profileDocument. */
  async getRevision(viewer: Viewer | null, agentId: string, kind: string, revision: number): Promise<ProfileRevisionRow | null> {
    assertAgentAccess(viewer, agentId);
    const [row] = await this.db
      .select()
      .from(agentProfileRevisions)
      .where(and(eq(agentProfileRevisions.agentId, agentId), eq(agentProfileRevisions.kind, kind), eq(agentProfileRevisions.revision, revision)));
    return row ?? null;
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
  async writeDocument(tx: DbOrTx, agentId: string, doc: DocumentInput, actor: Actor, reason: string): Promise<ProfileDocumentRow> {
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

/** A document as one of its revisions left it: its content, number, writer and time. */
const documentAsOf = (r: ProfileRevisionRow): ProfileDocumentRow => ({
  agentId: r.agentId,
  kind: r.kind as ProfileKind,
  content: r.content,
  revision: r.revision,
  updatedAt: r.createdAt,
  updatedByKind: r.actorKind,
  updatedById: r.actorId,
});
