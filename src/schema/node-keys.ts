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

/** The description of every entity's `id`. */
export const GLOBAL_ID_DESCRIPTION = 'The global id: pass it to `node(id:)` to read this record again (the short id is a field of its own)';
