/**
 * Helpers of the agent archive tests: export to and import from a temporary file, every row of
 * every archived table of one agent as PostgreSQL prints it, and row counts per table.
 */
import { createReadStream, createWriteStream, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gunzipSync, gzipSync } from 'node:zlib';
import type pg from 'pg';
import { exportAgentArchive, type ExportOptions } from '../../src/domains/agent-archive/agent-archive.export.js';
import { importAgentArchive, type ImportOptions } from '../../src/domains/agent-archive/agent-archive.import.js';
import { ARCHIVE_TABLES, EVENTS_TABLE, agentColumnOf, ident, tableShapes } from '../../src/domains/agent-archive/agent-archive.tables.js';

const dir = mkdtempSync(join(tmpdir(), 'burrow-archive-'));
let files = 0;
export const tempPath = (name = 'agent') => join(dir, `${name}-${++files}.burrow-agent.gz`);

export async function exportToFile(pool: pg.Pool, agentId: string, options: ExportOptions = {}): Promise<string> {
  const path = tempPath(agentId);
  await exportAgentArchive(pool, agentId, createWriteStream(path), options);
  return path;
}

export const importFile = (pool: pg.Pool, path: string, options: ImportOptions = {}) => importAgentArchive(pool, () => createReadStream(path), options);

/** The decompressed lines of an archive file. */
export const linesOfFile = (path: string) => gunzipSync(readFileSync(path)).toString('utf8').split('\n').slice(0, -1);

/** Writes `lines` (decompressed, without newlines) as a new archive file. */
export function writeLines(lines: string[]): string {
  const path = tempPath('edited');
  writeFileSync(path, gzipSync(`${lines.join('\n')}\n`));
  return path;
}

export const ALL_TABLES = [...ARCHIVE_TABLES, EVENTS_TABLE];

/** Every row of the agent in every archived table (all columns but tx_id), as row_to_json prints it, in key order. */
export async function rowsOf(pool: pg.Pool, agentId: string, tables: readonly string[] = ALL_TABLES): Promise<Record<string, string[]>> {
  const shapes = await tableShapes(pool, tables);
  const out: Record<string, string[]> = {};
  for (const table of tables) {
    const shape = shapes.get(table)!;
    const columns = table === 'agent_settings' ? [...shape.columns, 'secret'] : shape.columns;
    const { rows } = await pool.query<{ r: string }>(
      `SELECT row_to_json(s)::text AS r FROM (SELECT ${columns.map(ident).join(', ')} FROM ${ident(table)} WHERE ${ident(agentColumnOf(table))} = '${agentId}'
        ORDER BY ${shape.primaryKey.map((k) => ident(k.name)).join(', ')}) s`,
    );
    out[table] = rows.map((r) => r.r);
  }
  return out;
}

/** Rows per table of the whole database (every agent), to prove a refusal wrote nothing. */
export async function countsOf(pool: pg.Pool): Promise<Record<string, number>> {
  const out: Record<string, number> = {};
  for (const table of [...ALL_TABLES, 'api_tokens']) out[table] = Number((await pool.query(`SELECT count(*) AS n FROM ${ident(table)}`)).rows[0].n);
  return out;
}
