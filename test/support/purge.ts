/** Purge helpers for tests: a tombstone with three revisions, and everything the database holds about one memory. */
import type { BurrowClient } from '../../clients/typescript/sdk.js';
import { ok } from './continuity.js';
import { saveMemory } from './brains.js';
import type { TestServer } from './harness.js';

/** Saves (revision 1), updates the content (2) and removes (3) a memory of the client's agent; returns its id. */
export async function tombstone(server: TestServer, client: BurrowClient, input: { title: string; content: string; sourceRefs?: string[] }): Promise<string> {
  const { memoryId } = await saveMemory(server, client, input);
  ok((await client.brainUpdate({ input: { memoryId, expectedRevision: 1, content: `${input.content} v2` } })).brainUpdate, 'BrainUpdateSuccess');
  server.clock.advance(1000);
  ok((await client.brainRemove({ input: { memoryId, expectedRevision: 2 } })).brainRemove, 'BrainRemoveSuccess');
  server.clock.advance(1000);
  return memoryId;
}

/** Dates as the API writes them (toISOString), so rows compare with GraphQL answers. */
const isoDates = <T extends Record<string, unknown>>(row: T): T =>
  Object.fromEntries(Object.entries(row).map(([key, value]) => [key, value instanceof Date ? value.toISOString() : value])) as T;

/**
 * Every row about one memory: the memory, its revisions, how many embeddings, its brain.* events,
 * and how many of those rows still hold its original text (`needles`: title and content).
 */
export async function purgeState(server: TestServer, agentId: string, memoryId: string, needles: string[] = []) {
  const q = (text: string) => server.database.pool.query(text, [agentId, memoryId]);
  const [memory, revisions, embeddings, events, receipts] = await Promise.all([
    q('SELECT * FROM brain_memories WHERE agent_id = $1 AND id = $2'),
    q('SELECT * FROM brain_memory_revisions WHERE agent_id = $1 AND memory_id = $2 ORDER BY revision'),
    q('SELECT count(*)::int AS n FROM brain_embeddings WHERE agent_id = $1 AND memory_id = $2'),
    q(`SELECT sequence::int AS sequence, type, payload, occurred_at FROM agent_events WHERE agent_id = $1 AND stream = 'brain' AND subject_id = $2 ORDER BY sequence`),
    q(`SELECT count(*)::int AS n FROM data_removal_receipts WHERE agent_id = $1 AND subject_id = $2`),
  ]);
  let textAnywhere = 0;
  for (const needle of needles) {
    const { rows } = await server.database.pool.query(
      `SELECT (SELECT count(*) FROM brain_memories WHERE agent_id = $1 AND id = $2 AND (title LIKE $3 OR content LIKE $3 OR array_to_string(source_refs, ' ') LIKE $3 OR legacy::text LIKE $3))
            + (SELECT count(*) FROM brain_memory_revisions WHERE agent_id = $1 AND memory_id = $2 AND (title LIKE $3 OR content LIKE $3 OR array_to_string(source_refs, ' ') LIKE $3))
            + (SELECT count(*) FROM agent_events WHERE agent_id = $1 AND subject_id = $2 AND payload::text LIKE $3) AS n`,
      [agentId, memoryId, `%${needle}%`],
    );
    textAnywhere += Number(rows[0].n);
  }
  return {
    memory: isoDates(memory.rows[0] as Record<string, unknown>),
    revisions: revisions.rows.map(isoDates),
    embeddings: embeddings.rows[0].n as number,
    events: events.rows.map(isoDates) as { sequence: number; type: string; payload: Record<string, unknown>; occurred_at: string }[],
    receipts: receipts.rows[0].n as number,
    textAnywhere,
  };
}
