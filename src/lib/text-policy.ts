/**
 * The one text policy. Every text a client can send (GraphQL arguments through the schema's
 * text-policy plugin, the CLI, imports) passes these checks before anything is stored, and a
 * refusal is a ValidationError naming the field:
 * - NUL (U+0000): PostgreSQL text cannot hold it; the database would fail on it unexpectedly.
 * - lone UTF-16 surrogates: they have no UTF-8 form, so the driver would silently store U+FFFD.
 * - in identifiers and names, bidirectional control characters (they make one id read as another)
 *   and more than IDENTIFIER_LIMIT characters (an index entry must fit a btree page; every id,
 *   name, kind and scope in the model is at most 200).
 * - JSON documents (conversation payloads, continuity heads, results, effects): the rules above on
 *   the text as sent, valid JSON, and at most JSON_DEPTH_LIMIT levels deep (PostgreSQL's json
 *   parser recurses and runs out of stack long before 100,000 levels). Escapes inside the JSON
 *   (`\u0000`, a lone `\ud800`) are kept as written: the json columns store the text as sent.
 */
import { ValidationError } from './errors.js';
import { charLength } from './text.js';

/** How deeply arrays and objects may nest in a JSON document. */
export const JSON_DEPTH_LIMIT = 64;
/** The longest identifier or name; global ids (GraphQL ID, which encode a type and a key) get twice this. */
export const IDENTIFIER_LIMIT = 256;

const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;
/** ALM, LRM, RLM, the embeddings and overrides (LRE RLE PDF LRO RLO), and the isolates (LRI RLI FSI PDI). */
const BIDI_CONTROL = /[\u061C\u200E\u200F\u202A-\u202E\u2066-\u2069]/;

/** Argument and input-field names that hold identifiers or names (bidi controls refused there). */
export function isIdentifierField(name: string): boolean {
  return /^(id|name|kind|role|project|turnRef)$/.test(name) || /Ids?$/.test(name);
}

/** The text policy for one value. `limit` is reported with the refusal, when the field has one. */
export function assertCleanText(
  field: string,
  value: string | null | undefined,
  limit: number | null = null,
  options: { identifier?: boolean; identifierLimit?: number } = {},
): void {
  if (value == null) return;
  if (value.includes('\u0000')) throw new ValidationError(field, `${field} must not contain the NUL character (U+0000)`, limit);
  if (LONE_SURROGATE.test(value)) throw new ValidationError(field, `${field} must not contain a lone UTF-16 surrogate (invalid Unicode)`, limit);
  if (!(options.identifier ?? isIdentifierField(lastSegment(field)))) return;
  if (BIDI_CONTROL.test(value)) {
    throw new ValidationError(field, `${field} must not contain bidirectional control characters (U+202A-U+202E, U+2066-U+2069, U+200E, U+200F, U+061C)`, limit);
  }
  const bound = options.identifierLimit ?? IDENTIFIER_LIMIT;
  // value.length counts UTF-16 units, never fewer than code points: only long values are counted.
  if (value.length > bound && charLength(value) > bound) throw new ValidationError(field, `${field} is an identifier or name of at most ${bound} characters`, bound);
}

const lastSegment = (field: string) => field.slice(field.lastIndexOf('.') + 1);

/**
 * A JSON document sent as text: the text policy on the text as sent, then the depth bound
 * (counted on the text, before any parser recurses), then well-formed JSON. The text itself is
 * what gets stored.
 */
export function assertJsonText(field: string, text: string, limit: number | null = null): void {
  assertCleanText(field, text, limit, { identifier: false });
  assertJsonDepth(field, text);
  try {
    JSON.parse(text);
  } catch (error) {
    throw new ValidationError(field, `${field} must be JSON text: ${(error as Error).message}`, limit);
  }
}

function assertJsonDepth(field: string, text: string): void {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 0x5c)
        i++; // backslash: skip the escaped character
      else if (c === 0x22) inString = false;
    } else if (c === 0x22) inString = true;
    else if (c === 0x5b || c === 0x7b) {
      if (++depth > JSON_DEPTH_LIMIT) throw new ValidationError(field, `${field} nests arrays and objects deeper than ${JSON_DEPTH_LIMIT} levels`, JSON_DEPTH_LIMIT);
    } else if (c === 0x5d || c === 0x7d) depth--;
  }
}

/**
 * A JSON value that arrived already parsed (a JSON scalar argument): the same depth bound and
 * the text policy on every string and key, walked without recursion.
 */
export function assertJsonValue(field: string, value: unknown): void {
  const stack: { value: unknown; depth: number }[] = [{ value, depth: 0 }];
  while (stack.length > 0) {
    const { value: current, depth } = stack.pop()!;
    if (typeof current === 'string') assertCleanText(field, current, null, { identifier: false });
    else if (current !== null && typeof current === 'object') {
      if (depth + 1 > JSON_DEPTH_LIMIT) throw new ValidationError(field, `${field} nests arrays and objects deeper than ${JSON_DEPTH_LIMIT} levels`, JSON_DEPTH_LIMIT);
      for (const [key, item] of Object.entries(current)) {
        if (!Array.isArray(current)) assertCleanText(field, key, null, { identifier: false });
        stack.push({ value: item, depth: depth + 1 });
      }
    }
  }
}

/**
 * The policy over a tree of named arguments that did not come through the GraphQL schema (an
 * MCP tool call's input): each string checked under its path (`sourceRefs.1`), identifiers
 * recognised by name as in GraphQL, nesting bounded like JSON.
 */
export function assertCleanArguments(args: unknown): void {
  const stack: { value: unknown; path: string; depth: number }[] = [{ value: args, path: '', depth: 0 }];
  while (stack.length > 0) {
    const { value, path, depth } = stack.pop()!;
    if (typeof value === 'string') {
      const name =
        path
          .split('.')
          .filter((segment) => !/^\d+$/.test(segment))
          .pop() ?? path;
      assertCleanText(path, value, null, { identifier: isIdentifierField(name) });
    } else if (value !== null && typeof value === 'object') {
      if (depth + 1 > JSON_DEPTH_LIMIT) throw new ValidationError(path, `${path} nests deeper than ${JSON_DEPTH_LIMIT} levels`, JSON_DEPTH_LIMIT);
      for (const [key, item] of Object.entries(value)) stack.push({ value: item, path: path ? `${path}.${key}` : key, depth: depth + 1 });
    }
  }
}
