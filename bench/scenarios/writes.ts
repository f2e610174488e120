/**
 * writes: `brainSave` through the API, 16 concurrent connections spread over 100 agents, against
 * pgbench TPC-B (scale 10, 16 clients, prepared statements) on the same server in alternating
 * rounds, then the same with autocannon driving Burrow. Each round also runs:
 * - a bare node:http + pg handler running a lone save's statement (bench/scenarios/baselines.ts,
 *   in its own process with its own pool), one statement per save: what any Node server gets of
 *   this write over HTTP;
 * - a lone save's statement through pgbench: what the database alone allows for this write one
 *   save to a statement.
 * Burrow writes saves that arrive together in one statement (src/domains/brains/brains.save-batch.ts);
 * each round prints how many saves its statements carried, from the server's /metrics.
 * So the printed ratios tell the server's share of the gap from the write's. Where /proc can be
 * read, each round also prints the CPU each save cost the server and PostgreSQL, and each pgbench
 * transaction cost PostgreSQL. pgbench needs a PostgreSQL server: on the embedded database
 * (PGlite inside the server's process) Burrow is measured against the bare handler alone.
 */
import { execFileSync, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Param, Placeholder } from 'drizzle-orm';
import type { Db } from '../../src/db/database.js';
import { brainSaveStatement } from '../../src/domains/brains/brains.memories.js';
import { brainEvent } from '../../src/domains/brains/brains.writes.js';
import { eventWriteQuery } from '../../src/events/events.service.js';
import { autocannon } from '../autocannon.js';
import { startBaseline } from '../baseline.js';
import { startBenchServer } from '../config.js';
import { load, medianRound, type LoadResult } from '../load.js';
import { postgresCpu } from '../process-cpu.js';
import { OPERATOR } from './baselines.js';
import { readMetrics } from '../../test/support/shipped.js';
import { against, agreement, durations, median, medianRatioRound, progress, round1, round3, sidesMedianRatio } from './common.js';
import { agentId, seedAgents } from './seed.js';
import type { BenchFigure, ScenarioOptions, ScenarioResult } from './types.js';

const SAVE = 'mutation Save($input: BrainSaveInput!) { brainSave(input: $input) { __typename ... on BrainSaveSuccess { memory { id revision } } } }';
const AGENTS = 100;

/** pgbench from PATH, else from the PostgreSQL client's directory; null when there is none. */
export function findPgbench(): string | null {
  try {
    execFileSync('pgbench', ['--version'], { stdio: 'ignore' });
    return 'pgbench';
  } catch {
    const root = '/usr/lib/postgresql';
    const versions = existsSync(root) ? readdirSync(root).sort((a, b) => Number(b) - Number(a)) : [];
    for (const v of versions) if (existsSync(`${root}/${v}/bin/pgbench`)) return `${root}/${v}/bin/pgbench`;
    return null;
  }
}

const literal = (value: unknown) => (value === null ? 'NULL' : typeof value === 'number' ? String(value) : `'${String(value).replaceAll("'", "''")}'`);

/**
 * brainSave's statement, the one the server prepares (src/domains/brains/brains.memories.ts), as a
 * pgbench script: the same memory, revision, sequence bump and event, with no HTTP, GraphQL or
 * Node in between and without the wake-up NOTIFY the server sends after commits (one statement
 * for several saves). PostgreSQL makes the values from pgbench's variables, shaped as the bench's
 * saves are (a 36-character id, the same title, content and source), over the same 100 agents.
 */
export function saveStatementScript(db: Db): string {
  const query = eventWriteQuery(brainSaveStatement(db));
  const values: Record<string, string> = {
    agentId: `('bench-' || lpad(:agent::text, 5, '0'))`,
    id: `(lpad(:client_id::text, 4, '0') || '-' || lpad(:note::text, 31, '0'))`,
    title: `('Bench note ' || :note)`,
    content: `('Something worth keeping, number ' || :note || '.')`,
    sourceRefs: `ARRAY['bench:' || :note]`,
    ownership: literal(OPERATOR.kind),
    actorKind: literal(OPERATOR.kind),
    actorId: literal(OPERATOR.id),
    now: 'now()',
    occurredAt: 'now()',
    // One payload for every save, shaped as the server's (its size is what costs).
    payload: literal(
      JSON.stringify(brainEvent({ agentId: '', id: '0'.repeat(36), revision: 1, title: 'Bench note 0', ownership: OPERATOR.kind }, 'brain.created', OPERATOR).payload),
    ),
  };
  const text = query.sql.replace(/\s+/g, ' ').replace(/\$(\d+)/g, (_, n: string) => {
    // A column's value arrives wrapped (Param, with the column's encoder); a condition's bare.
    const given = query.params[Number(n) - 1];
    const param: unknown = given instanceof Param ? given.value : given;
    if (!(param instanceof Placeholder)) return literal(param);
    const value = values[param.name as string];
    if (!value) throw new Error(`writes: no pgbench value for the save statement's placeholder ${String(param.name)}`);
    return value;
  });
  return `\\set agent random(1, ${AGENTS})\n\\set note random(1, 9000000000000000000)\n${text};\n`;
}

/** A round's CPU, where it could be read: the server's per save, PostgreSQL's per save or per pgbench transaction. */
function cpuNote(serverMs: number | null, postgresMs: number | null): string {
  const parts = [serverMs === null ? null : `server ${serverMs.toFixed(3)} ms`, postgresMs === null ? null : `PostgreSQL ${postgresMs.toFixed(3)} ms`].filter(Boolean);
  return parts.length ? `  (CPU each: ${parts.join(', ')})` : '';
}

function pgbench(binary: string, args: string[]): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn(binary, args, { stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    child.stdout.on('data', (d) => (out += d));
    child.stderr.on('data', (d) => (out += d));
    child.once('error', reject);
    child.once('exit', (code) => (code === 0 ? resolve(out) : reject(new Error(`pgbench ${args.join(' ')} exited ${code}: ${out.slice(-500)}`))));
  });
}

export async function run(options: ScenarioOptions): Promise<ScenarioResult> {
  const server = await startBenchServer({ seed: (database) => seedAgents(database.pool, AGENTS), baselineData: true });
  const notes: string[] = [];
  const scriptDir = mkdtempSync(join(tmpdir(), 'bw-bench-save-'));
  const bare = await startBaseline('save', server.baselineData!).catch(async (error: unknown) => {
    await server.stop();
    throw error;
  });
  try {
    const bodies = Array.from({ length: 1_000 }, (_, i) =>
      JSON.stringify({
        query: SAVE,
        variables: { input: { agentId: agentId(1 + (i % AGENTS)), title: `Bench note ${i}`, content: `Something worth keeping, number ${i}.`, sourceRefs: [`bench:${i}`] } },
      }),
    );
    const check = await server.client.request<{ brainSave: { __typename: string } }>(SAVE, JSON.parse(bodies[0]).variables);
    if (check.brainSave.__typename !== 'BrainSaveSuccess') throw new Error(`writes: brainSave answered ${check.brainSave.__typename}`);
    notes.push(`brainSave over ${AGENTS} agents on ${server.description}`, 'the bare save handler runs in its own process with its own pool');
    progress(options, `  ${notes[0]}`);

    const binary = findPgbench();
    const url = server.databaseUrl;
    const skip = !url
      ? "pgbench skipped: the embedded database is PGlite inside the server's process; run with BURROW_TEST_DATABASE_URL for the ratio"
      : !binary
        ? 'pgbench skipped: not found in PATH nor /usr/lib/postgresql/*/bin (it ships with the PostgreSQL client)'
        : null;
    const { seconds, rounds, warmup } = durations(options);
    const scale = options.smoke ? 1 : 10;
    const script = join(scriptDir, 'brain-save.sql');
    if (!skip) {
      progress(options, `  pgbench -i -s ${scale} …`);
      await pgbench(binary!, ['-i', '-q', '-s', String(scale), url!]);
      writeFileSync(script, saveStatementScript(server.database!.db));
    } else {
      notes.push(skip);
      progress(options, `  ${skip}`);
    }
    const spec = { url: server.url, headers: server.headers, bodies, seconds, expect: '"BrainSaveSuccess"' };
    const bareSpec = { url: bare.url, bodies, seconds, expect: '"BrainSaveSuccess"', cpuMs: bare.cpuMs };
    const bareName = `bare node:http + ${url ? 'pg' : 'PGlite'} running the save's statement`;
    // The strongest pgbench: prepared statements (-M prepared), one thread per core; TPC-B, or a script.
    const runPgbench = async (roundSeconds: number, scriptArgs: string[] = []) => {
      const out = await pgbench(binary!, ['-n', '-M', 'prepared', '-c', '16', '-j', '2', '-T', String(roundSeconds), ...scriptArgs, url!]);
      return { tps: Number(/tps = ([\d.]+)/.exec(out)?.[1]), transactions: Number(/actually processed: (\d+)/.exec(out)?.[1]) };
    };
    // What each write costs PostgreSQL itself, when it runs on this machine (its processes' CPU).
    const postgres = skip ? null : postgresCpu((await server.database!.pool.query<{ pid: number }>('SELECT pg_backend_pid() AS pid')).rows[0].pid);
    /** PostgreSQL's CPU milliseconds per unit of work while `work` ran (null when it cannot be read). */
    const postgresCpuPer = async <T>(work: () => Promise<T>, units: (result: T) => number): Promise<{ result: T; ms: number | null }> => {
      if (!postgres) return { result: await work(), ms: null };
      const { result, ms } = await postgres.during(work);
      return { result, ms: ms !== null && units(result) > 0 ? ms / units(result) : null };
    };
    if (warmup) {
      await load({ ...spec, seconds: warmup });
      await load({ ...bareSpec, seconds: warmup });
    }
    const mine: LoadResult[] = [];
    const bares: LoadResult[] = [];
    const theirs: number[] = [];
    const ceilings: number[] = [];
    const postgresMs: Record<'save' | 'tpcb' | 'statement', number[]> = { save: [], tpcb: [], statement: [] };
    const keep = (list: number[], ms: number | null) => ms !== null && list.push(ms);
    // Saves that arrive together share a statement (src/domains/brains/brains.save-batch.ts): the
    // server's own counters say how many each statement carried.
    const statementCounts = async () => {
      const metrics = await readMetrics(server.origin, server.operatorToken);
      return { statements: metrics.get('burrow_brain_save_statements_total') ?? 0, memories: metrics.get('burrow_brain_save_memories_total') ?? 0 };
    };
    const perStatement: number[] = [];
    // autocannon driving Burrow, each round right after that round's TPC-B (the outside measurement).
    const outside: number[] = [];
    for (let round = 0; round < rounds; round++) {
      const counted = await statementCounts();
      const saves = await postgresCpuPer(
        () => load({ ...spec, cpuMs: server.cpuMs }),
        (r) => r.requests,
      );
      const r = saves.result;
      if (r.errors) throw new Error(`writes: ${r.errors} failed saves, first: ${r.firstError}`);
      mine.push(r);
      keep(postgresMs.save, saves.ms);
      const now = await statementCounts();
      const batch = (now.memories - counted.memories) / Math.max(1, now.statements - counted.statements);
      perStatement.push(batch);
      progress(
        options,
        `    round ${round + 1} brainSave                    ${r.rps.toFixed(0).padStart(6)} /s   p50 ${r.p50.toFixed(1)} ms  p99 ${r.p99.toFixed(1)} ms, ${batch.toFixed(1)} saves a statement${cpuNote(r.cpuMsPerRequest, saves.ms)}`,
      );
      if (!skip) {
        const tpcb = await postgresCpuPer(
          () => runPgbench(seconds),
          (b) => b.transactions,
        );
        theirs.push(tpcb.result.tps);
        keep(postgresMs.tpcb, tpcb.ms);
        progress(options, `    round ${round + 1} pgbench TPC-B (16 clients)   ${tpcb.result.tps.toFixed(0).padStart(6)} tps${cpuNote(null, tpcb.ms)}`);
        const a = await autocannon({ ...spec, seconds });
        outside.push(a.rps);
        progress(
          options,
          `    round ${round + 1} brainSave by autocannon      ${a.rps.toFixed(0).padStart(6)} /s   p50 ${a.p50} ms  p99 ${a.p99} ms; ratios to TPC-B: bench ${(r.rps / tpcb.result.tps).toFixed(3)}, autocannon ${(a.rps / tpcb.result.tps).toFixed(3)}`,
        );
      }
      const b = await load(bareSpec);
      if (b.errors) throw new Error(`writes: ${b.errors} failed bare saves, first: ${b.firstError}`);
      bares.push(b);
      progress(
        options,
        `    round ${round + 1} bare save handler            ${b.rps.toFixed(0).padStart(6)} /s   p50 ${b.p50.toFixed(1)} ms  p99 ${b.p99.toFixed(1)} ms${cpuNote(b.cpuMsPerRequest, null)}`,
      );
      if (!skip) {
        const own = await postgresCpuPer(
          () => runPgbench(seconds, ['-f', script]),
          (b) => b.transactions,
        );
        ceilings.push(own.result.tps);
        keep(postgresMs.statement, own.ms);
        progress(options, `    round ${round + 1} pgbench brainSave's statement ${own.result.tps.toFixed(0).padStart(6)} tps${cpuNote(null, own.ms)}`);
      }
    }
    // Every ratio is that of its median round (common.ts: medianRatioRound); without pgbench the
    // figures are those of Burrow's median round against the bare handler.
    const saveRates = mine.map((m) => m.rps);
    const bareRates = bares.map((m) => m.rps);
    const main = skip ? medianRatioRound(saveRates, bareRates) : medianRatioRound(saveRates, theirs);
    const burrow = mine[main.round];
    const label = 'brainSave, 16 connections over 100 agents';
    const baselineName = `pgbench TPC-B scale ${scale}, 16 clients, prepared`;
    const figures: BenchFigure[] = [
      {
        name: `${label}: throughput`,
        value: round1(burrow.rps),
        unit: 'per s',
        ...(skip ? {} : { baseline: baselineName, baselineValue: round1(theirs[main.round]), ratio: round3(main.ratio) }),
        target: 'ratio ≥ 0.8',
      },
      { name: 'brainSave: p50', value: round1(burrow.p50), unit: 'ms' },
      { name: 'brainSave: p99', value: round1(burrow.p99), unit: 'ms' },
      { name: 'brainSave: saves a statement carried (median round)', value: round1(median(perStatement)), unit: 'saves' },
    ];
    const statementName = "brainSave's own statement by pgbench, 16 clients, prepared";
    if (!skip) {
      figures.push(
        against(`${statementName}: throughput`, 'per s', ceilings, baselineName, theirs),
        against(`${label}: against its own statement by pgbench`, 'per s', saveRates, statementName, ceilings),
        against(`${bareName}: throughput`, 'per s', bareRates, baselineName, theirs),
      );
    } else {
      const floor = medianRound(bares);
      figures.push({ name: `${bareName}: throughput`, value: round1(floor.rps), unit: 'per s' });
    }
    // The bare handler: what a Node server doing nothing but this write over HTTP gets.
    figures.push(against(`${label}: against the bare handler`, 'per s', saveRates, bareName, bareRates));
    const cpuOf = (rounds: LoadResult[]) => rounds.flatMap((m) => (m.cpuMsPerRequest === null ? [] : [m.cpuMsPerRequest]));
    const [serverMs, bareMs] = [cpuOf(mine), cpuOf(bares)];
    if (serverMs.length && bareMs.length) {
      figures.push({
        name: `${label}: the server's CPU per save${url ? '' : ' (PGlite inside it)'}`,
        value: round3(median(serverMs)),
        unit: 'ms',
        baseline: bareName,
        baselineValue: round3(median(bareMs)),
      });
    }
    if (postgresMs.save.length && postgresMs.tpcb.length) {
      figures.push({
        name: `${label}: PostgreSQL's CPU per save`,
        value: round3(median(postgresMs.save)),
        unit: 'ms',
        baseline: `${baselineName}, per transaction`,
        baselineValue: round3(median(postgresMs.tpcb)),
      });
    }
    if (postgresMs.statement.length) figures.push({ name: `${statementName}: PostgreSQL's CPU per statement`, value: round3(median(postgresMs.statement)), unit: 'ms' });
    if (!skip) {
      const byAutocannon = against(`${label}: throughput by autocannon`, 'per s', outside, baselineName, theirs);
      figures.push(
        byAutocannon,
        agreement(label, round3(main.ratio), byAutocannon.ratio!),
        sidesMedianRatio(label, 'bench', saveRates, theirs),
        sidesMedianRatio(label, 'autocannon', outside, theirs),
      );
    }
    return { scenario: 'writes', figures, notes };
  } finally {
    rmSync(scriptDir, { recursive: true, force: true });
    await bare.stop();
    await server.stop();
  }
}
