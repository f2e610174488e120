/** What the scenarios share: progress lines, durations, the bare handler and throughput figures. */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { autocannon } from '../autocannon.js';
import { alternate, load, medianRound, type LoadResult, type LoadSpec } from '../load.js';
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
 * Burrow against a baseline under the same closed-loop load, alternating rounds after a warm-up;
 * the median round of each gives the figures (throughput, its ratio, and Burrow's latencies).
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
  const results = await alternate({ burrow: { ...burrow, seconds }, [baseline.name]: { ...baseline.spec, seconds } }, rounds, (name, round, r) =>
    progress(options, `    round ${round + 1} ${name.padEnd(28)} ${line(r)}`),
  );
  const mine = medianRound(results.burrow);
  const theirs = medianRound(results[baseline.name]);
  const ratio = round3(mine.rps / theirs.rps);
  return [
    { name: `${label}: throughput`, value: round1(mine.rps), unit: 'rps', baseline: baseline.name, baselineValue: round1(theirs.rps), ratio, target },
    { name: `${label}: p50`, value: round1(mine.p50), unit: 'ms', baseline: baseline.name, baselineValue: round1(theirs.p50) },
    { name: `${label}: p99`, value: round1(mine.p99), unit: 'ms', baseline: baseline.name, baselineValue: round1(theirs.p99) },
    ...(mine.cpuMsPerRequest !== null && theirs.cpuMsPerRequest !== null
      ? [{ name: `${label}: CPU per request`, value: round3(mine.cpuMsPerRequest), unit: 'ms', baseline: baseline.name, baselineValue: round3(theirs.cpuMsPerRequest) }]
      : []),
    ...(await crossCheck(options, label, burrow, { name: baseline.name, unit: 'rps', measure: async (seconds) => (await autocannon({ ...baseline.spec, seconds })).rps }, ratio)),
  ];
}

/**
 * The same comparison again with autocannon (its own process) driving Burrow, alternating rounds
 * with the baseline (autocannon against a bare handler, or pgbench): the ratio it finds, and how far
 * it is from the bench's own (`benchRatio`), which must agree within 10 % for the bench's figure to
 * stand as an outside measurement.
 */
export async function crossCheck(
  options: ScenarioOptions,
  label: string,
  burrow: Omit<LoadSpec, 'seconds'>,
  baseline: { name: string; unit: string; measure: (seconds: number) => Promise<number> },
  benchRatio: number,
): Promise<BenchFigure[]> {
  const { seconds, rounds } = durations(options);
  const mine: number[] = [];
  const theirs: number[] = [];
  for (let round = 0; round < rounds; round++) {
    const r = await autocannon({ ...burrow, seconds });
    mine.push(r.rps);
    theirs.push(await baseline.measure(seconds));
    progress(
      options,
      `    autocannon round ${round + 1}: Burrow ${r.rps.toFixed(0)} rps (p50 ${r.p50} ms, p99 ${r.p99} ms), ${baseline.name} ${theirs[round].toFixed(0)} ${baseline.unit}`,
    );
  }
  const ratio = round3(median(mine) / median(theirs));
  return [
    { name: `${label}: throughput by autocannon`, value: round1(median(mine)), unit: baseline.unit, baseline: baseline.name, baselineValue: round1(median(theirs)), ratio },
    {
      name: `${label}: autocannon's ratio against the bench's`,
      value: round1((Math.abs(ratio - benchRatio) / benchRatio) * 100),
      unit: '% apart',
      target: '≤ 10 %',
    },
  ];
}

/** The median of a contender's rounds (the upper one of an even count). */
export const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];

export const round1 = (n: number) => Math.round(n * 10) / 10;
export const round3 = (n: number) => Math.round(n * 1000) / 1000;
