/**
 * soak: BENCH_SOAK_MINUTES (30; --smoke 1) of a mixed workload against the built server on a
 * PostgreSQL 17 of the soak's own, restarted once in the middle: profile reads, brainSave
 * (every acknowledged save is read back at the end), brainSearch, 1,000 live agentEvents
 * subscribers (10 sockets × 100, on 10 agents whose profiles are updated) that must each get
 * every event exactly once and in order, and token revocations (a revoked token must be refused).
 * Every minute: requests, errors, p50/p99, the server's RSS, its open database connections and
 * open subscriptions. Errors while PostgreSQL restarts (from its stop until the server is ready
 * again, plus RESTART_GRACE_MS) are expected and counted apart; any other error, a lost write,
 * a missed, duplicated or out-of-order delivery or a revoked token that worked fails the
 * scenario. Flatness (RSS and p99 after warm-up against the last minute) is printed, not asserted.
 */
import { monitorEventLoopDelay } from 'node:perf_hooks';
import pg from 'pg';
import { startBenchServer } from '../config.js';
import { readMetrics } from '../../test/support/shipped.js';
import { progress, round1 } from './common.js';
import { Clients } from './fanout.clients.js';
import { agentId, seedAgents } from './seed.js';
import { startSoakPostgres } from './soak.postgres.js';
import { call, inWindow, Q, Recorder, sleep, workload, type Ledger } from './soak.workload.js';
import type { BenchFigure, ScenarioOptions, ScenarioResult } from './types.js';

const RESTART_GRACE_MS = 10_000;
// prom-client's process_resident_memory_bytes under the prefix burrow_process_ (src/ops/metrics.ts).
const RSS = 'burrow_process_process_resident_memory_bytes';
const HEAP = 'burrow_process_nodejs_heap_size_used_bytes';
// The server's event-loop delay, largest since the last scrape (prom-client resets it on each).
const SERVER_LAG = 'burrow_process_nodejs_eventloop_lag_max_seconds';
const MINUTE_MS = 60_000;

/** The soak's own connection to its database, opened for one look and closed (it may be restarting). */
async function withClient<T>(url: string, use: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 5_000 });
  client.on('error', () => {});
  await client.connect();
  try {
    return await use(client);
  } finally {
    await client.end().catch(() => {});
  }
}

export async function run(options: ScenarioOptions): Promise<ScenarioResult> {
  const minutes = options.smoke ? 1 : Number(process.env.BENCH_SOAK_MINUTES ?? 30);
  const sockets = options.smoke ? 2 : 10;
  const perSocket = options.smoke ? 50 : 100;
  const live = Array.from({ length: 10 }, (_, i) => agentId(1 + i));
  const agents = { live, write: Array.from({ length: 20 }, (_, i) => agentId(11 + i)), read: Array.from({ length: 200 }, (_, i) => agentId(1 + i)) };
  const rates = { reads: 20, searches: 5, saves: 10, updateEveryMs: 2_000, revokeEveryMs: 3_000 };
  const notes: string[] = [];
  const postgres = await startSoakPostgres();
  const clients = new Clients();
  let server: Awaited<ReturnType<typeof startBenchServer>> | null = null;
  try {
    server = await startBenchServer({ databaseServer: postgres.url, seed: (database) => seedAgents(database.pool, agents.read.length) });
    const { url, operatorToken: token, origin } = server;
    const databaseUrl = server.databaseUrl!;
    const databaseName = new URL(databaseUrl).pathname.slice(1);
    notes.push(
      `${minutes} min on ${server.description}, a PostgreSQL 17 of its own (scripts/test-postgres17.sh, port ${postgres.port}) restarted once in the middle; ` +
        `per second: ${rates.reads} profile reads, ${rates.searches} brainSearch, ${rates.saves} brainSave over ${agents.write.length} agents, ` +
        `one profile update per ${rates.updateEveryMs / 1000} s on each of ${live.length} agents, a token made, used, revoked and tried every ${rates.revokeEveryMs / 1000} s; ` +
        `${sockets * perSocket} agentEvents subscribers (${sockets} sockets × ${perSocket}, ${(sockets * perSocket) / live.length} per agent)`,
    );
    progress(options, `  ${notes[0]}`);

    // The subscribers, from each live agent's current sequence on.
    const recorder0 = new Recorder(MINUTE_MS);
    const first: Record<string, number> = {};
    for (const id of live) first[id] = ((await call(recorder0, url, token, 'setup', Q.sequence, { agentId: id }))!.agent as { lastEventSequence: number }).lastEventSequence;
    const tokens: string[] = [];
    for (let s = 0; s < sockets; s++) {
      const made = await call(recorder0, url, token, 'setup', Q.createToken, { input: { kind: 'OPERATOR', name: `soak-subscriber-${s}` } });
      tokens.push((made!.createApiToken as { secret: string }).secret);
    }
    if (recorder0.failures.length) throw new Error(`soak: setup failed: ${JSON.stringify(recorder0.failures[0])}`);
    await clients.open(
      server.wsUrl,
      tokens.map((t) => ({ token: t, subscriptions: Array.from({ length: perSocket }, (_, n) => ({ agentId: live[n % live.length], after: first[live[n % live.length]] })) })),
    );
    const subscribers = sockets * perSocket;
    for (let i = 0; i < 600 && ((await readMetrics(origin, token)).get('burrow_subscriptions_open') ?? 0) < subscribers; i++) await sleep(50);

    // The workload, one line a minute, and the restart in the middle.
    const recorder = new Recorder(MINUTE_MS);
    const ledger: Ledger = { saved: [], revocations: 0, revokedStillWorked: 0, updates: 0 };
    const endAt = minutes * MINUTE_MS;
    const done = () => recorder.now() >= endAt;
    let window: { from: number; to: number } | null = null;
    const restart = { stopMs: 0, downMs: 0, readyMs: 0 };
    const rows: {
      minute: number;
      requests: number;
      errors: number;
      during: number;
      p50: number;
      p99: number;
      rssMb: number;
      heapMb: number;
      pool: number;
      backends: number;
      subscriptions: number;
      serverLag: number;
      benchLag: number;
    }[] = [];
    const header =
      '  minute  requests  errors (rate)      during restart   p50 ms   p99 ms   RSS MB (heap)   DB conns pool/pg_stat_activity   subscriptions   loop delay max ms server/bench';
    // The bench's own event-loop delay: a stalled bench (or machine) shows here, not as the server's latency.
    const benchLag = monitorEventLoopDelay({ resolution: 20 });
    benchLag.enable();
    progress(options, header);
    const sampler = (async () => {
      for (let minute = 0; minute < minutes; minute++) {
        await sleep(Math.max(0, (minute + 1) * MINUTE_MS - recorder.now()));
        // The requests that started in the minute have had up to a second more to finish.
        await sleep(1_000);
        const m = await readMetrics(origin, token).catch(() => new Map<string, number>());
        const backends = await withClient(databaseUrl, async (c) =>
          Number((await c.query('SELECT count(*) FROM pg_stat_activity WHERE datname = $1', [databaseName])).rows[0].count),
        ).catch(() => NaN);
        const row = {
          minute: minute + 1,
          ...recorder.minute(minute, window ?? null),
          rssMb: round1((m.get(RSS) ?? NaN) / 1048576),
          heapMb: round1((m.get(HEAP) ?? NaN) / 1048576),
          pool: (m.get('burrow_db_pool_connections{state="in_use"}') ?? NaN) + (m.get('burrow_db_pool_connections{state="idle"}') ?? NaN),
          backends,
          subscriptions: m.get('burrow_subscriptions_open') ?? NaN,
          serverLag: Math.round((m.get(SERVER_LAG) ?? NaN) * 1000),
          benchLag: Math.round(benchLag.max / 1e6),
        };
        benchLag.reset();
        rows.push(row);
        const rate = row.requests ? ((100 * row.errors) / row.requests).toFixed(2) : '0.00';
        progress(
          options,
          `  ${String(row.minute).padStart(6)}  ${String(row.requests).padStart(8)}  ${`${row.errors} (${rate} %)`.padEnd(16)}  ${String(row.during).padStart(14)}   ${row.p50.toFixed(1).padStart(6)}   ${row.p99.toFixed(1).padStart(6)}   ${`${row.rssMb.toFixed(1)} (${row.heapMb.toFixed(1)})`.padStart(15)}   ${`${row.pool}/${row.backends}`.padStart(30)}   ${String(row.subscriptions).padStart(13)}   ${`${row.serverLag}/${row.benchLag}`.padStart(29)}`,
        );
      }
    })();
    const restarter = (async () => {
      // The middle of the middle minute: never at a minute's end, where /metrics is read (it needs the database too).
      await sleep(Math.floor(minutes / 2) * MINUTE_MS + MINUTE_MS / 2);
      window = { from: recorder.now(), to: Infinity };
      const t0 = performance.now();
      await postgres.stop();
      restart.stopMs = performance.now() - t0;
      await sleep(2_000);
      await postgres.start();
      restart.downMs = performance.now() - t0;
      for (let i = 0; i < 1200; i++) {
        const ready = await fetch(`${origin}/health/ready`).then(
          (r) => r.status === 200,
          () => false,
        );
        if (ready) break;
        await sleep(50);
      }
      restart.readyMs = performance.now() - t0;
      window = { from: window.from, to: recorder.now() + RESTART_GRACE_MS };
      progress(
        options,
        `  PostgreSQL restarted: stopped in ${(restart.stopMs / 1000).toFixed(1)} s, back after ${(restart.downMs / 1000).toFixed(1)} s, the server ready after ${(restart.readyMs / 1000).toFixed(1)} s`,
      );
    })();
    await Promise.all([workload(recorder, { url, token }, agents, rates, ledger, done), restarter, sampler]);
    benchLag.disable();

    // Every event of every live agent, at every subscriber: wait for the last ones (60 s at most).
    const ranges: Record<string, [number, number]> = {};
    const setup = new Recorder(MINUTE_MS);
    for (const id of live)
      ranges[id] = [first[id] + 1, ((await call(setup, url, token, 'setup', Q.sequence, { agentId: id }))!.agent as { lastEventSequence: number }).lastEventSequence];
    let state = await clients.behind(ranges);
    for (let i = 0; i < 1200 && state.behind > 0; i++, state = await clients.behind(ranges)) await sleep(50);
    const delivery = await clients.report(0, 0, ranges);
    const events = Object.values(ranges).reduce((sum, [from, to]) => sum + to - from + 1, 0);

    // Every acknowledged save, read back from the database.
    const stored = await withClient(databaseUrl, async (c) => {
      const { rows: found } = await c.query<{ agent_id: string; id: string; content: string }>('SELECT agent_id, id, content FROM brain_memories WHERE agent_id = ANY($1)', [
        agents.write,
      ]);
      return new Map(found.map((r) => [`${r.agent_id}/${r.id}`, r.content]));
    });
    const lost = ledger.saved.filter((s) => stored.get(`${s.agentId}/${s.memoryId}`) !== s.content).length;

    const requests = rows.reduce((sum, r) => sum + r.requests, 0);
    const outside = recorder.failures.filter((f) => !inWindow(f, window));
    const during = recorder.failures.length - outside.length;
    const codes = (list: typeof outside) => {
      const counts = new Map<string, number>();
      for (const f of list) counts.set(`${f.kind} ${f.code}`, (counts.get(`${f.kind} ${f.code}`) ?? 0) + 1);
      return [...counts].map(([k, n]) => `${k} × ${n}`);
    };
    // After warm-up: the first minute after minute 1 without the restart in it, before the last (the short version has none: minute 2).
    const last = rows[rows.length - 1];
    const steady = rows.find((r) => r.minute >= 2 && r.during === 0 && r !== last) ?? rows[Math.min(1, rows.length - 1)];
    const figures: BenchFigure[] = [
      { name: 'requests', value: requests, unit: 'requests' },
      { name: 'error rate outside the restart', value: requests ? Number(((100 * outside.length) / requests).toFixed(3)) : 0, unit: '%', target: '0' },
      { name: 'errors outside the restart', value: outside.length, unit: 'requests', target: '0' },
      { name: `errors during the restart (${((window!.to - window!.from) / 1000).toFixed(1)} s window)`, value: during, unit: 'requests' },
      { name: 'acknowledged writes', value: ledger.saved.length, unit: 'saves' },
      { name: 'acknowledged writes lost', value: lost, unit: 'saves', target: '0' },
      { name: `events (profile updates on ${live.length} agents)`, value: events, unit: 'events' },
      { name: `deliveries to ${subscribers} subscribers`, value: delivery.deliveries, unit: 'deliveries' },
      { name: 'missed deliveries', value: delivery.missed, unit: 'deliveries', target: '0' },
      { name: 'duplicated deliveries', value: delivery.duplicated, unit: 'deliveries', target: '0' },
      { name: 'out-of-order deliveries', value: delivery.outOfOrder, unit: 'deliveries', target: '0' },
      { name: 'subscriptions ended by the server', value: subscribers - state.open, unit: 'subscriptions', target: '0' },
      { name: 'tokens revoked and then tried', value: ledger.revocations, unit: 'tokens' },
      { name: 'revoked tokens that still worked', value: ledger.revokedStillWorked, unit: 'tokens', target: '0' },
      { name: `server RSS, minute ${steady.minute} (after warm-up)`, value: steady.rssMb, unit: 'MB' },
      { name: `server RSS, minute ${last.minute} (last)`, value: last.rssMb, unit: 'MB' },
      { name: `server heap used, minute ${steady.minute} (after warm-up)`, value: steady.heapMb, unit: 'MB' },
      { name: `server heap used, minute ${last.minute} (last)`, value: last.heapMb, unit: 'MB' },
      { name: `p99, minute ${steady.minute} (after warm-up)`, value: round1(steady.p99), unit: 'ms' },
      { name: `p99, minute ${last.minute} (last)`, value: round1(last.p99), unit: 'ms' },
    ];
    notes.push(
      `PostgreSQL restart at ${(window!.from / 1000).toFixed(0)} s: stopped in ${(restart.stopMs / 1000).toFixed(1)} s, started again after ${(restart.downMs / 1000).toFixed(1)} s, ` +
        `the server ready (/health/ready) after ${(restart.readyMs / 1000).toFixed(1)} s; errors counted as the restart's until ${RESTART_GRACE_MS / 1000} s later`,
      `delivery latency (occurredAt to arrival) p50 ${delivery.p50} ms, p99 ${delivery.p99} ms, max ${delivery.max} ms; stream errors ${delivery.errors}`,
      `open DB connections: the server's pool (burrow_db_pool_connections in_use + idle) / every backend on its database (pg_stat_activity, the soak's own connection included)`,
      ...(during ? [`errors during the restart: ${codes(recorder.failures.filter((f) => inWindow(f, window))).join(', ')}`] : []),
      ...(outside.length ? [`errors outside the restart: ${codes(outside).join(', ')}`] : []),
      header.trim(),
      ...rows.map(
        (r) =>
          `${r.minute}: ${r.requests} requests, ${r.errors} errors, ${r.during} during restart, p50 ${r.p50.toFixed(1)} ms, p99 ${r.p99.toFixed(1)} ms, RSS ${r.rssMb} MB (heap used ${r.heapMb} MB), DB ${r.pool}/${r.backends}, subscriptions ${r.subscriptions}, loop delay max ${r.serverLag}/${r.benchLag} ms`,
      ),
    );
    const failed = figures.filter((f) => f.target === '0' && f.value !== 0).map((f) => `${f.name}: ${f.value}`);
    if (failed.length) {
      for (const note of notes.slice(1)) progress(options, `  · ${note}`);
      throw new Error(`soak failed: ${failed.join('; ')}`);
    }
    return { scenario: 'soak', figures, notes };
  } finally {
    await clients.close().catch(() => {});
    await clients.terminate();
    await server?.stop();
    await postgres.destroy();
  }
}
