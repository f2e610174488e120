import { and, asc, eq, gt, inArray, lt, or, sql, type Placeholder, type Query, type SQL } from 'drizzle-orm';
import { PgDialect } from 'drizzle-orm/pg-core';
import type pg from 'pg';
import type { Db, DbOrTx } from '../db/database.js';
import { notifyAfterCommit } from '../db/notify-after-commit.js';
import type { Clock } from '../lib/clock.js';
import { NotFoundError } from '../lib/errors.js';
import { agentEvents } from './events.sql.js';
import type { OperatorPosition } from './operator-cursor.js';

export const EVENTS_CHANNEL = 'burrow_events';

export type EventStream = 'profile' | 'brain' | 'working' | 'handoff' | 'conversation' | 'rolling_card' | 'tiddle_status' | 'continuity';

export interface NewEvent {
  agentId: string;
  stream: EventStream;
  /** Dotted name, e.g. profile.updated, brain.removed. */
  type: string;
  subjectId: string;
  project?: string | null;
  payload: Record<string, unknown>;
}

export type AgentEventRow = typeof agentEvents.$inferSelect;

/**
 * Appends an event inside the caller's transaction. The sequence comes from bumping the agent
 * row, which holds that row's lock until commit: later writers of the same agent wait, so
 * sequences commit in order and a rollback frees its number. The wake-up ("agentId:sequence")
 * is sent once the transaction has committed (db/notify-after-commit.ts): subscribers hear of
 * the event only if it commits.
 */
export async function appendEvent(tx: DbOrTx, clock: Clock, event: NewEvent, alongside: SQL[] = []): Promise<AgentEventRow> {
  const occurredAt = clock.now();
  const bumped = await tx.execute<{ seq: string; tx_id: string }>(
    eventStatement({ ...event, payload: JSON.stringify(event.payload), project: event.project ?? null, occurredAt: occurredAt.toISOString() }, alongside),
  );
  if (bumped.rows.length === 0) throw new NotFoundError('Agent', event.agentId);
  notifyAfterCommit(tx, EVENTS_CHANNEL, `${event.agentId}:${bumped.rows[0].seq}`);
  return {
    agentId: event.agentId,
    sequence: Number(bumped.rows[0].seq),
    stream: event.stream,
    type: event.type,
    subjectId: event.subjectId,
    project: event.project ?? null,
    payload: event.payload,
    occurredAt,
    txId: bumped.rows[0].tx_id,
  };
}

/** The values of an event's row as the statement takes them: each a value or a placeholder. */
type EventValues = { [K in 'agentId' | 'stream' | 'type' | 'subjectId' | 'project' | 'payload' | 'occurredAt']: string | null | Placeholder };

/**
 * One round trip: the bump and the row run as one statement (data-modifying CTEs always run to
 * completion), so a write pays for one statement here instead of two.
 * `alongside`: the write's own statements (INSERT/UPDATE without RETURNING), run in the same one.
 * `payload` is JSON text, `occurredAt` an ISO timestamp. An agent whose erasure started bumps
 * nothing, so the write is refused as NotFound (a write outside a transaction has committed its
 * own statements by then: the erasure's last step removes them under the agent's lock).
 */
function eventStatement(event: EventValues, alongside: SQL[]): SQL {
  const writes = alongside.map((statement, i) => sql`${sql.raw(`write_${i}`)} AS (${statement}), `);
  return sql`
    WITH ${sql.join(writes)}bumped AS (
      UPDATE agents SET last_event_sequence = last_event_sequence + 1 WHERE id = ${event.agentId} AND erasure_started_at IS NULL RETURNING last_event_sequence AS seq
    ), stored AS (
      INSERT INTO agent_events (agent_id, sequence, stream, type, subject_id, project, payload, occurred_at)
      SELECT ${event.agentId}::text, seq, ${event.stream}::text, ${event.type}::text, ${event.subjectId}::text, ${event.project}::text,
             ${event.payload}::jsonb, ${event.occurredAt}::timestamptz
        FROM bumped
    )
    SELECT seq, pg_current_xact_id()::text AS tx_id FROM bumped`;
}

/** What a prepared event write is built from: the write's own statements and its event, with placeholders. */
export type EventWriteBuilder<Key extends string> = (p: (key: Key) => Placeholder) => {
  alongside: SQL[];
  event: Pick<NewEvent, 'stream' | 'type'> & Omit<EventValues, 'stream' | 'type' | 'occurredAt' | 'payload'>;
};

/**
 * The one statement of a prepared event write, its values still placeholders (`payload`,
 * `occurredAt` and the builder's keys): what preparedEventWrite prepares, and what the writes
 * bench replays through pgbench as the database's own ceiling for the same write.
 */
export function eventWriteQuery<Key extends string>(build: EventWriteBuilder<Key>): Query {
  const { alongside, event } = build((key) => sql.placeholder(key));
  return new PgDialect().sqlToQuery(eventStatement({ ...event, payload: sql.placeholder('payload'), occurredAt: sql.placeholder('occurredAt') }, alongside));
}

/**
 * appendEvent for a write whose statements never change shape (brainSave): Drizzle builds the
 * SQL text once, with placeholders, and each call only fills in the values and runs it as a named
 * prepared statement. Building the statement was a tenth of a save's CPU. `build` receives a
 * placeholder maker and returns the write's own statements and its event; the values of a call
 * name the same placeholders, plus `occurredAt` (set here) and `payload` (JSON text).
 */
export function preparedEventWrite<Key extends string>(db: Db, name: string, build: EventWriteBuilder<Key>) {
  let prepared: { execute(values: Record<string, unknown>): Promise<unknown> } | null = null;
  return async (clock: Clock, values: Record<Key | 'payload', unknown>): Promise<void> => {
    prepared ??= db._.session.prepareQuery(eventWriteQuery(build), undefined, name, false);
    const result = (await prepared.execute({ ...values, occurredAt: clock.now().toISOString() })) as { rows: { seq: string }[] };
    const agentId = String((values as Record<string, unknown>).agentId);
    if (result.rows.length === 0) throw new NotFoundError('Agent', agentId);
    // One statement outside a transaction: it has committed by now.
    notifyAfterCommit(db, EVENTS_CHANNEL, `${agentId}:${result.rows[0].seq}`);
  };
}

export interface EventQuery {
  agentId: string;
  afterSequence: number;
  streams?: EventStream[];
  project?: string;
  subjectId?: string;
  limit: number;
}

/** The last event of an erased agent: every subscriber gets it whatever its filter, then its stream completes. */
export const AGENT_ERASED = 'agent.erased';

export async function readEventsAfter(db: Db, query: EventQuery): Promise<AgentEventRow[]> {
  const filters = [];
  if (query.streams) filters.push(inArray(agentEvents.stream, query.streams));
  if (query.project !== undefined) filters.push(eq(agentEvents.project, query.project));
  if (query.subjectId !== undefined) filters.push(eq(agentEvents.subjectId, query.subjectId));
  const filtered = filters.length ? or(and(...filters), eq(agentEvents.type, AGENT_ERASED)) : undefined;
  return db
    .select()
    .from(agentEvents)
    .where(and(eq(agentEvents.agentId, query.agentId), gt(agentEvents.sequence, query.afterSequence), filtered))
    .orderBy(asc(agentEvents.sequence))
    .limit(query.limit);
}

/**
 * Where a new hub channel of the agent starts reading: after its newest sequence. Once the
 * agent's erasure has started, before agent.erased instead: a subscriber that passed the agent
 * check just before the erasure began still gets that event, and its stream completes. Null when
 * there is nothing left to deliver (the agent row is gone, or its erasure went past the log).
 * On a connection from the pool, like latestSequences.
 */
export async function channelStart(pool: pg.Pool, agentId: string): Promise<{ after: number; erased: boolean } | null> {
  const result = await pool.query<{ present: boolean; erasing: boolean; seq: string | null; type: string | null }>({
    name: 'burrow_channel_start',
    text: `SELECT a.id IS NOT NULL AS present, a.erasure_started_at IS NOT NULL AS erasing, e.sequence AS seq, e.type
             FROM (SELECT $1::text AS id) wanted
             LEFT JOIN agents a ON a.id = wanted.id
             LEFT JOIN LATERAL (SELECT sequence, type FROM agent_events WHERE agent_id = wanted.id ORDER BY sequence DESC LIMIT 1) e ON true`,
    values: [agentId],
  });
  const { present, erasing, seq, type } = result.rows[0];
  if (type === AGENT_ERASED) return { after: Number(seq) - 1, erased: true };
  if (!present || erasing) return null;
  return { after: seq === null ? 0 : Number(seq), erased: false };
}

/**
 * The newest logged sequence of each agent given (agents without events are left out): one
 * statement, one index probe per agent. The hub runs it at its re-check (every agent with
 * subscribers), on a connection from the pool, outside the statement count that tests read for
 * requests.
 */
export async function latestSequences(pool: pg.Pool, agentIds: string[]): Promise<Map<string, number>> {
  const result = await pool.query<{ agent_id: string; seq: string }>({
    name: 'burrow_latest_sequences',
    text: `SELECT a.agent_id, (SELECT max(e.sequence) FROM agent_events e WHERE e.agent_id = a.agent_id) AS seq
             FROM unnest($1::text[]) AS a(agent_id)`,
    values: [agentIds],
  });
  const latest = new Map<string, number>();
  for (const row of result.rows) if (row.seq !== null) latest.set(row.agent_id, Number(row.seq));
  return latest;
}

/** Prunes the log by age; returns how many rows went. */
export async function pruneEvents(db: Db, olderThan: Date): Promise<number> {
  const deleted = await db.delete(agentEvents).where(lt(agentEvents.occurredAt, olderThan)).returning({ s: agentEvents.sequence });
  return deleted.length;
}

export interface OperatorEventQuery {
  /** Events after this position; null: from the oldest transaction still running. */
  after: OperatorPosition | null;
  /** Without `after`: only events of transactions not yet committed in this snapshot (see startingSnapshot). */
  notIn?: string | null;
  agentIds?: readonly string[] | null;
  streams?: readonly EventStream[] | null;
  limit: number;
}

/**
 * The oldest transaction that may still commit an event into this database: the oldest one the
 * statement's snapshot sees running, leaving out those seen running in another database of the
 * same server (transaction ids are server-wide, so pg_snapshot_xmin alone would let a long
 * transaction of any other database hold every operator stream back). A transaction is left out
 * only when pg_stat_activity shows it running elsewhere; one that ended in between, or that it
 * cannot place (a prepared transaction), still counts, so nothing can commit behind the bound.
 * With none running: the snapshot's xmax, the first transaction id not yet assigned.
 */
const OLDEST_RUNNING_HERE = sql`(
  SELECT coalesce(min(running), pg_snapshot_xmax(pg_current_snapshot()))
  FROM pg_snapshot_xip(pg_current_snapshot()) AS running
  WHERE running::xid NOT IN (
    SELECT backend_xid FROM pg_stat_activity
    WHERE backend_xid IS NOT NULL AND datid <> (SELECT oid FROM pg_database WHERE datname = current_database())
  )
)`;

/**
 * Events of every agent in (tx_id, agent_id, sequence) order, only from transactions older than
 * every transaction of this database still running, so a later read never finds an event behind
 * a position it already returned (see operator-cursor.ts).
 */
export async function readOperatorEvents(db: Db, query: OperatorEventQuery): Promise<AgentEventRow[]> {
  const conditions = [sql`${agentEvents.txId} < ${OLDEST_RUNNING_HERE}`];
  if (query.notIn) {
    conditions.push(sql`${agentEvents.txId} >= pg_snapshot_xmin(${query.notIn}::pg_snapshot)`);
    conditions.push(sql`NOT pg_visible_in_snapshot(${agentEvents.txId}, ${query.notIn}::pg_snapshot)`);
  }
  if (query.after) {
    conditions.push(sql`(${agentEvents.txId}, ${agentEvents.agentId}, ${agentEvents.sequence}) > (${query.after.txId}::xid8, ${query.after.agentId}, ${query.after.sequence})`);
  }
  if (query.agentIds) conditions.push(inArray(agentEvents.agentId, [...query.agentIds]));
  if (query.streams) conditions.push(inArray(agentEvents.stream, [...query.streams]));
  return db
    .select()
    .from(agentEvents)
    .where(and(...conditions))
    .orderBy(asc(agentEvents.txId), asc(agentEvents.agentId), asc(agentEvents.sequence))
    .limit(query.limit);
}

/**
 * "Now" for a stream without a cursor: a snapshot. Events of transactions it sees as committed
 * are the past; every other event (a transaction running at that moment or a later one) is
 * delivered, so nothing that commits after the call is missed and nothing before is repeated.
 */
export async function startingSnapshot(db: Db): Promise<string> {
  const result = await db.execute<{ snapshot: string }>(sql`SELECT pg_current_snapshot()::text AS snapshot`);
  return result.rows[0].snapshot;
}
