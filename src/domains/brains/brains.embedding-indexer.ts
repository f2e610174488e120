/**
 * The background embedding indexer and its status: which live memories have an embedding of
 * their current revision for the configured model, and one pass that embeds the rest.
 */
import { and, asc, eq, ne, or, sql, type SQL } from 'drizzle-orm';
import type { Capabilities, Db } from '../../db/database.js';
import type { Clock } from '../../lib/clock.js';
import type { Logger } from '../../lib/logger.js';
import { assertAgentAccess, type Viewer } from '../../auth/viewer.js';
import { brainEmbeddings, brainMemories } from './brains.sql.js';
import { EmbeddingUnavailable, zeroVectorFault, type EmbeddingsClient } from './embeddings.js';

const EMBEDDING_BATCH = 16;
/** One pass embeds at most this many batches, so a large backlog never makes one endless pass. */
const EMBEDDING_BATCHES_PER_PASS = 32;
/**
 * A failed embedding is retried forever (a memory must not silently drop out of search because
 * the provider was down for a while), 30 s after its first failure, then twice as long after
 * each further failure, at most 15 minutes apart.
 */
const RETRY_BASE_SECONDS = 30;
const RETRY_MAX_SECONDS = 15 * 60;

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
    const failedNow = sql`${brainEmbeddings.status} = 'failed' AND ${current}`;
    const [counts] = await this.db
      .select({
        live: sql<number>`count(*)`.mapWith(Number),
        indexed: sql<number>`count(*) FILTER (WHERE ${brainEmbeddings.status} = 'indexed' AND ${current})`.mapWith(Number),
        failed: sql<number>`count(*) FILTER (WHERE ${failedNow})`.mapWith(Number),
        dimensions: sql<number | null>`max(${brainEmbeddings.dimensions}) FILTER (WHERE ${brainEmbeddings.status} = 'indexed' AND ${current})`,
        lastError: sql<string | null>`max(${brainEmbeddings.lastError}) FILTER (WHERE ${failedNow})`,
        nextRetryAt: sql<Date | null>`min(${this.retryAt()}) FILTER (WHERE ${failedNow})`.mapWith(brainEmbeddings.updatedAt),
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
      backlog: enabled ? counts.live - counts.indexed : 0,
      nextRetryAt: enabled ? counts.nextRetryAt : null,
      lastError: enabled ? counts.lastError : null,
    };
  }

  /**
   * One pass of the background indexer: embeds live memories whose current revision has no
   * embedding for the configured model, and failed ones whose retry is due, fewest attempts
   * first, at most EMBEDDING_BATCHES_PER_PASS batches. A batch the provider fails ends the pass
   * (it will be down for the next batch too), so an outage costs one request per pass. Safe to
   * run concurrently with writes: a row records the revision it describes, so an update made
   * meanwhile simply leaves the memory pending again.
   */
  async indexPending(options: { agentId?: string; batches?: number } = {}): Promise<{ indexed: number; failed: number }> {
    if (!this.embeddings) return { indexed: 0, failed: 0 };
    const model = this.embeddings.config.model;
    let indexed = 0;
    let failed = 0;
    for (let batch = 0; batch < (options.batches ?? EMBEDDING_BATCHES_PER_PASS); batch++) {
      const now = this.clock.now();
      const failedNow = and(eq(brainEmbeddings.status, 'failed'), eq(brainEmbeddings.model, model), eq(brainEmbeddings.revision, brainMemories.revision));
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
              and(failedNow, sql`${this.retryAt()} <= ${now.toISOString()}::timestamptz`),
            ),
          ),
        )
        // Memories never tried come before those that keep failing, so a backlog of retries
        // never holds new memories back.
        .orderBy(sql`CASE WHEN ${failedNow} THEN ${brainEmbeddings.attempts} ELSE 0 END`, asc(brainMemories.updatedAt), asc(brainMemories.id))
        .limit(EMBEDDING_BATCH);
      if (pending.length === 0) break;
      const { results, providerDown } = await this.embedBatch(pending.map((m) => `${m.title}\n\n${m.content}`));
      const answeredAt = this.clock.now();
      for (const [index, memory] of pending.entries()) {
        const { vector, fault } = results[index];
        const values = {
          agentId: memory.agentId,
          memoryId: memory.id,
          revision: memory.revision,
          model,
          status: fault ? 'failed' : 'indexed',
          dimensions: fault ? null : vector!.length,
          embedding: fault ? null : vector,
          lastError: fault,
          updatedAt: answeredAt,
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
        if (fault) failed++;
        else indexed++;
      }
      if (providerDown) {
        this.logger.warn('brain embedding batch failed', { error: providerDown, count: pending.length });
        break;
      }
    }
    return { indexed, failed };
  }

  /**
   * Embeds one batch. Each text gets its vector or the fault that keeps it failed: a zero vector
   * fails that memory only. When the provider refuses the batch (HTTP 400/413/422, e.g. a text
   * too long for the model), its texts are embedded one by one, so the memory it refuses cannot
   * hold its batch-mates back. `providerDown` says the provider is not answering (the pass stops).
   */
  private async embedBatch(texts: string[]): Promise<{ results: { vector: number[] | null; fault: string | null }[]; providerDown: string | null }> {
    try {
      const vectors = await this.embeddings!.embed(texts);
      return { results: vectors.map((vector) => ({ vector, fault: zeroVectorFault(vector) })), providerDown: null };
    } catch (error) {
      if (!(error instanceof EmbeddingUnavailable)) throw error;
      const allFailed = (fault: string) => texts.map(() => ({ vector: null, fault }));
      if (!error.rejected) return { results: allFailed(error.message), providerDown: error.message };
      if (texts.length === 1) return { results: allFailed(error.message), providerDown: null };
      const results: { vector: number[] | null; fault: string | null }[] = [];
      for (const [index, text] of texts.entries()) {
        const single = await this.embedBatch([text]);
        if (single.providerDown) {
          return { results: [...results, ...texts.slice(index).map(() => ({ vector: null, fault: single.providerDown }))], providerDown: single.providerDown };
        }
        results.push(single.results[0]);
      }
      return { results, providerDown: null };
    }
  }

  /**
   * When a failed embedding is next due: RETRY_BASE_SECONDS after its first failure, doubling
   * per further attempt up to RETRY_MAX_SECONDS; or at once when it failed before the provider
   * was last seen answering again (this process's view: another instance's recovery shows up
   * here after the backoff at the latest).
   */
  private retryAt(): SQL {
    const { attempts, updatedAt } = brainEmbeddings;
    const backoffSeconds = sql`least(${sql.raw(String(RETRY_MAX_SECONDS))}, ${sql.raw(String(RETRY_BASE_SECONDS))} * power(2, least(greatest(${attempts} - 1, 0), 20)))`;
    const afterBackoff = sql`(${updatedAt} + ${backoffSeconds} * interval '1 second')`;
    const recovered = this.embeddings?.recoveredAt;
    if (!recovered) return afterBackoff;
    return sql`(CASE WHEN ${updatedAt} < ${recovered.toISOString()}::timestamptz THEN ${updatedAt} ELSE ${afterBackoff} END)`;
  }
}
