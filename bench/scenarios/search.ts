/**
 * search: brainSearch (lexical) and brainMemories substring over 1,000,000 memories of one agent
 * (BENCH_BRAIN_MEMORIES), seeded with SQL inside the bench. Requests one at a time, 200 of each
 * kind (BENCH_ITERATIONS) after 20 untimed (BENCH_LATENCY_WARMUP); p50/p95 of each against the
 * issue's targets (p95 ≤ 20 ms for selective terms; bounded for common ones).
 * A fifth of all memories mention a kestrel (the common term); every memory carries its
 * own md5 words, so 8 characters of one match exactly one memory (the selective term).
 */
import { createHash } from 'node:crypto';
import { percentile, startBenchServer } from '../config.js';
import { latencyWarmup, progress, round1, sequentialLatencies } from './common.js';
import type { BenchFigure, ScenarioOptions, ScenarioResult } from './types.js';

const AGENT = 'bench';

export async function run(options: ScenarioOptions): Promise<ScenarioResult> {
  const memories = options.smoke ? 2_000 : Number(process.env.BENCH_BRAIN_MEMORIES ?? 1_000_000);
  // 200 requests per figure: with 40, the p95 was the third slowest request, and one pause of the
  // host moved it by several milliseconds between runs.
  const iterations = options.smoke ? 5 : Number(process.env.BENCH_ITERATIONS ?? 200);
  const notes: string[] = [];
  const server = await startBenchServer({
    seed: async (database) => {
      await database.pool.query(`INSERT INTO agents (id, name, created_at, created_by) VALUES ($1, 'Bench', now(), 'bench') ON CONFLICT (id) DO NOTHING`, [AGENT]);
      const seedStart = performance.now();
      for (let from = 1; from <= memories; from += 200_000) {
        const to = Math.min(memories, from + 199_999);
        await database.pool.query(
          `INSERT INTO brain_memories (agent_id, id, title, content, source_refs, revision, ownership, created_by_kind, created_by_id,
                                       updated_by_kind, updated_by_id, created_at, updated_at)
           SELECT $1, md5('id' || i), 'Memory ' || i || ' ' || substr(md5('t' || i), 1, 10),
                  'Note ' || md5('c' || i) || ' about ' || (ARRAY['tea', 'deploys', 'kestrel', 'builds', 'the garden'])[1 + i % 5]
                    || ' and ' || md5('d' || i),
                  ARRAY['conv:' || i], 1, 'AGENT', 'AGENT', $1, 'AGENT', $1,
                  timestamptz '2026-01-01' + make_interval(secs => i), timestamptz '2026-01-01' + make_interval(secs => i)
           FROM generate_series($2::int, $3::int) AS i`,
          [AGENT, from, to],
        );
        await database.pool.query(
          `INSERT INTO brain_memory_revisions (agent_id, memory_id, revision, action, title, content, source_refs, ownership, actor_kind, actor_id, created_at)
           SELECT agent_id, id, 1, 'created', title, content, source_refs, ownership, 'AGENT', agent_id, created_at
           FROM brain_memories WHERE agent_id = $1 AND created_at > timestamptz '2026-01-01' + make_interval(secs => $2::int - 1)
                                                   AND created_at <= timestamptz '2026-01-01' + make_interval(secs => $3::int)`,
          [AGENT, from, to],
        );
      }
      const seeded = performance.now();
      // The state a table reaches once autovacuum has been through it. Without this the figures
      // measured autovacuum's first pass over the million new rows (and their trigram indexes),
      // which started at a moment of its own choosing and took one of the two cores for a minute,
      // and the first reads of each page setting its hint bits.
      await database.pool.query('VACUUM (ANALYZE) brain_memories, brain_memory_revisions');
      notes.push(
        `${memories.toLocaleString('en')} memories (one revision each) of one agent, seeded in ${((seeded - seedStart) / 1000).toFixed(1)} s, ` +
          `vacuumed and analyzed in ${((performance.now() - seeded) / 1000).toFixed(1)} s, on ${database.description}`,
      );
    },
  });
  const { database, client } = server;
  const figures: BenchFigure[] = [];
  try {
    notes.push(`the server: ${server.description}`);
    progress(options, `  ${notes.join('; ')}`);

    // The seed's md5('c' || n) computed here: the bench has no connection on the embedded database.
    const needles = Array.from({ length: latencyWarmup(options) + iterations }, (_, i) =>
      createHash('md5')
        .update(`c${1 + ((i * 7919) % memories)}`)
        .digest('hex')
        .slice(4, 12),
    );
    const timed = async (label: string, target: string | undefined, call: (i: number) => Promise<unknown>) => {
      const { times } = await sequentialLatencies(options, iterations, call);
      const [p50, p95] = [percentile(times, 50), percentile(times, 95)];
      progress(options, `    ${label.padEnd(56)} p50 ${p50.toFixed(1).padStart(7)} ms   p95 ${p95.toFixed(1).padStart(7)} ms`);
      figures.push({ name: `${label}: p50`, value: round1(p50), unit: 'ms' }, { name: `${label}: p95`, value: round1(p95), unit: 'ms', ...(target ? { target } : {}) });
    };
    const needle = (i: number) => needles[i];
    await timed('brainSearch lexical, selective term, limit 10', 'p95 ≤ 20 ms', (i) => client.brainSearch({ agentId: AGENT, query: needle(i), first: 10 }));
    await timed('brainSearch lexical, two selective terms, limit 10', 'p95 ≤ 20 ms', (i) =>
      client.brainSearch({ agentId: AGENT, query: `${needle(i)} ${needles[(i + 2) % needles.length]}`, first: 10 }),
    );
    await timed('brainSearch lexical, common term (20%), limit 10', 'bounded', () => client.brainSearch({ agentId: AGENT, query: 'kestrel', first: 10 }));
    await timed('brainMemories substring, selective term, first 20', 'p95 ≤ 20 ms', (i) => client.brainMemories({ agentId: AGENT, query: needle(i), first: 20 }));
    await timed('brainMemories substring, common term (20%), first 20', 'bounded', () => client.brainMemories({ agentId: AGENT, query: 'KESTREL', first: 20 }));
    await timed('brainMemories no filter, first 100', undefined, () => client.brainMemories({ agentId: AGENT, first: 100 }));

    if (database) {
      const plan = await database.pool.query(
        `EXPLAIN (COSTS OFF) SELECT * FROM brain_memories WHERE agent_id = $1 AND deleted_at IS NULL AND (title ILIKE $2 OR content ILIKE $2)
         ORDER BY created_at DESC, id DESC LIMIT 21`,
        [AGENT, `%${needles[0]}%`],
      );
      const planText = plan.rows.map((r) => r['QUERY PLAN'] as string);
      notes.push(`the substring search for a selective term uses the trigram index: ${planText.some((l) => /_trgm_idx/.test(l)) ? 'yes' : 'no'}`);
    }
    return { scenario: 'search', figures, notes };
  } finally {
    await server.stop();
  }
}
