/**
 * A pg_auto_failover topology for tests: scripts/topology/up.sh's monitor and two PostgreSQL 15
 * nodes (a primary and a synchronous standby), in a directory and on ports of the test's own, and
 * what a test does to it: ask the monitor who is primary, kill a node's postmaster (and its keeper,
 * so that nothing restarts it in place), perform a switchover, wait for states, stop it all.
 */
import { execFile, execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import pg from 'pg';
import { ROOT } from './shipped.js';

const SCRIPTS = join(ROOT, 'scripts/topology');

/** Why the topology tests cannot run here, or null when they can. */
export function topologySkipReason(): string | null {
  if (process.env.BURROW_TEST_TOPOLOGY !== '1') return 'set BURROW_TEST_TOPOLOGY=1 to run the failover test (it brings up pg_auto_failover)';
  if (!existsSync('/usr/bin/pg_autoctl') || !existsSync('/usr/lib/postgresql/15/bin/postgres')) {
    return 'pg_auto_failover and PostgreSQL 15 are not installed: run scripts/topology/install.sh as root';
  }
  return null;
}

export interface NodeState {
  name: string;
  port: number;
  reported: string;
  goal: string;
}

export interface Topology {
  dir: string;
  /** What BURROW_POSTGRES_URL gets: both nodes, read-write wanted. */
  url: string;
  nodes(): Promise<NodeState[]>;
  /**
   * The node the monitor assigned to take writes (primary, or wait_primary while its standby is
   * away). The assigned state, not the reported one: a killed primary's last report says primary.
   */
  primary(): Promise<NodeState>;
  /** Until every node's reported state is its goal and the sorted states are `states`. */
  waitStates(states: string[], timeoutMs: number): Promise<void>;
  /** SIGKILL to the node's postmaster and its pg_autoctl processes at once; returns when they were sent. */
  killNode(name: string): void;
  /** `pg_autoctl perform switchover`: resolves when the command returns (the new primary settled). */
  switchover(): Promise<string>;
  /** A direct connection to a node (for reading back what was acknowledged). */
  connect(port: number): Promise<pg.Client>;
  down(): Promise<void>;
}

function run(script: string, env: Record<string, string>): Promise<string> {
  return new Promise((resolve, reject) => {
    execFile('bash', [join(SCRIPTS, script)], { env: { ...process.env, ...env }, encoding: 'utf8' }, (error, stdout, stderr) =>
      error ? reject(new Error(`${script} failed: ${error.message}\n${stdout}\n${stderr}`)) : resolve(stdout),
    );
  });
}

/** `pg_autoctl perform switchover` on the topology in `dir` (up.sh's BURROW_TOPOLOGY_DIR): resolves when the new primary settled. */
export function performSwitchover(dir: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const args = ['perform', 'switchover', '--pgdata', join(dir, 'monitor')];
    const [command, argv] = process.getuid?.() === 0 ? ['runuser', ['-u', 'postgres', '--', 'pg_autoctl', ...args]] : ['pg_autoctl', args];
    execFile(
      command,
      argv,
      { env: { ...process.env, XDG_CONFIG_HOME: join(dir, 'xdg/config'), XDG_DATA_HOME: join(dir, 'xdg/data') }, encoding: 'utf8' },
      (error, stdout, stderr) => (error ? reject(new Error(`pg_autoctl perform switchover failed: ${error.message}\n${stderr}`)) : resolve(stdout + stderr)),
    );
  });
}

export async function topologyUp(dir: string, basePort: number): Promise<Topology> {
  const env = { BURROW_TOPOLOGY_DIR: dir, BURROW_TOPOLOGY_PORT: String(basePort) };
  const printed = await run('up.sh', env);
  const url = /BURROW_POSTGRES_URL='([^']+)'/.exec(printed)?.[1];
  if (!url) throw new Error(`up.sh printed no URL:\n${printed}`);
  const monitor = new pg.Client({ host: '127.0.0.1', port: basePort, user: 'autoctl_node', database: 'pg_auto_failover' });
  await monitor.connect();

  const nodes = async (): Promise<NodeState[]> =>
    (
      await monitor.query<NodeState>(
        'SELECT nodename AS name, nodeport AS port, reportedstate::text AS reported, goalstate::text AS goal FROM pgautofailover.node ORDER BY nodename',
      )
    ).rows;

  // What `ps` says: the keeper's root process names its data directory, its services are its children.
  const processes = () =>
    execFileSync('ps', ['-eo', 'pid=,ppid=,args='], { encoding: 'utf8' })
      .split('\n')
      .map((line) => /^\s*(\d+)\s+(\d+)\s+(.*)$/.exec(line))
      .filter((match): match is RegExpExecArray => match !== null)
      .map(([, pid, ppid, args]) => ({ pid: Number(pid), ppid: Number(ppid), args }));

  return {
    dir,
    url,
    nodes,
    async primary() {
      const found = (await nodes()).find((node) => ['primary', 'wait_primary', 'single'].includes(node.goal));
      if (!found) throw new Error(`no primary: ${JSON.stringify(await nodes())}`);
      return found;
    },
    async waitStates(states, timeoutMs) {
      const deadline = Date.now() + timeoutMs;
      const wanted = [...states].sort().join(',');
      for (;;) {
        const now = await nodes();
        if (
          now.every((node) => node.reported === node.goal) &&
          now
            .map((node) => node.reported)
            .sort()
            .join(',') === wanted
        )
          return;
        if (Date.now() > deadline) throw new Error(`states are not ${wanted} after ${timeoutMs} ms: ${JSON.stringify(now)}`);
        await new Promise((resolve) => setTimeout(resolve, 200));
      }
    },
    killNode(name) {
      const pgdata = join(dir, name);
      const postmaster = Number(readFileSync(join(pgdata, 'postmaster.pid'), 'utf8').split('\n')[0]);
      const all = processes();
      const keeper = all.find((p) => p.args.startsWith('pg_autoctl run') && p.args.includes(`--pgdata ${pgdata}`));
      if (!keeper) throw new Error(`no pg_autoctl keeper runs for ${pgdata}`);
      const services = all.filter((p) => p.ppid === keeper.pid).map((p) => p.pid);
      // All at once: the keeper would otherwise restart the postmaster in place.
      for (const pid of [keeper.pid, ...services, postmaster]) process.kill(pid, 'SIGKILL');
    },
    switchover: () => performSwitchover(dir),
    async connect(port) {
      const client = new pg.Client({ host: '127.0.0.1', port, user: 'postgres', database: 'burrow' });
      await client.connect();
      return client;
    },
    async down() {
      await monitor.end().catch(() => {});
      await run('down.sh', env);
    },
  };
}
