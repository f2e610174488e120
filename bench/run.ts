/**
 * npm run bench: seeds its own data into a throwaway embedded database, drives the real server
 * through the typed client, prints figures and exits. Speed is measured here, not in tests.
 *
 * Brains: 100,000 memories for one agent; p50/p95 of brainMemories substring search and
 * brainSearch (lexical); the plan of the substring search (trigram index); SQL statements for
 * a 50-memory list with revisions at two sizes (constant).
 */
import { fmt, percentile, startBenchServer } from './config.js';

const MEMORIES = Number(process.env.BENCH_BRAIN_MEMORIES ?? 100_000);
const ITERATIONS = Number(process.env.BENCH_ITERATIONS ?? 40);
const AGENT = 'bench';


/**
 * p50/p95 of the same bench at 5888d56 (before brainSearch's probe), run on this machine with
 * other work going on; each figure is printed with its ratio to these.
 */
const BASELINE: Record<'embedded' | 'external', Record<string, [number, number]>> = {
  embedded: {
    'brainMemories substring, rare (1 match), first 20': [67.0, 116.1],
    'brainMemories substring, common (20% match), first 20': [41.5, 87.1],
    'brainMemories no filter, first 100': [68.8, 317.9],
    'brainSearch lexical, rare term, limit 10': [51.7, 174.4],
    'brainSearch lexical, two rare terms, limit 10': [67.0, 185.1],
    'brainSearch lexical, common term (20% match), limit 10': [885.6, 1972.1],
  },
  external: {
    'brainMemories substring, rare (1 match), first 20': [42.9, 74.3],
    'brainMemories substring, common (20% match), first 20': [25.0, 82.0],
    'brainMemories no filter, first 100': [20.2, 33.9],
    'brainSearch lexical, rare term, limit 10': [30.9, 57.1],
    'brainSearch lexical, two rare terms, limit 10': [20.4, 39.4],
    'brainSearch lexical, common term (20% match), limit 10': [407.9, 505.7],
  },
};
/** The issue's figure for a common word in brainSearch (p50), the number it asked to beat. */
const ISSUE_BASELINE_COMMON_SEARCH_P50 = { embedded: 693, external: 363 };
let mode: 'embedded' | 'external' = 'embedded';
const measured: Record<string, [number, number]> = {};
const ratio = (now: number, before: number | undefined) => (before ? `${(now / before).toFixed(3)}x` : 'n/a');

async function timed(label: string, run: (i: number) => Promise<unknown>) {
  await run(-1); // warm-up
  const times: number[] = [];
  for (let i = 0; i < ITERATIONS; i++) {
    const start = performance.now();
    await run(i);
    times.push(performance.now() - start);
  }
  const [p50, p95] = [percentile(times, 50), percentile(times, 95)];
  measured[label] = [p50, p95];
  const [b50, b95] = BASELINE[mode][label] ?? [];
  console.log(
    `  ${label.padEnd(58)} p50 ${fmt(p50).padStart(9)}   p95 ${fmt(p95).padStart(9)}   (${ITERATIONS} requests over HTTP)` +
      `   vs baseline p50 ${ratio(p50, b50)}, p95 ${ratio(p95, b95)}`,
  );
}

async function main() {
  const started = performance.now();
  const server = await startBenchServer();
  const { database, client } = server;
  mode = database.lifecycle === 'embedded' ? 'embedded' : 'external';
  try {
    console.log(`Burrow bench on ${database.description}`);
    await client.createAgent({ input: { agentId: AGENT, name: 'Bench' } });

    // One statement seeds the memories; a tenth mention a kestrel, so there is a common term too.
    const seedStart = performance.now();
    await database.pool.query(
      `INSERT INTO brain_memories (agent_id, id, title, content, source_refs, revision, ownership, created_by_kind, created_by_id,
                                   updated_by_kind, updated_by_id, created_at, updated_at)
       SELECT $1, md5('id' || i), 'Memory ' || i || ' ' || substr(md5('t' || i), 1, 10),
              'Note ' || md5('c' || i) || ' about ' || (ARRAY['tea', 'deploys', 'kestrel', 'builds', 'the garden'])[1 + i % 5]
                || ' and ' || md5('d' || i),
              ARRAY['conv:' || i], 2, 'AGENT', 'AGENT', $1, 'AGENT', $1,
              timestamptz '2026-01-01' + make_interval(secs => i), timestamptz '2026-01-01' + make_interval(secs => i)
       FROM generate_series(1, $2::int) AS i`,
      [AGENT, MEMORIES],
    );
    await database.pool.query(
      `INSERT INTO brain_memory_revisions (agent_id, memory_id, revision, action, title, content, source_refs, ownership, actor_kind, actor_id, created_at)
       SELECT agent_id, id, r, CASE r WHEN 1 THEN 'created' ELSE 'updated' END, title, content, source_refs, ownership, 'AGENT', agent_id, created_at
       FROM brain_memories, generate_series(1, 2) AS r WHERE agent_id = $1`,
      [AGENT],
    );
    await database.pool.query('ANALYZE brain_memories; ANALYZE brain_memory_revisions;');
    console.log(`  seeded ${MEMORIES.toLocaleString('en')} memories (+ 2 revisions each) for agent "${AGENT}" in ${((performance.now() - seedStart) / 1000).toFixed(1)} s`);

    // Rare needles (one memory each) and a common term (a fifth of all memories).
    const needles = Array.from({ length: ITERATIONS + 1 }, (_, i) => {
      const n = 1 + ((i * 7919) % MEMORIES);
      return { n };
    });
    const needleText = async (i: number) => {
      const { rows } = await database.pool.query(`SELECT substr(md5('c' || $1::int), 5, 8) AS s`, [needles[i + 1].n]);
      return rows[0].s as string;
    };
    const needleValues: string[] = [];
    for (let i = -1; i < ITERATIONS; i++) needleValues.push(await needleText(i));

    console.log(`\nBrains, one agent with ${MEMORIES.toLocaleString('en')} memories:`);
    await timed('brainMemories substring, rare (1 match), first 20', (i) => client.brainMemories({ agentId: AGENT, query: needleValues[i + 1], first: 20 }));
    await timed('brainMemories substring, common (20% match), first 20', () => client.brainMemories({ agentId: AGENT, query: 'KESTREL', first: 20 }));
    await timed('brainMemories no filter, first 100', () => client.brainMemories({ agentId: AGENT, first: 100 }));
    await timed('brainSearch lexical, rare term, limit 10', (i) => client.brainSearch({ agentId: AGENT, query: needleValues[i + 1], limit: 10 }));
    await timed('brainSearch lexical, two rare terms, limit 10', (i) =>
      client.brainSearch({ agentId: AGENT, query: `${needleValues[i + 1]} ${needleValues[(i + 2) % needleValues.length]}`, limit: 10 }),
    );
    await timed('brainSearch lexical, common term (20% match), limit 10', () => client.brainSearch({ agentId: AGENT, query: 'kestrel', limit: 10 }));

    const common = measured['brainSearch lexical, common term (20% match), limit 10'][0];
    console.log(
      `\n  brainSearch common term p50 ${fmt(common)} against the issue's ${ISSUE_BASELINE_COMMON_SEARCH_P50[mode]} ms on this database: ` +
        `${ratio(common, ISSUE_BASELINE_COMMON_SEARCH_P50[mode])} (${(ISSUE_BASELINE_COMMON_SEARCH_P50[mode] / common).toFixed(1)} times faster)`,
    );

    // The statements one brainSearch issues, captured as sent and explained as they ran.
    for (const [label, query] of [['a common term ("kestrel")', 'kestrel'], ['a rare term', needleValues[0]]] as const) {
      const captured: { query: string; params: unknown[] }[] = [];
      database.statements.onQuery = (q, params) => captured.push({ query: q, params });
      await client.brainSearch({ agentId: AGENT, query, limit: 10 });
      database.statements.onQuery = undefined;
      console.log(`\nPlans of brainSearch for ${label}, limit 10 (${captured.filter((c) => c.query.includes('brain_memories')).length} statements):`);
      for (const [n, statement] of captured.filter((c) => c.query.includes('brain_memories')).entries()) {
        const explained = await database.pool.query(`EXPLAIN (ANALYZE, COSTS OFF, TIMING OFF, SUMMARY ON) ${statement.query}`, statement.params);
        const lines = explained.rows.map((r) => r['QUERY PLAN'] as string);
        const scans = lines.filter((l) => /Scan|Execution Time|Rows Removed/.test(l)).map((l) => l.trim());
        console.log(`  ${n + 1}. ${['probe boundary (row 500 by updatedAt, id)', 'probe: matches among the 500 most recently updated', 'older memories that can still rank (above the probe\'s 10th score; any match if it had fewer)'][n] ?? 'statement'}:`);
        for (const line of scans) console.log(`      ${line}`);
      }
    }

    console.log('\nPlan of the brainMemories substring search for a rare needle (after the newest-2,000 probe came back short):');
    const plan = await database.pool.query(
      `EXPLAIN (ANALYZE, COSTS OFF, TIMING OFF, SUMMARY ON)
       SELECT * FROM brain_memories
       WHERE agent_id = $1 AND deleted_at IS NULL AND (title ILIKE $2 OR content ILIKE $2)
       ORDER BY created_at DESC, id DESC LIMIT 21`,
      [AGENT, `%${needleValues[0]}%`],
    );
    const planText = plan.rows.map((r) => r['QUERY PLAN'] as string);
    for (const line of planText) console.log(`  ${line}`);
    console.log(`  uses the trigram index: ${planText.some((l) => /brain_memories_(title|content)_trgm_idx/.test(l)) ? 'yes' : 'NO'}`);

    console.log('\nSQL statements for one brainMemories page with every memory\'s revisions:');
    for (const first of [10, 50]) {
      const before = database.statements.count;
      const { brainMemories } = await client.brainMemoriesWithRevisions({ agentId: AGENT, first });
      const revisions = brainMemories.edges.reduce((sum, e) => sum + e.node.revisions.length, 0);
      console.log(`  ${String(first).padStart(3)} memories, ${String(revisions).padStart(3)} revisions: ${database.statements.count - before} statements (token lookup, page, one batched revisions query)`);
    }
    console.log(`\nbench finished in ${((performance.now() - started) / 1000).toFixed(1)} s`);
  } finally {
    await server.stop();
  }
}

// `npm run bench -- conversations` runs the search-over-originals scenario (bench/conversations.ts) instead.
if (process.argv[2] === 'conversations') await (await import('./conversations.js')).runConversationsBench();
else await main();
