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

const malformed = () => new RequestError('BAD_CURSOR', 'the cursor is malformed');

/** Returns the position, or null for no cursor. Malformed: BAD_CURSOR; other binding: CURSOR_MISMATCH. */
export function decodeCursor(cursor: string | null | undefined, binding: string): unknown[] | null {
  if (cursor == null) return null;
  let parsed: { b?: unknown; p?: unknown };
  try {
    parsed = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
  } catch {
    throw malformed();
  }
  if (typeof parsed !== 'object' || parsed === null || typeof parsed.b !== 'string' || !Array.isArray(parsed.p)) {
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
  const at = typeof time === 'string' ? new Date(time) : null;
  if (position.length !== 2 || !at || Number.isNaN(at.getTime()) || typeof id !== 'string') throw malformed();
  return { at, id };
}

export const encodeTimeIdCursor = (binding: string, at: Date, id: string) => encodeCursor(binding, [at.toISOString(), id]);

/** A cursor holding one non-negative integer position (e.g. a conversation entry's position). */
export function decodePositionCursor(cursor: string | null | undefined, binding: string): number | null {
  const position = decodeCursor(cursor, binding);
  if (!position) return null;
  const [value] = position;
  if (position.length !== 1 || typeof value !== 'number' || !Number.isSafeInteger(value) || value < 0) throw malformed();
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
  return {
    edges,
    pageInfo: {
      hasNextPage: rows.length > limit,
      hasPreviousPage: after != null,
      get startCursor() {
        return page.length ? cursorOf(page[0]) : null;
      },
      get endCursor() {
        return page.length ? cursorOf(page[page.length - 1]) : null;
      },
    },
  };
}
