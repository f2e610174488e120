/**
 * Node ids of per-agent records. Every entity's global id is Relay's base64 of
 * `<Type>:<key>`; for a record whose own id is unique only within its agent, the key is
 * `<agentId>/<recordId>` (agent ids never contain "/"), so `node(id)` can authorize the agent
 * before it reads anything.
 */
import { badRequest } from '../lib/errors.js';

export const agentScopedKey = (agentId: string, recordId: string | number) => `${agentId}/${recordId}`;

export function parseAgentScopedKey(key: string): { agentId: string; recordId: string } {
  const slash = key.indexOf('/');
  if (slash <= 0 || slash === key.length - 1) throw badRequest(`not a node id of this server: ${JSON.stringify(key)}`);
  return { agentId: key.slice(0, slash), recordId: key.slice(slash + 1) };
}

/**
 * The key of a record that lives in one continuity scope of its agent (working records,
 * handoffs): `<agentId>/["<scope>","<id>"]`, so `node(id:)` knows the scope without a header.
 * Ids made before the scope was in them (`<agentId>/<id>`) still read in the runtime scope.
 */
export const scopedRecordKey = (agentId: string, scope: string, id: string) => agentScopedKey(agentId, JSON.stringify([scope, id]));

export function parseScopedRecordKey(key: string): { agentId: string; scope: string | null; id: string } {
  const { agentId, recordId } = parseAgentScopedKey(key);
  if (!recordId.startsWith('[')) return { agentId, scope: null, id: recordId };
  try {
    const value = JSON.parse(recordId) as unknown;
    if (Array.isArray(value) && value.length === 2 && typeof value[0] === 'string' && typeof value[1] === 'string') return { agentId, scope: value[0], id: value[1] };
  } catch {
    // Falls through to the refusal.
  }
  throw badRequest(`not a node id of this server: ${JSON.stringify(key)}`);
}

/**
 * The `[id, position]` a node key carries after its agent for a numbered entry of another record
 * (a memory's revision, a run's transition); null when the text is not one. Positions are int4
 * from 1: anything else names no entry (and never reaches the database).
 */
export function parsePositionKey(text: string): { id: string; position: number } | null {
  try {
    const value = JSON.parse(text) as unknown;
    if (!Array.isArray(value) || value.length !== 2) return null;
    const [id, position] = value as unknown[];
    return typeof id === 'string' && Number.isInteger(position) && (position as number) >= 1 && (position as number) <= 2_147_483_647
      ? { id, position: position as number }
      : null;
  } catch {
    return null;
  }
}

/** The description of every entity's `id`. */
export const GLOBAL_ID_DESCRIPTION = 'The global id: pass it to `node(id:)` to read this record again (the short id is a field of its own)';
