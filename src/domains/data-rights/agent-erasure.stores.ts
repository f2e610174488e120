/**
 * What an agent erasure removes and in which order, and the one statement that removes a batch.
 * Every key is ON DELETE RESTRICT, so children go before their parents: a wrong order fails
 * with a foreign-key violation instead of leaving anything behind. test/agent-erase.test.ts
 * compares this list with every table that has an agent_id column, so a new per-agent table
 * that is not listed here fails the build instead of surviving an erasure.
 */
import { sql } from 'drizzle-orm';
import { AGENT_DATA_TABLES } from '../../db/agent-tables.js';
import type { DbOrTx } from '../../db/database.js';

/**
 * Children first: the agent's idempotency keys (they name its tokens and its writes' answers),
 * then its data tables in the reverse of their foreign-key order. api_tokens
 * were revoked by the first step (their sockets ended then); the event log goes last but one,
 * after the subscribers had time to read agent.erased, and the agents row last of all (in the
 * final step, not here).
 */
export const ERASURE_ORDER: readonly ('idempotency_keys' | (typeof AGENT_DATA_TABLES)[number] | 'api_tokens' | 'agent_events')[] = [
  'idempotency_keys',
  ...[...AGENT_DATA_TABLES].reverse(),
  'api_tokens',
  'agent_events',
];
export type ErasedStore = (typeof ERASURE_ORDER)[number] | 'agents';

/** Tables with an agent_id column that an erasure keeps: the receipts outlive the agent. */
export const KEPT_AGENT_TABLES = ['data_removal_receipts'] as const;

/** A store's key without agent_id, with the column types: batches walk it in order. */
export interface StoreKey {
  table: string;
  columns: { name: string; type: string }[];
}

/** The primary key of every listed store, from the catalog (so a changed key needs no edit here). */
export async function storeKeys(db: DbOrTx): Promise<Map<string, StoreKey>> {
  const result = await db.execute<{ table: string; column: string; type: string }>(sql`
    SELECT c.relname AS "table", a.attname AS "column", format_type(a.atttypid, a.atttypmod) AS type
      FROM pg_index i
      JOIN pg_class c ON c.oid = i.indrelid
      JOIN pg_namespace n ON n.oid = c.relnamespace
      JOIN LATERAL unnest(i.indkey) WITH ORDINALITY AS k(attnum, ord) ON true
      JOIN pg_attribute a ON a.attrelid = c.oid AND a.attnum = k.attnum
     WHERE i.indisprimary AND n.nspname = current_schema() AND c.relname = ANY(${sql.param([...ERASURE_ORDER])}::text[])
     ORDER BY c.relname, k.ord`);
  const keys = new Map<string, StoreKey>(ERASURE_ORDER.map((table) => [table, { table, columns: [] }]));
  for (const row of result.rows) if (row.column !== 'agent_id') keys.get(row.table)!.columns.push({ name: row.column, type: row.type });
  return keys;
}

const ident = (name: string) => sql.raw(`"${name.replace(/"/g, '""')}"`);

/**
 * Deletes up to `limit` rows of the agent in one store, the next ones in key order after
 * `after` (the key of the previous batch's last row; null: from the start), and returns them in
 * that order, as node-postgres read them, for the receipt's hash. Walking the key instead of
 * starting over keeps each batch off the index entries the previous batches left dead.
 * `limit` null: every remaining row (the final step, under the agent's lock).
 */
export async function deleteBatch(tx: DbOrTx, key: StoreKey, agentId: string, after: unknown[] | null, limit: number | null): Promise<Record<string, unknown>[]> {
  const table = ident(key.table);
  // The diary is append-only (migration 0013): its trigger lets a delete through only in a
  // transaction that says it removes entries on purpose, as the retention sweep does.
  if (key.table === 'dream_diary_entries') await tx.execute(sql`SELECT set_config('burrow.dream_diary_retention', 'on', true)`);
  const cols = key.columns.map((c) => ident(c.name));
  const order = cols.length ? sql` ORDER BY ${sql.join(cols, sql`, `)}` : sql``;
  const resume =
    after && cols.length
      ? sql` AND (${sql.join(cols, sql`, `)}) > (${sql.join(
          key.columns.map((c, i) => sql`${after[i]}::${sql.raw(c.type)}`),
          sql`, `,
        )})`
      : sql``;
  const cap = limit === null ? sql`` : sql` LIMIT ${limit}`;
  const match = cols.length ? sql.join([sql`t.agent_id = ${agentId}`, ...cols.map((c) => sql`t.${c} = d.${c}`)], sql` AND `) : sql`t.agent_id = ${agentId}`;
  const doomed = cols.length ? sql`SELECT ${sql.join(cols, sql`, `)} FROM ${table} WHERE agent_id = ${agentId}${resume}${order}${cap}` : sql`SELECT 1`;
  const result = await tx.execute<Record<string, unknown>>(sql`
    WITH doomed AS (${doomed}),
    gone AS (DELETE FROM ${table} t USING doomed d WHERE ${match} RETURNING t.*)
    SELECT * FROM gone${order}`);
  return result.rows;
}

/** The key values of a removed row, to resume the walk after it. */
export const keyOf = (key: StoreKey, row: Record<string, unknown>) => key.columns.map((c) => row[c.name]);
