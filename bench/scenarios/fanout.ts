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
import { setMaxListeners } from 'node:events';
import { createServer, type Server } from 'node:http';
import { runInNewContext } from 'node:vm';
import { setFlagsFromString } from 'node:v8';
import { Worker } from 'node:worker_threads';
import { GraphQLScalarType } from 'graphql';
import { useServer } from 'graphql-ws/use/ws';
import { createPubSub, createSchema, createYoga } from 'graphql-yoga';
import { WebSocketServer } from 'ws';
import type { Database } from '../../src/db/database.js';
import { EVENTS_CHANNEL } from '../../src/events/events.service.js';
import { fmt, percentile, startBenchServer, startInProcessServer, type InProcessServer } from '../config.js';
import type { BenchFigure, ScenarioOptions, ScenarioResult } from './types.js';

const round = (value: number) => Number(value.toFixed(1));
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const SUBSCRIPTION = 'subscription Fanout($agentId: String!, $after: Int) { agentEvents(agentId: $agentId, after: $after) { sequence type occurredAt payload } }';

/** The clients: raw graphql-ws (graphql-transport-ws) sockets, arrivals timed on receipt. */
const CLIENT_WORKER = `
const { parentPort, workerData } = require('node:worker_threads');
const WebSocket = require('node:module').createRequire(workerData.base)('ws');
let sockets = [];
let subs = [];
parentPort.on('message', async (msg) => {
  if (msg.cmd === 'open') {
    await Promise.all(msg.sockets.map((spec) => new Promise((resolve, reject) => {
      const ws = new WebSocket(msg.url, 'graphql-transport-ws');
      sockets.push(ws);
      const local = spec.subscriptions.map(() => { const rec = { seqs: [], lat: [], errors: 0 }; subs.push(rec); return rec; });
      ws.on('open', () => ws.send(JSON.stringify({ type: 'connection_init', payload: { authorization: 'Bearer ' + spec.token } })));
      ws.on('error', reject);
      ws.on('message', (data) => {
        const now = Date.now();
        const m = JSON.parse(String(data));
        if (m.type === 'connection_ack') {
          spec.subscriptions.forEach((variables, i) => ws.send(JSON.stringify({ id: String(i), type: 'subscribe', payload: { query: msg.query, variables } })));
          resolve();
        } else if (m.type === 'next') {
          const rec = local[Number(m.id)];
          const event = m.payload && m.payload.data && m.payload.data.agentEvents;
          if (!event) { rec.errors++; return; }
          rec.seqs.push(event.sequence);
          rec.lat.push(now - Date.parse(event.occurredAt));
        } else if (m.type === 'error' || m.type === 'complete') {
          local[Number(m.id)].errors++;
        }
      });
    })));
    parentPort.postMessage({ ok: true });
  } else if (msg.cmd === 'least') {
    // The fewest events any subscriber has at or after msg.from.
    let least = Infinity;
    for (const rec of subs) least = Math.min(least, rec.seqs.filter((s) => s >= msg.from).length);
    parentPort.postMessage({ least: subs.length ? least : 0 });
  } else if (msg.cmd === 'report') {
    let missed = 0, duplicated = 0, outOfOrder = 0, errors = 0;
    const lat = [];
    for (const rec of subs) {
      errors += rec.errors;
      const inRange = [];
      rec.seqs.forEach((s, i) => { if (s >= msg.from && s <= msg.to) { inRange.push(s); lat.push(rec.lat[i]); } });
      const unique = new Set(inRange);
      missed += (msg.to - msg.from + 1) - unique.size;
      duplicated += inRange.length - unique.size;
      for (let i = 1; i < inRange.length; i++) if (inRange[i] < inRange[i - 1]) outOfOrder++;
    }
    lat.sort((a, b) => a - b);
    const at = (p) => lat[Math.min(lat.length - 1, Math.floor((p / 100) * lat.length))];
    parentPort.postMessage({ missed, duplicated, outOfOrder, errors, deliveries: lat.length, p50: at(50), p99: at(99), max: lat[lat.length - 1] });
  } else if (msg.cmd === 'close') {
    await Promise.all(sockets.map((ws) => new Promise((resolve) => { if (ws.readyState === WebSocket.CLOSED) return resolve(); ws.once('close', resolve); ws.close(); })));
    sockets = [];
    subs = [];
    parentPort.postMessage({ ok: true });
  }
});
`;

/** The subscribing clients on their own worker thread (also driven by bench/cpu-profile.ts's fanout mode). */
export class Clients {
  private readonly worker = new Worker(CLIENT_WORKER, { eval: true, workerData: { base: import.meta.url } });
  private ask<T>(message: Record<string, unknown>): Promise<T> {
    return new Promise((resolve, reject) => {
      const fail = (error: Error) => reject(error);
      this.worker.once('error', fail);
      this.worker.once('message', (answer: T) => {
        this.worker.off('error', fail);
        resolve(answer);
      });
      this.worker.postMessage(message);
    });
  }
  open(url: string, sockets: { token: string; subscriptions: { agentId: string; after?: number | null }[] }[]) {
    return this.ask({ cmd: 'open', url, query: SUBSCRIPTION, sockets });
  }
  async least(from: number) {
    return (await this.ask<{ least: number }>({ cmd: 'least', from })).least;
  }
  report(from: number, to: number) {
    return this.ask<{ missed: number; duplicated: number; outOfOrder: number; errors: number; deliveries: number; p50: number; p99: number; max: number }>({
      cmd: 'report',
      from,
      to,
    });
  }
  close() {
    return this.ask({ cmd: 'close' });
  }
  terminate() {
    return this.worker.terminate();
  }
}

/** The baseline: plain Yoga + graphql-ws + createPubSub, fed by the same NOTIFY (one row read per notification). */
async function startBaseline(database: Database) {
  let reads = 0;
  // A thousand listeners on one topic is the point here, not a leak.
  const eventTarget = new EventTarget();
  setMaxListeners(0, eventTarget);
  const pubsub = createPubSub<Record<string, [Record<string, unknown>]>>({ eventTarget: eventTarget as never });
  let open = 0;
  const schema = createSchema({
    typeDefs: /* GraphQL */ `
      scalar JSON
      type AgentEvent {
        sequence: Int!
        agentId: String!
        stream: String!
        type: String!
        subjectId: String!
        project: String
        occurredAt: String!
        payload: JSON!
      }
      type Query {
        ok: Boolean
      }
      type Subscription {
        agentEvents(agentId: String!, after: Int): AgentEvent!
      }
    `,
    resolvers: {
      JSON: new GraphQLScalarType({ name: 'JSON', serialize: (value) => value }),
      AgentEvent: { occurredAt: (row: { occurredAt: Date }) => new Date(row.occurredAt).toISOString() },
      Subscription: {
        agentEvents: {
          subscribe: async function* (_: unknown, args: { agentId: string }) {
            open++;
            try {
              yield* pubsub.subscribe(`events:${args.agentId}`);
            } finally {
              open--;
            }
          },
          resolve: (row: unknown) => row,
        },
      },
    },
  });
  const unlisten = await database.listen(EVENTS_CHANNEL, (payload) => {
    const at = payload.lastIndexOf(':');
    const [agentId, sequence] = [payload.slice(0, at), Number(payload.slice(at + 1))];
    reads++;
    void database.pool
      .query(
        'SELECT agent_id AS "agentId", sequence::int AS sequence, stream, type, subject_id AS "subjectId", project, payload, occurred_at AS "occurredAt" FROM agent_events WHERE agent_id = $1 AND sequence = $2',
        [agentId, sequence],
      )
      .then(({ rows }) => rows[0] && pubsub.publish(`events:${agentId}`, rows[0]));
  });
  const yoga = createYoga({ schema, logging: false, graphiql: false });
  const server: Server = createServer((request, response) => void yoga(request, response));
  const wsServer = new WebSocketServer({ server, path: yoga.graphqlEndpoint });
  useServer(
    {
      execute: (args) => (args.rootValue as { execute: typeof import('graphql').execute }).execute(args),
      subscribe: (args) => (args.rootValue as { subscribe: typeof import('graphql').subscribe }).subscribe(args),
      onSubscribe: async (ctx, _id, params) => {
        const { schema: enveloped, execute, subscribe, contextFactory, parse, validate } = yoga.getEnveloped({ ...ctx, req: ctx.extra.request, socket: ctx.extra.socket, params });
        const document = parse(params.query);
        const errors = validate(enveloped, document);
        if (errors.length) return errors;
        return {
          schema: enveloped,
          operationName: params.operationName,
          document,
          variableValues: params.variables,
          contextValue: await contextFactory(),
          rootValue: { execute, subscribe },
        };
      },
    },
    wsServer,
  );
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as import('node:net').AddressInfo).port;
  return {
    url: `ws://127.0.0.1:${port}/graphql`,
    get open() {
      return open;
    },
    get reads() {
      return reads;
    },
    async stop() {
      await unlisten();
      for (const client of wsServer.clients) client.terminate();
      await new Promise<void>((resolve) => wsServer.close(() => resolve()));
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

function forcedGc(): () => void {
  setFlagsFromString('--expose-gc');
  return runInNewContext('gc') as () => void;
}

/** A sample of the shipped server's Prometheus metrics (an operator may read /metrics on the main port). */
async function metric(origin: string, token: string, name: string): Promise<number> {
  const text = await (await fetch(`${origin}/metrics`, { headers: { authorization: `Bearer ${token}` } })).text();
  const line = text.split('\n').find((l) => l.startsWith(`${name} `));
  if (!line) throw new Error(`fanout: /metrics has no ${name}`);
  return Number(line.slice(name.length + 1));
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
