/**
 * brainSave's writes, several saves to one statement when they arrive together.
 *
 * A save alone is one statement (the memory, its first revision, the sequence bump and the
 * event), and under load most of PostgreSQL's work per save is the statement's and its commit's,
 * not the rows': the save's statement by pgbench (16 clients) gave 1,500–2,700 saves a second
 * where the same rows written sixteen to a statement by one client gave 3,300–6,700
 * (docs/performance.md). So a statement carries every save that arrived while the one before was
 * running: an idle server writes a save at once and alone, a busy one in batches that grow with
 * the load, with no timer and no added wait. Where commits are fast, one statement at a time left
 * PostgreSQL's second core idle, so a second statement may run beside the first, but only once a
 * full batch's worth of saves waits (SECOND_STATEMENT_AT) and only with saves of other agents:
 * a second statement at any queue length shrank the batches to about 5 saves and lost 11–21 % of
 * the throughput; with the threshold they stay near 8 and it gained (docs/performance.md).
 *
 * What each save is still promised:
 * - it is acknowledged only once its statement has committed, and a statement is atomic, so a
 *   batch commits every save in it or none;
 * - its agent's events keep consecutive sequences in arrival order (each agent's sequence is
 *   bumped once by its number of saves in the batch, and they are numbered in order; an agent's
 *   saves are in one running statement at most, the later ones waiting in the queue for it);
 * - its answer is its own. The batch locks each agent's row with SKIP LOCKED and writes only the
 *   saves of agents it could lock that exist and are not being erased. Every other save (its
 *   agent's row held by another transaction, an unknown or erased agent) then runs alone as the
 *   single save's statement (`alone`), which waits for the lock or answers NotFound as before,
 *   without holding up the next batch. A batch never waits on another transaction's row lock, so
 *   it cannot deadlock, nor hold up the saves of other agents behind one busy agent.
 * - A batch the database refuses (so no save in it committed) is written again one save at a
 *   time, so one save's refusal is that save's answer only; a lost connection fails the batch's
 *   saves, as it fails a single save.
 * - A save with an idempotency key (what the generated clients send) claims its key in the same
 *   statement, with its answer (db/idempotency.ts keeps the same row). A key already claimed, by
 *   an earlier save or by another save of the same batch, or being claimed by a transaction still
 *   running (its advisory lock, KEY_LOCK, is taken with pg_try_advisory_xact_lock: the batch does
 *   not wait for it), is not written by the batch: that save runs alone through the key's
 *   transaction, which answers from the stored row, refuses a reused key or replaces one past its
 *   window, as before.
 */
import { sql } from 'drizzle-orm';
import { PgDialect } from 'drizzle-orm/pg-core';
import type { Db } from '../../db/database.js';
import { KEY_LOCK } from '../../db/idempotency.js';
import { notifyAfterCommit } from '../../db/notify-after-commit.js';
import { EVENTS_CHANNEL } from '../../events/events.service.js';
import { isConnectionLoss } from '../../lib/connection-errors.js';
import type { BrainMemoryRow } from './brains.types.js';

/** At most this many saves per statement (about 3 MB of parameters at the content limit). */
export const SAVE_BATCH_MAX = 64;
/** Statements written at once; the second starts only while this many saves wait. */
const STATEMENTS_AT_ONCE = 2;
const SECOND_STATEMENT_AT = 8;

/** A save waiting for a statement. */
export interface QueuedSave {
  /** The new memory: what the batch writes, and its answer when the batch writes it. */
  memory: BrainMemoryRow;
  /** The brain.created event's payload. */
  payload: Record<string, unknown>;
  /** With an idempotency key: the key's row as db/idempotency.ts writes it (the request's hash, the encoded answer). */
  claim: { key: string; tokenId: string; requestHash: string; result: unknown } | null;
  /** The save written alone, as before batches: its answer. */
  alone(): Promise<BrainMemoryRow>;
}

interface Queued extends QueuedSave {
  resolve(memory: BrainMemoryRow): void;
  reject(error: unknown): void;
}

/**
 * The batch's statement. The saves arrive as one JSON array (`n` is a save's place in it); the
 * columns written are those of the single save's statement (insertNewMemory, insertRevision and
 * the event write of events.service.ts), from the new memory: its creator is the actor, whose kind
 * is its ownership. It answers the saves it wrote, with their sequences.
 */
const BATCH_STATEMENT = sql`
  WITH input AS (
    SELECT * FROM jsonb_to_recordset(${sql.placeholder('saves')}::jsonb)
      AS i(n int, agent_id text, id text, title text, content text, source_refs text[], actor_kind text, actor_id text, at timestamptz, payload jsonb,
           key text, token_id text, request_hash text, result jsonb)
  ), locked AS (
    SELECT a.id FROM agents a WHERE a.id IN (SELECT agent_id FROM input) AND a.erasure_started_at IS NULL FOR NO KEY UPDATE OF a SKIP LOCKED
  ), claimed AS (
    INSERT INTO idempotency_keys (agent_id, token_id, key, operation, request_hash, result, created_at)
    SELECT i.agent_id, i.token_id, i.key, 'brainSave', i.request_hash, i.result, i.at FROM input i JOIN locked l ON l.id = i.agent_id
     WHERE i.key IS NOT NULL AND pg_try_advisory_xact_lock(${KEY_LOCK(sql`i.agent_id`, sql`i.token_id`, sql`i.key`)})
    ON CONFLICT (agent_id, token_id, key) DO NOTHING
    RETURNING agent_id, token_id, key
  ), written AS (
    SELECT i.* FROM input i JOIN locked l ON l.id = i.agent_id
     WHERE i.key IS NULL OR (i.agent_id, i.token_id, i.key) IN (SELECT agent_id, token_id, key FROM claimed)
  ), counts AS (
    SELECT agent_id, count(*)::int AS saves FROM written GROUP BY agent_id
  ), bumped AS (
    UPDATE agents a SET last_event_sequence = a.last_event_sequence + c.saves FROM counts c WHERE a.id = c.agent_id
    RETURNING a.id, a.last_event_sequence - c.saves AS before
  ), numbered AS (
    SELECT w.*, b.before + row_number() OVER (PARTITION BY w.agent_id ORDER BY w.n) AS seq FROM written w JOIN bumped b ON b.id = w.agent_id
  ), memories AS (
    INSERT INTO brain_memories (agent_id, id, title, content, source_refs, revision, ownership, created_by_kind, created_by_id, updated_by_kind, updated_by_id, created_at, updated_at)
    SELECT agent_id, id, title, content, source_refs, 1, actor_kind, actor_kind, actor_id, actor_kind, actor_id, at, at FROM numbered
  ), revisions AS (
    INSERT INTO brain_memory_revisions (agent_id, memory_id, revision, action, title, content, source_refs, ownership, actor_kind, actor_id, created_at)
    SELECT agent_id, id, 1, 'created', title, content, source_refs, actor_kind, actor_kind, actor_id, at FROM numbered
  ), stored AS (
    INSERT INTO agent_events (agent_id, sequence, stream, type, subject_id, project, payload, occurred_at)
    SELECT agent_id, seq, 'brain', 'brain.created', id, NULL, payload, at FROM numbered
  )
  SELECT n, seq FROM numbered`;

export class SaveBatcher {
  private queued: Queued[] = [];
  /** Statements running now (at most STATEMENTS_AT_ONCE). */
  private running = 0;
  private startScheduled = false;
  /** The agents of the saves in the statements running now: each in one of them only (takeBatch). */
  private readonly busyAgents = new Set<string>();
  private prepared: { execute(values: Record<string, unknown>): Promise<unknown> } | null = null;
  /** Statements that wrote saves (a batch is one), and the saves they wrote: read by /metrics. */
  readonly written = { statements: 0, saves: 0 };

  constructor(private readonly db: Db) {}

  /** Saves waiting for a statement. */
  get queuedCount(): number {
    return this.queued.length;
  }

  /** Statements running now. */
  get runningCount(): number {
    return this.running;
  }

  /** Resolves with the save's answer once it has committed. */
  write(save: QueuedSave): Promise<BrainMemoryRow> {
    return new Promise<BrainMemoryRow>((resolve, reject) => {
      this.queued.push({ ...save, resolve, reject });
      if (this.startScheduled) return;
      this.startScheduled = true;
      // At the end of this turn of the event loop, so the saves of every request read in it go
      // together: on the embedded database a statement runs within the turn that starts it, so
      // without this wait no save would ever find another queued.
      setImmediate(() => {
        this.startScheduled = false;
        this.startStatements();
      });
    });
  }

  /**
   * Starts the statements the queue calls for: one whenever saves wait and none runs; a second
   * beside it only once a full batch's worth waits (SECOND_STATEMENT_AT), so batches stay large.
   * A statement never takes a save whose agent is in the one running (its saves stay queued, in
   * order, for the next), so the two never wait on each other's agent rows.
   */
  private startStatements() {
    while (this.running < STATEMENTS_AT_ONCE && this.queued.length > 0) {
      if (this.running > 0 && this.queued.length < SECOND_STATEMENT_AT) return;
      const batch = this.takeBatch();
      if (batch.length === 0) return;
      this.running++;
      for (const save of batch) this.busyAgents.add(save.memory.agentId);
      void this.writeBatch(batch).finally(() => {
        for (const save of batch) this.busyAgents.delete(save.memory.agentId);
        this.running--;
        this.startStatements();
      });
    }
  }

  /** Up to SAVE_BATCH_MAX queued saves, in arrival order, of agents no running statement holds. */
  private takeBatch(): Queued[] {
    if (this.busyAgents.size === 0) return this.queued.splice(0, SAVE_BATCH_MAX);
    const batch: Queued[] = [];
    const waiting: Queued[] = [];
    for (const save of this.queued) {
      if (batch.length < SAVE_BATCH_MAX && !this.busyAgents.has(save.memory.agentId)) batch.push(save);
      else waiting.push(save);
    }
    this.queued = waiting;
    return batch;
  }

  private async writeAlone(save: Queued) {
    try {
      const answer = await save.alone();
      // A key's earlier answer wrote nothing now.
      if (answer.id === save.memory.id) this.count(1);
      save.resolve(answer);
    } catch (error) {
      save.reject(error);
    }
  }

  private async writeBatch(queued: Queued[]) {
    // A key twice in one batch: the first claims it, the others run alone after and answer from its row.
    const claims = new Set<string>();
    const batch: Queued[] = [];
    const later: Queued[] = [];
    for (const save of queued) {
      const claim = save.claim && JSON.stringify([save.memory.agentId, save.claim.tokenId, save.claim.key]);
      if (claim && claims.has(claim)) {
        later.push(save);
        continue;
      }
      if (claim) claims.add(claim);
      batch.push(save);
    }
    let result: { rows: { n: number; seq: string | number }[] };
    try {
      this.prepared ??= this.db._.session.prepareQuery(new PgDialect().sqlToQuery(BATCH_STATEMENT), undefined, 'burrow_brain_save_batch', false);
      const saves = batch.map(({ memory, payload, claim }, n) => ({
        n,
        agent_id: memory.agentId,
        id: memory.id,
        title: memory.title,
        content: memory.content,
        source_refs: memory.sourceRefs,
        actor_kind: memory.createdByKind,
        actor_id: memory.createdById,
        at: memory.createdAt.toISOString(),
        payload,
        key: claim?.key ?? null,
        token_id: claim?.tokenId ?? null,
        request_hash: claim?.requestHash ?? null,
        result: claim?.result ?? null,
      }));
      result = (await this.prepared.execute({ saves: JSON.stringify(saves) })) as typeof result;
    } catch (error) {
      if (isConnectionLoss(error)) {
        for (const save of queued) save.reject(error);
        return;
      }
      // Refused by the database, so nothing of it committed: each save gets its own answer.
      for (const save of queued) void this.writeAlone(save);
      return;
    }
    if (result.rows.length > 0) this.count(result.rows.length);
    const newest = new Map<string, number>();
    const wrote = new Set<number>();
    for (const { n, seq } of result.rows) {
      wrote.add(Number(n));
      const agentId = batch[Number(n)].memory.agentId;
      newest.set(agentId, Math.max(newest.get(agentId) ?? 0, Number(seq)));
    }
    // One wake-up per agent: its newest sequence covers the ones before it.
    for (const [agentId, seq] of newest) notifyAfterCommit(this.db, EVENTS_CHANNEL, `${agentId}:${seq}`);
    const left: Queued[] = [];
    batch.forEach((save, n) => (wrote.has(n) ? save.resolve(save.memory) : left.push(save)));
    left.push(...later);
    // Not written by the batch (agent busy, unknown or being erased, key already claimed): alone,
    // each as before, and not awaited: one waiting for a lock must not hold up the next batch.
    for (const save of left) void this.writeAlone(save);
  }

  private count(saves: number) {
    this.written.statements++;
    this.written.saves += saves;
  }
}
