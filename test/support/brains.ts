/** Brains helpers for tests: a save that fails loudly, and a count of an agent's memories in the database. */
import type { BurrowClient } from '../../clients/typescript/sdk.js';
import type { TestServer } from './harness.js';

/** Saves a memory (failing the test on a typed error) and advances the test clock a second, so saves are ordered. */
export async function saveMemory(server: TestServer, client: BurrowClient, input: { title: string; content: string; sourceRefs?: string[]; agentId?: string }) {
  const result = await client.brainSave({ input });
  if (result.brainSave.__typename !== 'BrainSaveSuccess') throw new Error(`save failed: ${JSON.stringify(result.brainSave)}`);
  server.clock.advance(1000);
  return result.brainSave.memory;
}

/** How many memories an agent has in the database (removed ones included) and the sum of their revisions. */
export async function storedMemories(server: TestServer, agentId: string) {
  const { rows } = await server.database.pool.query('SELECT count(*)::int AS n, coalesce(sum(revision), 0)::int AS revs FROM brain_memories WHERE agent_id = $1', [agentId]);
  return rows[0] as { n: number; revs: number };
}
