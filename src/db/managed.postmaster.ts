/**
 * The postmaster this Burrow process runs: started, waited for on its socket, restarted when it
 * dies (up to BURROW_POSTGRES_RESTART_LIMIT), and stopped.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { closeSync, openSync, readFileSync, statSync } from 'node:fs';
import { userInfo } from 'node:os';
import pg from 'pg';
import { StartupError } from './database.js';
import { SOCKET_PORT, tail, type Binaries, type ManagedLayout } from './managed.cluster.js';
import type { ManagedOptions, SupervisorState, SupervisorStatus } from './managed.types.js';

/** Postmaster deaths are counted over this window against BURROW_POSTGRES_RESTART_LIMIT. */
export const MANAGED_RESTART_WINDOW_MS = 10 * 60_000;
export const START_TIMEOUT_MS = 60_000;
export const STOP_TIMEOUT_MS = 30_000;

const defaultLog = (message: string) => process.stderr.write(`Burrow: ${message}\n`);
const defaultFatal = (message: string) => {
  process.stderr.write(`Burrow: ${message}\n`);
  process.exit(1);
};

export class Postmaster {
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
export async function waitForSocket(layout: ManagedLayout, user: string, timeoutMs: number, failed: () => string | null): Promise<void> {
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

function readLog(path: string): string {
  try {
    return statSync(path).size > 0 ? readFileSync(path, 'utf8').slice(-4000) : '';
  } catch {
    return '';
  }
}

export const sleep = (ms: number) => new Promise((done) => setTimeout(done, ms));

export async function waitUntil(condition: () => boolean, timeoutMs: number): Promise<boolean> {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) return false;
    await sleep(100);
  }
  return true;
}
