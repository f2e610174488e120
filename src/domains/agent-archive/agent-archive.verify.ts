/**
 * The import's first pass: reads the whole file and checks it before anything is written. A
 * file that does not decompress, is cut short, has a line that is not what the format says, a
 * row of another agent, counts that differ from its trailer or a hash that differs from its
 * bytes is refused (BAD_ARCHIVE). Runs in bounded memory: one line at a time.
 */
import { createHash } from 'node:crypto';
import type { Readable } from 'node:stream';
import { createGunzip } from 'node:zlib';
import { ARCHIVE_TABLES, EVENTS_TABLE, agentColumnOf } from './agent-archive.tables.js';
import { AGENT_ID_PATTERN, ARCHIVE_FORMAT, ARCHIVE_VERSION, badArchive, linesOf, parseJson, type ArchiveHeader, type ArchiveTrailer } from './agent-archive.format.js';

export interface VerifiedArchive {
  header: ArchiveHeader;
  trailer: ArchiveTrailer;
}

function checkHeader(value: Record<string, unknown>): ArchiveHeader {
  if (value.format !== ARCHIVE_FORMAT) throw badArchive(`not a ${ARCHIVE_FORMAT} file`);
  if (value.version !== ARCHIVE_VERSION) throw badArchive(`archive version ${String(value.version)} is not supported (this Burrow reads version ${ARCHIVE_VERSION})`);
  if (typeof value.agentId !== 'string' || !AGENT_ID_PATTERN.test(value.agentId)) throw badArchive('the header has no valid agentId');
  if (typeof value.includesEvents !== 'boolean' || !Array.isArray(value.tables)) throw badArchive('the header lacks includesEvents or tables');
  const allowed = [...ARCHIVE_TABLES, ...(value.includesEvents ? [EVENTS_TABLE] : [])];
  const names = (value.tables as { name?: unknown }[]).map((t) => t?.name);
  // An archive from an older Burrow may lack a store added since; never one this Burrow does not know.
  const positions = names.map((n) => allowed.indexOf(n as (typeof allowed)[number]));
  if (names[0] !== 'agents' || positions.some((p, i) => p === -1 || (i > 0 && p <= positions[i - 1]))) {
    throw badArchive(`the header's tables must be among ${allowed.join(', ')}, in that order, starting with agents`);
  }
  for (const t of value.tables as { columns?: unknown }[]) {
    if (!Array.isArray(t.columns) || t.columns.some((c) => typeof c !== 'string')) throw badArchive('a table of the header has no column list');
  }
  return value as unknown as ArchiveHeader;
}

/** Reads `input` (the compressed file) to its end; resolves with its header and trailer, or throws BAD_ARCHIVE. */
export async function verifyArchive(input: Readable): Promise<VerifiedArchive> {
  const gunzip = createGunzip();
  input.on('error', (error) => gunzip.destroy(error));
  input.pipe(gunzip);
  const hash = createHash('sha256');
  let header: ArchiveHeader | null = null;
  let trailer: ArchiveTrailer | null = null;
  let tableIndex = 0;
  const counts: Record<string, number> = {};
  try {
    for await (const { bytes, terminated } of linesOf(gunzip)) {
      if (!terminated) throw badArchive('the file is truncated: its last line has no end');
      if (trailer) throw badArchive('lines follow the trailer');
      if (!header) {
        header = checkHeader(parseJson(bytes, 'the first line'));
        for (const t of header.tables) counts[t.name] = 0;
      } else {
        const line = parseJson(bytes, 'a line');
        if (line.end === true) {
          trailer = line as unknown as ArchiveTrailer;
          continue;
        }
        const table = line.t;
        const row = line.r as Record<string, unknown> | undefined;
        if (typeof table !== 'string' || !row || typeof row !== 'object') throw badArchive('a row line is not {"t":table,"r":row}');
        while (tableIndex < header.tables.length && header.tables[tableIndex].name !== table) tableIndex += 1;
        if (tableIndex === header.tables.length) throw badArchive(`a row of "${table}" is out of the header's table order`);
        if (row[agentColumnOf(table)] !== header.agentId) throw badArchive(`a row of "${table}" belongs to another agent`);
        counts[table] += 1;
      }
      hash.update(bytes);
      hash.update('\n');
    }
  } catch (error) {
    // zlib's own errors (bad header, truncated stream, bad checksum) mean the same: not an intact archive.
    if ((error as { code?: string }).code?.startsWith?.('Z_')) throw badArchive(`the file does not decompress: ${(error as Error).message}`);
    throw error;
  }
  if (!header) throw badArchive('the file is empty');
  if (!trailer) throw badArchive('the file is truncated: it has no trailer');
  if (typeof trailer.sha256 !== 'string' || trailer.sha256 !== hash.digest('hex')) throw badArchive("the file's SHA-256 differs from its trailer: it was changed or damaged");
  for (const t of header.tables) {
    if (trailer.counts?.[t.name] !== counts[t.name]) throw badArchive(`the trailer counts ${String(trailer.counts?.[t.name])} rows of ${t.name}, the file holds ${counts[t.name]}`);
  }
  if (counts.agents !== 1) throw badArchive('the file does not hold exactly one agent row');
  return { header, trailer };
}
