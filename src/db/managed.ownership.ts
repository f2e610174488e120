/**
 * Which Burrow process runs the postmaster: the owner file, and a postmaster left behind by an
 * owner that died.
 */
import { existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { StartupError } from './database.js';
import type { ManagedLayout } from './managed.cluster.js';
import { STOP_TIMEOUT_MS, waitUntil } from './managed.postmaster.js';

export interface Ownership {
  release(): void;
}

/** The owner file names the Burrow process that runs the postmaster; null: another live one does. */
export function claimOwnership(layout: ManagedLayout): Ownership | null {
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      writeFileSync(layout.ownerFile, String(process.pid), { flag: 'wx', mode: 0o600 });
      let released = false;
      const release = () => {
        if (released) return;
        released = true;
        process.off('exit', release);
        rmSync(layout.ownerFile, { force: true });
      };
      process.on('exit', release);
      return { release };
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw new StartupError(`cannot write ${layout.ownerFile}: ${(error as Error).message}`);
      const pid = Number(readFileSync(layout.ownerFile, 'utf8').trim());
      if (pid && pid !== process.pid && isAlive(pid)) return null;
      rmSync(layout.ownerFile, { force: true });
    }
  }
  throw new StartupError(`another Burrow process keeps claiming ${layout.root}; try again`);
}

/** A postmaster left running by a Burrow process that died: stop it (fast) so this one runs it. */
export async function stopOrphan(layout: ManagedLayout): Promise<void> {
  const pidFile = join(layout.pgdata, 'postmaster.pid');
  if (!existsSync(pidFile)) return;
  const pid = Number(readFileSync(pidFile, 'utf8').split('\n')[0]);
  if (!pid || !isAlive(pid) || !isPostgres(pid)) return;
  process.kill(pid, 'SIGINT');
  if (!(await waitUntil(() => !isAlive(pid), STOP_TIMEOUT_MS))) {
    throw new StartupError(`a PostgreSQL left running in ${layout.pgdata} (pid ${pid}) did not stop within ${STOP_TIMEOUT_MS / 1000} s; stop it, then start Burrow again`);
  }
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
  // An exited process that nobody reaped (a container whose pid 1 does not) is gone too.
  try {
    return readFileSync(`/proc/${pid}/stat`, 'utf8').replace(/^.*\) /s, '')[0] !== 'Z';
  } catch {
    return true;
  }
}

/** Guards against a recycled pid in a stale postmaster.pid: only a postgres process is signalled. */
function isPostgres(pid: number): boolean {
  try {
    return readFileSync(`/proc/${pid}/comm`, 'utf8').trim() === 'postgres';
  } catch {
    return existsSync('/proc') ? false : true;
  }
}
