/**
 * Fan-out on the built server (Burrow in its own process, as users run it; the clients on a worker
 * thread with their own event loop and V8 heap; latency = client arrival - the event's
 * `occurredAt`).
 *
 * 1. 1,000 `agentEvents` subscriptions on one agent (10 sockets x 100 over graphql-ws), one
 *    profile update every 100 ms through the API: delivery p50/p99, missed, duplicated and
 *    out-of-order deliveries, the updating mutation's latency under fan-out against idle,
 *    event-log reads per event (`burrow_events_log_reads_total`) and the server's event-loop
 *    delay over the phase. The baseline, a plain Yoga + graphql-ws + createPubSub server fed by
 *    the same NOTIFY, runs in this process on a real server (BURROW_TEST_DATABASE_URL); embedded,
 *    the database belongs to Burrow's process and there is no NOTIFY to feed it.
 * 2. 10,000 subscriptions on one agent (100 sockets x 100), every subscriber receiving every
 *    event: first the server's heap and RSS per held subscription (before and after opening
 *    them, each after a full GC forced through the server's inspector: fanout.heap.ts), then one
 *    update per second for 2 x BENCH_FANOUT_SECONDS: delivery p50/p99, all delivered, event-loop
 *    delay. BENCH_FANOUT_HEAPSNAPSHOT=dir also writes heap snapshots of the server before and
 *    after the 10,000 are opened; BENCH_FANOUT_CPUPROFILE=dir a CPU profile of the server over
 *    the 10,000 phase's deliveries (the inspector stays attached, so its figures are not the
 *    bench's).
 *
 * The event-loop delay is prom-client's default metric on /metrics: a histogram
 * (monitorEventLoopDelay) that each scrape reads and resets, so a scrape right before a phase and
 * one right after give the phase's own p99 and max.
 */
import { join } from 'node:path';
import { fmt, percentile, startBenchServer } from '../config.js';
import { readMetrics } from '../../test/support/shipped.js';
import { startBaseline } from './fanout.baseline.js';
import { Clients } from './fanout.clients.js';
import { INSPECTOR_ENV, serverInspector } from './fanout.heap.js';
import type { BenchFigure, ScenarioOptions, ScenarioResult } from './types.js';

const round = (value: number) => Number(value.toFixed(1));
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** The shipped server's Prometheus metrics (an operator may read /metrics on the main port). */
async function metrics(origin: string, token: string, names: string[]): Promise<number[]> {
  const values = await readMetrics(origin, token);
  return names.map((name) => {
    const value = values.get(name);
    if (value === undefined) throw new Error(`fanout: /metrics has no ${name}`);
    return value;
  });
}
const LAG = ['burrow_process_nodejs_eventloop_lag_p99_seconds', 'burrow_process_nodejs_eventloop_lag_max_seconds'];

export async function run(options: ScenarioOptions): Promise<ScenarioResult> {
  const smoke = options.smoke;
  const SECONDS = smoke ? 2 : Number(process.env.BENCH_FANOUT_SECONDS ?? 10);
  // The 1,000 phase (one event per 100 ms) and the 10,000 phase (one per second, twice as long).
  const SMALL = { sockets: smoke ? 2 : 10, perSocket: smoke ? 3 : 100, intervalMs: 100, seconds: SECONDS };
  const LARGE = { sockets: smoke ? 3 : 100, perSocket: smoke ? 5 : 100, intervalMs: 1000, seconds: smoke ? 3 : 2 * SECONDS };
  const AGENT = 'fanout';
  const notes: string[] = [];
  const figures: BenchFigure[] = [];
  const clients = new Clients();
  const sockets = (tokens: string[], count: number, perSocket: number, after: number | null) =>
    Array.from({ length: count }, (_, s) => ({ token: tokens[s], subscriptions: Array.from({ length: perSocket }, () => ({ agentId: AGENT, after })) }));

  const server = await startBenchServer({ env: INSPECTOR_ENV });
  notes.push(`database: ${server.description}`);
  notes.push('clients in a worker thread (own event loop and heap); latency = client arrival - occurredAt');
  const inspector = await serverInspector(server.stderr());
  try {
    const { client } = server;
    await client.createAgent({ input: { agentId: AGENT, name: 'Fan-out' } });
    let revision = 1;
    const update = async () => {
      const started = performance.now();
      const result = await client.updateProfileDocument({ input: { agentId: AGENT, kind: 'SOUL', content: `v${revision}`, expectedRevision: revision } });
      if (result.updateProfileDocument.__typename !== 'UpdateProfileDocumentSuccess') throw new Error(`update failed: ${result.updateProfileDocument.__typename}`);
      revision++;
      return { ms: performance.now() - started };
    };
    const lastSequence = async () =>
      (await client.request<{ agent: { lastEventSequence: number } }>('query ($id: String!) { agent(agentId: $id) { lastEventSequence } }', { id: AGENT })).agent.lastEventSequence;
    /** One update every `intervalMs` for `seconds` (never two at once); the mutation latencies. */
    const drive = async (seconds: number, intervalMs: number) => {
      const latencies: number[] = [];
      const start = performance.now();
      for (let i = 0; performance.now() - start < seconds * 1000; i++) {
        const wait = start + i * intervalMs - performance.now();
        if (wait > 0) await sleep(wait);
        latencies.push((await update()).ms);
      }
      return latencies;
    };
    const tokens = await Promise.all(
      Array.from({ length: Math.max(SMALL.sockets, LARGE.sockets) }, async (_, i) => {
        const made = (await client.createApiToken({ input: { kind: 'OPERATOR', name: `fanout-${i}` } })).createApiToken;
        if (made.__typename !== 'CreateApiTokenSuccess') throw new Error(`fanout: token not made: ${JSON.stringify(made)}`);
        return made.secret;
      }),
    );
    const lag = async () => (await metrics(server.origin, server.operatorToken, LAG)).map((seconds) => round(seconds * 1000));

    // Idle: the same writes with nobody subscribed.
    await drive(1, SMALL.intervalMs);
    const idle = await drive(Math.max(2, SECONDS / 2), SMALL.intervalMs);

    /** Subscribes, (`opened`) warms up until every subscriber has an event, then measures. */
    const phase = async (shape: typeof SMALL, url: string, open: () => Promise<number>, reads: () => Promise<number>, withAfter: boolean, opened?: () => Promise<void>) => {
      const total = shape.sockets * shape.perSocket;
      const start = await lastSequence();
      await clients.open(url, sockets(tokens, shape.sockets, shape.perSocket, withAfter ? start : null));
      for (let i = 0; i < 1200 && (await open()) < total; i++) await sleep(50);
      const count = await open();
      if (count < total) throw new Error(`only ${count} of ${total} subscriptions opened`);
      await opened?.();
      // Warm-up: until every subscriber has had an event after the start, each event waited for
      // (up to 5 s) before the next. Sending one per check flooded 10,000 cold subscribers with
      // events still being handed out when the measurement began, and its first events queued
      // behind them. Then until every subscriber has the last of them: nothing is in flight at the start.
      for (let i = 0; i < 20 && (await clients.least(start + 1)) === 0; i++) {
        await update();
        for (let wait = 0; wait < 100 && (await clients.least(start + 1)) === 0; wait++) await sleep(50);
      }
      const warmed = await lastSequence();
      for (let i = 0; i < 600 && (await clients.least(warmed)) === 0; i++) await sleep(50);
      const from = warmed + 1;
      const reads0 = await reads();
      await lag(); // resets the server's event-loop histogram: the next scrape covers the phase
      await clients.mark();
      const writes = await drive(shape.seconds, shape.intervalMs);
      const to = await lastSequence();
      // Let the last event arrive everywhere (or give up after 30 s: it counts as missed).
      for (let i = 0; i < 600 && (await clients.least(from)) < to - from + 1; i++) await sleep(50);
      const [lagP99, lagMax] = await lag();
      const report = await clients.report(from, to);
      const logReads = (await reads()) - reads0;
      await clients.close();
      return { ...report, writes, events: to - from + 1, logReads, lagP99, lagMax };
    };
    const openOnServer = () => metrics(server.origin, server.operatorToken, ['burrow_subscriptions_open']).then(([n]) => n);
    const logReadsOnServer = () => metrics(server.origin, server.operatorToken, ['burrow_events_log_reads_total']).then(([n]) => n);

    const baselineName = 'plain Yoga + graphql-ws + createPubSub fed by NOTIFY';
    let baseline: Awaited<ReturnType<typeof phase>> | null = null;
    if (server.database) {
      const baselineServer = await startBaseline(server.database);
      // The baseline's lag figures are the idle server's (it runs in this process): not reported.
      baseline = await phase(
        SMALL,
        baselineServer.url,
        async () => baselineServer.open,
        async () => baselineServer.reads,
        false,
      ).finally(() => baselineServer.stop());
    } else {
      notes.push(
        "baseline skipped: the embedded database is PGlite inside the server's process, whose NOTIFY cannot feed another process; run with BURROW_TEST_DATABASE_URL for it",
      );
    }
    const small = await phase(SMALL, server.wsUrl, openOnServer, logReadsOnServer, true);

    const subscribers = SMALL.sockets * SMALL.perSocket;
    const ratio = (a: number, b: number) => (b > 0 ? Number((a / b).toFixed(3)) : undefined);
    const against = (value: (r: NonNullable<typeof baseline>) => number) => (baseline ? { baseline: baselineName, baselineValue: value(baseline) } : {});
    figures.push(
      {
        name: `delivery p50, ${subscribers} subscribers on one agent`,
        value: small.p50,
        unit: 'ms',
        ...against((b) => b.p50),
        ...(baseline ? { ratio: ratio(small.p50, baseline.p50) } : {}),
      },
      {
        name: `delivery p99, ${subscribers} subscribers on one agent`,
        value: small.p99,
        unit: 'ms',
        ...against((b) => b.p99),
        ...(baseline ? { ratio: ratio(small.p99, baseline.p99) } : {}),
        target: '≤ 50 ms',
      },
      { name: 'missed deliveries', value: small.missed, unit: 'deliveries', ...against((b) => b.missed), target: '0' },
      { name: 'duplicated deliveries', value: small.duplicated, unit: 'deliveries', ...against((b) => b.duplicated), target: '0' },
      { name: 'out-of-order deliveries', value: small.outOfOrder, unit: 'deliveries', target: '0' },
      {
        name: 'updateProfileDocument p50 under fan-out',
        value: round(percentile(small.writes, 50)),
        unit: 'ms',
        baseline: 'the same mutation with no subscribers',
        baselineValue: round(percentile(idle, 50)),
        ratio: ratio(percentile(small.writes, 50), percentile(idle, 50)),
        target: '<= 2x idle',
      },
      {
        name: 'updateProfileDocument p99 under fan-out',
        value: round(percentile(small.writes, 99)),
        unit: 'ms',
        baseline: 'the same mutation with no subscribers',
        baselineValue: round(percentile(idle, 99)),
        ratio: ratio(percentile(small.writes, 99), percentile(idle, 99)),
      },
      { name: 'event-log reads per event', value: Number((small.logReads / small.events).toFixed(3)), unit: 'reads', target: 'constant in subscribers (1)' },
      { name: `server event-loop delay p99, ${subscribers} subscribers`, value: small.lagP99, unit: 'ms' },
      { name: `server event-loop delay max, ${subscribers} subscribers`, value: small.lagMax, unit: 'ms' },
    );
    notes.push(
      `${subscribers}: ${small.events} events (one every ${SMALL.intervalMs} ms for ${SMALL.seconds} s), ${small.deliveries} deliveries to ${subscribers} subscribers (${SMALL.sockets} sockets x ${SMALL.perSocket}); ` +
        (baseline ? `baseline: ${baseline.events} events, ${baseline.deliveries} deliveries, max ${fmt(baseline.max)}; ` : '') +
        `Burrow max ${fmt(small.max)}; clients' thread busy ${(small.busy * 100).toFixed(0)}%`,
    );
    if (small.errors || baseline?.errors) notes.push(`stream errors: Burrow ${small.errors}, baseline ${baseline?.errors ?? '-'}`);

    // 10,000 on one agent: the server's memory per held subscription, then one event per second.
    const total = LARGE.sockets * LARGE.perSocket;
    const snapshots = process.env.BENCH_FANOUT_HEAPSNAPSHOT;
    const profiles = process.env.BENCH_FANOUT_CPUPROFILE;
    const before = await inspector.memory();
    if (snapshots) await inspector.snapshot(join(snapshots, 'fanout-before.heapsnapshot'));
    let after = before;
    const large = await phase(LARGE, server.wsUrl, openOnServer, logReadsOnServer, true, async () => {
      await sleep(500);
      after = await inspector.memory();
      if (snapshots) await inspector.snapshot(join(snapshots, `fanout-${total}.heapsnapshot`));
      if (profiles) await inspector.startProfile();
      // No inspector session attached while the deliveries are timed (unless they are profiled).
      else inspector.close();
    });
    if (profiles) {
      await inspector.stopProfile(join(profiles, `fanout-${total}.cpuprofile`));
      notes.push(`CPU profile of the ${total.toLocaleString('en')} phase written to ${profiles}: its figures are not the bench's`);
    }
    const kb = (bytes: number) => Number((bytes / 1024 / total).toFixed(2));
    const big = total.toLocaleString('en');
    figures.push(
      { name: `server heap per held subscription (${big} on one agent)`, value: kb(after.heapUsed - before.heapUsed), unit: 'KB', target: '≤ 10 KB' },
      { name: `server RSS per held subscription (${big} on one agent)`, value: kb(after.rss - before.rss), unit: 'KB' },
      { name: `delivery p50, ${big} subscribers on one agent`, value: large.p50, unit: 'ms' },
      { name: `delivery p99, ${big} subscribers on one agent`, value: large.p99, unit: 'ms', target: '≤ 250 ms' },
      { name: `missed deliveries, ${big} subscribers`, value: large.missed, unit: 'deliveries', target: '0' },
      { name: `duplicated deliveries, ${big} subscribers`, value: large.duplicated, unit: 'deliveries', target: '0' },
      { name: `out-of-order deliveries, ${big} subscribers`, value: large.outOfOrder, unit: 'deliveries', target: '0' },
      { name: `server event-loop delay p99, ${big} subscribers`, value: large.lagP99, unit: 'ms' },
      { name: `server event-loop delay max, ${big} subscribers`, value: large.lagMax, unit: 'ms' },
    );
    const mb = (bytes: number) => `${(bytes / 1048576).toFixed(1)} MB`;
    notes.push(
      `${big}: heap ${mb(before.heapUsed)} before, ${mb(after.heapUsed)} with them open (RSS ${mb(before.rss)}, ${mb(after.rss)}), each after a full GC forced through the server's inspector; ` +
        `${large.events} events (one every ${LARGE.intervalMs} ms for ${LARGE.seconds} s), ${large.deliveries} deliveries (${LARGE.sockets} sockets x ${LARGE.perSocket}), max ${fmt(large.max)}, ` +
        `updateProfileDocument p99 ${fmt(percentile(large.writes, 99))}; clients' thread busy ${(large.busy * 100).toFixed(0)}%`,
    );
    if (large.errors) notes.push(`stream errors (${big}): ${large.errors}`);
  } finally {
    inspector.close();
    await clients.terminate();
    await server.stop();
  }
  if (smoke) notes.push('smoke: a few subscribers for a few seconds; figures are not comparable to the targets');
  return { scenario: 'fanout', figures, notes };
}
