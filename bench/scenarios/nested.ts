/**
 * nested: `agents(first: 50)` with every agent's six profile documents, 1,000 agents seeded,
 * against a bare node:http + pg handler running the two statements an ideal batched plan needs.
 */
import type pg from 'pg';
import { startBenchServer } from '../config.js';
import { PROFILE_KINDS } from '../../src/domains/agents/agents.sql.js';
import { progress, sideBySide, startBareHandler } from './common.js';
import { seedAgents } from './seed.js';
import type { ScenarioOptions, ScenarioResult } from './types.js';

export const NESTED_QUERY = '{ agents(first: 50) { edges { node { agentId name profile { kind content revision } } } } }';

export async function idealNestedRead(pool: pg.Pool, first: number) {
  const agents = await pool.query<{ id: string; name: string }>('SELECT id, name FROM agents ORDER BY created_at DESC, id DESC LIMIT $1', [first]);
  const ids = agents.rows.map((a) => a.id);
  const documents = await pool.query<{ agent_id: string; kind: string; content: string; revision: number }>(
    `SELECT agent_id, kind, content, revision FROM agent_profile_documents WHERE agent_id = ANY($1::text[]) ORDER BY agent_id, array_position($2::text[], kind)`,
    [ids, PROFILE_KINDS],
  );
  const byAgent = new Map<string, { kind: string; content: string; revision: number }[]>(ids.map((id) => [id, []]));
  for (const d of documents.rows) byAgent.get(d.agent_id)!.push({ kind: d.kind, content: d.content, revision: d.revision });
  return { agents: { edges: agents.rows.map((a) => ({ node: { agentId: a.id, name: a.name, profile: byAgent.get(a.id) } })) } };
}

export async function run(options: ScenarioOptions): Promise<ScenarioResult> {
  const server = await startBenchServer({ shared: options.smoke });
  const notes: string[] = [];
  try {
    const agents = options.smoke ? 60 : Number(process.env.BENCH_AGENTS ?? 1_000);
    await seedAgents(server.database.pool, agents);
    const bare = await startBareHandler(() => idealNestedRead(server.database.pool, 50));
    try {
      const body = JSON.stringify({ query: NESTED_QUERY });
      // Both answer the same document before anything is timed.
      const viaBurrow = await (await fetch(server.url, { method: 'POST', headers: { ...server.headers, 'content-type': 'application/json' }, body })).json();
      const viaBare = await (await fetch(bare.url, { method: 'POST', body })).json();
      if (JSON.stringify(viaBurrow) !== JSON.stringify(viaBare)) throw new Error(`nested: Burrow and the bare handler disagree: ${JSON.stringify(viaBurrow).slice(0, 300)}`);
      const before = server.database.statements.count;
      await server.client.request(NESTED_QUERY);
      notes.push(`${agents.toLocaleString('en')} agents × 6 documents on ${server.database.description}; answer ${Buffer.byteLength(JSON.stringify(viaBare)).toLocaleString('en')} bytes`);
      notes.push(`Burrow statements per request: ${server.database.statements.count - before} (agents page, one batched profile load; the token is cached); bare handler: 2`);
      progress(options, `  ${notes[0]}`);
      const figures = await sideBySide(
        options,
        'agents(first: 50) with profiles',
        { url: server.url, headers: server.headers, bodies: [body] },
        { name: 'bare node:http + pg', spec: { url: bare.url, bodies: [body] } },
        'ratio ≥ 0.8',
      );
      return { scenario: 'nested', figures, notes };
    } finally {
      await bare.stop();
    }
  } finally {
    await server.stop();
  }
}
