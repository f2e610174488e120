/**
 * brainSearch: lexical ranking over an agent's live memories always, exact cosine ranking joined
 * in when embeddings are configured and pgvector is present. Provider trouble degrades to
 * lexical with a fallback marker, never to an error.
 */
import { and, asc, desc, eq, getTableColumns, gt, inArray, lte, or, sql, type SQL } from 'drizzle-orm';
import type { Capabilities, Db } from '../../db/database.js';
import { RequestError } from '../../lib/errors.js';
import { charLength, escapeLike } from '../../lib/text.js';
import { assertAgentAccess, resolveActingAgent, type Viewer } from '../../auth/viewer.js';
import { brainEmbeddings, brainMemories } from './brains.sql.js';
import type { BrainMemoryRow } from './brains.memories.js';
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
    return this.rank([agentId], query, limit, new Map([[agentId, lexical]]), (vector) =>
      this.vectorCandidates([agentId], vector, Math.min(limit * 3, 150)),
    ).then(([result]) => result);
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
    const lexical = lexicalSql(query, terms);
    const ranked = this.db
      .select({
        ...getTableColumns(brainMemories),
        score: lexical.score.as('score'),
        rank: sql<number>`row_number() OVER (PARTITION BY ${brainMemories.agentId} ORDER BY ${lexical.score} DESC, ${brainMemories.updatedAt} DESC, ${brainMemories.id} ASC)`.as('rank'),
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
    throw new RequestError('BAD_REQUEST', `the page size (first; limit over MCP) must be between 1 and ${SEARCH_LIMIT_MAX} (got ${limit})`);
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
