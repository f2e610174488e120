/**
 * npm run bench:profile -- nested|profile|save|fanout [seconds] [out.cpuprofile]
 *
 * A CPU profile of the server's main thread under the bench's load, taken with the inspector's
 * profiler after seeding and a 2 s warm-up, so start-up and seeding stay out of it (what
 * `node --cpu-prof` would include). Prints the top frames by self time; the file opens in
 * Chrome DevTools. Uses BURROW_TEST_DATABASE_URL like the bench.
 *
 * nested, profile, save: 16 connections of HTTP load. fanout: the fan-out scenario's load (1,000
 * subscribers of one agent on 10 sockets, clients on a worker thread, one profile update every
 * 100 ms through the API from this thread); it also prints the updates' latency against idle and
 * the main thread's busy stretches (runs of samples without idle time), and which stretches the
 * slowest updates waited behind.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { Session } from 'node:inspector/promises';
import type { Profiler } from 'node:inspector';
import { monitorEventLoopDelay, type IntervalHistogram } from 'node:perf_hooks';
import { percentile, startInProcessServer, type InProcessServer } from './config.js';
import { load } from './load.js';
import { Clients } from './scenarios/fanout.clients.js';
import { NESTED_QUERY } from './scenarios/nested.js';
import { PROFILE_QUERY } from './scenarios/profile.js';
import { agentId, seedAgents } from './scenarios/seed.js';

const SAVE = 'mutation Save($input: BrainSaveInput!) { brainSave(input: $input) { __typename ... on BrainSaveSuccess { memory { id revision } } } }';
const [which = 'nested', seconds = '8', out = `${which}.cpuprofile`] = process.argv.slice(2);
const bodies: Record<string, () => string[]> = {
  nested: () => [JSON.stringify({ query: NESTED_QUERY })],
  profile: () => Array.from({ length: 1_000 }, (_, i) => JSON.stringify({ query: PROFILE_QUERY, variables: { id: agentId(i + 1) } })),
  save: () =>
    Array.from({ length: 1_000 }, (_, i) =>
      JSON.stringify({ query: SAVE, variables: { input: { agentId: agentId(1 + (i % 100)), title: `Bench note ${i}`, content: `Something worth keeping, number ${i}.` } } }),
    ),
};
if (!bodies[which] && which !== 'fanout') throw new Error(`usage: npm run bench:profile -- ${[...Object.keys(bodies), 'fanout'].join('|')} [seconds] [out.cpuprofile]`);

/** CPU time of this process's main thread in ms (Linux: its task's utime + stime); null elsewhere. */
function mainThreadCpuMs(): number | null {
  try {
    const fields = readFileSync(`/proc/self/task/${process.pid}/stat`, 'utf8').split(') ')[1].split(' ');
    // utime and stime are fields 14 and 15 of stat, in clock ticks (100 per second on Linux).
    return (Number(fields[11]) + Number(fields[12])) * 10;
  } catch {
    return null;
  }
}

/** Microseconds on the clock the profiler's timestamps use (monotonic). */
const nowMicros = () => Number(process.hrtime.bigint() / 1000n);
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function profiled(during: () => Promise<string>): Promise<Profiler.Profile> {
  const session = new Session();
  session.connect();
  await session.post('Profiler.enable');
  await session.post('Profiler.start');
  const summary = await during();
  const { profile } = await session.post('Profiler.stop');
  session.disconnect();
  writeFileSync(out, JSON.stringify(profile));
  console.log(`${which}: ${summary}, profile in ${out}`);
  return profile;
}

/** Self time per frame, the top 25. */
function topFrames(profile: Profiler.Profile) {
  const self = new Map<string, number>();
  let total = 0;
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  profile.samples!.forEach((id, i) => {
    const frame = byId.get(id)!.callFrame;
    const key = `${frame.functionName || '(anonymous)'} ${frame.url.replace(/.*node_modules\//, '').replace(process.cwd() + '/', '')}:${frame.lineNumber + 1}`;
    const dt = profile.timeDeltas![i] ?? 0;
    self.set(key, (self.get(key) ?? 0) + dt);
    total += dt;
  });
  for (const [key, time] of [...self].sort((a, b) => b[1] - a[1]).slice(0, 25)) console.log(`${((100 * time) / total).toFixed(1).padStart(5)}%  ${key}`);
}

/** Stretches of consecutive non-idle samples: [start, end] in profile microseconds. */
function busyStretches(profile: Profiler.Profile): [number, number][] {
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const stretches: [number, number][] = [];
  let at = profile.startTime;
  let open: [number, number] | null = null;
  profile.samples!.forEach((id, i) => {
    at += profile.timeDeltas![i] ?? 0;
    const idle = byId.get(id)!.callFrame.functionName === '(idle)';
    if (!idle && !open) stretches.push((open = [at, at]));
    else if (!idle && open) open[1] = at;
    else open = null;
  });
  return stretches;
}

async function fanout(server: InProcessServer) {
  const { app, client, database } = server;
  const AGENT = 'fanout';
  await client.createAgent({ input: { agentId: AGENT, name: 'Fan-out' } });
  let revision = 1;
  const update = async () => {
    const started = nowMicros();
    const result = await client.updateProfileDocument({ input: { agentId: AGENT, kind: 'SOUL', content: `v${revision}`, expectedRevision: revision } });
    if (result.updateProfileDocument.__typename !== 'UpdateProfileDocumentSuccess') throw new Error(`update failed: ${result.updateProfileDocument.__typename}`);
    revision++;
    return { started, ended: nowMicros() };
  };
  const drive = async (ms: number) => {
    const writes: { started: number; ended: number }[] = [];
    const start = performance.now();
    for (let i = 0; performance.now() - start < ms; i++) {
      const wait = start + i * 100 - performance.now();
      if (wait > 0) await sleep(wait);
      writes.push(await update());
    }
    return writes;
  };
  const ms = (writes: { started: number; ended: number }[]) => writes.map((w) => (w.ended - w.started) / 1000);
  /** How late a 1 ms timer fires while `during` runs: how long anything on this thread can wait behind a turn. */
  const loopDelay = async <T>(during: () => Promise<T>): Promise<[T, IntervalHistogram]> => {
    const histogram = monitorEventLoopDelay({ resolution: 1 });
    histogram.enable();
    try {
      return [await during(), histogram];
    } finally {
      histogram.disable();
    }
  };
  const delays = (h: IntervalHistogram) => `p50 ${(h.percentile(50) / 1e6).toFixed(1)} ms, p99 ${(h.percentile(99) / 1e6).toFixed(1)} ms, max ${(h.max / 1e6).toFixed(1)} ms`;
  await drive(1_000);
  const [idleWrites, idleDelay] = await loopDelay(() => drive(5_000));
  const idle = ms(idleWrites);

  const clients = new Clients();
  try {
    const tokens = await Promise.all(Array.from({ length: 10 }, (_, i) => app.services.tokens.create({ kind: 'operator', name: `fanout-${i}` })));
    const start = Number((await database.pool.query('SELECT last_event_sequence AS s FROM agents WHERE id = $1', [AGENT])).rows[0].s);
    await clients.open(
      `ws://127.0.0.1:${new URL(client.options.url).port}/graphql`,
      tokens.map(({ token }) => ({ token, subscriptions: Array.from({ length: 100 }, () => ({ agentId: AGENT, after: start })) })),
    );
    for (let i = 0; i < 600 && app.services.hub.openSubscriptions < 1_000; i++) await sleep(50);
    await drive(2_000);
    let writes: { started: number; ended: number }[] = [];
    const profile = await profiled(async () => {
      const cpuBefore = mainThreadCpuMs();
      const [loadedWrites, loadedDelay] = await loopDelay(() => drive(Number(seconds) * 1000));
      writes = loadedWrites;
      const cpuAfter = mainThreadCpuMs();
      console.log(`event-loop delay: under fan-out ${delays(loadedDelay)}; idle ${delays(idleDelay)}`);
      const [loaded, quiet] = [ms(writes), idle];
      const p = (values: number[], q: number) => percentile(values, q).toFixed(1);
      const cpu = cpuBefore === null || cpuAfter === null ? 'unknown' : `${((cpuAfter - cpuBefore) / writes.length).toFixed(1)} ms`;
      return (
        `updates under fan-out p50 ${p(loaded, 50)} ms p99 ${p(loaded, 99)} ms max ${p(loaded, 100)} ms (${loaded.length}); ` +
        `idle p50 ${p(quiet, 50)} ms p99 ${p(quiet, 99)} ms max ${p(quiet, 100)} ms (${quiet.length}); main thread CPU per event ${cpu}`
      );
    });
    topFrames(profile);
    const stretches = busyStretches(profile);
    const lengths = stretches.map(([a, b]) => (b - a) / 1000);
    const long = lengths.filter((l) => l >= 5);
    console.log(
      `busy stretches: ${stretches.length}, ${long.length} of ≥ 5 ms; p50 ${percentile(lengths, 50).toFixed(2)} ms, p99 ${percentile(lengths, 99).toFixed(1)} ms, max ${Math.max(...lengths).toFixed(1)} ms`,
    );
    console.log('the slowest updates, and the longest busy stretch that overlapped each:');
    for (const write of [...writes].sort((a, b) => b.ended - b.started - (a.ended - a.started)).slice(0, 8)) {
      const overlapping = stretches.filter(([a, b]) => b >= write.started && a <= write.ended).map(([a, b]) => (b - a) / 1000);
      const busy = stretches.reduce((sum, [a, b]) => sum + Math.max(0, Math.min(b, write.ended) - Math.max(a, write.started)), 0) / 1000;
      console.log(`  ${((write.ended - write.started) / 1000).toFixed(1)} ms: busy ${busy.toFixed(1)} ms of it, longest stretch ${Math.max(0, ...overlapping).toFixed(1)} ms`);
    }
  } finally {
    await clients.close();
    await clients.terminate();
  }
}

const server = await startInProcessServer();
try {
  if (which === 'fanout') {
    await fanout(server);
  } else {
    await seedAgents(server.database.pool, 1_000);
    const spec = { url: server.url, headers: server.headers, bodies: bodies[which](), seconds: 2 };
    await load(spec);
    const profile = await profiled(async () => {
      const result = await load({ ...spec, seconds: Number(seconds) });
      return `${result.rps.toFixed(1)} rps, ${result.errors} errors`;
    });
    topFrames(profile);
  }
} finally {
  await server.stop();
}
