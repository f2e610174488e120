/**
 * The background embedding indexer and its status: which live memories have an embedding of
 * their current revision for the configured model, and one pass that embeds the rest.
 */
import { and, asc, eq, lt, ne, or, sql } from 'drizzle-orm';
import type { Capabilities, Db } from '../../db/database.js';
import type { Clock } from '../../lib/clock.js';
import type { Logger } from '../../lib/logger.js';
import { assertAgentAccess, type Viewer } from '../../auth/viewer.js';
import { brainEmbeddings, brainMemories } from './brains.sql.js';
import { EmbeddingUnavailable, type EmbeddingsClient } from './embeddings.js';

/** A failed embedding is retried this many times per revision, then left failed. */
const EMBEDDING_MAX_ATTEMPTS = 3;
const EMBEDDING_BATCH = 16;

export class BrainEmbeddingIndexer {
  constructor(
    private readonly db: Db,
    private readonly clock: Clock,
    private readonly logger: Logger,
    private readonly capabilities: Capabilities,
    private readonly embeddings: EmbeddingsClient | null,
  ) {}

  async status(viewer: Viewer | null, agentId: string) {
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
  async indexPending(options: { agentId?: string; batches?: number } = {}): Promise<{ indexed: number; failed: number }> {
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
}
