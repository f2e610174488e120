/**
 * The whole topology on one machine (scripts/topology/stack.sh; docs/scaling.md): HAProxy in front
 * of three built Burrow instances, each pooled through two PgBouncers (one per node) to a
 * pg_auto_failover primary and standby, with direct connections to the nodes for LISTEN, owner
 * locks and migrations and both nodes as read replicas. `stack.sh up` on ports of the test's own;
 * writes through HAProxy (each with an idempotency key, retried on 502/503/lost connections)
 * before, during and after a planned switchover (`pg_autoctl perform switchover`). Asserted: the
 * standby became the primary; every acknowledged write is stored exactly once and nothing else
 * is; every instance is ready again, its LISTEN connection on the new primary; `stack.sh status`
 * reports every piece; `stack.sh down` leaves no process and no open port. Printed: writes,
 * retries, the switchover's length and the longest stretch without an acknowledged write.
 *
 * Opt-in (it needs pg_auto_failover, PgBouncer and HAProxy: scripts/topology/install.sh; about a
 * minute): BURROW_TEST_TOPOLOGY=1.
 */
import { execFile, execFileSync } from 'node:child_process';
import { existsSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { scaled, waitUntil } from '../support/harness.js';
import { performSwitchover, topologySkipReason } from '../support/pg-auto-failover.js';
import { ROOT, createShippedToken } from '../support/shipped.js';
import { haproxyInstalled, sleep, writeUnderLoad, type WriteKind } from '../support/topology.js';

const SKIP = topologySkipReason() ?? (haproxyInstalled() ? null : 'haproxy is not installed: run scripts/topology/install.sh as root');
if (SKIP) console.log(`test/topology/stack.test.ts skipped: ${SKIP}`);

const SCRIPT = join(ROOT, 'scripts/topology/stack.sh');
const AGENTS = ['stack-a', 'stack-b', 'stack-c'];
const WRITERS = 6;
/** How long the load writes before the switchover and after it. */
const PHASE_MS = 5_000;
/** stack.sh takes ten consecutive ports from its base. */
const PORTS = 10;

const portFree = (port: number) =>
  new Promise<boolean>((resolve) => {
    const server = createServer();
    server.once('error', () => resolve(false));
    server.listen(port, '127.0.0.1', () => server.close(() => resolve(true)));
  });

/** A base port with the next ten free, away from the defaults (7400) and CI's PostgreSQL. */
async function freeBase(): Promise<number> {
  for (let attempt = 0; attempt < 50; attempt++) {
    const base = 20_000 + Math.floor(Math.random() * 20_000);
    const ports = Array.from({ length: PORTS }, (_, i) => base + i);
    if ((await Promise.all(ports.map(portFree))).every(Boolean)) return base;
  }
  throw new Error('no ten consecutive free ports found');
}

function stack(action: 'up' | 'down' | 'status', env: Record<string, string>): Promise<{ code: number; out: string }> {
  return new Promise((resolve) => {
    execFile('bash', [SCRIPT, action], { env: { ...process.env, ...env }, encoding: 'utf8' }, (error, stdout, stderr) =>
      resolve({ code: error ? Number((error as { code?: number }).code ?? 1) : 0, out: stdout + stderr }),
    );
  });
}

/** Live processes (zombies aside: this container's init may not reap them) whose command line names `dir`. */
function processesIn(dir: string): string[] {
  return execFileSync('ps', ['-eo', 'stat=,args='], { encoding: 'utf8' })
    .split('\n')
    .filter((line) => line.includes(dir) && !line.trim().startsWith('Z'));
}

describe.skipIf(SKIP)(`stack.sh: the whole topology, a switchover under writes${SKIP ? ` (skipped: ${SKIP})` : ''}`, () => {
  const dir = join(tmpdir(), `bw-stack-${process.pid}`);
  let base = 0;
  let env: Record<string, string> = {};
  let url = '';
  let operatorToken = '';
  let upSeconds = 0;

  beforeAll(async () => {
    base = await freeBase();
    // The per-token rate limit off, as in haproxy.test.ts: one operator token carries all six
    // writers, and on a fast machine they pass the default 50 a second (CI saw a 429 there).
    env = { BURROW_STACK_DIR: dir, BURROW_STACK_PORT: String(base), BURROW_RATE_LIMIT_PER_SECOND: '0' };
    const started = performance.now();
    const up = await stack('up', env);
    upSeconds = Number(((performance.now() - started) / 1000).toFixed(1));
    if (up.code !== 0) throw new Error(`stack.sh up failed (${up.code}):\n${up.out}`);
    url = /^URL: (\S+)$/m.exec(up.out)?.[1] ?? '';
    operatorToken = /^operator token: (\S+)$/m.exec(up.out)?.[1] ?? '';
    expect(url).toBe(`http://127.0.0.1:${base + 8}/graphql`);
    expect(operatorToken).toMatch(/^brw_/);
  }, 180_000);

  afterAll(async () => {
    if (existsSync(dir)) await stack('down', env);
    rmSync(dir, { recursive: true, force: true });
  });

  it('loses no acknowledged write and stores none twice across a switchover; every instance is ready again; down stops it all', async () => {
    const nodePorts = [base + 1, base + 2];
    const instancePorts = [base + 5, base + 6, base + 7];
    const status = await stack('status', env);
    expect(status.code).toBe(0);
    for (const line of [
      `PgBouncer 1 on ${base + 3} -> ${nodePorts[0]}: running`,
      `PgBouncer 2 on ${base + 4} -> ${nodePorts[1]}: running`,
      ...instancePorts.map((port, i) => `Burrow instance ${i + 1} on ${port}: ready`),
      `HAProxy on ${base + 8}: running; URL ${url}`,
    ])
      expect(status.out).toContain(line);

    for (const agentId of AGENTS) await createShippedToken({ url, operatorToken }, { name: `agent-${agentId}`, agentId });

    let phase = 'steady';
    let stopWriting = false;
    const load = writeUnderLoad({ url, token: operatorToken, agentIds: AGENTS, workers: WRITERS, stop: () => stopWriting, phase: () => phase });
    // The longest stretch without a newly acknowledged write, sampled every 50 ms.
    let longestPauseMs = 0;
    let lastCount = 0;
    let lastGrowth = performance.now();
    const sampler = setInterval(() => {
      const now = performance.now();
      if (load.figures.acknowledged.size > lastCount) {
        lastCount = load.figures.acknowledged.size;
        lastGrowth = now;
      } else longestPauseMs = Math.max(longestPauseMs, now - lastGrowth);
    }, 50);
    await sleep(PHASE_MS);
    const beforeSwitchover = load.figures.acknowledged.size;

    phase = 'switchover';
    const loadAtSwitchover = loadavg()[0];
    const switchStarted = performance.now();
    await performSwitchover(join(dir, 'postgres'));
    const switchoverSeconds = Number(((performance.now() - switchStarted) / 1000).toFixed(2));
    phase = 'after';
    await sleep(PHASE_MS);
    stopWriting = true;
    await load.done;
    clearInterval(sampler);
    const writes = load.figures;

    // The standby is the primary now, the old primary its standby.
    const recovering: boolean[] = [];
    for (const port of nodePorts) {
      const client = new pg.Client({ host: '127.0.0.1', port, user: 'postgres', database: 'burrow' });
      await client.connect();
      recovering.push((await client.query<{ r: boolean }>('SELECT pg_is_in_recovery() AS r')).rows[0].r);
      await client.end();
    }
    expect(recovering).toEqual([true, false]);

    // Every instance ready again: its database, migrations and LISTEN (on the direct URL, which
    // names both nodes and so follows the primary) answer.
    const readiness = async () => Promise.all(instancePorts.map(async (port) => (await fetch(`http://127.0.0.1:${port}/health/ready`).catch(() => null))?.status ?? 0));
    await waitUntil(async () => (await readiness()).every((code) => code === 200), 'every instance ready after the switchover', scaled(30_000), 250);

    const db = new pg.Client({ host: '127.0.0.1', port: nodePorts[1], user: 'postgres', database: 'burrow' });
    await db.connect();
    let listeners: number;
    let stored: { kind: WriteKind; agent_id: string; id: string; title: string }[];
    try {
      // One LISTEN connection per instance, straight to the new primary (not through PgBouncer).
      await waitUntil(
        async () => (await db.query<{ n: number }>(`SELECT count(*)::int AS n FROM pg_stat_activity WHERE application_name = 'burrow' AND query ILIKE 'LISTEN%'`)).rows[0].n === 3,
        'three LISTEN connections on the new primary',
        scaled(15_000),
        250,
      );
      listeners = 3;
      ({ rows: stored } = await db.query(
        `SELECT 'brainSave' AS kind, agent_id, id, title FROM brain_memories WHERE agent_id = ANY($1)
         UNION ALL SELECT 'appendConversationEntry', agent_id, id, payload->>'title' FROM conversation_entries WHERE agent_id = ANY($1)`,
        [AGENTS],
      ));
    } finally {
      await db.end();
    }

    const acknowledged = [...writes.acknowledged.entries()];
    const storedKeys = stored.map((row) => `${row.kind} ${row.agent_id} ${row.id} ${row.title}`);
    const figures = {
      loadAverageAtSwitchover: Number(loadAtSwitchover.toFixed(2)),
      cores: cpus().length,
      stackUpSeconds: upSeconds,
      writesAcknowledged: acknowledged.length,
      writesBeforeSwitchover: beforeSwitchover,
      retries: writes.retries,
      retriedBecause: writes.retriedBecause,
      switchoverCommandSeconds: switchoverSeconds,
      longestSecondsWithoutAcknowledgedWrite: Number((longestPauseMs / 1000).toFixed(2)),
      listenConnectionsOnNewPrimary: listeners,
    };
    console.log(`stack.sh switchover figures (under this machine's load): ${JSON.stringify(figures, null, 2)}`);

    expect(acknowledged.length).toBeGreaterThan(beforeSwitchover);
    // Exactly the acknowledged writes, each once, with the id the server answered.
    expect(storedKeys.sort()).toEqual(acknowledged.map(([title, write]) => `${write.kind} ${write.agentId} ${write.id} ${title}`).sort());

    const down = await stack('down', env);
    expect(down.code).toBe(0);
    expect(existsSync(dir)).toBe(false);
    expect(processesIn(dir)).toEqual([]);
    const free = await Promise.all(Array.from({ length: PORTS }, (_, i) => portFree(base + i)));
    expect(free).toEqual(free.map(() => true));
  }, 180_000);
});
