/** Starts a bench baseline (bench/baseline-process.ts) in its own process and stops it. */
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import type { BenchDatabaseSpec } from './config.js';
import { processCpuMs } from './process-cpu.js';
import type { BaselineName } from './scenarios/baselines.js';

const SCRIPT = fileURLToPath(new URL('./baseline-process.ts', import.meta.url));

export async function startBaseline(name: BaselineName, spec: BenchDatabaseSpec): Promise<{ url: string; cpuMs(): number | null; stop(): Promise<void> }> {
  // tsx compiles the TypeScript once at load; the handler then runs as plain JavaScript.
  const child = spawn(process.execPath, ['--import', 'tsx', SCRIPT, name, JSON.stringify(spec)], {
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { ...process.env, NODE_ENV: 'production' },
  });
  let out = '';
  let err = '';
  child.stderr.on('data', (chunk) => (err += chunk));
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  const url = await new Promise<string>((resolve, reject) => {
    child.stdout.on('data', (chunk) => {
      out += chunk;
      const match = /listening (\S+)/.exec(out);
      if (match) resolve(match[1]);
    });
    void exited.then((code) => reject(new Error(`the ${name} baseline exited with ${code} before listening: ${err.slice(-800)}`)));
  });
  return {
    url,
    cpuMs: () => processCpuMs(child.pid!),
    async stop() {
      if (child.exitCode === null) child.kill('SIGTERM');
      const code = await exited;
      if (code !== 0) throw new Error(`the ${name} baseline exited with ${code}: ${err.slice(-800)}`);
    },
  };
}
