/**
 * The soak's own PostgreSQL 17, which it restarts in the middle: scripts/test-postgres17.sh on a
 * free port and a new temporary directory (never CI's 55417), as root run by the user burrow-ci
 * as the script does. stop() + start() is the restart (same directory and port); destroy() stops
 * it and removes the directory.
 */
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort } from '../../test/support/free-port.js';
import { ROOT } from '../../test/support/shipped.js';

function script(action: 'start' | 'stop', port: number, dir: string): Promise<string> {
  return new Promise((resolve, reject) => {
    execFile(
      'bash',
      ['scripts/test-postgres17.sh', action],
      { cwd: ROOT, env: { ...process.env, BURROW_PG17_PORT: String(port), BURROW_PG17_DIR: dir } },
      (error, stdout, stderr) => (error ? reject(new Error(`test-postgres17.sh ${action}: ${error.message} ${stderr}`)) : resolve(stdout.trim())),
    );
  });
}

export async function startSoakPostgres() {
  const port = await freePort();
  if (port === 55417) throw new Error('soak: the kernel offered 55417, CI PostgreSQL 17 port; run again');
  // Short: the Unix socket lives in this directory and its path must fit in 107 bytes.
  const dir = mkdtempSync(join(tmpdir(), 'bw-soak-'));
  let url: string;
  try {
    url = await script('start', port, dir);
  } catch (error) {
    rmSync(dir, { recursive: true, force: true });
    throw error;
  }
  return {
    url,
    port,
    stop: () => script('stop', port, dir),
    start: () => script('start', port, dir),
    async destroy() {
      try {
        await script('stop', port, dir);
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    },
  };
}

export type SoakPostgres = Awaited<ReturnType<typeof startSoakPostgres>>;
