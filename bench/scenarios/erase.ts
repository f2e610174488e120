/**
 * npm run bench -- --scenario erase: erasing an agent with BENCH_ORIGINALS (default 1,000,000)
 * originals while another agent is being written.
 *
 * Seeds one agent's originals with SQL (generate_series, not through the API), starts the built
 * server in its own process, then measures `brainSave` of a second agent (4 concurrent writers,
 * keep-alive HTTP) for BENCH_SECONDS before the erasure and for as long as the erasure runs.
 * On a real server (BURROW_TEST_DATABASE_URL) the erasure is the operator's CLI
 * (`npm run burrow -- agent erase`, its own process), which prints its longest transaction, and
 * the bench also samples pg_stat_activity every 20 ms for the oldest open transaction of anyone
 * (a check from outside). Embedded, PGlite belongs to the server, so the erasure is the
 * agentErase mutation over HTTP and the longest transaction is not visible from outside.
 */
import { performance } from 'node:perf_hooks';
import { fmt, percentile, startBenchServer } from '../config.js';
import { spawnBurrow, userEnv } from '../../test/support/shipped.js';
import { seedOriginalsSql } from '../../test/support/agent-erase.js';
import { progress, round1 } from './common.js';
import { agentId, seedAgents } from './seed.js';
import type { BenchFigure, ScenarioOptions, ScenarioResult } from './types.js';

const SAVE = 'mutation Save($input: BrainSaveInput!) { brainSave(input: $input) { __typename } }';
const ERASE = 'mutation Erase($input: AgentEraseInput!) { agentErase(input: $input) { __typename ... on AgentEraseSuccess { receipt { completedAt counts { store rows } } } } }';
const WRITERS = 4;

/** Closed-loop brainSave of one agent until `until()` says stop; returns each request's latency (ms). */
async function write(url: string, headers: Record<string, string>, agent: string, until: () => boolean): Promise<number[]> {
  const latencies: number[] = [];
  let n = 0;
  const writer = async () => {
    while (!until()) {
      const body = JSON.stringify({ query: SAVE, variables: { input: { agentId: agent, title: `Bench write ${n}`, content: `Written during the erase bench, ${n++}.` } } });
      const started = performance.now();
      const response = await fetch(url, { method: 'POST', headers: { ...headers, 'content-type': 'application/json' }, body });
      const text = await response.text();
      if (!text.includes('BrainSaveSuccess')) throw new Error(`erase bench: brainSave answered ${text.slice(0, 300)}`);
      latencies.push(performance.now() - started);
    }
  };
  await Promise.all(Array.from({ length: WRITERS }, writer));
  return latencies;
}

export async function run(options: ScenarioOptions): Promise<ScenarioResult> {
  const originals = options.smoke ? 20_000 : Number(process.env.BENCH_ORIGINALS ?? 1_000_000);
  const seconds = options.smoke ? 1 : Number(process.env.BENCH_SECONDS ?? 5);
  const victim = agentId(1);
  const writer = agentId(2);
  const log = (line: string) => progress(options, line);
  const seedStarted = performance.now();
  const server = await startBenchServer({
    seed: async (database) => {
      await seedAgents(database.pool, 2);
      await seedOriginalsSql((text, values) => database.pool.query(text, values), victim, 'bench-session', originals);
      await database.pool.query('ANALYZE conversation_entries; ANALYZE conversation_sessions;');
    },
  });
  const notes = [
    `${originals.toLocaleString('en')} originals of ${victim} seeded in ${fmt(performance.now() - seedStarted)}; ${WRITERS} writers of ${writer}; ${server.description}`,
  ];
  log(`  ${notes[0]}`);
  try {
    const stopAt = performance.now() + seconds * 1000;
    const before = await write(server.url, server.headers, writer, () => performance.now() > stopAt);
    log(`  before: ${before.length} saves, p50 ${fmt(percentile(before, 50))}, p99 ${fmt(percentile(before, 99))}`);

    let erasing = true;
    let oldest = 0;
    const sampler = (async () => {
      if (!server.database) return;
      while (erasing) {
        const { rows } = await server.database.pool.query<{ ms: number | null }>(
          `SELECT max(extract(epoch FROM clock_timestamp() - xact_start) * 1000)::float8 AS ms FROM pg_stat_activity
            WHERE datname = current_database() AND pid <> pg_backend_pid() AND xact_start IS NOT NULL AND state <> 'idle'`,
        );
        oldest = Math.max(oldest, rows[0].ms ?? 0);
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
    })();
    const during = write(server.url, server.headers, writer, () => !erasing);
    const started = performance.now();
    let longest: number | null = null;
    let removed = 0;
    try {
      if (server.databaseUrl) {
        const env = userEnv({ BURROW_POSTGRES_LIFECYCLE: 'external', BURROW_POSTGRES_URL: server.databaseUrl, BURROW_POSTGRES_REQUIRED_MAJOR: '13' });
        const cli = await spawnBurrow(['agent', 'erase', '--agent', victim], env).exited;
        if (cli.code !== 0) throw new Error(`erase bench: the CLI exited ${cli.code}: ${cli.stderr.slice(-500)}`);
        longest = Number(/longest transaction of this run: (\d+) ms/.exec(cli.stdout)?.[1]);
        removed = Number(/conversation_entries\t(\d+)/.exec(cli.stdout)?.[1]);
      } else {
        const result = await server.client.request<{ agentErase: { __typename: string; receipt?: { counts: { store: string; rows: number }[] } } }>(ERASE, {
          input: { agentId: victim },
        });
        if (result.agentErase.__typename !== 'AgentEraseSuccess') throw new Error(`erase bench: agentErase answered ${JSON.stringify(result)}`);
        removed = result.agentErase.receipt!.counts.find((c) => c.store === 'conversation_entries')?.rows ?? 0;
      }
    } finally {
      erasing = false;
    }
    const duration = performance.now() - started;
    const writes = await during;
    await sampler;
    if (removed !== originals) throw new Error(`erase bench: the receipt counts ${removed} originals, not ${originals}`);
    log(`  erase: ${fmt(duration)}, longest transaction ${longest === null ? 'not visible (embedded)' : fmt(longest)}, oldest open transaction seen ${fmt(oldest)}`);
    log(`  during: ${writes.length} saves, p50 ${fmt(percentile(writes, 50))}, p99 ${fmt(percentile(writes, 99))}`);
    const figures: BenchFigure[] = [
      { name: `agentErase of ${originals.toLocaleString('en')} originals: duration`, value: round1(duration), unit: 'ms' },
      ...(longest !== null
        ? [
            { name: 'erase: longest single transaction (the CLI)', value: round1(longest), unit: 'ms' },
            { name: 'erase: oldest open transaction seen (pg_stat_activity, every 20 ms)', value: round1(oldest), unit: 'ms' },
          ]
        : []),
      { name: `other agent's brainSave before: p50`, value: round1(percentile(before, 50)), unit: 'ms' },
      { name: `other agent's brainSave before: p99`, value: round1(percentile(before, 99)), unit: 'ms' },
      { name: `other agent's brainSave during the erase: p50`, value: round1(percentile(writes, 50)), unit: 'ms' },
      { name: `other agent's brainSave during the erase: p99`, value: round1(percentile(writes, 99)), unit: 'ms' },
    ];
    return { scenario: 'erase', figures, notes };
  } finally {
    await server.stop();
  }
}
