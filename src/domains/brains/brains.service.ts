/**
 * Brains: explicit saved memories. One owning agent per memory, revision-checked edits in one
 * statement, tombstones instead of erasure, operator ownership, lexical search with optional
 * embedding ranking that falls back instead of failing, and the repeat-safe Albdruck import.
 */
import { assertCleanText } from '../../lib/text-policy.js';
import { and, asc, desc, eq, gt, inArray, lt, lte, ne, or, sql, type SQL } from 'drizzle-orm';
import type { Capabilities, Db, DbOrTx } from '../../db/database.js';
import type { Clock } from '../../lib/clock.js';
import { BurrowError, ForbiddenError, NotFoundError, RequestError, RevisionConflictError, ValidationError } from '../../lib/errors.js';
import type { FaultInjector } from '../../lib/faults.js';
import { newId } from '../../lib/ids.js';
import type { Logger } from '../../lib/logger.js';
import { charLength, escapeLike } from '../../lib/text.js';
import { actorOf, assertAgentAccess, requireOperator, resolveActingAgent, type Actor, type Viewer } from '../../auth/viewer.js';
import { appendEvent } from '../../events/events.service.js';
import type { AgentsService } from '../agents/agents.service.js';
import {
  albdruckEvidence,
  albdruckKnowledge,
  albdruckRevisions,
  brainEmbeddings,
  brainMemories,
  brainMemoryRevisions,
  BRAIN_CONTENT_LIMIT,
  BRAIN_SOURCE_REF_LENGTH_LIMIT,
  BRAIN_SOURCE_REFS_LIMIT,
  BRAIN_TITLE_LIMIT,
  MIGRATED_ALBDRUCK,
} from './brains.sql.js';
import { EmbeddingsClient, EmbeddingUnavailable, vectorLiteral, type EmbeddingsConfig } from './embeddings.js';

export type BrainMemoryRow = typeof brainMemories.$inferSelect;
export type BrainRevisionRow = typeof brainMemoryRevisions.$inferSelect;

export const LIST_PAGE_MAX = 100;
export const SEARCH_LIMIT_MAX = 50;
export const SEARCH_LIMIT_DEFAULT = 10;
export const QUERY_MIN_LENGTH = 3;
export const QUERY_MAX_LENGTH = 500;
export const DELETE_BATCH_MAX = 100;
/** How many of the newest memories the substring list scans before using the trigram index. */
const LIST_PROBE_ROWS = 2_000;
/**
 * brainSearch scores the max(500, 20 × candidates) most recently updated memories before asking
 * for older, better hits: enough for a term in 5% of them to fill the candidates.
 */
export const searchProbeRows = (candidates: number) => Math.max(500, 20 * candidates);
/** A failed embedding is retried this many times per revision, then left failed. */
const EMBEDDING_MAX_ATTEMPTS = 3;
const EMBEDDING_BATCH = 16;
/** Weight of the lexical score beside cosine similarity in hybrid ranking. */
const LEXICAL_WEIGHT = 0.3;
const HATCHET = 'hatchet';

export type RetrievalMode = 'LEXICAL' | 'HYBRID';
export type RetrievalFallback = 'EMBEDDING_UNAVAILABLE' | 'VECTOR_UNAVAILABLE';

export interface BrainSearchHit {
  memory: BrainMemoryRow;
  matchedBy: ('LEXICAL' | 'EMBEDDING')[];
  matchedTerms: string[];
  lexicalScore: number;
  similarity: number | null;
  score: number;
}

export interface BrainSearchResult {
  agentId: string;
  query: string;
  retrieval: { mode: RetrievalMode; fallback: RetrievalFallback | null; reason: string | null };
  hits: BrainSearchHit[];
}

export type DeletionStatus = 'DELETED' | 'NOT_FOUND' | 'REVISION_CONFLICT' | 'FORBIDDEN' | 'INVALID';

export interface DeletionResult {
  id: string;
  status: DeletionStatus;
  message: string;
  currentRevision: number | null;
  memory: BrainMemoryRow | null;
}

export interface ImportSummary {
  total: number;
  imported: number;
  skipped: number;
  deletedOnImport: number;
  failed: number;
  createdAgents: string[];
  failures: { legacyId: string; reason: string }[];
}

export interface SaveInput {
  agentId?: string | null;
  title: string;
  content: string;
  sourceRefs?: string[] | null;
}

export interface UpdateInput {
  agentId?: string | null;
  id: string;
  expectedRevision: number;
  title?: string | null;
  content?: string | null;
  sourceRefs?: string[] | null;
}


export class BrainsService {
  private readonly embeddings: EmbeddingsClient | null;

  constructor(
    private readonly db: Db,
    private readonly clock: Clock,
    private readonly faults: FaultInjector,
    private readonly logger: Logger,
    private readonly capabilities: Capabilities,
    embeddingsConfig: EmbeddingsConfig | null,
    private readonly agents: AgentsService,
  ) {
    this.embeddings = embeddingsConfig ? new EmbeddingsClient(embeddingsConfig) : null;
  }

  // ---------------------------------------------------------------- writes

  async save(viewer: Viewer | null, input: SaveInput): Promise<BrainMemoryRow> {
    const { viewer: v, agentId } = resolveActingAgent(viewer, input.agentId);
    const title = validateTitle(input.title);
    const content = validateContent(input.content);
    const sourceRefs = validateSourceRefs(input.sourceRefs ?? []);
    const actor = actorOf(v);
    const now = this.clock.now();
    return this.db.transaction(async (tx) => {
      const [memory] = await tx
        .insert(brainMemories)
        .values({
          agentId,
          id: newId(),
          title,
          content,
          sourceRefs,
          revision: 1,
          ownership: actor.kind,
          createdByKind: actor.kind,
          createdById: actor.id,
          updatedByKind: actor.kind,
          updatedById: actor.id,
          createdAt: now,
          updatedAt: now,
        })
        .returning();
      await this.recordRevision(tx, memory, 'created', actor);
      this.faults('brains.save.after_revision');
      await this.emit(tx, memory, 'brain.created', actor);
      return memory;
    });
  }

  async update(viewer: Viewer | null, input: UpdateInput): Promise<BrainMemoryRow> {
    const { viewer: v, agentId } = resolveActingAgent(viewer, input.agentId);
    validateRevision(input.expectedRevision);
    const changes: Partial<Pick<BrainMemoryRow, 'title' | 'content' | 'sourceRefs'>> = {};
    if (input.title != null) changes.title = validateTitle(input.title);
    if (input.content != null) changes.content = validateContent(input.content);
    if (input.sourceRefs != null) changes.sourceRefs = validateSourceRefs(input.sourceRefs);
    if (Object.keys(changes).length === 0) throw new ValidationError('input', 'an update needs at least one of title, content or sourceRefs');
    const actor = actorOf(v);
    return this.db.transaction(async (tx) => {
      const now = this.clock.now();
      const [memory] = await tx
        .update(brainMemories)
        .set({
          ...changes,
          revision: sql`${brainMemories.revision} + 1`,
          ownership: actor.kind === 'OPERATOR' ? 'OPERATOR' : sql`${brainMemories.ownership}`,
          updatedAt: now,
          updatedByKind: actor.kind,
          updatedById: actor.id,
        })
        .where(this.writable(agentId, input.id, input.expectedRevision, actor))
        .returning();
      if (!memory) throw await this.explainRejectedWrite(tx, agentId, input.id, input.expectedRevision, actor);
      await this.recordRevision(tx, memory, 'updated', actor);
      this.faults('brains.update.after_revision');
      await this.emit(tx, memory, 'brain.updated', actor);
      return memory;
    });
  }

  async remove(viewer: Viewer | null, input: { agentId?: string | null; id: string; expectedRevision: number }): Promise<BrainMemoryRow> {
    const { viewer: v, agentId } = resolveActingAgent(viewer, input.agentId);
    validateRevision(input.expectedRevision);
    return this.removeOne(agentId, input.id, input.expectedRevision, actorOf(v));
  }

  /**
   * Each item is removed in its own transaction: a conflict on one never undoes another. A
   * selected page is exactly the ids given, never "all memories".
   */
  async deleteMany(viewer: Viewer | null, input: { agentId: string; items: { id: string; expectedRevision: number }[] }): Promise<DeletionResult[]> {
    const { viewer: v, agentId } = resolveActingAgent(viewer, input.agentId);
    if (input.items.length === 0) throw new ValidationError('items', 'select at least one memory to delete', 1);
    if (input.items.length > DELETE_BATCH_MAX) {
      throw new ValidationError('items', `at most ${DELETE_BATCH_MAX} memories per request (got ${input.items.length})`, DELETE_BATCH_MAX);
    }
    const actor = actorOf(v);
    const results: DeletionResult[] = [];
    for (const item of input.items) {
      try {
        validateRevision(item.expectedRevision);
        const memory = await this.removeOne(agentId, item.id, item.expectedRevision, actor);
        results.push({ id: item.id, status: 'DELETED', message: `removed at revision ${memory.revision}`, currentRevision: memory.revision, memory });
      } catch (error) {
        if (error instanceof NotFoundError) results.push({ id: item.id, status: 'NOT_FOUND', message: error.message, currentRevision: null, memory: null });
        else if (error instanceof RevisionConflictError) {
          results.push({ id: item.id, status: 'REVISION_CONFLICT', message: error.message, currentRevision: error.currentRevision, memory: null });
        } else if (error instanceof ForbiddenError) results.push({ id: item.id, status: 'FORBIDDEN', message: error.message, currentRevision: null, memory: null });
        else if (error instanceof ValidationError) results.push({ id: item.id, status: 'INVALID', message: error.message, currentRevision: null, memory: null });
        else throw error;
      }
    }
    return results;
  }

  private async removeOne(agentId: string, id: string, expectedRevision: number, actor: Actor): Promise<BrainMemoryRow> {
    return this.db.transaction(async (tx) => {
      const now = this.clock.now();
      const [memory] = await tx
        .update(brainMemories)
        .set({
          revision: sql`${brainMemories.revision} + 1`,
          deletedAt: now,
          ownership: actor.kind === 'OPERATOR' ? 'OPERATOR' : sql`${brainMemories.ownership}`,
          updatedAt: now,
          updatedByKind: actor.kind,
          updatedById: actor.id,
        })
        .where(this.writable(agentId, id, expectedRevision, actor))
        .returning();
      if (!memory) throw await this.explainRejectedWrite(tx, agentId, id, expectedRevision, actor);
      await this.recordRevision(tx, memory, 'removed', actor);
      this.faults('brains.remove.after_revision');
      await this.emit(tx, memory, 'brain.removed', actor);
      return memory;
    });
  }

  /** The whole revision check (revision, tombstone, ownership) in the UPDATE's WHERE. */
  private writable(agentId: string, id: string, expectedRevision: number, actor: Actor): SQL {
    return and(
      eq(brainMemories.agentId, agentId),
      eq(brainMemories.id, id),
      eq(brainMemories.revision, expectedRevision),
      sql`${brainMemories.deletedAt} IS NULL`,
      actor.kind === 'AGENT' ? eq(brainMemories.ownership, 'AGENT') : undefined,
    )!;
  }

  /** Only after the UPDATE matched nothing: one read tells which rule refused it. */
  private async explainRejectedWrite(tx: DbOrTx, agentId: string, id: string, expectedRevision: number, actor: Actor): Promise<Error> {
    const [current] = await tx
      .select()
      .from(brainMemories)
      .where(and(eq(brainMemories.agentId, agentId), eq(brainMemories.id, id)));
    if (!current) return new NotFoundError('BrainMemory', id);
    if (current.deletedAt) {
      const error = new NotFoundError('BrainMemory', id);
      error.message = `BrainMemory ${id} was removed (tombstone at revision ${current.revision})`;
      return error;
    }
    if (actor.kind === 'AGENT' && current.ownership === 'OPERATOR') {
      return new ForbiddenError('OPERATOR_OWNED', `BrainMemory ${id} is operator-owned: an agent may not update or remove it`);
    }
    return new RevisionConflictError('BrainMemory', id, expectedRevision, current.revision, current.content, {
      id: current.id,
      title: current.title,
      content: current.content,
      sourceRefs: current.sourceRefs,
      revision: current.revision,
      ownership: current.ownership,
      updatedAt: current.updatedAt.toISOString(),
    });
  }

  private async recordRevision(tx: DbOrTx, memory: BrainMemoryRow, action: 'created' | 'updated' | 'removed' | 'imported', actor: Actor) {
    await tx.insert(brainMemoryRevisions).values({
      agentId: memory.agentId,
      memoryId: memory.id,
      revision: memory.revision,
      action,
      title: memory.title,
      content: memory.content,
      sourceRefs: memory.sourceRefs,
      ownership: memory.ownership,
      actorKind: actor.kind,
      actorId: actor.id,
      createdAt: this.clock.now(),
    });
  }

  private async emit(tx: DbOrTx, memory: BrainMemoryRow, type: string, actor: Actor, extra: Record<string, unknown> = {}) {
    await appendEvent(tx, this.clock, {
      agentId: memory.agentId,
      stream: 'brain',
      type,
      subjectId: memory.id,
      payload: { id: memory.id, revision: memory.revision, title: memory.title, ownership: memory.ownership, actor, ...extra },
    });
  }

  // ---------------------------------------------------------------- reads

  /** A live memory of the acting agent, or null (unknown or removed). */
  async read(viewer: Viewer | null, input: { agentId?: string | null; id: string }): Promise<BrainMemoryRow | null> {
    const { agentId } = resolveActingAgent(viewer, input.agentId);
    const [row] = await this.db
      .select()
      .from(brainMemories)
      .where(and(eq(brainMemories.agentId, agentId), eq(brainMemories.id, input.id), sql`${brainMemories.deletedAt} IS NULL`));
    return row ?? null;
  }

  /**
   * The operator list: live memories newest first, optionally filtered by case-insensitive
   * substring over title or content (trigram-indexed). Fetches `limit` rows (callers pass +1).
   */
  async list(
    viewer: Viewer | null,
    input: { agentId: string; query: string | null; limit: number; after: { createdAt: Date; id: string } | null },
  ): Promise<BrainMemoryRow[]> {
    assertAgentAccess(viewer, input.agentId);
    const conditions: (SQL | undefined)[] = [eq(brainMemories.agentId, input.agentId), sql`${brainMemories.deletedAt} IS NULL`];
    if (input.after) {
      conditions.push(
        or(lt(brainMemories.createdAt, input.after.createdAt), and(eq(brainMemories.createdAt, input.after.createdAt), lt(brainMemories.id, input.after.id))),
      );
    }
    const newestFirst = [desc(brainMemories.createdAt), desc(brainMemories.id)];
    if (!input.query) {
      return this.db.select().from(brainMemories).where(and(...conditions)).orderBy(...newestFirst).limit(input.limit);
    }
    const pattern = `%${escapeLike(input.query)}%`;
    // A common term fills a page from the newest few thousand memories, which the newest-first
    // index reads in milliseconds; sorting every trigram match would not. When the probe comes
    // back short, the term is rare and the trigram-indexed query answers exactly.
    const recent = this.db
      .select()
      .from(brainMemories)
      .where(and(...conditions))
      .orderBy(...newestFirst)
      .limit(LIST_PROBE_ROWS)
      .as('recent');
    const probe = await this.db
      .select()
      .from(recent)
      .where(or(sql`${recent.title} ILIKE ${pattern}`, sql`${recent.content} ILIKE ${pattern}`))
      .orderBy(desc(recent.createdAt), desc(recent.id))
      .limit(input.limit);
    if (probe.length === input.limit) return probe as BrainMemoryRow[];
    return this.db
      .select()
      .from(brainMemories)
      .where(and(...conditions, or(sql`${brainMemories.title} ILIKE ${pattern}`, sql`${brainMemories.content} ILIKE ${pattern}`)))
      .orderBy(...newestFirst)
      .limit(input.limit);
  }

  /** Revisions of many memories in one statement (the DataLoader batch), newest first. */
  async revisionsFor(keys: readonly { agentId: string; memoryId: string }[], limit: number): Promise<BrainRevisionRow[][]> {
    if (keys.length === 0) return [];
    const agentIds = [...new Set(keys.map((k) => k.agentId))];
    const memoryIds = [...new Set(keys.map((k) => k.memoryId))];
    // Revisions of a memory are gap-free (1..current), so "the newest N" is a range on revision.
    const rows = await this.db
      .select()
      .from(brainMemoryRevisions)
      .where(
        and(
          inArray(brainMemoryRevisions.agentId, agentIds),
          inArray(brainMemoryRevisions.memoryId, memoryIds),
          sql`${brainMemoryRevisions.revision} > (SELECT m.revision FROM brain_memories m WHERE m.agent_id = ${brainMemoryRevisions.agentId} AND m.id = ${brainMemoryRevisions.memoryId}) - ${limit}`,
        ),
      );
    const byKey = new Map<string, BrainRevisionRow[]>();
    for (const row of rows) {
      const key = `${row.agentId}/${row.memoryId}`;
      if (!byKey.has(key)) byKey.set(key, []);
      byKey.get(key)!.push(row);
    }
    return keys.map((k) => (byKey.get(`${k.agentId}/${k.memoryId}`) ?? []).sort((a, b) => b.revision - a.revision));
  }

  // ---------------------------------------------------------------- search

  /**
   * Explicit search over the acting agent's live memories. Lexical always; with embeddings
   * configured and pgvector present, exact cosine ranking joins in. Provider trouble degrades
   * to lexical with a fallback marker, never to an error.
   */
  async search(viewer: Viewer | null, input: { agentId?: string | null; query: string; limit?: number | null }): Promise<BrainSearchResult> {
    const { agentId } = resolveActingAgent(viewer, input.agentId);
    const limit = searchLimit(input.limit);
    const query = input.query.trim();
    const terms = searchTerms(query);
    const lexical = await this.lexicalCandidates(agentId, query, terms, this.embeddings ? Math.min(limit * 3, 150) : limit);
    const base = { agentId, query };
    if (!this.embeddings) {
      return { ...base, retrieval: { mode: 'LEXICAL', fallback: null, reason: null }, hits: lexical.slice(0, limit) };
    }
    if (!this.capabilities.vector) {
      return {
        ...base,
        retrieval: { mode: 'LEXICAL', fallback: 'VECTOR_UNAVAILABLE', reason: this.capabilities.vectorReason ?? 'the vector extension is not available' },
        hits: lexical.slice(0, limit),
      };
    }
    let queryVector: number[];
    try {
      [queryVector] = await this.embeddings.embed([query]);
    } catch (error) {
      if (!(error instanceof EmbeddingUnavailable)) throw error;
      return { ...base, retrieval: { mode: 'LEXICAL', fallback: 'EMBEDDING_UNAVAILABLE', reason: error.message }, hits: lexical.slice(0, limit) };
    }
    const semantic = await this.vectorCandidates(agentId, queryVector, Math.min(limit * 3, 150));
    const maxLexical = Math.max(1, ...lexical.map((h) => h.lexicalScore));
    const merged = new Map<string, BrainSearchHit>();
    for (const hit of lexical) merged.set(hit.memory.id, { ...hit });
    for (const { memory, similarity } of semantic) {
      // Cosine similarity of zero or less means unrelated: such a memory did not match by meaning.
      if (similarity <= 0) continue;
      const existing = merged.get(memory.id);
      if (existing) {
        existing.similarity = similarity;
        existing.matchedBy = ['LEXICAL', 'EMBEDDING'];
      } else {
        merged.set(memory.id, { memory, matchedBy: ['EMBEDDING'], matchedTerms: [], lexicalScore: 0, similarity, score: 0 });
      }
    }
    const hits = [...merged.values()].map((hit) => ({ ...hit, score: (hit.similarity ?? 0) + (LEXICAL_WEIGHT * hit.lexicalScore) / maxLexical }));
    hits.sort((a, b) => b.score - a.score || b.memory.updatedAt.getTime() - a.memory.updatedAt.getTime() || (a.memory.id < b.memory.id ? -1 : 1));
    return { ...base, retrieval: { mode: 'HYBRID', fallback: null, reason: null }, hits: hits.slice(0, limit) };
  }

  /**
   * Any term as a case-insensitive substring; title matches count double, the whole phrase adds a
   * bonus. Ranked by score, then updatedAt (newest first), then id.
   *
   * Exact, but without scoring every match: a common term would make that cost hundreds of
   * milliseconds. The searchProbeRows(limit) most recently updated live memories (by updatedAt, id — the order of the
   * tie-break) are scored first through the newest-updated index. Any older memory can only
   * enter the top `limit` by scoring strictly more than the probe's `limit`-th best hit, since
   * at an equal score the newer probe hit wins the tie-break; so the second query asks only for
   * older memories above that score, with an indexable condition implied by it (e.g. a title
   * match for a single term), which the trigram indexes answer in milliseconds.
   */
  private async lexicalCandidates(agentId: string, query: string, terms: string[], limit: number): Promise<BrainSearchHit[]> {
    const lexical = lexicalSql(query, terms);
    const live = and(eq(brainMemories.agentId, agentId), sql`${brainMemories.deletedAt} IS NULL`)!;
    const ranked = [desc(lexical.score), desc(brainMemories.updatedAt), asc(brainMemories.id)];

    // The probe's last row bounds it; the timestamp travels as text so microseconds survive.
    const [boundary] = await this.db
      .select({ updatedAt: sql<string>`to_char(${brainMemories.updatedAt} AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"')`, id: brainMemories.id })
      .from(brainMemories)
      .where(live)
      .orderBy(desc(brainMemories.updatedAt), asc(brainMemories.id))
      .offset(searchProbeRows(limit) - 1)
      .limit(1);
    if (!boundary) {
      // Fewer live memories than the probe: scoring them all is the probe.
      const rows = await this.db.select({ memory: brainMemories, score: lexical.score }).from(brainMemories).where(and(live, lexical.matchesAny)).orderBy(...ranked).limit(limit);
      return rows.map((row) => lexicalHit(row.memory, row.score, terms));
    }
    const boundaryAt = sql`${boundary.updatedAt}::timestamptz`;
    const inProbe = or(sql`${brainMemories.updatedAt} > ${boundaryAt}`, and(sql`${brainMemories.updatedAt} = ${boundaryAt}`, lte(brainMemories.id, boundary.id)));
    const afterProbe = or(sql`${brainMemories.updatedAt} < ${boundaryAt}`, and(sql`${brainMemories.updatedAt} = ${boundaryAt}`, gt(brainMemories.id, boundary.id)));
    const probe = await this.db
      .select({ memory: brainMemories, score: lexical.score })
      .from(brainMemories)
      .where(and(live, inProbe, lexical.matchesAny))
      .orderBy(...ranked)
      .limit(limit);

    const floor = probe.length === limit ? probe[limit - 1].score : 0;
    let older: { memory: BrainMemoryRow; score: number }[] = [];
    if (floor < lexical.maxScore) {
      older = await this.db
        .select({ memory: brainMemories, score: lexical.score })
        .from(brainMemories)
        .where(and(live, afterProbe, lexical.scoringAbove(floor), sql`${lexical.score} > ${floor}`))
        .orderBy(...ranked)
        .limit(limit);
    }
    // Probe rows precede older rows in (updatedAt, id) order, so a stable sort on score alone
    // keeps the database's tie-break without comparing timestamps or collations in JavaScript.
    return [...probe, ...older]
      .sort((a, b) => b.score - a.score)
      .slice(0, limit)
      .map((row) => lexicalHit(row.memory, row.score, terms));
  }

  /** Exact (no ANN index) cosine ranking over the agent's memories indexed at their current revision. */
  private async vectorCandidates(agentId: string, vector: number[], limit: number) {
    const literal = vectorLiteral(vector);
    const distance = sql`(${brainEmbeddings.embedding}::vector <=> ${literal}::vector)`;
    const rows = await this.db
      .select({ memory: brainMemories, distance: sql<number>`${distance}`.mapWith(Number) })
      .from(brainEmbeddings)
      .innerJoin(brainMemories, and(eq(brainMemories.agentId, brainEmbeddings.agentId), eq(brainMemories.id, brainEmbeddings.memoryId)))
      .where(
        and(
          eq(brainEmbeddings.agentId, agentId),
          eq(brainEmbeddings.status, 'indexed'),
          eq(brainEmbeddings.model, this.embeddings!.config.model),
          eq(brainEmbeddings.dimensions, vector.length),
          eq(brainEmbeddings.revision, brainMemories.revision),
          sql`${brainMemories.deletedAt} IS NULL`,
        ),
      )
      .orderBy(distance, asc(brainMemories.id))
      .limit(limit);
    return rows.map((r) => ({ memory: r.memory, similarity: 1 - r.distance }));
  }

  // ---------------------------------------------------------------- embeddings

  get embeddingsEnabled(): boolean {
    return this.embeddings !== null;
  }

  async embeddingStatus(viewer: Viewer | null, agentId: string) {
    assertAgentAccess(viewer, agentId);
    const model = this.embeddings?.config.model ?? null;
    const current = and(eq(brainEmbeddings.model, model ?? ''), eq(brainEmbeddings.revision, brainMemories.revision));
    const [counts] = await this.db
      .select({
        live: sql<number>`count(*)`.mapWith(Number),
        indexed: sql<number>`count(*) FILTER (WHERE ${brainEmbeddings.status} = 'indexed' AND ${current})`.mapWith(Number),
        failed: sql<number>`count(*) FILTER (WHERE ${brainEmbeddings.status} = 'failed' AND ${current})`.mapWith(Number),
        dimensions: sql<number | null>`max(${brainEmbeddings.dimensions}) FILTER (WHERE ${brainEmbeddings.status} = 'indexed' AND ${current})`,
        lastError: sql<string | null>`max(${brainEmbeddings.lastError}) FILTER (WHERE ${brainEmbeddings.status} = 'failed' AND ${current})`,
      })
      .from(brainMemories)
      .leftJoin(brainEmbeddings, and(eq(brainEmbeddings.agentId, brainMemories.agentId), eq(brainEmbeddings.memoryId, brainMemories.id)))
      .where(and(eq(brainMemories.agentId, agentId), sql`${brainMemories.deletedAt} IS NULL`));
    const enabled = this.embeddings !== null;
    const vectorSearch = enabled && this.capabilities.vector;
    const reason = !enabled
      ? 'embeddings are disabled: set BURROW_EMBEDDINGS_URL and BURROW_EMBEDDINGS_MODEL to enable them; search is lexical'
      : !this.capabilities.vector
        ? (this.capabilities.vectorReason ?? 'the vector extension is not available; search is lexical')
        : null;
    return {
      agentId,
      enabled,
      model,
      dimensions: counts.dimensions == null ? null : Number(counts.dimensions),
      vectorSearch,
      reason,
      indexed: enabled ? counts.indexed : 0,
      failed: enabled ? counts.failed : 0,
      pending: enabled ? counts.live - counts.indexed - counts.failed : 0,
      lastError: enabled ? counts.lastError : null,
    };
  }

  /**
   * One pass of the background indexer: embeds live memories whose current revision has no
   * embedding for the configured model (and retries failures a few times). Safe to run
   * concurrently with writes: a row records the revision it describes, so an update made
   * meanwhile simply leaves the memory pending again.
   */
  async indexPendingEmbeddings(options: { agentId?: string; batches?: number } = {}): Promise<{ indexed: number; failed: number }> {
    if (!this.embeddings) return { indexed: 0, failed: 0 };
    const model = this.embeddings.config.model;
    let indexed = 0;
    let failed = 0;
    for (let batch = 0; batch < (options.batches ?? 1000); batch++) {
      const pending = await this.db
        .select({ agentId: brainMemories.agentId, id: brainMemories.id, revision: brainMemories.revision, title: brainMemories.title, content: brainMemories.content })
        .from(brainMemories)
        .leftJoin(brainEmbeddings, and(eq(brainEmbeddings.agentId, brainMemories.agentId), eq(brainEmbeddings.memoryId, brainMemories.id)))
        .where(
          and(
            sql`${brainMemories.deletedAt} IS NULL`,
            options.agentId ? eq(brainMemories.agentId, options.agentId) : undefined,
            or(
              sql`${brainEmbeddings.memoryId} IS NULL`,
              ne(brainEmbeddings.model, model),
              ne(brainEmbeddings.revision, brainMemories.revision),
              and(eq(brainEmbeddings.status, 'failed'), lt(brainEmbeddings.attempts, EMBEDDING_MAX_ATTEMPTS)),
            ),
          ),
        )
        .orderBy(asc(brainMemories.updatedAt), asc(brainMemories.id))
        .limit(EMBEDDING_BATCH);
      if (pending.length === 0) break;
      let vectors: number[][] | null = null;
      let failure: string | null = null;
      try {
        vectors = await this.embeddings.embed(pending.map((m) => `${m.title}\n\n${m.content}`));
      } catch (error) {
        if (!(error instanceof EmbeddingUnavailable)) throw error;
        failure = error.message;
      }
      const now = this.clock.now();
      for (const [index, memory] of pending.entries()) {
        const vector = vectors?.[index] ?? null;
        const values = {
          agentId: memory.agentId,
          memoryId: memory.id,
          revision: memory.revision,
          model,
          status: vector ? 'indexed' : 'failed',
          dimensions: vector ? vector.length : null,
          embedding: vector,
          lastError: failure,
          updatedAt: now,
        };
        await this.db
          .insert(brainEmbeddings)
          .values({ ...values, attempts: 1 })
          .onConflictDoUpdate({
            target: [brainEmbeddings.agentId, brainEmbeddings.memoryId],
            set: {
              ...values,
              // Attempts count per (revision, model): a new revision starts again at one.
              attempts: sql`CASE WHEN ${brainEmbeddings.revision} = ${memory.revision} AND ${brainEmbeddings.model} = ${model} THEN ${brainEmbeddings.attempts} + 1 ELSE 1 END`,
            },
          });
      }
      if (vectors) indexed += pending.length;
      else {
        failed += pending.length;
        this.logger.warn('brain embedding batch failed', { error: failure, count: pending.length });
        // A provider that is down now will be down for the next batch too.
        break;
      }
    }
    return { indexed, failed };
  }

  // ---------------------------------------------------------------- legacy import

  async importAlbdruckAsOperator(viewer: Viewer | null): Promise<ImportSummary> {
    const operator = requireOperator(viewer);
    return this.importAlbdruck(actorOf(operator));
  }

  /**
   * Copies legacy Albdruck knowledge into Brains, repeat-safely: a legacy record already imported
   * (by agent and legacy id) is skipped, so a memory edited since import is never overwritten
   * and a tombstone is never resurrected. Each record commits on its own.
   */
  async importAlbdruck(actor: Actor, onProgress?: (done: number, total: number) => void): Promise<ImportSummary> {
    const [{ total }] = await this.db.select({ total: sql<number>`count(*)`.mapWith(Number) }).from(albdruckKnowledge);
    const summary: ImportSummary = { total, imported: 0, skipped: 0, deletedOnImport: 0, failed: 0, createdAgents: [], failures: [] };
    const knownAgents = new Set<string>();
    let afterId: string | null = null;
    let done = 0;
    for (;;) {
      const page: (typeof albdruckKnowledge.$inferSelect)[] = await this.db
        .select()
        .from(albdruckKnowledge)
        .where(afterId === null ? undefined : gt(albdruckKnowledge.id, afterId))
        .orderBy(asc(albdruckKnowledge.id))
        .limit(200);
      if (page.length === 0) break;
      afterId = page.at(-1)!.id;
      const ids = page.map((k) => k.id);
      const evidence = await this.db.select().from(albdruckEvidence).where(inArray(albdruckEvidence.knowledgeId, ids)).orderBy(asc(albdruckEvidence.createdAt), asc(albdruckEvidence.id));
      const snapshots = await this.db.select().from(albdruckRevisions).where(inArray(albdruckRevisions.knowledgeId, ids)).orderBy(asc(albdruckRevisions.revision));
      for (const record of page) {
        try {
          const outcome = await this.importOne(
            record,
            evidence.filter((e) => e.knowledgeId === record.id),
            snapshots.filter((s) => s.knowledgeId === record.id),
            actor,
            knownAgents,
            summary,
          );
          if (outcome === 'skipped') summary.skipped++;
          else {
            summary.imported++;
            if (outcome === 'imported_deleted') summary.deletedOnImport++;
          }
        } catch (error) {
          summary.failed++;
          // Our own errors explain themselves; anything else stays in the log, not in the summary.
          const reason = error instanceof BurrowError ? error.message : 'unexpected error while importing (see the server log)';
          if (!(error instanceof BurrowError)) this.logger.warn('albdruck import failed', { legacyId: record.id, error: (error as Error).message });
          summary.failures.push({ legacyId: record.id, reason });
        }
        done++;
        onProgress?.(done, total);
      }
    }
    return summary;
  }

  private async importOne(
    record: typeof albdruckKnowledge.$inferSelect,
    evidence: (typeof albdruckEvidence.$inferSelect)[],
    snapshots: (typeof albdruckRevisions.$inferSelect)[],
    actor: Actor,
    knownAgents: Set<string>,
    summary: ImportSummary,
  ): Promise<'imported' | 'imported_deleted' | 'skipped'> {
    const agentId = record.ownerAgentId ?? HATCHET;
    const now = this.clock.now();
    const deleted = record.status !== 'active' || record.operatorDeleted;
    const operatorOwned = record.operatorCorrected || record.operatorDeleted;
    const rawTitle = record.title.trim() || record.body.trim().split('\n')[0]?.trim() || `Albdruck ${record.id}`;
    const title = truncate(rawTitle, BRAIN_TITLE_LIMIT);
    const content = truncate(record.body, BRAIN_CONTENT_LIMIT);
    const references = evidence.map((e) => truncate(e.reference, BRAIN_SOURCE_REF_LENGTH_LIMIT)).filter((r) => r.trim() !== '');
    const sourceRefs = references.slice(0, BRAIN_SOURCE_REFS_LIMIT);
    const legacy = {
      source: 'albdruck',
      knowledgeId: record.id,
      scope: record.ownerAgentId ? 'agent' : 'global',
      legacyOwnerAgentId: record.ownerAgentId,
      status: record.status,
      operatorCorrected: record.operatorCorrected,
      operatorDeleted: record.operatorDeleted,
      createdBy: record.createdBy,
      legacyCreatedAt: record.createdAt.toISOString(),
      legacyUpdatedAt: record.updatedAt.toISOString(),
      importedAt: now.toISOString(),
      importedBy: actor,
      truncated: { title: title !== rawTitle, content: content !== record.body, sourceRefs: references.length > sourceRefs.length },
      evidence: evidence.map((e) => ({ id: e.id, reference: e.reference, excerpt: e.excerpt, createdAt: e.createdAt.toISOString() })),
      snapshots: snapshots.map((s) => ({ revision: s.revision, title: s.title, body: s.body, status: s.status, changedBy: s.changedBy, changedAt: s.changedAt.toISOString() })),
    };
    // Checked before the transaction: the embedded pool has one connection, which the
    // transaction holds.
    const mustCreateAgent = !knownAgents.has(agentId) && (await this.agents.agentsByIds([agentId])).length === 0;
    let createdAgent = false;
    const outcome = await this.db.transaction(async (tx) => {
      if (mustCreateAgent) {
        await this.agents.ensureAgent(tx, agentId, agentId, actor);
        createdAgent = true;
      }
      const ownership = operatorOwned ? 'OPERATOR' : 'AGENT';
      const [memory] = await tx
        .insert(brainMemories)
        .values({
          agentId,
          id: newId(),
          title,
          content,
          sourceRefs,
          revision: 1,
          ownership,
          createdByKind: actor.kind,
          createdById: actor.id,
          updatedByKind: actor.kind,
          updatedById: actor.id,
          createdAt: record.createdAt,
          updatedAt: now,
          deletedAt: deleted ? now : null,
          label: MIGRATED_ALBDRUCK,
          legacyKnowledgeId: record.id,
          importedRevision: 1,
          legacy,
        })
        .onConflictDoNothing()
        .returning();
      if (!memory) return 'skipped' as const;
      await this.recordRevision(tx, memory, 'imported', actor);
      if (!deleted) await this.emit(tx, memory, 'brain.created', actor, { label: MIGRATED_ALBDRUCK });
      return deleted ? ('imported_deleted' as const) : ('imported' as const);
    });
    // Only after commit: a rolled-back record created nothing.
    knownAgents.add(agentId);
    if (createdAgent) summary.createdAgents.push(agentId);
    return outcome;
  }
}

// ---------------------------------------------------------------- validation

function truncate(text: string, limit: number): string {
  return charLength(text) <= limit ? text : Array.from(text).slice(0, limit).join('');
}

function validateTitle(title: string): string {
  assertCleanText('title', title, BRAIN_TITLE_LIMIT);
  const trimmed = title.trim();
  if (trimmed.length === 0) throw new ValidationError('title', 'title must not be empty', BRAIN_TITLE_LIMIT);
  const length = charLength(trimmed);
  if (length > BRAIN_TITLE_LIMIT) throw new ValidationError('title', `title is limited to ${BRAIN_TITLE_LIMIT} characters (got ${length})`, BRAIN_TITLE_LIMIT);
  return trimmed;
}

function validateContent(content: string): string {
  assertCleanText('content', content, BRAIN_CONTENT_LIMIT);
  const length = charLength(content);
  if (length > BRAIN_CONTENT_LIMIT) {
    throw new ValidationError('content', `content is limited to ${BRAIN_CONTENT_LIMIT} characters (got ${length})`, BRAIN_CONTENT_LIMIT);
  }
  return content;
}

function validateSourceRefs(refs: string[]): string[] {
  if (refs.length > BRAIN_SOURCE_REFS_LIMIT) {
    throw new ValidationError('sourceRefs', `at most ${BRAIN_SOURCE_REFS_LIMIT} source references (got ${refs.length})`, BRAIN_SOURCE_REFS_LIMIT);
  }
  return refs.map((ref, index) => {
    assertCleanText(`sourceRefs.${index}`, ref, BRAIN_SOURCE_REF_LENGTH_LIMIT);
    const trimmed = ref.trim();
    if (trimmed.length === 0) throw new ValidationError(`sourceRefs.${index}`, 'a source reference must not be empty', BRAIN_SOURCE_REF_LENGTH_LIMIT);
    if (charLength(trimmed) > BRAIN_SOURCE_REF_LENGTH_LIMIT) {
      throw new ValidationError(`sourceRefs.${index}`, `a source reference is limited to ${BRAIN_SOURCE_REF_LENGTH_LIMIT} characters`, BRAIN_SOURCE_REF_LENGTH_LIMIT);
    }
    return trimmed;
  });
}

function validateRevision(revision: number) {
  if (!Number.isInteger(revision) || revision < 1) throw new ValidationError('expectedRevision', 'expectedRevision must be a positive integer', 1);
}

function searchLimit(limit: number | null | undefined): number {
  if (limit == null) return SEARCH_LIMIT_DEFAULT;
  if (!Number.isInteger(limit) || limit < 1 || limit > SEARCH_LIMIT_MAX) {
    throw new RequestError('BAD_REQUEST', `limit must be between 1 and ${SEARCH_LIMIT_MAX} (got ${limit})`);
  }
  return limit;
}

/** Normalises the operator list's substring query: null/blank means "no filter". */
export function listQuery(query: string | null | undefined): string | null {
  if (query?.includes('\u0000')) throw new RequestError('BAD_REQUEST', 'query must not contain NUL characters');
  const trimmed = query?.trim() ?? '';
  if (trimmed === '') return null;
  const length = charLength(trimmed);
  if (length < QUERY_MIN_LENGTH) {
    throw new RequestError('QUERY_TOO_SHORT', `a substring query needs at least ${QUERY_MIN_LENGTH} characters (got ${length}); omit it to list everything`);
  }
  if (length > QUERY_MAX_LENGTH) throw new RequestError('QUERY_TOO_LONG', `a query is limited to ${QUERY_MAX_LENGTH} characters (got ${length})`);
  return trimmed;
}

/** Distinct whitespace-separated terms of at least three characters (trigram-searchable), at most eight. */
function searchTerms(query: string): string[] {
  if (query.includes('\u0000')) throw new RequestError('BAD_REQUEST', 'query must not contain NUL characters');
  const length = charLength(query);
  if (length === 0) throw new RequestError('QUERY_REQUIRED', 'brainSearch needs a query');
  if (length > QUERY_MAX_LENGTH) throw new RequestError('QUERY_TOO_LONG', `a query is limited to ${QUERY_MAX_LENGTH} characters (got ${length})`);
  const seen = new Set<string>();
  const terms: string[] = [];
  for (const word of query.split(/\s+/)) {
    const key = word.toLowerCase();
    if (charLength(word) < QUERY_MIN_LENGTH || seen.has(key)) continue;
    seen.add(key);
    terms.push(word);
    if (terms.length === 8) break;
  }
  if (terms.length === 0) {
    throw new RequestError('QUERY_TOO_SHORT', `brainSearch needs at least one word of ${QUERY_MIN_LENGTH} or more characters`);
  }
  return terms;
}

/**
 * The lexical match and score over a title and a content column: per term, 2 for a title match
 * plus 1 for a content match; with several terms, 3 more when the whole phrase matches either.
 */
function lexicalSql(query: string, terms: string[]) {
  const { title, content } = brainMemories;
  const patterns = terms.map((term) => `%${escapeLike(term)}%`);
  const titleHas = (p: string) => sql`${title} ILIKE ${p}`;
  const contentHas = (p: string) => sql`${content} ILIKE ${p}`;
  const matchesAny = or(...patterns.flatMap((p) => [titleHas(p), contentHas(p)]))!;
  const phrase = `%${escapeLike(query)}%`;
  const scoreParts = patterns.map((p) => sql`(CASE WHEN ${titleHas(p)} THEN 2 ELSE 0 END + CASE WHEN ${contentHas(p)} THEN 1 ELSE 0 END)`);
  const phraseBonus = terms.length > 1 ? 3 : 0;
  if (phraseBonus) scoreParts.push(sql`(CASE WHEN ${titleHas(phrase)} OR ${contentHas(phrase)} THEN 3 ELSE 0 END)`);
  const score = sql<number>`(${sql.join(scoreParts, sql` + `)})`.mapWith(Number);
  const maxScore = 3 * terms.length + phraseBonus;
  /**
   * A condition implied by "score > floor" that the trigram indexes can answer (a bitmap OR of
   * ANDs), so older rows are not all scored. Without a title match a memory scores at most
   * (content terms matched) + phrase bonus, and the phrase matching means every term does.
   */
  const scoringAbove = (floor: number): SQL => {
    if (floor <= 0) return matchesAny;
    const titleAny = or(...patterns.map(titleHas))!;
    if (terms.length === 1) {
      // 2 = title only, 3 = title and content.
      return floor >= 2 ? and(titleHas(patterns[0]), contentHas(patterns[0]))! : titleAny;
    }
    if (floor >= terms.length + phraseBonus) return titleAny;
    const need = Math.min(floor + 1, terms.length);
    const groups = combinations(patterns, need);
    if (groups.length > 8) return matchesAny;
    return or(titleAny, ...groups.map((group) => and(...group.map(contentHas))))!;
  };
  return { matchesAny, score, maxScore, scoringAbove };
}

function combinations<T>(items: T[], size: number): T[][] {
  if (size === 0) return [[]];
  if (items.length < size) return [];
  const [first, ...rest] = items;
  return [...combinations(rest, size - 1).map((c) => [first, ...c]), ...combinations(rest, size)];
}

function lexicalHit(memory: BrainMemoryRow, lexicalScore: number, terms: string[]): BrainSearchHit {
  const haystack = `${memory.title}\n${memory.content}`.toLowerCase();
  return {
    memory,
    matchedBy: ['LEXICAL'],
    matchedTerms: terms.filter((term) => haystack.includes(term.toLowerCase())),
    lexicalScore,
    similarity: null,
    score: lexicalScore,
  };
}
