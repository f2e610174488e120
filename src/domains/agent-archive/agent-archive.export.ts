/**
 * Writes one agent as an archive (agent-archive.format.ts) to a byte sink. Everything is read in
 * one REPEATABLE READ, read-only transaction, so the file is one consistent moment of the agent
 * even while it keeps writing; each table is read in keyset pages of PAGE_ROWS rows by its
 * primary key and written through gzip with backpressure, so memory stays bounded whatever the
 * agent's size.
 */
import { createHash } from 'node:crypto';
import { once } from 'node:events';
import type { Writable } from 'node:stream';
import { createGzip } from 'node:zlib';
import type pg from 'pg';
import { ARCHIVE_TABLES, EVENTS_TABLE, ROW_FILTERS, agentColumnOf, ident, tableShapes, uncoveredTables, type TableShape } from './agent-archive.tables.js';
import { AgentArchiveError, ARCHIVE_FORMAT, ARCHIVE_VERSION, rowLine, type ArchiveHeader, type ArchiveTrailer } from './agent-archive.format.js';

export const PAGE_ROWS = 1000;

export interface ExportOptions {
  includeEvents?: boolean;
  /** Called after every page with the rows written so far (all tables). */
  onProgress?: (rows: number, table: string) => void;
}

export interface ExportSummary {
  counts: Record<string, number>;
  rows: number;
  sha256: string;
}

/** The page query of a table: the exported columns as row_to_json prints them, after a keyset position. */
function pageQuery(shape: TableShape, after: boolean): string {
  const key = shape.primaryKey.map((k) => ident(k.name)).join(', ');
  const position = after ? ` AND (${key}) > (${shape.primaryKey.map((k, i) => `$${i + 2}::${k.type}`).join(', ')})` : '';
  const filter = ROW_FILTERS[shape.name] ? ` AND ${ROW_FILTERS[shape.name]}` : '';
  return `SELECT row_to_json(s)::text AS r, json_build_array(${shape.primaryKey.map((k) => `s.${ident(k.name)}`).join(', ')})::text AS k
            FROM (SELECT ${shape.columns.map(ident).join(', ')} FROM ${ident(shape.name)}
                   WHERE ${ident(agentColumnOf(shape.name))} = $1${filter}${position} ORDER BY ${key} LIMIT ${PAGE_ROWS}) s
           ORDER BY ${shape.primaryKey.map((k) => `s.${ident(k.name)}`).join(', ')}`;
}

/**
 * Streams the archive of `agentId` into `sink` (ended when done). Refuses an unknown agent
 * (NOT_FOUND) and a database with a per-agent table the archive does not cover, before writing.
 */
export async function exportAgentArchive(pool: pg.Pool, agentId: string, sink: Writable, options: ExportOptions = {}): Promise<ExportSummary> {
  const client = await pool.connect();
  const gzip = createGzip();
  gzip.pipe(sink);
  // The export ends with the first failure of either stream: a receiver that goes away (an HTTP
  // client hanging up, a full disk) stops it instead of leaving it waiting for a drain that never
  // comes with its transaction open. Every 'error' has a listener, so none reaches the process.
  let failure: Error | null = null;
  let finished = false;
  const ended = new Promise<void>((resolve, reject) => {
    const fail = (error: Error) => {
      failure ??= error;
      reject(failure);
      gzip.destroy();
    };
    gzip.on('error', fail);
    sink.on('error', fail);
    sink.once('finish', () => ((finished = true), resolve()));
    sink.once('close', () => finished || fail(new Error('the archive receiver closed before the end')));
  });
  ended.catch(() => {}); // awaited at the end; an earlier failure is thrown by the next write
  let opened = false;
  try {
    await client.query('BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY');
    opened = true;
    // Timestamps print the same whichever server or session exports them.
    await client.query("SET LOCAL TimeZone = 'UTC'");
    const uncovered = await uncoveredTables(client);
    if (uncovered.length) throw new Error(`the agent archive does not cover the table(s) ${uncovered.join(', ')}: name each in agent-archive.tables.ts`);
    const exists = await client.query('SELECT 1 FROM agents WHERE id = $1', [agentId]);
    if (!exists.rowCount) throw new AgentArchiveError('NOT_FOUND', `no agent "${agentId}"`);
    const tables = [...ARCHIVE_TABLES, ...(options.includeEvents ? [EVENTS_TABLE] : [])];
    const shapes = await tableShapes(client, tables);
    const hash = createHash('sha256');
    const write = async (text: string) => {
      if (failure) throw failure;
      hash.update(text);
      if (!gzip.write(text)) await Promise.race([once(gzip, 'drain'), ended]);
    };
    const header: ArchiveHeader = {
      format: ARCHIVE_FORMAT,
      version: ARCHIVE_VERSION,
      agentId,
      exportedAt: new Date().toISOString(),
      includesEvents: Boolean(options.includeEvents),
      tables: tables.map((name) => ({ name, columns: shapes.get(name)!.columns })),
    };
    await write(`${JSON.stringify(header)}\n`);
    const counts: Record<string, number> = {};
    let rows = 0;
    for (const table of tables) {
      const shape = shapes.get(table)!;
      counts[table] = 0;
      let after: unknown[] | null = null;
      for (;;) {
        const page: pg.QueryResult<{ r: string; k: string }> = await client.query(pageQuery(shape, after !== null), [agentId, ...(after ?? []).map((v) => String(v))]);
        for (const row of page.rows) await write(rowLine(table, row.r));
        counts[table] += page.rows.length;
        rows += page.rows.length;
        if (page.rows.length) options.onProgress?.(rows, table);
        if (page.rows.length < PAGE_ROWS) break;
        after = JSON.parse(page.rows[page.rows.length - 1].k) as unknown[];
      }
    }
    const { rows: left } = await client.query<{ n: number }>('SELECT count(*)::int AS n FROM agent_settings WHERE agent_id = $1 AND value IS NULL AND secret IS NOT NULL', [
      agentId,
    ]);
    const sha256 = hash.digest('hex');
    const trailer: ArchiveTrailer = { end: true, counts, secretOnlySettingsLeftOut: left[0].n, sha256 };
    gzip.end(`${JSON.stringify(trailer)}\n`);
    await ended;
    await client.query('COMMIT');
    opened = false;
    return { counts, rows, sha256 };
  } catch (error) {
    gzip.destroy();
    throw error;
  } finally {
    if (opened) await client.query('ROLLBACK').catch(() => {});
    client.release();
  }
}
