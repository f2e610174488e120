/**
 * Closed-loop HTTP load with a fixed concurrency (16 by default), generated on a worker thread.
 * The same generator drives Burrow and its baseline, alternating rounds, so their figures are
 * taken under the same conditions in the same process tree.
 */
import { Worker } from 'node:worker_threads';
import { percentile } from './config.js';

export const CONCURRENCY = 16;

export interface LoadResult {
  requests: number;
  errors: number;
  firstError: string | null;
  rps: number;
  p50: number;
  p95: number;
  p99: number;
  bytesPerRequest: number;
  /** The contender's own CPU per answered request (LoadSpec.cpuMs), or null. */
  cpuMsPerRequest: number | null;
}

export interface LoadSpec {
  url: string;
  headers?: Record<string, string>;
  /** Request bodies sent in turn (one per request), e.g. the same mutation over 100 agents. */
  bodies: string[];
  seconds: number;
  concurrency?: number;
  /** A string every good answer contains (e.g. a success typename); others count as errors. */
  expect?: string;
  /** The CPU milliseconds the contender's process has used so far (bench/process-cpu.ts), read around the run. */
  cpuMs?: () => number | null;
}

export function load(spec: LoadSpec): Promise<LoadResult> {
  const cpuBefore = spec.cpuMs?.() ?? null;
  return new Promise((resolve, reject) => {
    const worker = new Worker(new URL('./load-worker.mjs', import.meta.url), {
      workerData: {
        url: spec.url,
        headers: spec.headers ?? {},
        bodies: spec.bodies,
        seconds: spec.seconds,
        concurrency: spec.concurrency ?? CONCURRENCY,
        expect: spec.expect ?? null,
      },
    });
    worker.once('error', reject);
    worker.once('message', (m: { latencies: number[]; errors: number; firstError: string | null; elapsedMs: number; bytes: number }) => {
      const requests = m.latencies.length;
      const cpuAfter = spec.cpuMs?.() ?? null;
      resolve({
        requests,
        errors: m.errors,
        firstError: m.firstError,
        rps: requests / (m.elapsedMs / 1000),
        p50: requests ? percentile(m.latencies, 50) : NaN,
        p95: requests ? percentile(m.latencies, 95) : NaN,
        p99: requests ? percentile(m.latencies, 99) : NaN,
        bytesPerRequest: requests ? m.bytes / (requests + m.errors) : 0,
        cpuMsPerRequest: cpuBefore !== null && cpuAfter !== null && requests ? (cpuAfter - cpuBefore) / requests : null,
      });
      void worker.terminate();
    });
  });
}

/** The median round by throughput: one slow round (the machine is shared) does not decide. */
export const medianRound = (results: LoadResult[]) => [...results].sort((a, b) => a.rps - b.rps)[Math.floor(results.length / 2)];
