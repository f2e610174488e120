/**
 * Every per-agent table has a foreign key `<table>_agent_fk` to agents (ON DELETE RESTRICT).
 * A write that names an agent that does not exist is refused by it before anything is stored;
 * the caller answers NotFound for the agent, as a read would, instead of a masked database error.
 */
import { NotFoundError } from '../lib/errors.js';

const FOREIGN_KEY_VIOLATION = '23503';

/** True when `error`, or an error it wraps (Drizzle wraps driver errors), is an agent key refusing a row. */
export function refusedByAgentKey(error: unknown): boolean {
  for (let current = error, depth = 0; current && depth < 5; current = (current as { cause?: unknown }).cause, depth++) {
    const { code, constraint } = current as { code?: unknown; constraint?: unknown };
    if (code === FOREIGN_KEY_VIOLATION && typeof constraint === 'string' && constraint.endsWith('_agent_fk')) return true;
  }
  return false;
}

/** Runs a write of `agentId`'s rows; the agent key refusing it becomes NotFound('Agent', agentId). */
export async function forExistingAgent<T>(agentId: string, write: () => Promise<T>): Promise<T> {
  try {
    return await write();
  } catch (error) {
    if (refusedByAgentKey(error)) throw new NotFoundError('Agent', agentId);
    throw error;
  }
}
