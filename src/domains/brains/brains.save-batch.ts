/**
 * brainSave's writes, several saves to one statement when they arrive together.
 *
 * A save alone is one statement (the memory, its first revision, the sequence bump and the
 * event), and under load most of PostgreSQL's work per save is the statement's and its commit's,
 * not the rows': the save's statement by pgbench (16 clients) gave 1,500–2,700 saves a second
 * where the same rows written sixteen to a statement by one client gave 3,300–6,700
 * (docs/performance.md). So saves are written one statement at a time, each carrying every save
 * that arrived while the one before was running: an idle server writes a save at once and alone,
 * a busy one in batches that grow with the load, with no timer and no added wait.
 *
 * What each save is still promised:
 * - it is acknowledged only once its statement has committed, and a statement is atomic, so a
 *   batch commits every save in it or none;
 * - its agent's events keep consecutive sequences in arrival order (each agent's sequence is
 *   bumped once by its number of saves in the batch, and they are numbered in order);
 * - its answer is its own. The batch locks each agent's row with SKIP LOCKED and writes only the
 *   saves of agents it could lock that exist and are not being erased. Every other save (its
 *   agent's row held by another transaction, an unknown or erased agent) then runs alone as the
 *   single save's statement (`alone`), which waits for the lock or answers NotFound as before,
 *   without holding up the next batch. A batch never waits on another transaction's row lock, so
 *   it cannot deadlock, nor hold up the saves of other agents behind one busy agent.
 * - A batch the database refuses (so no save in it committed) is written again one save at a
 *   time, so one save's refusal is that save's answer only; a lost connection fails the batch's
 *   saves, as it fails a single save.
 */
import { sql } from 'drizzle-orm';
import { PgDialect } from 'drizzle-orm/pg-core';
import type { Db } from '../../db/database.js';
import { notifyAfterCommit } from '../../db/notify-after-commit.js';
import { EVENTS_CHANNEL } from '../../events/events.service.js';
import { isConnectionLoss } from '../../lib/connection-errors.js';

/** At most this many saves per statement (about 3 MB of parameters at the content limit). */
export const SAVE_BATCH_MAX = 64;

/** One save's values, as both statements take them. */
export interface SaveRow {
  agentId: string;
  id: string;
  title: string;
  content: string;
  sourceRefs: string[];
  actorKind: string;
  actorId: string;
  now: Date;
  /** The brain.created event's payload. */
  payload: Record<string, unknown>;
}

interface Queued {
  row: SaveRow;
  resolve(): void;
  reject(error: unknown): void;
}

/**
 * The batch's statement. The saves arrive as one JSON array (`n` is a save's place in it); the
 * columns written are those of the single save's statement (insertNewMemory, insertRevision and
 * the event write of events.service.ts), ownership being the actor's kind. It answers the saves
 * it wrote, with their sequences.
 */
const BATCH_STATEMENT = sql`
  WITH input AS (
    SELECT * FROM jsonb_to_recordset(${sql.placeholder('saves')}::jsonb)
      AS i(n int, agent_id text, id text, title text, content text, source_refs text[], actor_kind text, actor_id text, at timestamptz, payload jsonb)
  ), counts AS (
    SELECT agent_id, count(*)::int AS saves FROM input GROUP BY agent_id
  ), locked AS (
    SELECT a.id FROM agents a JOIN counts c ON c.agent_id = a.id WHERE a.erasure_started_at IS NULL FOR NO KEY UPDATE OF a SKIP LOCKED
  ), bumped AS (
    UPDATE agents a SET last_event_sequence = a.last_event_sequence + c.saves
      FROM counts c JOIN locked l ON l.id = c.agent_id
     WHERE a.id = c.agent_id
    RETURNING a.id, a.last_event_sequence - c.saves AS before
  ), numbered AS (
    SELECT i.*, b.before + row_number() OVER (PARTITION BY i.agent_id ORDER BY i.n) AS seq FROM input i JOIN bumped b ON b.id = i.agent_id
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
  private writing = false;
  private prepared: { execute(values: Record<string, unknown>): Promise<unknown> } | null = null;
  /** Statements that wrote saves (a batch is one), and the saves they wrote: read by /metrics. */
  readonly written = { statements: 0, saves: 0 };

  /** `alone` writes one save as the single statement (and announces it). */
  constructor(
    private readonly db: Db,
    private readonly alone: (row: SaveRow) => Promise<void>,
  ) {}

  /** Saves waiting for the statement running now to end. */
  get queuedCount(): number {
    return this.queued.length;
  }

  /** Resolves once the save has committed. */
  write(row: SaveRow): Promise<void> {
    return new Promise<void>((resolve, reject) => {
      this.queued.push({ row, resolve, reject });
      if (this.writing) return;
      this.writing = true;
      // At the end of this turn of the event loop, so the saves of every request read in it go
      // together: on the embedded database a statement runs within the turn that starts it, so
      // without this wait no save would ever find another queued.
      setImmediate(() => void this.writeQueued());
    });
  }

  private async writeQueued() {
    try {
      while (this.queued.length > 0) await this.writeBatch(this.queued.splice(0, SAVE_BATCH_MAX));
    } finally {
      this.writing = false;
    }
  }

  private async writeAlone(save: Queued) {
    try {
      await this.alone(save.row);
      this.count(1);
      save.resolve();
    } catch (error) {
      save.reject(error);
    }
  }

  private async writeBatch(batch: Queued[]) {
    let result: { rows: { n: number; seq: string | number }[] };
    try {
      this.prepared ??= this.db._.session.prepareQuery(new PgDialect().sqlToQuery(BATCH_STATEMENT), undefined, 'burrow_brain_save_batch', false);
      const saves = batch.map(({ row }, n) => ({
        n,
        agent_id: row.agentId,
        id: row.id,
        title: row.title,
        content: row.content,
        source_refs: row.sourceRefs,
        actor_kind: row.actorKind,
        actor_id: row.actorId,
        at: row.now.toISOString(),
        payload: row.payload,
      }));
      result = (await this.prepared.execute({ saves: JSON.stringify(saves) })) as typeof result;
    } catch (error) {
      if (isConnectionLoss(error)) {
        for (const save of batch) save.reject(error);
        return;
      }
      // Refused by the database, so nothing of it committed: each save gets its own answer.
      for (const save of batch) void this.writeAlone(save);
      return;
    }
    if (result.rows.length > 0) this.count(result.rows.length);
    const newest = new Map<string, number>();
    const written = new Set<number>();
    for (const { n, seq } of result.rows) {
      written.add(Number(n));
      const agentId = batch[Number(n)].row.agentId;
      newest.set(agentId, Math.max(newest.get(agentId) ?? 0, Number(seq)));
    }
    // One wake-up per agent: its newest sequence covers the ones before it.
    for (const [agentId, seq] of newest) notifyAfterCommit(this.db, EVENTS_CHANNEL, `${agentId}:${seq}`);
    const left: Queued[] = [];
    batch.forEach((save, n) => (written.has(n) ? save.resolve() : left.push(save)));
    // Not written by the batch (agent busy, unknown or being erased): alone, each as before, and
    // not awaited: one waiting for its agent's lock must not hold up the next batch.
    for (const save of left) void this.writeAlone(save);
  }

  private count(saves: number) {
    this.written.statements++;
    this.written.saves += saves;
  }
}
