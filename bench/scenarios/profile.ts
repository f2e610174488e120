/**
 * profile: one agent with its six profile documents (`agent(id:)`), over 1,000 seeded agents in
 * turn, against a bare node:http + pg handler that runs the very statements Burrow sent.
 */
import { startBenchServer } from '../config.js';
import { progress, sideBySide, startBareHandler } from './common.js';
import { agentId, seedAgents } from './seed.js';
import type { ScenarioOptions, ScenarioResult } from './types.js';

export const PROFILE_QUERY = 'query AgentProfile($id: String!) { agent(agentId: $id) { agentId name profile { kind content revision } } }';

export async function run(options: ScenarioOptions): Promise<ScenarioResult> {
  const server = await startBenchServer({ shared: options.smoke });
  try {
    const agents = options.smoke ? 20 : Number(process.env.BENCH_AGENTS ?? 1_000);
    await seedAgents(server.database.pool, agents);
    // Burrow's own statements for one agent, captured as sent: the baseline runs exactly these.
    const captured: { query: string; params: unknown[] }[] = [];
    // A first request reads the token (then cached): capture a steady-state one.
    await server.client.request(PROFILE_QUERY, { id: agentId(2) });
    server.database.statements.onQuery = (query, params) => captured.push({ query, params });
    await server.client.request(PROFILE_QUERY, { id: agentId(1) });
    server.database.statements.onQuery = undefined;
    const data = captured.filter((c) => /from "agents"|from "agent_profile_documents"/i.test(c.query));
    const [agentSql, documentsSql] = [data.find((c) => /from "agents"/i.test(c.query)), data.find((c) => /from "agent_profile_documents"/i.test(c.query))];
    if (!agentSql || !documentsSql || documentsSql.params.length !== 1) throw new Error(`profile: unexpected statements ${JSON.stringify(captured.map((c) => c.query))}`);
    // The captured parameters with the captured agent's id swapped for the requested one (an
    // array parameter stays an array: the documents statement takes ANY($1)).
    const withId = (params: unknown[], id: string) => params.map((p) => (Array.isArray(p) ? p.map((v) => (v === agentId(1) ? id : v)) : p === agentId(1) ? id : p));
    const order = ['SOUL', 'RULES', 'ORIENTATION', 'PREFERENCES', 'TOOLS', 'DREAM_MEMORY'];
    const bare = await startBareHandler(async (body) => {
      const id = String(body.variables?.id);
      const agent = (await server.database.pool.query(agentSql.query, withId(agentSql.params, id))).rows[0];
      if (!agent) return { agent: null };
      const documents = (await server.database.pool.query(documentsSql.query, withId(documentsSql.params, id))).rows.sort((a, b) => order.indexOf(a.kind) - order.indexOf(b.kind));
      return { agent: { agentId: agent.id, name: agent.name, profile: documents.map((d) => ({ kind: d.kind, content: d.content, revision: d.revision })) } };
    });
    try {
      const bodies = Array.from({ length: agents }, (_, i) => JSON.stringify({ query: PROFILE_QUERY, variables: { id: agentId(i + 1) } }));
      const viaBurrow = await (await fetch(server.url, { method: 'POST', headers: { ...server.headers, 'content-type': 'application/json' }, body: bodies[1] })).json();
      const viaBare = await (await fetch(bare.url, { method: 'POST', body: bodies[1] })).json();
      if (JSON.stringify(viaBurrow) !== JSON.stringify(viaBare)) throw new Error(`profile: Burrow and the bare handler disagree: ${JSON.stringify(viaBurrow).slice(0, 300)}`);
      const notes = [
        `${agents.toLocaleString('en')} agents, requests cycle over them, on ${server.database.description}`,
        `Burrow statements per request: ${captured.length}; the bare handler runs the ${data.length} data statements among them, same text`,
      ];
      progress(options, `  ${notes[0]}`);
      const figures = await sideBySide(
        options,
        'agent(agentId:) with its profile',
        { url: server.url, headers: server.headers, bodies },
        { name: 'bare node:http + pg (same SQL)', spec: { url: bare.url, bodies } },
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
