/**
 * The cross-check: autocannon, in a process of its own (bench/autocannon-process.mjs), drives the
 * same processes the bench's generator just measured, so a ratio printed by the bench is one an
 * outside measurement would also find (issue: agreeing within 10 %).
 */
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { CONCURRENCY, type LoadSpec } from './load.js';

const SCRIPT = fileURLToPath(new URL('./autocannon-process.mjs', import.meta.url));

export interface AutocannonResult {
  requests: number;
  errors: number;
  firstError: string | null;
  rps: number;
  p50: number;
  p99: number;
}

export function autocannon(spec: LoadSpec): Promise<AutocannonResult> {
  // The spec goes on stdin: a thousand request bodies are more than a command line holds.
  const child = spawn(process.execPath, [SCRIPT], { stdio: ['pipe', 'pipe', 'pipe'] });
  child.stdin.end(JSON.stringify({ ...spec, concurrency: spec.concurrency ?? CONCURRENCY, expect: spec.expect ?? null }));
  let out = '';
  let err = '';
  child.stdout.on('data', (chunk) => (out += chunk));
  child.stderr.on('data', (chunk) => (err += chunk));
  return new Promise((resolve, reject) => {
    child.once('error', reject);
    child.once('exit', (code) => {
      if (code !== 0) return reject(new Error(`autocannon exited with ${code}: ${err.slice(-500)}`));
      const result = JSON.parse(out) as AutocannonResult;
      if (result.errors) return reject(new Error(`autocannon: ${result.errors} failed requests, first: ${result.firstError}`));
      resolve(result);
    });
  });
}
