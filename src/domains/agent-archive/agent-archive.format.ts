/**
 * The agent archive file (docs/agent-archive.md): gzip-compressed JSON Lines. Line 1 is the
 * header, then one line per row (`{"t":table,"r":row}`, the row exactly as PostgreSQL's
 * row_to_json printed it), and the last line is the trailer with the row counts per table and
 * the SHA-256 of every byte before it (after decompression). Lines are split on bytes, never
 * decoded and re-encoded, so the hash sees what was written.
 */
import type { Readable } from 'node:stream';

export const ARCHIVE_FORMAT = 'burrow-agent-archive';
export const ARCHIVE_VERSION = 1;
/** No line of a valid archive is longer (a row is bounded far below it); a longer one is refused before it fills memory. */
export const MAX_LINE_BYTES = 256 * 1024 * 1024;
export const AGENT_ID_PATTERN = /^[a-z0-9][a-z0-9_-]{0,62}$/;

export interface ArchiveHeader {
  format: typeof ARCHIVE_FORMAT;
  version: number;
  agentId: string;
  exportedAt: string;
  includesEvents: boolean;
  tables: { name: string; columns: string[] }[];
}

export interface ArchiveTrailer {
  end: true;
  counts: Record<string, number>;
  /** Agent settings that held only a secret, left out (secrets never travel). */
  secretOnlySettingsLeftOut: number;
  sha256: string;
}

export type ArchiveErrorCode = 'BAD_ARCHIVE' | 'ALREADY_EXISTS' | 'NOT_FOUND' | 'LIMIT_EXCEEDED' | 'BAD_REQUEST';

/** An expected refusal: the CLI prints the message, HTTP answers it as JSON with the status its code maps to. */
export class AgentArchiveError extends Error {
  constructor(
    readonly code: ArchiveErrorCode,
    message: string,
  ) {
    super(message);
    this.name = 'AgentArchiveError';
  }
}

export const badArchive = (message: string) => new AgentArchiveError('BAD_ARCHIVE', message);

/** The bytes of a row line, built without re-serializing the row. */
export const rowLine = (table: string, rowJson: string) => `{"t":${JSON.stringify(table)},"r":${rowJson}}\n`;

/** The row's JSON text inside a row line, as written (for json columns that must stay byte-identical). */
export function rowTextOf(line: string, table: string): string {
  const prefix = `{"t":${JSON.stringify(table)},"r":`;
  if (!line.startsWith(prefix) || !line.endsWith('}')) throw badArchive('a row line is not {"t":table,"r":row}');
  return line.slice(prefix.length, -1);
}

/** Each line of a decompressed stream as bytes, without its newline; the last piece too (a truncated file ends without one). */
export async function* linesOf(input: Readable): AsyncGenerator<{ bytes: Buffer; terminated: boolean }> {
  let pending: Buffer[] = [];
  let pendingLength = 0;
  for await (const chunk of input as AsyncIterable<Buffer>) {
    let start = 0;
    for (let i = chunk.indexOf(10); i !== -1; i = chunk.indexOf(10, start)) {
      const piece = chunk.subarray(start, i);
      yield { bytes: pending.length ? Buffer.concat([...pending, piece]) : piece, terminated: true };
      pending = [];
      pendingLength = 0;
      start = i + 1;
    }
    if (start < chunk.length) {
      pending.push(chunk.subarray(start));
      pendingLength += chunk.length - start;
      if (pendingLength > MAX_LINE_BYTES) throw badArchive(`a line is longer than ${MAX_LINE_BYTES} bytes`);
    }
  }
  if (pendingLength) yield { bytes: Buffer.concat(pending), terminated: false };
}

export function parseJson(bytes: Buffer, what: string): Record<string, unknown> {
  try {
    const value: unknown = JSON.parse(bytes.toString('utf8'));
    if (value && typeof value === 'object' && !Array.isArray(value)) return value as Record<string, unknown>;
  } catch {
    // reported below
  }
  throw badArchive(`${what} is not a JSON object`);
}
