/**
 * brainSearch: lexical ranking over an agent's live memories always, exact cosine ranking joined
 * in when embeddings are configured and pgvector is present. Provider trouble degrades to
 * lexical with a fallback marker, never to an error.
 */
import { and, asc, desc, eq, getTableColumns, gt, inArray, lt, lte, or, sql, type Placeholder, type SQL } from 'drizzle-orm';
import { unionAll } from 'drizzle-orm/pg-core';
import type { Capabilities, Db } from '../../db/database.js';
import { RequestError } from '../../lib/errors.js';
import { charLength, escapeLike } from '../../lib/text.js';
import { assertAgentAccess, resolveActingAgent, type Viewer } from '../../auth/viewer.js';
import { brainEmbeddings, brainMemories } from './brains.sql.js';
import type { BrainMemoryRow } from './brains.types.js';
import { EmbeddingUnavailable, vectorLiteral, zeroVectorFault, type EmbeddingsClient } from './embeddings.js';

export const SEARCH_LIMIT_MAX = 50;
export const SEARCH_LIMIT_DEFAULT = 10;
export const QUERY_MIN_LENGTH = 3;
export const QUERY_MAX_LENGTH = 500;
/**
 * brainSearch scores the max(500, 20 × candidates) most recently updated memories before asking
 * for older, better hits: enough for a term in 5% of them to fill the candidates.
 */
export const searchProbeRows = (candidates: number) => Math.max(500, 20 * candidates);
/** Weight of the lexical score beside cosine similarity in hybrid ranking. */
const LEXICAL_WEIGHT = 0.3;

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

export class BrainSearch {
  /** `search`'s lexical statement for each number of terms (1 to 8), prepared on first use. */
  private readonly lexicalStatements = new Map<number, ReturnType<typeof lexicalStatement>>();

  constructor(
    private readonly db: Db,
    private readonly capabilities: Capabilities,
    private readonly embeddings: EmbeddingsClient | null,
  ) {}

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
    const lexical = await this.lexicalCandidates(agentId, query, terms, this.candidates(limit));
    return this.rank([agentId], query, limit, new Map([[agentId, lexical]]), (vector) => this.vectorCandidates([agentId], vector, Math.min(limit * 3, 150))).then(
      ([result]) => result,
    );
  }

  /**
   * The same search for several agents (Agent.brainSearch over a page of agents): one lexical
   * statement and at most one embedding call and one vector statement, whatever the number of
   * agents. The lexical stage scores every match of each agent (a window per agent) instead of
   * the single-agent probe, so it ranks exactly as `search` does.
   */
  async searchMany(viewer: Viewer | null, agentIds: readonly string[], input: { query: string; limit?: number | null }): Promise<BrainSearchResult[]> {
    for (const agentId of agentIds) assertAgentAccess(viewer, agentId);
    const limit = searchLimit(input.limit);
    const query = input.query.trim();
    const terms = searchTerms(query);
    const candidates = this.candidates(limit);
    const { patterns, phrase } = searchPatterns(query, terms);
    const lexical = lexicalSql(patterns, phrase);
    const ranked = this.db
      .select({
        ...getTableColumns(brainMemories),
        score: lexical.score.as('score'),
        rank: sql<number>`row_number() OVER (PARTITION BY ${brainMemories.agentId} ORDER BY ${lexical.score} DESC, ${brainMemories.updatedAt} DESC, ${brainMemories.id} ASC)`.as(
          'rank',
        ),
      })
      .from(brainMemories)
      .where(and(inArray(brainMemories.agentId, [...agentIds]), sql`${brainMemories.deletedAt} IS NULL`, lexical.matchesAny))
      .as('ranked');
    const rows = agentIds.length === 0 ? [] : await this.db.select().from(ranked).where(lte(ranked.rank, candidates)).orderBy(asc(ranked.rank));
    const byAgent = new Map<string, BrainSearchHit[]>(agentIds.map((id) => [id, []]));
    for (const row of rows) {
      const { score, rank: _rank, ...memory } = row;
      byAgent.get(memory.agentId)?.push(lexicalHit(memory as BrainMemoryRow, Number(score), terms));
    }
    return this.rank(agentIds, query, limit, byAgent, (vector) => this.vectorCandidates(agentIds, vector, Math.min(limit * 3, 150)));
  }

  private candidates(limit: number) {
    return this.embeddings ? Math.min(limit * 3, 150) : limit;
  }

  /** Lexical hits as they are, or merged with cosine ranking (one embedding of the query for every agent). */
  private async rank(
    agentIds: readonly string[],
    query: string,
    limit: number,
    lexicalByAgent: Map<string, BrainSearchHit[]>,
    semanticOf: (vector: number[]) => Promise<{ memory: BrainMemoryRow; similarity: number }[]>,
  ): Promise<BrainSearchResult[]> {
    const lexicalOnly = (retrieval: BrainSearchResult['retrieval']) =>
      agentIds.map((agentId) => ({ agentId, query, retrieval, hits: (lexicalByAgent.get(agentId) ?? []).slice(0, limit) }));
    if (!this.embeddings) return lexicalOnly({ mode: 'LEXICAL', fallback: null, reason: null });
    if (!this.capabilities.vector) {
      return lexicalOnly({ mode: 'LEXICAL', fallback: 'VECTOR_UNAVAILABLE', reason: this.capabilities.vectorReason ?? 'the vector extension is not available' });
    }
    let queryVector: number[];
    try {
      [queryVector] = await this.embeddings.embed([query]);
      // A zero query vector ranks nothing (every cosine distance is NaN): the provider failed us.
      const fault = zeroVectorFault(queryVector);
      if (fault) throw new EmbeddingUnavailable(fault);
    } catch (error) {
      if (!(error instanceof EmbeddingUnavailable)) throw error;
      return lexicalOnly({ mode: 'LEXICAL', fallback: 'EMBEDDING_UNAVAILABLE', reason: error.message });
    }
    const semantic = await semanticOf(queryVector);
    return agentIds.map((agentId) => {
      const lexical = lexicalByAgent.get(agentId) ?? [];
      const maxLexical = Math.max(1, ...lexical.map((h) => h.lexicalScore));
      const merged = new Map<string, BrainSearchHit>();
      for (const hit of lexical) merged.set(hit.memory.id, { ...hit });
      for (const { memory, similarity } of semantic) {
        if (memory.agentId !== agentId) continue;
        // Cosine similarity of zero or less means unrelated: such a memory did not match by meaning.
        // (NaN, which a zero-norm vector gives, is excluded by the query; this guard keeps it so.)
        if (!(similarity > 0)) continue;
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
      return { agentId, query, retrieval: { mode: 'HYBRID' as const, fallback: null, reason: null }, hits: hits.slice(0, limit) };
    });
  }

  /**
   * Any term as a case-insensitive substring; title matches count double, the whole phrase adds a
   * bonus. Ranked by score, then updatedAt (newest first), then id: one prepared statement per
   * number of terms (lexicalStatement).
   */
  private async lexicalCandidates(agentId: string, query: string, terms: string[], limit: number): Promise<BrainSearchHit[]> {
    const { patterns, phrase } = searchPatterns(query, terms);
    let statement = this.lexicalStatements.get(terms.length);
    if (!statement) this.lexicalStatements.set(terms.length, (statement = lexicalStatement(this.db, terms.length)));
    const values: Record<string, unknown> = { agentId, limit, probeRows: searchProbeRows(limit), phrase };
    patterns.forEach((pattern, i) => (values[`term${i}`] = pattern));
    const rows = await statement.execute(values);
    return rows.map(({ score, ...memory }) => lexicalHit(memory, Number(score), terms));
  }

  /**
   * Exact (no ANN index) cosine ranking over the agent's memories indexed at their current
   * revision. A stored vector of zero norm (indexed before zero vectors were refused) has a NaN
   * distance to everything, and PostgreSQL sorts NaN above every number: it is no match at all.
   */
  private async vectorCandidates(agentIds: readonly string[], vector: number[], limit: number) {
    const literal = vectorLiteral(vector);
    const distance = sql`(${brainEmbeddings.embedding}::vector <=> ${literal}::vector)`;
    const ranked = this.db
      .select({
        ...getTableColumns(brainMemories),
        distance: sql<number>`${distance}`.as('distance'),
        rank: sql<number>`row_number() OVER (PARTITION BY ${brainMemories.agentId} ORDER BY ${distance}, ${brainMemories.id} ASC)`.as('rank'),
      })
      .from(brainEmbeddings)
      .innerJoin(brainMemories, and(eq(brainMemories.agentId, brainEmbeddings.agentId), eq(brainMemories.id, brainEmbeddings.memoryId)))
      .where(
        and(
          inArray(brainEmbeddings.agentId, [...agentIds]),
          eq(brainEmbeddings.status, 'indexed'),
          eq(brainEmbeddings.model, this.embeddings!.config.model),
          eq(brainEmbeddings.dimensions, vector.length),
          eq(brainEmbeddings.revision, brainMemories.revision),
          sql`${brainMemories.deletedAt} IS NULL`,
          sql`${distance} <> 'NaN'::float8`,
        ),
      )
      .as('ranked');
    const rows = await this.db.select().from(ranked).where(lte(ranked.rank, limit)).orderBy(asc(ranked.rank));
    return rows.map(({ distance: d, rank: _rank, ...memory }) => ({ memory: memory as BrainMemoryRow, similarity: 1 - Number(d) }));
  }
}

function searchLimit(limit: number | null | undefined): number {
  if (limit == null) return SEARCH_LIMIT_DEFAULT;
  if (!Number.isInteger(limit) || limit < 1 || limit > SEARCH_LIMIT_MAX) {
    throw new RequestError('BAD_REQUEST', `the page size (first) must be between 1 and ${SEARCH_LIMIT_MAX} (got ${limit})`);
  }
  return limit;
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

/** The LIKE patterns of the terms and, with several terms, of the whole query (the phrase). */
function searchPatterns(query: string, terms: string[]) {
  return { patterns: terms.map((term) => `%${escapeLike(term)}%`), phrase: terms.length > 1 ? `%${escapeLike(query)}%` : null };
}

/**
 * `search`'s lexical stage in one statement, the same text for every query of `termCount` terms
 * (the patterns, the agent and the limits are its placeholders), run as a named prepared
 * statement. Exact, but without scoring every match: a common term would make that cost hundreds
 * of milliseconds.
 *
 * - `recent`: the `probeRows` most recently updated live memories (by updatedAt, id: the order of
 *   the tie-break), scored, through the newest-updated index.
 * - `probe`: their best `limit` hits.
 * - `edge`: one row when the probe was full, so older memories exist: its last row and the floor,
 *   the probe's `limit`-th best score (0 when it has fewer hits). An older memory can only enter
 *   the top `limit` by scoring strictly more than the floor, since at an equal score the newer
 *   probe hit wins the tie-break.
 * - the older branches: memories after the probe's last row scoring above the floor, through a
 *   condition implied by that score which the trigram indexes answer (e.g. a title match for a
 *   single term). The condition depends on the floor, known only while the statement runs, so
 *   there is one branch per condition, each a LATERAL subquery joined to `edge` filtered on the
 *   floors it serves: only the branch of the actual floor reads anything, and none does when the
 *   probe was not full or no older memory can outrank it. (A gate inside each branch instead,
 *   e.g. an EXISTS on `edge`, lets PostgreSQL plan a parallel scan whose workers start even when
 *   the gate is closed; the LATERAL reference keeps every branch out of parallel plans.)
 *
 * The stages carry keys and scores only; the `limit` best are joined to their memories at the end.
 */
function lexicalStatement(db: Db, termCount: number) {
  const m = brainMemories;
  const value = (name: string) => sql.placeholder(name);
  const lexical = lexicalSql(
    Array.from({ length: termCount }, (_, i) => value(`term${i}`)),
    termCount > 1 ? value('phrase') : null,
  );
  const live = and(eq(m.agentId, value('agentId')), sql`${m.deletedAt} IS NULL`)!;
  const scored = { id: m.id, updatedAt: m.updatedAt, score: lexical.score.as('score') };
  const limit = value('limit');

  // The match test first: a rare term costs one ILIKE per column and term in each probed row, as a
  // filter would, instead of the whole score (with the phrase) for every row.
  const recent = db.$with('recent').as(
    db
      .select({ ...scored, score: sql<number>`CASE WHEN ${lexical.matchesAny} THEN ${lexical.score} ELSE 0 END`.as('score') })
      .from(m)
      .where(live)
      .orderBy(desc(m.updatedAt), asc(m.id))
      .limit(value('probeRows')),
  );
  const probe = db.$with('probe').as(db.select().from(recent).where(gt(recent.score, 0)).orderBy(desc(recent.score), desc(recent.updatedAt), asc(recent.id)).limit(limit));
  const edge = db.$with('edge').as(
    db
      .select({
        updatedAt: recent.updatedAt,
        id: recent.id,
        floor: sql<number>`(SELECT CASE WHEN count(*) = ${limit} THEN min(${probe.score}) ELSE 0 END FROM ${probe})`.as('floor'),
      })
      .from(recent)
      .where(sql`(SELECT count(*) FROM ${recent}) = ${value('probeRows')}`)
      .orderBy(asc(recent.updatedAt), desc(recent.id))
      .limit(1),
  );
  const floor = sql<number>`${edge}.floor`;
  const older = lexical.olderConditions().map(({ floors, condition }, i) => {
    const branch = db
      .select(scored)
      .from(m)
      .where(and(live, or(lt(m.updatedAt, edge.updatedAt), and(eq(m.updatedAt, edge.updatedAt), gt(m.id, edge.id))), condition, sql`${lexical.score} > ${floor}`))
      .orderBy(desc(lexical.score), desc(m.updatedAt), asc(m.id))
      .limit(limit)
      .as(`older_${i}`);
    return db
      .select(branch._.selectedFields)
      .from(edge)
      .crossJoinLateral(branch)
      .where(sql`${floor} IN (${sql.raw(floors.join(', '))})`);
  });
  const [firstOlder, ...moreOlder] = older;
  const hits = unionAll(db.select().from(probe), firstOlder, ...moreOlder).as('hits');
  const best = db.select().from(hits).orderBy(desc(hits.score), desc(hits.updatedAt), asc(hits.id)).limit(limit).as('best');
  return db
    .with(recent, probe, edge)
    .select({ ...getTableColumns(m), score: best.score })
    .from(best)
    .innerJoin(m, and(eq(m.agentId, value('agentId')), eq(m.id, best.id)))
    .orderBy(desc(best.score), desc(best.updatedAt), asc(best.id))
    .prepare(`burrow_brain_search_${termCount}`);
}

/**
 * The lexical match and score over a title and a content column: per term, 2 for a title match
 * plus 1 for a content match; with several terms, 3 more when the whole phrase matches either.
 * Patterns are values or placeholders of a prepared statement.
 */
function lexicalSql(patterns: (string | Placeholder)[], phrase: string | Placeholder | null) {
  const { title, content } = brainMemories;
  const titleHas = (p: string | Placeholder) => sql`${title} ILIKE ${p}`;
  const contentHas = (p: string | Placeholder) => sql`${content} ILIKE ${p}`;
  const matchesAny = or(...patterns.flatMap((p) => [titleHas(p), contentHas(p)]))!;
  const scoreParts = patterns.map((p) => sql`(CASE WHEN ${titleHas(p)} THEN 2 ELSE 0 END + CASE WHEN ${contentHas(p)} THEN 1 ELSE 0 END)`);
  const phraseBonus = phrase === null ? 0 : 3;
  if (phrase !== null) scoreParts.push(sql`(CASE WHEN ${titleHas(phrase)} OR ${contentHas(phrase)} THEN 3 ELSE 0 END)`);
  const score = sql<number>`(${sql.join(scoreParts, sql` + `)})`.mapWith(Number);
  const maxScore = 3 * patterns.length + phraseBonus;
  const titleAny = or(...patterns.map(titleHas))!;
  /**
   * A condition implied by "score > floor" that the trigram indexes can answer (a bitmap OR of
   * ANDs), so older rows are not all scored, named by what it asks. Without a title match a
   * memory scores at most (content terms matched) + phrase bonus, and the phrase matching means
   * every term does.
   */
  const impliedBy = (floor: number): [string, () => SQL] => {
    if (floor <= 0) return ['any', () => matchesAny];
    if (patterns.length === 1) {
      // 2 = title only, 3 = title and content.
      return floor >= 2 ? ['title and content', () => and(titleHas(patterns[0]), contentHas(patterns[0]))!] : ['title', () => titleAny];
    }
    if (floor >= patterns.length + phraseBonus) return ['title', () => titleAny];
    const need = Math.min(floor + 1, patterns.length);
    const groups = combinations(patterns, need);
    if (groups.length > 8) return ['any', () => matchesAny];
    return [`title or ${need} in content`, () => or(titleAny, ...groups.map((group) => and(...group.map(contentHas))))!];
  };
  /** Every floor below the maximum score with its implied condition, floors of the same condition together. */
  const olderConditions = () => {
    const byName = new Map<string, { floors: number[]; condition: SQL }>();
    for (let floor = 0; floor < maxScore; floor++) {
      const [name, condition] = impliedBy(floor);
      const group = byName.get(name);
      if (group) group.floors.push(floor);
      else byName.set(name, { floors: [floor], condition: condition() });
    }
    return [...byName.values()];
  };
  return { matchesAny, score, olderConditions };
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
