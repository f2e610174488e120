/**
 * An embedded data directory belongs to one process: PGlite is one backend in this process, and
 * a second process opening the same files would corrupt them. A pid file keeps out a second one.
 */
import { existsSync, readFileSync, rmSync, writeFileSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { StartupError } from './database.js';

export function claimEmbeddedDirectory(dataDir: string): () => void {
  if (dataDir.startsWith('memory://')) return () => {};
  mkdirSync(dataDir, { recursive: true, mode: 0o700 });
  const lockFile = join(dataDir, 'burrow.pid');
  if (existsSync(lockFile)) {
    const pid = Number(readFileSync(lockFile, 'utf8').trim());
    if (pid && pid !== process.pid && isAlive(pid)) {
      throw new StartupError(`BURROW_DATA_DIR="${dataDir}" is in use by another Burrow process (pid ${pid}); stop it first, or point BURROW_DATA_DIR elsewhere`);
    }
  }
  writeFileSync(lockFile, String(process.pid));
  return () => rmSync(lockFile, { force: true });
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}
