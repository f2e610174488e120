/**
 * How an idempotent write's request is compared and its answer kept (docs/idempotency.md).
 * The request: a SHA-256 over the operation and its input in a canonical JSON (keys sorted,
 * absent and null alike), so a retry that sends the same values in another order still matches.
 * The answer: the service's own return value as JSON, plus the paths of its Date values, so a
 * replay hands the GraphQL field and the MCP serializer the same kinds of values the first
 * answer did. No marker inside the value itself: a user's text can never be mistaken for a date.
 */
import { createHash } from 'node:crypto';

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };

/** Keys sorted, null and undefined dropped, Dates as ISO text: the form that is hashed. */
function canonical(value: unknown): Json {
  if (value === null || value === undefined) return null;
  if (value instanceof Date) return value.toISOString();
  if (Array.isArray(value)) return value.map(canonical);
  if (typeof value === 'object') {
    const out: Record<string, Json> = {};
    for (const key of Object.keys(value).sort()) {
      const inner = (value as Record<string, unknown>)[key];
      if (inner !== null && inner !== undefined) out[key] = canonical(inner);
    }
    return out;
  }
  if (typeof value === 'bigint') return value.toString();
  return value as Json;
}

export function requestHash(operation: string, request: unknown): string {
  return createHash('sha256')
    .update(JSON.stringify([operation, canonical(request)]))
    .digest('hex');
}

/** A stored answer: the value as JSON and where its Dates were. */
export interface StoredResult {
  value: Json;
  dates: (string | number)[][];
}

export function encodeResult(result: unknown): StoredResult {
  const dates: (string | number)[][] = [];
  const walk = (value: unknown, path: (string | number)[]): Json => {
    if (value === null || value === undefined) return null;
    if (value instanceof Date) {
      dates.push(path);
      return value.toISOString();
    }
    if (Array.isArray(value)) return value.map((item, i) => walk(item, [...path, i]));
    if (typeof value === 'object') {
      const out: Record<string, Json> = {};
      for (const [key, inner] of Object.entries(value)) if (inner !== undefined) out[key] = walk(inner, [...path, key]);
      return out;
    }
    if (typeof value === 'bigint') return value.toString();
    return value as Json;
  };
  return { value: walk(result, []), dates };
}

export function decodeResult<T>(stored: StoredResult): T {
  if (stored.dates.some((path) => path.length === 0)) return new Date(stored.value as string) as T;
  const root = structuredClone(stored.value);
  for (const path of stored.dates) {
    let parent = root as Record<string | number, Json>;
    for (const step of path.slice(0, -1)) parent = parent[step] as Record<string | number, Json>;
    const last = path[path.length - 1];
    (parent as Record<string | number, unknown>)[last] = new Date(parent[last] as string);
  }
  return root as T;
}
