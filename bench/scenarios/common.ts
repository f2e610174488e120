/** What the scenarios share: progress lines, durations, the bare handler and throughput figures. */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { autocannon, type AutocannonResult } from '../autocannon.js';
import { load, type LoadResult, type LoadSpec } from '../load.js';
import type { BenchFigure, ScenarioOptions } from './types.js';

/** Progress for humans; with --json it goes to stderr so stdout stays one JSON document. */
export const progress = (options: ScenarioOptions, line: string) => (options.json ? process.stderr : process.stdout).write(`${line}\n`);

/**
 * Seconds per round and rounds: BENCH_SECONDS (default 8) × BENCH_ROUNDS (default 5), after
 * BENCH_WARMUP seconds (default 5) of each contender; smoke: 1 s × 1, no warm-up. The rounds are
 * the issue's outside measurement (autocannon, 5 rounds × 8 s): with 3 rounds of 5 s, on a noisy
 * 2-core machine, one slow round moved a median by as much as the margin of a target. The warm-up
 * was 1 s until Burrow's rounds were seen rising round after round (1,450, 1,520, 1,824 rps of
 * the profile read) while the bare handler's did not: V8 was still optimizing Burrow's much longer
 * path, so the first rounds measured the warm-up, not the server.
 */
export function durations(options: ScenarioOptions) {
  if (options.smoke) return { seconds: 1, rounds: 1, warmup: 0 };
  return { seconds: Number(process.env.BENCH_SECONDS ?? 8), rounds: Number(process.env.BENCH_ROUNDS ?? 5), warmup: Number(process.env.BENCH_WARMUP ?? 5) };
}

/**
 * Requests of a latency scenario, made one at a time: `call(i)` for i = 0 … warmup + count − 1,
 * the first `warmup` (BENCH_LATENCY_WARMUP, default 20; smoke 1) untimed. Returns the timed
 * requests' milliseconds and the last call's result. Each scenario starts its own server, so its
 * first requests of a kind are V8 compiling that kind's path: with one warm-up, 8 of the 15
 * slowest of 200 selective conversation searches were among the first 13 (docs/performance.md,
 * eighteenth round), and the p95 (the tenth slowest) measured the start, not the server.
 */
export const latencyWarmup = (options: ScenarioOptions) => (options.smoke ? 1 : Number(process.env.BENCH_LATENCY_WARMUP ?? 20));

export async function sequentialLatencies<T>(options: ScenarioOptions, count: number, call: (i: number) => Promise<T>): Promise<{ times: number[]; last: T | undefined }> {
  const warmup = latencyWarmup(options);
  for (let i = 0; i < warmup; i++) await call(i);
  const times: number[] = [];
  let last: T | undefined;
  for (let i = warmup; i < warmup + count; i++) {
    const started = performance.now();
    last = await call(i);
    times.push(performance.now() - started);
  }
  return { times, last };
}

async function readBody(request: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

/**
 * The bare baseline: node:http, JSON.parse of the body, the handler's SQL over pg, JSON.stringify
 * of { data }. No GraphQL, no authentication, no limits: the floor Burrow is measured against.
 */
export async function startBareHandler(handle: (body: { query?: string; variables?: Record<string, unknown> }) => Promise<unknown>) {
  const respond = async (request: IncomingMessage, response: ServerResponse) => {
    try {
      const data = await handle(JSON.parse(await readBody(request)));
      const text = JSON.stringify({ data });
      response.writeHead(200, { 'content-type': 'application/json; charset=utf-8', 'content-length': Buffer.byteLength(text) });
      response.end(text);
    } catch (error) {
      response.writeHead(500, { 'content-type': 'text/plain' });
      response.end(String(error));
    }
  };
  // respond answers every failure itself (500 with the error's text).
  const server = createServer((request, response) => void respond(request, response));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/`,
    async stop() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

const line = (r: LoadResult) =>
  `${r.rps.toFixed(0).padStart(6)} rps  p50 ${r.p50.toFixed(1).padStart(6)} ms  p99 ${r.p99.toFixed(1).padStart(6)} ms  (${r.requests} requests${r.cpuMsPerRequest === null ? '' : `, ${r.cpuMsPerRequest.toFixed(2)} ms of its CPU each`})`;

/**
 * The round whose ratio, `mine[i] / theirs[i]`, is the median of the rounds' ratios. Each round's
 * Burrow is divided by the baseline measured right beside it, so a slow minute of the shared
 * machine slows both sides of one ratio. Until the sixteenth round (docs/performance.md) each side
 * took its own median round: on a fresh machine whose CPU per request swung by 40 % from minute to
 * minute on the same work, that gave a nested read 0.666 where its rounds' own ratios were 0.60
 * to 0.85, and the autocannon run after it, minutes later, 0.804.
 */
export function medianRatioRound(mine: number[], theirs: number[]): { round: number; ratio: number } {
  const rounds = mine.map((value, round) => ({ round, ratio: value / theirs[round] }));
  return rounds.sort((a, b) => a.ratio - b.ratio)[Math.floor(rounds.length / 2)];
}

/** A throughput figure of `mine` against `theirs` (per round, measured side by side): their median round by ratio. */
export function against(name: string, unit: string, mine: number[], baseline: string, theirs: number[]): BenchFigure {
  const { round, ratio } = medianRatioRound(mine, theirs);
  return { name, value: round1(mine[round]), unit, baseline, baselineValue: round1(theirs[round]), ratio: round3(ratio) };
}

/**
 * The ratio of each side's own median round, as a report that runs each contender's rounds and
 * compares their medians computes it (the issue's outside figures). Printed beside the paired
 * figure, without a target, so a reader sees both.
 */
export function sidesMedianRatio(label: string, generator: string, mine: number[], theirs: number[]): BenchFigure {
  return { name: `${label}: ${generator}, each side's median round`, value: round3(median(mine) / median(theirs)), unit: 'ratio' };
}

/** How far autocannon's ratio is from the bench's, which must agree within 10 % for the bench's figure to stand as an outside measurement. */
export function agreement(label: string, benchRatio: number, autocannonRatio: number): BenchFigure {
  return {
    name: `${label}: autocannon's ratio against the bench's`,
    value: round1((Math.abs(autocannonRatio - benchRatio) / benchRatio) * 100),
    unit: '% apart',
    target: '≤ 10 %',
  };
}

/**
 * Burrow against a baseline under the same closed-loop load, after a warm-up, and the same again
 * with autocannon (its own process) driving both. Every round runs all four, one after the other:
 * the bench's generator on Burrow, then on the baseline, then autocannon on Burrow, then on the
 * baseline; so both ratios are taken over the same minutes and their agreement says whether the
 * bench's generator measures what an outside one does, not whether the machine kept its speed.
 * The figures are those of the median round by ratio (medianRatioRound).
 */
export async function sideBySide(
  options: ScenarioOptions,
  label: string,
  burrow: Omit<LoadSpec, 'seconds'>,
  baseline: { name: string; spec: Omit<LoadSpec, 'seconds'> },
  target: string,
): Promise<BenchFigure[]> {
  const { seconds, rounds, warmup } = durations(options);
  if (warmup) {
    await load({ ...burrow, seconds: warmup });
    await load({ ...baseline.spec, seconds: warmup });
  }
  const mine: LoadResult[] = [];
  const theirs: LoadResult[] = [];
  const outside: { mine: AutocannonResult; theirs: AutocannonResult }[] = [];
  const measure = async (name: string, spec: Omit<LoadSpec, 'seconds'>, round: number) => {
    const result = await load({ ...spec, seconds });
    if (result.errors > 0) throw new Error(`${name}: ${result.errors} failed requests, first: ${result.firstError}`);
    progress(options, `    round ${round + 1} ${name.padEnd(28)} ${line(result)}`);
    return result;
  };
  for (let round = 0; round < rounds; round++) {
    mine.push(await measure('burrow', burrow, round));
    theirs.push(await measure(baseline.name, baseline.spec, round));
    const pair = { mine: await autocannon({ ...burrow, seconds }), theirs: await autocannon({ ...baseline.spec, seconds }) };
    outside.push(pair);
    progress(
      options,
      `    round ${round + 1} autocannon: Burrow ${pair.mine.rps.toFixed(0)} rps (p50 ${pair.mine.p50} ms, p99 ${pair.mine.p99} ms), ${baseline.name} ${pair.theirs.rps.toFixed(0)} rps; ratios: bench ${(mine[round].rps / theirs[round].rps).toFixed(3)}, autocannon ${(pair.mine.rps / pair.theirs.rps).toFixed(3)}`,
    );
  }
  const [mineRates, theirRates] = [mine.map((r) => r.rps), theirs.map((r) => r.rps)];
  const [outsideMine, outsideTheirs] = [outside.map((r) => r.mine.rps), outside.map((r) => r.theirs.rps)];
  const { round, ratio } = medianRatioRound(mineRates, theirRates);
  const [m, t] = [mine[round], theirs[round]];
  const byAutocannon = against(`${label}: throughput by autocannon`, 'rps', outsideMine, baseline.name, outsideTheirs);
  return [
    { name: `${label}: throughput`, value: round1(m.rps), unit: 'rps', baseline: baseline.name, baselineValue: round1(t.rps), ratio: round3(ratio), target },
    { name: `${label}: p50`, value: round1(m.p50), unit: 'ms', baseline: baseline.name, baselineValue: round1(t.p50) },
    { name: `${label}: p99`, value: round1(m.p99), unit: 'ms', baseline: baseline.name, baselineValue: round1(t.p99) },
    ...(m.cpuMsPerRequest !== null && t.cpuMsPerRequest !== null
      ? [{ name: `${label}: CPU per request`, value: round3(m.cpuMsPerRequest), unit: 'ms', baseline: baseline.name, baselineValue: round3(t.cpuMsPerRequest) }]
      : []),
    byAutocannon,
    agreement(label, round3(ratio), byAutocannon.ratio!),
    sidesMedianRatio(label, 'bench', mineRates, theirRates),
    sidesMedianRatio(label, 'autocannon', outsideMine, outsideTheirs),
  ];
}

/** The median of a contender's rounds (the upper one of an even count). */
export const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];

export const round1 = (n: number) => Math.round(n * 10) / 10;
export const round3 = (n: number) => Math.round(n * 1000) / 1000;
