/** Source references that cite an original (`conversation:<sessionId>/<entryId>`): made, parsed and resolved. */
import { sql, type SQL } from 'drizzle-orm';
import { ORIGINAL_COLUMNS, toOriginal, type RawOriginal } from './conversations.rows.js';
import type { ConversationDeps, OriginalRow } from './conversations.types.js';

export const ORIGINAL_REF_PREFIX = 'conversation:';
export const originalReference = (sessionId: string, entryId: string) => `${ORIGINAL_REF_PREFIX}${sessionId}/${entryId}`;

/** `conversation:<sessionId>/<entryId>` -> its parts (entry ids never contain "/"), or null. */
export function parseOriginalReference(ref: string): { sessionId: string; entryId: string } | null {
  if (!ref.startsWith(ORIGINAL_REF_PREFIX)) return null;
  const rest = ref.slice(ORIGINAL_REF_PREFIX.length);
  const slash = rest.lastIndexOf('/');
  if (slash <= 0 || slash === rest.length - 1) return null;
  return { sessionId: rest.slice(0, slash), entryId: rest.slice(slash + 1) };
}

/**
 * Resolves `conversation:<sessionId>/<entryId>` references of one agent's record to the
 * originals they cite (active or archived). Other references resolve to null.
 */
export async function resolveReferences(deps: ConversationDeps, agentId: string, refs: readonly string[]): Promise<Map<string, OriginalRow | null>> {
  const resolved = new Map<string, OriginalRow | null>(refs.map((ref) => [ref, null]));
  const parsed = refs
    .filter((ref) => !ref.includes('\u0000'))
    .map(parseOriginalReference)
    .filter((p): p is { sessionId: string; entryId: string } => p !== null);
  if (parsed.length === 0) return resolved;
  const pairs: SQL[] = parsed.map((p) => sql`(session_id = ${p.sessionId} AND entry_id = ${p.entryId})`);
  const result = await deps.db.execute<RawOriginal>(sql`
    SELECT ${ORIGINAL_COLUMNS}
      FROM conversation_original_rows
     WHERE agent_id = ${agentId} AND (${sql.join(pairs, sql` OR `)})`);
  for (const row of result.rows.map(toOriginal)) resolved.set(originalReference(row.sessionId, row.entryId), row);
  return resolved;
}
