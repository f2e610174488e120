/**
 * npm run bench: seeds its own data into a throwaway embedded database, drives the real server
 * through the typed client, prints figures and exits. Speed is measured here, not in tests.
 *
 * Brains: 100,000 memories for one agent; p50/p95 of brainMemories substring search and
 * brainSearch (lexical); the plan of the substring search (trigram index); SQL statements for
 * a 50-memory list with revisions at two sizes (constant).
 */
import { buildApp } from '../src/app.js';
import { testConfigForBench } from './config.js';
import { openDatabase } from '../src/db/database.js';
import { migrate } from '../src/db/migrator.js';
import { createLogger } from '../src/lib/logger.js';
import { createBurrowClient } from '../client/sdk.js';
import { createTestDatabase, externalConfig } from '../test/support/harness.js';

const MEMORIES = Number(process.env.BENCH_BRAIN_MEMORIES ?? 100_000);
const ITERATIONS = Number(process.env.BENCH_ITERATIONS ?? 40);
const AGENT = 'bench';

const percentile = (values: number[], p: number) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
};
const fmt = (ms: number) => `${ms.toFixed(1)} ms`;

async function timed(label: string, run: (i: number) => Promise<unknown>) {
  await run(-1); // warm-up
  const times: number[] = [];
  for (let i = 0; i < ITERATIONS; i++) {
    const start = performance.now();
    await run(i);
    times.push(performance.now() - start);
  }
  console.log(`  ${label.padEnd(58)} p50 ${fmt(percentile(times, 50)).padStart(9)}   p95 ${fmt(percentile(times, 95)).padStart(9)}   (${ITERATIONS} requests over HTTP)`);
}

async function main() {
  const started = performance.now();
  const config = testConfigForBench();
  // With BURROW_TEST_DATABASE_URL the bench runs on a fresh database of that real server (dropped after).
  const realServer = process.env.BURROW_TEST_DATABASE_URL ? await createTestDatabase() : null;
  if (realServer) config.database = externalConfig(realServer.url!);
  const database = await openDatabase(config.database);
  await migrate(database.pool);
  const app = buildApp({ config, database, logger: createLogger('silent') });
  const port = await app.start(0, '127.0.0.1');
  const { token } = await app.services.tokens.create({ kind: 'operator', name: 'bench' });
  const client = createBurrowClient({ url: `http://127.0.0.1:${port}/graphql`, token });
  try {
    console.log(`Burrow bench on ${database.description}`);
    await client.createAgent({ input: { id: AGENT, name: 'Bench' } });

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
    await client.close();
    await app.stop();
    await database.close();
    await realServer?.drop();
  }
}

await main();
