/**
 * Fan-out: 1,000 `agentEvents` subscriptions on one agent (100 per socket over graphql-ws), one
 * profile update every 100 ms through the API. Figures: delivery latency from the event's
 * `occurredAt` to its arrival at the client (p50/p99), missed and duplicated deliveries, the
 * updating mutation's latency under fan-out against idle, and event-log reads per event
 * (`burrow_events_log_reads_total`). Burrow is the built server in its own process, as users run
 * it. The baseline, a plain Yoga + graphql-ws + createPubSub server fed by the same NOTIFY (one
 * row read per notification, published to every subscriber), runs in this process on a real
 * server (BURROW_TEST_DATABASE_URL); embedded, the database belongs to Burrow's process and there is
 * no NOTIFY to feed it, so Burrow's figures stand alone.
 *
 * Then 10,000 subscriptions over 100 agents are held and the server's heap is measured per 1,000
 * subscriptions. That one figure needs a forced GC of the server's own heap, so it is taken from
 * a server in this process (main thread) while the clients run in a worker thread with their own
 * event loop and V8 heap.
 */
import { runInNewContext } from 'node:vm';
import { setFlagsFromString } from 'node:v8';
import { fmt, percentile, startBenchServer, startInProcessServer, type InProcessServer } from '../config.js';
import { readMetrics } from './common.js';
import { startBaseline } from './fanout.baseline.js';
import { Clients } from './fanout.clients.js';
import type { BenchFigure, ScenarioOptions, ScenarioResult } from './types.js';

const round = (value: number) => Number(value.toFixed(1));
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

function forcedGc(): () => void {
  setFlagsFromString('--expose-gc');
  return runInNewContext('gc') as () => void;
}

/** A sample of the shipped server's Prometheus metrics (an operator may read /metrics on the main port). */
async function metric(origin: string, token: string, name: string): Promise<number> {
  const value = (await readMetrics(origin, token)).get(name);
  if (value === undefined) throw new Error(`fanout: /metrics has no ${name}`);
  return value;
}

export async function run(options: ScenarioOptions): Promise<ScenarioResult> {
  const smoke = options.smoke;
  const SOCKETS = smoke ? 2 : 10;
  const PER_SOCKET = smoke ? 3 : 100;
  const SECONDS = smoke ? 2 : Number(process.env.BENCH_FANOUT_SECONDS ?? 10);
  const INTERVAL_MS = 100;
  const HELD_AGENTS = smoke ? 2 : 100;
  const HELD_PER_AGENT = smoke ? 5 : 100;
  const AGENT = 'fanout';
  const notes: string[] = [];
  const figures: BenchFigure[] = [];
  const clients = new Clients();
  const tokensFor = async (client: { createApiToken: InProcessServer['client']['createApiToken'] }, count: number) =>
    Promise.all(
      Array.from({ length: count }, async (_, i) => {
        const made = (await client.createApiToken({ input: { kind: 'OPERATOR', name: `fanout-${i}` } })).createApiToken;
        if (made.__typename !== 'CreateApiTokenSuccess') throw new Error(`fanout: token not made: ${JSON.stringify(made)}`);
        return made.secret;
      }),
    );
  const sockets = (tokens: string[], agentFor: (socket: number, sub: number) => string, count: number, perSocket: number, after: () => number | null) =>
    Array.from({ length: count }, (_, s) => ({
      token: tokens[s],
      subscriptions: Array.from({ length: perSocket }, (_, n) => ({ agentId: agentFor(s, n), after: after() })),
    }));

  const server = await startBenchServer();
  notes.push(`database: ${server.description}`);
  notes.push('Burrow in its own process; the baseline in this process; clients in a worker thread (own event loop and heap); latency = client arrival - occurredAt');
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
    /** One update every INTERVAL_MS for `seconds` (never two at once); the mutation latencies. */
    const drive = async (seconds: number) => {
      const latencies: number[] = [];
      const start = performance.now();
      for (let i = 0; performance.now() - start < seconds * 1000; i++) {
        const wait = start + i * INTERVAL_MS - performance.now();
        if (wait > 0) await sleep(wait);
        latencies.push((await update()).ms);
      }
      return latencies;
    };
    const tokens = await tokensFor(client, SOCKETS);

    // Idle: the same writes with nobody subscribed.
    await drive(1);
    const idle = await drive(Math.max(2, SECONDS / 2));

    /** Subscribes, warms up until every subscriber has an event, then measures SECONDS of writes. */
    const phase = async (url: string, open: () => Promise<number>, reads: () => Promise<number>, withAfter: boolean) => {
      const start = await lastSequence();
      await clients.open(
        url,
        sockets(
          tokens,
          () => AGENT,
          SOCKETS,
          PER_SOCKET,
          () => (withAfter ? start : null),
        ),
      );
      for (let i = 0; i < 600 && (await open()) < SOCKETS * PER_SOCKET; i++) await sleep(50);
      const opened = await open();
      if (opened < SOCKETS * PER_SOCKET) throw new Error(`only ${opened} of ${SOCKETS * PER_SOCKET} subscriptions opened`);
      // Warm-up: until every subscriber has had an event after the start.
      for (let i = 0; i < 100 && (await clients.least(start + 1)) === 0; i++) await update();
      const from = (await lastSequence()) + 1;
      const reads0 = await reads();
      const writes = await drive(SECONDS);
      const to = await lastSequence();
      // Let the last event arrive everywhere (or give up after 30 s: it counts as missed).
      for (let i = 0; i < 600 && (await clients.least(from)) < to - from + 1; i++) await sleep(50);
      const report = await clients.report(from, to);
      const logReads = (await reads()) - reads0;
      await clients.close();
      return { ...report, writes, events: to - from + 1, logReads };
    };

    const baselineName = 'plain Yoga + graphql-ws + createPubSub fed by NOTIFY';
    let baseline: Awaited<ReturnType<typeof phase>> | null = null;
    if (server.database) {
      const baselineServer = await startBaseline(server.database);
      baseline = await phase(
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
    const burrow = await phase(
      server.wsUrl,
      () => metric(server.origin, server.operatorToken, 'burrow_subscriptions_open'),
      () => metric(server.origin, server.operatorToken, 'burrow_events_log_reads_total'),
      true,
    );

    const subscribers = SOCKETS * PER_SOCKET;
    const ratio = (a: number, b: number) => (b > 0 ? Number((a / b).toFixed(3)) : undefined);
    const against = (value: (r: NonNullable<typeof baseline>) => number) => (baseline ? { baseline: baselineName, baselineValue: value(baseline) } : {});
    figures.push(
      {
        name: `delivery p50, ${subscribers} subscribers on one agent`,
        value: burrow.p50,
        unit: 'ms',
        ...against((b) => b.p50),
        ...(baseline ? { ratio: ratio(burrow.p50, baseline.p50) } : {}),
      },
      {
        name: `delivery p99, ${subscribers} subscribers on one agent`,
        value: burrow.p99,
        unit: 'ms',
        ...against((b) => b.p99),
        ...(baseline ? { ratio: ratio(burrow.p99, baseline.p99) } : {}),
        target: '<= 50 ms',
      },
      { name: 'missed deliveries', value: burrow.missed, unit: 'deliveries', ...against((b) => b.missed), target: '0' },
      { name: 'duplicated deliveries', value: burrow.duplicated, unit: 'deliveries', ...against((b) => b.duplicated), target: '0' },
      { name: 'out-of-order deliveries', value: burrow.outOfOrder, unit: 'deliveries', target: '0' },
      {
        name: 'updateProfileDocument p50 under fan-out',
        value: round(percentile(burrow.writes, 50)),
        unit: 'ms',
        baseline: 'the same mutation with no subscribers',
        baselineValue: round(percentile(idle, 50)),
        ratio: ratio(percentile(burrow.writes, 50), percentile(idle, 50)),
        target: '<= 2x idle',
      },
      {
        name: 'updateProfileDocument p99 under fan-out',
        value: round(percentile(burrow.writes, 99)),
        unit: 'ms',
        baseline: 'the same mutation with no subscribers',
        baselineValue: round(percentile(idle, 99)),
        ratio: ratio(percentile(burrow.writes, 99), percentile(idle, 99)),
      },
      { name: 'event-log reads per event', value: Number((burrow.logReads / burrow.events).toFixed(3)), unit: 'reads', target: 'constant in subscribers (1)' },
    );
    notes.push(
      `${burrow.events} events (one every ${INTERVAL_MS} ms for ${SECONDS} s), ${burrow.deliveries} deliveries to ${subscribers} subscribers (${SOCKETS} sockets x ${PER_SOCKET}); ` +
        (baseline ? `baseline: ${baseline.events} events, ${baseline.deliveries} deliveries, max ${fmt(baseline.max)}; ` : '') +
        `Burrow max ${fmt(burrow.max)}`,
    );
    if (burrow.errors || baseline?.errors) notes.push(`stream errors: Burrow ${burrow.errors}, baseline ${baseline?.errors ?? '-'}`);
  } catch (error) {
    await clients.terminate();
    throw error;
  } finally {
    await server.stop();
  }

  // Held: subscriptions spread over agents, idle, and the server's heap per 1,000 (in this process: a forced GC).
  const gc = forcedGc();
  const inProcess = await startInProcessServer();
  try {
    const { app, client } = inProcess;
    const held = Array.from({ length: HELD_AGENTS }, (_, i) => `held-${i}`);
    for (const id of held) await client.createAgent({ input: { agentId: id, name: id } });
    const tokens = await tokensFor(client, HELD_AGENTS);
    gc();
    await sleep(100);
    gc();
    const heapBefore = process.memoryUsage().heapUsed;
    const total = HELD_AGENTS * HELD_PER_AGENT;
    // One socket per agent's worth: HELD_PER_AGENT subscriptions per socket, spread over all agents.
    await clients.open(
      inProcess.url.replace(/^http/, 'ws'),
      sockets(
        tokens,
        (s, n) => held[(s * HELD_PER_AGENT + n) % HELD_AGENTS],
        HELD_AGENTS,
        HELD_PER_AGENT,
        () => null,
      ),
    );
    for (let i = 0; i < 1200 && app.services.hub.openSubscriptions < total; i++) await sleep(50);
    const opened = app.services.hub.openSubscriptions;
    await sleep(500);
    gc();
    await sleep(100);
    gc();
    const heapAfter = process.memoryUsage().heapUsed;
    await clients.close();
    figures.push({
      name: `server heap per 1,000 subscriptions (${opened.toLocaleString('en')} held over ${HELD_AGENTS} agents)`,
      value: Number((((heapAfter - heapBefore) / 1024 / 1024) * (1000 / Math.max(1, opened))).toFixed(2)),
      unit: 'MB',
    });
    notes.push(
      `heap (a server in the bench's main thread, after forced GC): ${(heapBefore / 1048576).toFixed(1)} MB before, ${(heapAfter / 1048576).toFixed(1)} MB with ${opened} subscriptions held`,
    );
  } finally {
    await clients.terminate();
    await inProcess.stop();
  }
  if (smoke) notes.push('smoke: a few subscribers for ~2 s; figures are not comparable to the targets');
  return { scenario: 'fanout', figures, notes };
}
