#!/usr/bin/env node
/**
 * Start-to-listening time of a command that starts the server: spawns it, reads its stdout until
 * the banner's first line, prints the milliseconds since the spawn, then stops it with SIGTERM.
 * `node scripts/start-time.mjs [--runs N] -- npm start` prints every run and the median.
 */
import { spawn } from 'node:child_process';

const args = process.argv.slice(2);
const split = args.indexOf('--');
const options = split === -1 ? args : args.slice(0, split);
const command = split === -1 ? [] : args.slice(split + 1);
const runsAt = options.indexOf('--runs');
const runs = runsAt === -1 ? 5 : Number(options[runsAt + 1]);
if (command.length === 0 || !(runs > 0)) {
  process.stderr.write('usage: node scripts/start-time.mjs [--runs N] -- COMMAND [ARG ...]\n');
  process.exit(2);
}

function once() {
  return new Promise((resolve, reject) => {
    const started = performance.now();
    // Its own process group, so SIGTERM reaches npm's child too.
    const child = spawn(command[0], command.slice(1), { stdio: ['ignore', 'pipe', 'pipe'], detached: true });
    let out = '';
    let err = '';
    let listening = null;
    child.stdout.on('data', (chunk) => {
      out += chunk;
      if (listening === null && out.includes('Burrow is serving')) {
        listening = performance.now() - started;
        process.kill(-child.pid, 'SIGTERM');
      }
    });
    child.stderr.on('data', (chunk) => (err += chunk));
    child.on('error', reject);
    child.on('exit', (code) => {
      if (listening === null) return reject(new Error(`exited ${code} before listening:\n${err}`));
      // npm may exit before the server it started has finished stopping (the embedded database
      // closes last, and the next start needs its data directory): wait for the whole group.
      void groupGone(child.pid).then(() => resolve(listening), reject);
    });
  });
}

async function groupGone(pgid) {
  for (;;) {
    try {
      process.kill(-pgid, 0);
    } catch {
      return;
    }
    await new Promise((r) => setTimeout(r, 50));
  }
}

const times = [];
for (let i = 0; i < runs; i++) {
  const ms = await once();
  times.push(ms);
  process.stdout.write(`run ${i + 1}: ${Math.round(ms)} ms\n`);
}
const sorted = [...times].sort((a, b) => a - b);
process.stdout.write(`median of ${runs}: ${Math.round(sorted[Math.floor(runs / 2)])} ms (min ${Math.round(sorted[0])}, max ${Math.round(sorted.at(-1))})\n`);
