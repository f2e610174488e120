/**
 * A bench baseline in its own process, as Burrow runs in its own: a bare node:http handler over
 * its own pool (pg on a real server, or PGlite on a copy of the embedded data directory), running
 * the statements an ideal plan needs for one scenario's request. Started by startBaseline()
 * (bench/baseline.ts): argv is the scenario and a JSON BenchDatabaseSpec; it prints
 * `listening <url>` once it serves, and stops on SIGTERM.
 */
import pg from 'pg';
import { openDatabase } from '../src/db/database.open.js';
import type { BenchDatabaseSpec } from './config.js';
import { startBareHandler } from './scenarios/common.js';
import { BASELINE_HANDLERS, type BaselineName } from './scenarios/baselines.js';

const [name, specJson] = process.argv.slice(2) as [BaselineName, string];
const spec = JSON.parse(specJson) as BenchDatabaseSpec;
const handler = BASELINE_HANDLERS[name];
if (!handler) throw new Error(`no baseline named ${name}`);

// The same pool size as the server's default (BURROW_POSTGRES_POOL_MAX, 10) unless BENCH_POOL_MAX says otherwise.
const poolMax = Number(process.env.BENCH_POOL_MAX ?? 10);
const database = 'url' in spec ? null : await openDatabase({ lifecycle: 'embedded', dataDir: spec.dataDir });
const pool = database?.pool ?? new pg.Pool({ connectionString: (spec as { url: string }).url, max: poolMax });
const bare = await startBareHandler((body) => handler(pool, body));
process.stdout.write(`listening ${bare.url}\n`);
process.once('SIGTERM', () => {
  void (async () => {
    await bare.stop();
    await (database ? database.close() : pool.end());
    process.exit(0);
  })();
});
