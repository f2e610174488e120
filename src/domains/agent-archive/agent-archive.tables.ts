/**
 * Which tables an agent archive carries, in foreign-key order (a table comes after every table
 * it references), and which per-agent tables it leaves out and why. The archive copies rows as
 * PostgreSQL prints them rather than through the domain services, so that every column of every
 * store travels byte for byte; the catalog says which columns a table has today.
 * `uncoveredTables` is the guard: a table with an agent_id column that is in neither list stops
 * the export (and test/agent-archive.test.ts), so a new store is never silently left behind.
 */
import type pg from 'pg';
import { AGENT_DATA_TABLES } from '../../db/agent-tables.js';

/** Exported in this order, imported in this order, removed (replace) in the reverse order. */
export const ARCHIVE_TABLES = ['agents', ...AGENT_DATA_TABLES] as const;

/** The event log: only with --include-events (includeEvents=true). */
export const EVENTS_TABLE = 'agent_events';

/** Per-agent tables that never travel, with the reason docs/agent-archive.md gives. */
export const EXCLUDED_TABLES: Record<string, string> = {
  api_tokens: 'token hashes are credentials of this server; the importing operator makes new tokens',
  data_removal_receipts: "this server's record of what it removed; receipts outlive the agent and stay where the removal happened",
  idempotency_keys: "retry answers of this server's tokens, which do not travel: no client of the importing server could send them; a replace deletes them",
};

/** Removed by an import that replaces the agent, before its tables (they would answer retries with rows the import replaced). */
export const IDEMPOTENCY_TABLE = 'idempotency_keys';

/** Columns that never travel: secrets, and values that only mean something on the exporting server. */
export const EXCLUDED_COLUMNS: Record<string, Record<string, string>> = {
  agent_settings: { secret: 'encrypted under the exporting server’s BURROW_SETTINGS_KEY; secrets never travel' },
  agent_events: { tx_id: 'the id of the exporting server’s writing transaction; the import records its own' },
};

/** Rows left out of a table: an agent setting that holds only a secret has nothing left to carry. */
export const ROW_FILTERS: Record<string, string> = { agent_settings: 'value IS NOT NULL' };

export const agentColumnOf = (table: string) => (table === 'agents' ? 'id' : 'agent_id');

export interface TableShape {
  name: string;
  /** Columns in catalog order, excluded ones left out. */
  columns: string[];
  primaryKey: { name: string; type: string }[];
}

/** Base tables of the public schema with an agent_id column that neither list names. */
export async function uncoveredTables(client: pg.Pool | pg.PoolClient): Promise<string[]> {
  const { rows } = await client.query<{ table_name: string }>(
    `SELECT c.table_name FROM information_schema.columns c
       JOIN information_schema.tables t ON t.table_schema = c.table_schema AND t.table_name = c.table_name AND t.table_type = 'BASE TABLE'
      WHERE c.table_schema = 'public' AND c.column_name = 'agent_id' ORDER BY 1`,
  );
  const known = new Set<string>([...ARCHIVE_TABLES, EVENTS_TABLE, ...Object.keys(EXCLUDED_TABLES)]);
  return rows.map((r) => r.table_name).filter((name) => !known.has(name));
}

/** The columns (catalog order) and primary key (with types, for keyset pages) of each table. */
export async function tableShapes(client: pg.Pool | pg.PoolClient, tables: readonly string[]): Promise<Map<string, TableShape>> {
  const { rows: columns } = await client.query<{ table_name: string; column_name: string }>(
    `SELECT table_name, column_name FROM information_schema.columns
      WHERE table_schema = 'public' AND table_name = ANY($1::text[]) ORDER BY table_name, ordinal_position`,
    [tables],
  );
  const { rows: keys } = await client.query<{ table_name: string; column_name: string; type: string }>(
    `SELECT c.conrelid::regclass::text AS table_name, a.attname AS column_name, format_type(a.atttypid, a.atttypmod) AS type
       FROM pg_constraint c CROSS JOIN LATERAL unnest(c.conkey) WITH ORDINALITY AS k(attnum, n)
       JOIN pg_attribute a ON a.attrelid = c.conrelid AND a.attnum = k.attnum
      WHERE c.contype = 'p' AND c.connamespace = 'public'::regnamespace AND c.conrelid::regclass::text = ANY($1::text[])
      ORDER BY 1, k.n`,
    [tables],
  );
  const shapes = new Map<string, TableShape>(tables.map((name) => [name, { name, columns: [], primaryKey: [] }]));
  for (const c of columns) if (!EXCLUDED_COLUMNS[c.table_name]?.[c.column_name]) shapes.get(c.table_name)!.columns.push(c.column_name);
  for (const k of keys) shapes.get(k.table_name)!.primaryKey.push({ name: k.column_name, type: k.type });
  return shapes;
}

/** PostgreSQL identifier quoting (table and column names come from the catalog or a verified header). */
export const ident = (name: string) => `"${name.replace(/"/g, '""')}"`;
