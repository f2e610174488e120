/**
 * Node ids of per-agent records. Every entity's global id is Relay's base64 of
 * `<Type>:<key>`; for a record whose own id is unique only within its agent, the key is
 * `<agentId>/<recordId>` (agent ids never contain "/"), so `node(id)` can authorize the agent
 * before it reads anything.
 */
import { encodeGlobalID } from '@pothos/plugin-relay';
import { badRequest } from '../lib/errors.js';

export const agentScopedKey = (agentId: string, recordId: string | number) => `${agentId}/${recordId}`;

/**
 * The node keys of the records the MCP tools return too: GraphQL's `id` resolvers and the MCP
 * results both call these, so a record's global id is made in one place.
 */
// Working records and handoffs live in one continuity scope: their keys carry it (scopedRecordKey).
export const workingRecordNodeKey = (r: { agentId: string; project: string; id: string }) => scopedRecordKey(r.agentId, r.project, r.id);
export const handoffNodeKey = (h: { agentId: string; project: string; id: string }) => scopedRecordKey(h.agentId, h.project, h.id);
export const brainMemoryNodeKey = (m: { agentId: string; id: string }) => agentScopedKey(m.agentId, m.id);
export const rollingCardNodeKey = (c: { agentId: string; project: string; cardId: string }) => agentScopedKey(c.agentId, JSON.stringify([c.project, c.cardId]));

/** A global id outside GraphQL, encoded as the relay plugin encodes every Node's `id` (its default). */
export const globalIdOf = (typeName: string, nodeKey: string) => encodeGlobalID(typeName, nodeKey);

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
    return typeof id === 'string' && Number.isInteger(position) && (position as number) >= 1 && (position as number) <= 2_147_483_647 ? { id, position: position as number } : null;
  } catch {
    return null;
  }
}

/** The description of every entity's `id`. */
export const GLOBAL_ID_DESCRIPTION = 'The global id: pass it to `node(id:)` to read this record again (the short id is a field of its own)';
