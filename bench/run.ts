/**
 * npm run bench [-- --scenario nested|profile|fanout|writes|search|conversations|archive ...] [--json] [--smoke]
 *
 * Each scenario seeds its own throwaway database (embedded, or a fresh database of the server in
 * BURROW_TEST_DATABASE_URL), starts the built server as users do (npm start, npm run burrow --
 * serve) in its own process, drives it from this process's load generator and prints every figure
 * beside its baseline (a bare node:http + pg handler in its own process, pgbench), with the ratio
 * and the target. Speed is measured here, never asserted in tests. --smoke runs each for
 * seconds on tiny data (CI). Durations: BENCH_SECONDS per round (8), BENCH_ROUNDS (5).
 */
import { cpus } from 'node:os';
import { build, isStale } from '../scripts/build.mjs';
import { DEFAULT_SCENARIOS, SCENARIOS } from './scenarios/index.js';
import type { BenchFigure, ScenarioOptions, ScenarioResult } from './scenarios/types.js';

function parseArgs(argv: string[]) {
  const scenarios: string[] = [];
  let json = false;
  let smoke = false;
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    if (arg === '--json') json = true;
    else if (arg === '--smoke') smoke = true;
    else if (arg === '--scenario') scenarios.push(...(argv[++i] ?? '').split(/[|,]/).filter(Boolean));
    else if (arg.startsWith('--scenario=')) scenarios.push(...arg.slice('--scenario='.length).split(/[|,]/).filter(Boolean));
    // The old spelling: `npm run bench -- conversations`.
    else if (!arg.startsWith('-') && SCENARIOS[arg]) scenarios.push(arg);
    else throw new Error(`unknown argument ${arg}; usage: npm run bench -- [--scenario ${Object.keys(SCENARIOS).join('|')}]... [--json] [--smoke]`);
  }
  for (const name of scenarios) if (!SCENARIOS[name]) throw new Error(`unknown scenario "${name}"; known: ${Object.keys(SCENARIOS).join(', ')}`);
  return { scenarios: scenarios.length ? [...new Set(scenarios)] : DEFAULT_SCENARIOS, json, smoke };
}

/** Whether a figure meets its target, for the targets the bench can read ("ratio ≥ x", "p95 ≤ n ms", "≤ n %"); null otherwise. */
export function meets(figure: BenchFigure): boolean | null {
  const ratio = /ratio ≥ ([\d.]+)/.exec(figure.target ?? '');
  if (ratio) return figure.ratio === undefined ? null : figure.ratio >= Number(ratio[1]);
  const bound = /≤ ([\d.]+) (ms|%)/.exec(figure.target ?? '');
  if (bound) return figure.value <= Number(bound[1]);
  return null;
}

function human(result: ScenarioResult, smoke: boolean) {
  const lines = [`\n${result.scenario}`];
  for (const note of result.notes) lines.push(`  · ${note}`);
  for (const f of result.figures) {
    let line = `  ${f.name.padEnd(62)} ${String(f.value).padStart(9)} ${f.unit}`;
    if (f.baselineValue !== undefined) line += `   ${f.baseline}: ${f.baselineValue} ${f.unit}`;
    if (f.ratio !== undefined) line += `   ratio ${f.ratio.toFixed(3)}`;
    if (f.target) {
      // Smoke figures come from tiny data and one-second rounds: they are not judged.
      const met = smoke ? null : meets(f);
      line += `   target ${f.target}${met === null ? '' : met ? ' (met)' : ' (NOT met)'}`;
    }
    lines.push(line);
  }
  return lines.join('\n');
}

const args = parseArgs(process.argv.slice(2));
const options: ScenarioOptions = { smoke: args.smoke, databaseUrl: process.env.BURROW_TEST_DATABASE_URL ?? null, json: args.json };
const out = (line: string) => (args.json ? process.stderr : process.stdout).write(`${line}\n`);
if (process.env.NODE_ENV !== 'production') out('warning: NODE_ENV is not production (npm run bench sets it)');
out(
  `Burrow bench ${new Date().toISOString()} on ${cpus().length} × ${cpus()[0]?.model ?? 'cpu'}, node ${process.version}, ${options.databaseUrl ? 'a real server (BURROW_TEST_DATABASE_URL)' : 'the embedded database'}` +
    // The soak starts and restarts a PostgreSQL 17 of its own, whatever the other scenarios run on.
    `${args.scenarios.includes('soak') ? ' (soak: a PostgreSQL 17 of its own)' : ''}${args.smoke ? ', smoke' : ''}`,
);
// The server measured is the built one (dist/, what npm start runs): brought up to date first.
if (isStale()) {
  out('building dist/ (the sources changed since the last build)');
  await build();
}
const results: ScenarioResult[] = [];
const started = performance.now();
for (const name of args.scenarios) {
  const scenarioStarted = performance.now();
  out(`\n== ${name}`);
  const result = await SCENARIOS[name](options);
  results.push(result);
  out(`  (${((performance.now() - scenarioStarted) / 1000).toFixed(1)} s)`);
  if (!args.json) out(human(result, args.smoke));
}
if (args.json) {
  process.stdout.write(
    `${JSON.stringify({ date: new Date().toISOString(), node: process.version, cpus: cpus().length, database: options.databaseUrl ? 'external' : 'embedded', smoke: args.smoke, results: results.map((r) => ({ ...r, figures: r.figures.map((f) => ({ ...f, met: args.smoke ? null : meets(f) })) })) }, null, 2)}\n`,
  );
}
out(`\nbench finished in ${((performance.now() - started) / 1000).toFixed(1)} s`);
