/**
 * npm run bench -- --scenario archive: one agent's archive at scale (docs/agent-archive.md).
 *
 * Seeds BENCH_ARCHIVE_ORIGINALS (default 1,000,000; --smoke 3,000) originals for one agent with
 * SQL (1,000 per session, each payload about 150 bytes of JSON), then runs the built CLI as users
 * do, each command in its own process: `agent export` of the agent with its event log, and
 * `agent import` of the file into a second, empty database. Prints each command's wall time,
 * rows per second and peak RSS (the process's own maxRSS, reported at its exit), the file's size,
 * and the progress lines the CLI wrote. With BURROW_TEST_DATABASE_URL both databases are fresh
 * databases of that server (dropped after); else two embedded data directories.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openDatabase } from '../../src/db/database.open.js';
import { migrate } from '../../src/db/migrator.js';
import { createTestDatabase, externalConfig, TEST_REQUIRED_MAJOR, type TestDatabase } from '../../test/support/harness.js';
import { ROOT } from '../../test/support/shipped.js';
import { progress, round1 } from './common.js';
import type { BenchFigure, ScenarioOptions, ScenarioResult } from './types.js';

const AGENT = 'bench-archive';
const PER_SESSION = 1_000;
/** Preloaded into the CLI's process: its peak RSS, written to stderr as it exits. */
const REPORT_RSS = `data:text/javascript,process.on('exit',()=>process.stderr.write('maxrss_kb '+process.resourceUsage().maxRSS+'\\n'))`;

interface Target {
  env: Record<string, string>;
  drop(): Promise<void>;
  description: string;
}

async function target(dir: string, name: string): Promise<Target> {
  if (process.env.BURROW_TEST_DATABASE_URL) {
    const db: TestDatabase = await createTestDatabase();
    const env = { BURROW_POSTGRES_LIFECYCLE: 'external', BURROW_POSTGRES_URL: db.url!, BURROW_POSTGRES_REQUIRED_MAJOR: String(TEST_REQUIRED_MAJOR) };
    return { env, drop: () => db.drop(), description: `PostgreSQL (external), database ${db.name}` };
  }
  const dataDir = join(dir, name);
  return { env: { BURROW_POSTGRES_LIFECYCLE: 'embedded', BURROW_DATA_DIR: dataDir }, drop: async () => {}, description: 'embedded PGlite' };
}

async function seed(source: Target, originals: number): Promise<number> {
  const database = await openDatabase(
    source.env.BURROW_POSTGRES_URL ? externalConfig(source.env.BURROW_POSTGRES_URL, { poolMax: 2 }) : { lifecycle: 'embedded', dataDir: source.env.BURROW_DATA_DIR },
  );
  try {
    await migrate(database.pool);
    const pool = database.pool;
    await pool.query(`INSERT INTO agents (id, name, created_at, created_by) VALUES ($1, 'Bench archive', now(), 'bench')`, [AGENT]);
    const sessions = Math.ceil(originals / PER_SESSION);
    await pool.query(
      `INSERT INTO conversation_sessions (agent_id, session_id, project, last_position, active_entry_count, created_at, updated_at)
       SELECT $1, 's' || lpad(s::text, 5, '0'), 'bench', n, n, timestamptz '2026-01-01', timestamptz '2026-01-01'
         FROM generate_series(1, $2::int) AS s, LATERAL (SELECT LEAST(${PER_SESSION}, $3::int - (s - 1) * ${PER_SESSION}) AS n) AS size`,
      [AGENT, sessions, originals],
    );
    for (let from = 1; from <= originals; from += 100_000) {
      await pool.query(
        `INSERT INTO conversation_entries (agent_id, session_id, id, position, role, payload, created_at)
         SELECT $1, 's' || lpad(((i - 1) / ${PER_SESSION} + 1)::text, 5, '0'), md5('id' || i), (i - 1) % ${PER_SESSION} + 1,
                CASE WHEN i % 2 = 0 THEN 'assistant' ELSE 'user' END,
                json_build_object('role', CASE WHEN i % 2 = 0 THEN 'assistant' ELSE 'user' END, 'content', 'Note ' || md5('c' || i) || ' and ' || md5('d' || i)),
                timestamptz '2026-01-01' + make_interval(secs => i)
           FROM generate_series($2::int, $3::int) AS i`,
        [AGENT, from, Math.min(originals, from + 99_999)],
      );
    }
    return sessions + originals + 1;
  } finally {
    await database.close();
  }
}

/** Runs the built CLI with `args` in its own process; resolves with its wall time, peak RSS and progress lines. */
function cli(args: string[], env: Record<string, string>): Promise<{ ms: number; rssMb: number; progressLines: string[]; stdout: string }> {
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const child = spawn(process.execPath, ['--import', REPORT_RSS, join(ROOT, 'dist/cli.js'), ...args], {
      cwd: ROOT,
      env: { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: process.env.HOME ?? tmpdir(), BURROW_LOG_LEVEL: 'warn', ...env },
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk) => (stdout += chunk));
    child.stderr.on('data', (chunk) => (stderr += chunk));
    child.on('error', reject);
    child.on('close', (code) => {
      const ms = performance.now() - started;
      if (code !== 0) return reject(new Error(`burrow ${args.join(' ')} exited with ${code}: ${stderr.slice(-1000)}`));
      const rss = /maxrss_kb (\d+)/.exec(stderr);
      resolve({ ms, rssMb: rss ? Number(rss[1]) / 1024 : NaN, progressLines: stderr.split('\n').filter((l) => /^(exported|imported) \d+ rows/.test(l)), stdout });
    });
  });
}

export async function run(options: ScenarioOptions): Promise<ScenarioResult> {
  const log = (line = '') => progress(options, line);
  const originals = options.smoke ? 3_000 : Number(process.env.BENCH_ARCHIVE_ORIGINALS ?? 1_000_000);
  const dir = mkdtempSync(join(tmpdir(), 'bw-bench-archive-'));
  const source = await target(dir, 'source');
  const destination = await target(dir, 'destination');
  try {
    const seedStarted = performance.now();
    const rows = await seed(source, originals);
    log(
      `Burrow archive bench on ${source.description}: seeded ${originals.toLocaleString('en')} originals (${rows.toLocaleString('en')} rows) in ${((performance.now() - seedStarted) / 1000).toFixed(1)} s`,
    );
    const file = join(dir, `${AGENT}.burrow-agent.gz`);
    const exported = await cli(['agent', 'export', '--agent', AGENT, '--out', file, '--include-events'], source.env);
    const size = statSync(file).size;
    log(
      `  export: ${(exported.ms / 1000).toFixed(1)} s, peak RSS ${exported.rssMb.toFixed(0)} MB, ${exported.progressLines.length} progress lines (last: ${exported.progressLines.at(-1) ?? 'none'})`,
    );
    const imported = await cli(['agent', 'import', '--file', file, '--agent', 'bench-archive-copy'], destination.env);
    log(`  import: ${(imported.ms / 1000).toFixed(1)} s, peak RSS ${imported.rssMb.toFixed(0)} MB, ${imported.progressLines.length} progress lines; ${imported.stdout.trim()}`);
    const figures: BenchFigure[] = [
      { name: 'export: wall time (CLI process, start to exit)', value: round1(exported.ms / 1000), unit: 's' },
      { name: 'export: rows per second', value: Math.round(rows / (exported.ms / 1000)), unit: 'rows/s' },
      { name: 'export: peak RSS of the CLI process', value: round1(exported.rssMb), unit: 'MB' },
      { name: 'archive file size (gzip)', value: round1(size / 1024 / 1024), unit: 'MB' },
      { name: 'import: wall time (verify + one transaction)', value: round1(imported.ms / 1000), unit: 's' },
      { name: 'import: rows per second', value: Math.round(rows / (imported.ms / 1000)), unit: 'rows/s' },
      { name: 'import: peak RSS of the CLI process', value: round1(imported.rssMb), unit: 'MB' },
    ];
    return { scenario: 'archive', figures, notes: [`one agent with ${originals.toLocaleString('en')} originals (${rows.toLocaleString('en')} rows) on ${source.description}`] };
  } finally {
    await source.drop();
    await destination.drop();
    rmSync(dir, { recursive: true, force: true });
  }
}
