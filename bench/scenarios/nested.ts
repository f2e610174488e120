/**
 * nested: `agents(first: 50)` with every agent's six profile documents, 1,000 agents seeded,
 * against a bare node:http + pg handler (in its own process) running the two statements an ideal
 * batched plan needs.
 */
import { startBaseline } from '../baseline.js';
import { startBenchServer } from '../config.js';
import { progress, sideBySide } from './common.js';
import { seedAgents } from './seed.js';
import type { ScenarioOptions, ScenarioResult } from './types.js';

export const NESTED_QUERY = '{ agents(first: 50) { edges { node { agentId name profile { kind content revision } } } } }';

export async function run(options: ScenarioOptions): Promise<ScenarioResult> {
  const agents = options.smoke ? 60 : Number(process.env.BENCH_AGENTS ?? 1_000);
  const server = await startBenchServer({ seed: (database) => seedAgents(database.pool, agents), baselineData: true });
  const notes: string[] = [];
  try {
    const bare = await startBaseline('nested', server.baselineData!);
    try {
      const body = JSON.stringify({ query: NESTED_QUERY });
      // Both answer the same document before anything is timed.
      const viaBurrow = await (await fetch(server.url, { method: 'POST', headers: { ...server.headers, 'content-type': 'application/json' }, body })).text();
      const viaBare = await (await fetch(bare.url, { method: 'POST', body })).text();
      if (viaBurrow !== viaBare) throw new Error(`nested: Burrow and the bare handler disagree: ${viaBurrow.slice(0, 300)}`);
      notes.push(`${agents.toLocaleString('en')} agents × 6 documents on ${server.description}; answer ${Buffer.byteLength(viaBare).toLocaleString('en')} bytes`);
      notes.push('the baseline runs in its own process with its own pool; the load generator is a worker thread of the bench process');
      progress(options, `  ${notes[0]}`);
      const figures = await sideBySide(
        options,
        'agents(first: 50) with profiles',
        { url: server.url, headers: server.headers, bodies: [body], cpuMs: server.cpuMs },
        { name: `bare node:http + ${server.databaseUrl ? 'pg' : 'PGlite'}`, spec: { url: bare.url, bodies: [body], cpuMs: bare.cpuMs } },
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
