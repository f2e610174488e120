/**
 * Reads an agent archive into this database: first the whole file is verified
 * (agent-archive.verify.ts) with nothing written; then every row is inserted in ONE transaction,
 * in batches of at most BATCH_ROWS rows or BATCH_BYTES bytes per INSERT. Rows go in through
 * json_populate_recordset, so PostgreSQL reads each value from the same text its row_to_json
 * printed (json columns keep their exact text). Under a new agent id every agent_id column and
 * every actor id that named the agent (`*_kind` = 'AGENT' beside `*_id`) are rewritten.
 */
import { createHash } from 'node:crypto';
import type { Readable } from 'node:stream';
import { createGunzip } from 'node:zlib';
import type pg from 'pg';
import { ARCHIVE_TABLES, EVENTS_TABLE, IDEMPOTENCY_TABLE, agentColumnOf, ident, tableShapes } from './agent-archive.tables.js';
import { AGENT_ID_PATTERN, AgentArchiveError, badArchive, linesOf, rowTextOf, type ArchiveHeader } from './agent-archive.format.js';
import { verifyArchive } from './agent-archive.verify.js';

export const BATCH_ROWS = 1000;
export const BATCH_BYTES = 8 * 1024 * 1024;

export interface ImportOptions {
  /** Import under this id instead of the archive's. */
  agentId?: string | null;
  /** Replace an agent that exists under the id (its rows are removed in the same transaction). */
  replace?: boolean;
  onProgress?: (rows: number, table: string) => void;
  /** Called once the file is verified, before the transaction opens. */
  onVerified?: (header: ArchiveHeader) => void;
}

export interface ImportSummary {
  agentId: string;
  fromAgentId: string;
  replaced: boolean;
  counts: Record<string, number>;
  rows: number;
}

/** The value each column is inserted as: the archive's, or rewritten to the new agent id. */
function columnExpression(table: string, column: string, columns: string[]): string {
  if (column === agentColumnOf(table)) return '$2::text';
  const pair = column.endsWith('_id') ? `${column.slice(0, -3)}_kind` : null;
  if (pair && columns.includes(pair)) return `CASE WHEN x.${ident(pair)} = 'AGENT' AND x.${ident(column)} = $3::text THEN $2::text ELSE x.${ident(column)} END`;
  // Event subjects name the agent for agent and profile events (`id`, `postgres:agent_profile_documents/id/KIND`, `id/project`).
  if (table === EVENTS_TABLE && column === 'subject_id') return `regexp_replace(x.subject_id, '(^|[:/])' || $3::text || '(/|$)', '\\1' || $2::text || '\\2')`;
  if (table === EVENTS_TABLE && column === 'payload') {
    const actor = `CASE WHEN x.payload->'actor'->>'kind' = 'AGENT' AND x.payload->'actor'->>'id' = $3::text THEN jsonb_set(x.payload, '{actor,id}', to_jsonb($2::text)) ELSE x.payload END`;
    return `(SELECT CASE WHEN p->>'agentId' = $3::text THEN jsonb_set(p, '{agentId}', to_jsonb($2::text)) ELSE p END FROM (SELECT ${actor} AS p) y)`;
  }
  return `x.${ident(column)}`;
}

function insertStatement(table: string, columns: string[], replace: boolean): string {
  const names = columns.map(ident).join(', ');
  const upsert =
    table === 'agents' && replace
      ? ` ON CONFLICT (id) DO UPDATE SET ${columns
          .filter((c) => c !== 'id')
          .map((c) => `${ident(c)} = EXCLUDED.${ident(c)}`)
          .join(', ')}`
      : '';
  return `INSERT INTO ${ident(table)} (${names}) SELECT ${columns.map((c) => columnExpression(table, c, columns)).join(', ')}
            FROM json_populate_recordset(NULL::${ident(table)}, $1::json) AS x${upsert}`;
}

async function checkColumns(pool: pg.Pool, header: ArchiveHeader): Promise<void> {
  const shapes = await tableShapes(
    pool,
    header.tables.map((t) => t.name),
  );
  for (const t of header.tables) {
    const here = new Set(shapes.get(t.name)!.columns);
    const unknown = t.columns.filter((c) => !here.has(c));
    if (unknown.length) throw badArchive(`${t.name} has no column(s) ${unknown.join(', ')} in this Burrow (an archive of a newer version?)`);
  }
}

/** Verifies the file `open()` returns, then imports it; `open` is called twice (one read per pass). */
export async function importAgentArchive(pool: pg.Pool, open: () => Readable, options: ImportOptions = {}): Promise<ImportSummary> {
  const { header, trailer } = await verifyArchive(open());
  const agentId = options.agentId ?? header.agentId;
  if (!AGENT_ID_PATTERN.test(agentId)) throw new AgentArchiveError('BAD_REQUEST', `"${agentId}" is not an agent id (${AGENT_ID_PATTERN.source})`);
  await checkColumns(pool, header);
  options.onVerified?.(header);
  const columnsOf = new Map(header.tables.map((t) => [t.name, t.columns]));
  const client = await pool.connect();
  let open_ = false;
  try {
    await client.query('BEGIN');
    open_ = true;
    await client.query("SET LOCAL TimeZone = 'UTC'");
    const existing = await client.query('SELECT 1 FROM agents WHERE id = $1 FOR UPDATE', [agentId]);
    const replaced = Boolean(existing.rowCount);
    if (replaced && !options.replace) throw new AgentArchiveError('ALREADY_EXISTS', `agent "${agentId}" already exists: import with replace to overwrite it`);
    if (replaced) {
      // The Dream diary is append-only except for this setting, which retention uses too.
      await client.query("SET LOCAL burrow.dream_diary_retention = 'on'");
      for (const table of [EVENTS_TABLE, ...ARCHIVE_TABLES.slice(1), IDEMPOTENCY_TABLE].reverse()) await client.query(`DELETE FROM ${ident(table)} WHERE agent_id = $1`, [agentId]);
    }
    const hash = createHash('sha256');
    const counts: Record<string, number> = {};
    let rows = 0;
    let batch: string[] = [];
    let batchBytes = 0;
    let batchTable = '';
    const flush = async () => {
      if (!batch.length) return;
      const sql = insertStatement(batchTable, columnsOf.get(batchTable)!, replaced);
      await client.query(sql, [`[${batch.join(',')}]`, agentId, ...(sql.includes('$3') ? [header.agentId] : [])]);
      counts[batchTable] = (counts[batchTable] ?? 0) + batch.length;
      rows += batch.length;
      options.onProgress?.(rows, batchTable);
      batch = [];
      batchBytes = 0;
    };
    const gunzip = createGunzip();
    const input = open();
    input.on('error', (error) => gunzip.destroy(error));
    input.pipe(gunzip);
    let first = true;
    for await (const { bytes } of linesOf(gunzip)) {
      const text = bytes.toString('utf8');
      if (first || text.startsWith('{"end":true')) {
        first = false;
        if (text.startsWith('{"end":true')) break;
        hash.update(bytes).update('\n');
        continue;
      }
      hash.update(bytes).update('\n');
      const table = (JSON.parse(text) as { t: string }).t;
      if (table !== batchTable || batch.length >= BATCH_ROWS || batchBytes + bytes.length > BATCH_BYTES) {
        await flush();
        batchTable = table;
      }
      const row = rowTextOf(text, table);
      batch.push(row);
      batchBytes += row.length;
    }
    await flush();
    // The file was verified in the first pass; it must still be that file.
    if (hash.digest('hex') !== trailer.sha256) throw badArchive('the file changed between verifying and importing it');
    await client.query('COMMIT');
    open_ = false;
    return { agentId, fromAgentId: header.agentId, replaced, counts, rows };
  } catch (error) {
    // Only a file changed after its verification can fail to parse here.
    if (error instanceof SyntaxError) throw badArchive('the file changed between verifying and importing it');
    const code = (error as { code?: string }).code ?? '';
    if (code === '23505' && (error as { constraint?: string }).constraint === 'agents_pkey') {
      throw new AgentArchiveError('ALREADY_EXISTS', `agent "${agentId}" already exists: import with replace to overwrite it`);
    }
    // PostgreSQL refusing the archive's data: a value or a key it does not accept. Nothing is written.
    if (code.startsWith('22') || code.startsWith('23'))
      throw badArchive(`this database refused the archive's rows (SQLSTATE ${code}${(error as { table?: string }).table ? ` in ${(error as { table?: string }).table}` : ''})`);
    throw error;
  } finally {
    if (open_) await client.query('ROLLBACK').catch(() => {});
    client.release();
  }
}
