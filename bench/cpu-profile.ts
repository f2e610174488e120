/**
 * npm run bench:profile -- nested|profile|save [seconds] [out.cpuprofile]
 *
 * A CPU profile of the server's main thread under the bench's load (16 connections), taken with
 * the inspector's profiler after seeding and a 2 s warm-up, so start-up and seeding stay out of
 * it (what `node --cpu-prof` would include). Prints the top frames by self time; the file opens in
 * Chrome DevTools. Uses BURROW_TEST_DATABASE_URL like the bench.
 */
import { writeFileSync } from 'node:fs';
import { Session } from 'node:inspector/promises';
import { startBenchServer } from './config.js';
import { load } from './load.js';
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
if (!bodies[which]) throw new Error(`usage: npm run bench:profile -- ${Object.keys(bodies).join('|')} [seconds] [out.cpuprofile]`);

const server = await startBenchServer();
try {
  await seedAgents(server.database.pool, 1_000);
  const spec = { url: server.url, headers: server.headers, bodies: bodies[which](), seconds: 2 };
  await load(spec);
  const session = new Session();
  session.connect();
  await session.post('Profiler.enable');
  await session.post('Profiler.start');
  const result = await load({ ...spec, seconds: Number(seconds) });
  const { profile } = await session.post('Profiler.stop');
  writeFileSync(out, JSON.stringify(profile));
  console.log(`${which}: ${result.rps.toFixed(1)} rps, ${result.errors} errors, profile in ${out}`);

  // Self time per frame, the top 25.
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
} finally {
  await server.stop();
}
