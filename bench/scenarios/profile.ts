/**
 * profile: one agent with its six profile documents (`agent(agentId:)`), over 1,000 seeded agents
 * in turn, against a bare node:http + pg handler (in its own process) running the two statements
 * an ideal plan needs: the agent by id, then its documents.
 */
import { startBaseline } from '../baseline.js';
import { startBenchServer } from '../config.js';
import { progress, sideBySide } from './common.js';
import { agentId, seedAgents } from './seed.js';
import type { ScenarioOptions, ScenarioResult } from './types.js';

export const PROFILE_QUERY = 'query AgentProfile($id: String!) { agent(agentId: $id) { agentId name profile { kind content revision } } }';

export async function run(options: ScenarioOptions): Promise<ScenarioResult> {
  const agents = options.smoke ? 20 : Number(process.env.BENCH_AGENTS ?? 1_000);
  const server = await startBenchServer({ seed: (database) => seedAgents(database.pool, agents), baselineData: true });
  try {
    const bare = await startBaseline('profile', server.baselineData!);
    try {
      const bodies = Array.from({ length: agents }, (_, i) => JSON.stringify({ query: PROFILE_QUERY, variables: { id: agentId(i + 1) } }));
      const viaBurrow = await (await fetch(server.url, { method: 'POST', headers: { ...server.headers, 'content-type': 'application/json' }, body: bodies[1] })).text();
      const viaBare = await (await fetch(bare.url, { method: 'POST', body: bodies[1] })).text();
      if (viaBurrow !== viaBare) throw new Error(`profile: Burrow and the bare handler disagree: ${viaBurrow.slice(0, 300)}`);
      const notes = [`${agents.toLocaleString('en')} agents, requests cycle over them, on ${server.description}`, 'the baseline runs in its own process with its own pool'];
      progress(options, `  ${notes[0]}`);
      const figures = await sideBySide(
        options,
        'agent(agentId:) with its profile',
        { url: server.url, headers: server.headers, bodies, cpuMs: server.cpuMs },
        { name: `bare node:http + ${server.databaseUrl ? 'pg' : 'PGlite'}`, spec: { url: bare.url, bodies, cpuMs: bare.cpuMs } },
        'ratio ≥ 0.7',
      );
      return { scenario: 'profile', figures, notes };
    } finally {
      await bare.stop();
    }
  } finally {
    await server.stop();
  }
}
