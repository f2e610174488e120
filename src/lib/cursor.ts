/**
 * Opaque keyset cursors bound to what produced them. A cursor carries a binding (e.g. the agent
 * and the query); reusing it with another binding is rejected, never silently reinterpreted.
 */
import { RequestError, badRequest } from './errors.js';
import { sha256Hex } from './ids.js';

export interface PageArgs {
  first?: number | null;
  after?: string | null;
}

export const bindingOf = (...parts: (string | null | undefined)[]) => sha256Hex(JSON.stringify(parts)).slice(0, 16);

export function encodeCursor(binding: string, position: unknown[]): string {
  return Buffer.from(JSON.stringify({ b: binding, p: position })).toString('base64url');
}

/** BAD_CURSOR: a cursor that no list of this server wrote (damaged, tampered, or made up). */
export const malformedCursor = () => new RequestError('BAD_CURSOR', 'the cursor is malformed');
const malformed = malformedCursor;

/**
 * The span of time a cursor's position may name: years 0001 to 9999, what ISO 8601 writes with
 * four digits. A JavaScript Date reaches further than PostgreSQL's timestamps, so a tampered
 * position such as `-271821-04-20T00:00:00.000Z` is refused here as BAD_CURSOR rather than by
 * the database as an out-of-range value.
 */
const EARLIEST_MS = Date.parse('0001-01-01T00:00:00.000Z');
const LATEST_MS = Date.parse('9999-12-31T23:59:59.999Z');
/** The largest value of an `integer` (int4) column. */
export const INT4_MAX = 2_147_483_647;

/** A position's timestamp as the server wrote it (`Date#toISOString`), or null. */
export function cursorTime(value: unknown): Date | null {
  if (typeof value !== 'string') return null;
  const at = new Date(value);
  const ms = at.getTime();
  if (Number.isNaN(ms) || ms < EARLIEST_MS || ms > LATEST_MS || at.toISOString() !== value) return null;
  return at;
}

/** A position's timestamp in microseconds since the epoch, as decimal text, within the same span; or null. */
export function cursorMicros(value: unknown): string | null {
  if (typeof value !== 'string' || !/^-?\d{1,18}$/.test(value)) return null;
  const micros = BigInt(value);
  return micros >= BigInt(EARLIEST_MS) * 1000n && micros <= BigInt(LATEST_MS) * 1000n + 999n ? value : null;
}

/** Text PostgreSQL refuses (U+0000) anywhere in a position's strings. */
const holdsNul = (value: unknown): boolean => (typeof value === 'string' ? value.includes('\u0000') : Array.isArray(value) ? value.some(holdsNul) : false);

/** Returns the position, or null for no cursor. Malformed: BAD_CURSOR; other binding: CURSOR_MISMATCH. */
export function decodeCursor(cursor: string | null | undefined, binding: string): unknown[] | null {
  if (cursor == null) return null;
  let parsed: { b?: unknown; p?: unknown };
  try {
    parsed = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
  } catch {
    throw malformed();
  }
  if (typeof parsed !== 'object' || parsed === null || typeof parsed.b !== 'string' || !Array.isArray(parsed.p) || holdsNul(parsed.p)) {
    throw malformed();
  }
  if (parsed.b !== binding) {
    throw new RequestError('CURSOR_MISMATCH', 'this cursor belongs to another list (another agent, query or filter); start again without it');
  }
  return parsed.p;
}

/**
 * A (timestamp, id) keyset cursor, the shape every newest-first list uses. A cursor whose binding
 * is right but whose position was tampered with is BAD_CURSOR, like any other malformed cursor.
 */
export function decodeTimeIdCursor(cursor: string | null | undefined, binding: string): { at: Date; id: string } | null {
  const position = decodeCursor(cursor, binding);
  if (!position) return null;
  const [time, id] = position;
  const at = cursorTime(time);
  if (position.length !== 2 || !at || typeof id !== 'string') throw malformed();
  return { at, id };
}

export const encodeTimeIdCursor = (binding: string, at: Date, id: string) => encodeCursor(binding, [at.toISOString(), id]);

/**
 * A cursor holding one non-negative integer position (e.g. a conversation entry's position), at
 * most `max`: INT4_MAX where the column is an `integer`, so a tampered position never reaches
 * the database out of its column's range.
 */
export function decodePositionCursor(cursor: string | null | undefined, binding: string, max = Number.MAX_SAFE_INTEGER): number | null {
  const position = decodeCursor(cursor, binding);
  if (!position) return null;
  const [value] = position;
  if (position.length !== 1 || typeof value !== 'number' || !Number.isSafeInteger(value) || value < 0 || value > max) throw malformed();
  return value;
}

/** Validates a page size: 1..max, default `fallback`. */
export function pageSize(first: number | null | undefined, max: number, fallback = Math.min(20, max)): number {
  if (first == null) return fallback;
  if (!Number.isInteger(first) || first < 1 || first > max) {
    throw badRequest(`first must be between 1 and ${max} (got ${first})`);
  }
  return first;
}

/**
 * One edge of a page. Its cursor is encoded only when selected: most queries ask for
 * pageInfo.endCursor alone, and encoding one per edge (JSON + base64) was a visible share of a
 * nested read's profile. A class rather than an object literal with a getter, which allocated a
 * closure per edge.
 */
class Edge<T> {
  constructor(
    readonly node: T,
    private readonly cursorOf: (row: T) => string,
  ) {}

  get cursor(): string {
    return this.cursorOf(this.node);
  }
}

/**
 * Builds a Relay connection from rows fetched with limit + 1. `after` is the cursor the page
 * started after: a page that starts after a cursor has rows before it (the cursor's own row).
 */
export function toConnection<T>(rows: T[], limit: number, cursorOf: (row: T) => string, after: string | null | undefined) {
  const page = rows.slice(0, limit);
  const edges = page.map((node) => new Edge(node, cursorOf));
  return { edges, pageInfo: new PageInfo(page, cursorOf, rows.length > limit, after != null) };
}

/**
 * A page's pageInfo, its two cursors encoded only when selected. A class, not an object literal
 * with getters: with the literal, each request's whole graph (context, rows, HTTP objects)
 * survived V8's young collections and was promoted, a tenth of what `agents(first: 1)` allocated,
 * and on the nested read the scavenges were a fifth of the CPU (docs/performance.md, tenth
 * round). Measured, and found by taking the literal out; why is inferred: V8 gives a literal's
 * getters a hidden class of that one object, in the old generation, which holds their closures.
 */
class PageInfo<T> {
  constructor(
    private readonly page: T[],
    private readonly cursorOf: (row: T) => string,
    readonly hasNextPage: boolean,
    readonly hasPreviousPage: boolean,
  ) {}

  get startCursor(): string | null {
    return this.page.length ? this.cursorOf(this.page[0]) : null;
  }

  get endCursor(): string | null {
    return this.page.length ? this.cursorOf(this.page[this.page.length - 1]) : null;
  }
}
