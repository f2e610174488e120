// Outside check: autocannon (its own process) against the shipped server and the bare baseline process.
import { execFileSync } from 'node:child_process';
import { startBaseline } from './baseline.js';
import { startBenchServer } from './config.js';
import { seedAgents } from './scenarios/seed.js';
import { NESTED_QUERY } from './scenarios/nested.js';

const server = await startBenchServer({ seed: (d) => seedAgents(d.pool, 1000), baselineData: true });
const bare = await startBaseline('nested', server.baselineData!);
const body = JSON.stringify({ query: NESTED_QUERY });
const ac = (url: string, headers: string[]) => {
  const out = execFileSync('node', ['/tmp/ac/node_modules/autocannon/autocannon.js', '-c', '16', '-d', String(process.env.SECS ?? 8), '-m', 'POST', '-H', 'content-type=application/json', ...headers.flatMap((h) => ['-H', h]), '-b', body, '-j', url], { encoding: 'utf8', maxBuffer: 1 << 26, stdio: ['ignore', 'pipe', 'ignore'] });
  const r = JSON.parse(out);
  return { rps: r.requests.average, non2xx: r.non2xx, errors: r.errors };
};
try {
  ac(server.url, [`authorization=Bearer ${server.operatorToken}`]);
  ac(bare.url, []);
  const b: number[] = [], base: number[] = [];
  for (let i = 0; i < Number(process.env.ROUNDS ?? 5); i++) {
    const x = ac(server.url, [`authorization=Bearer ${server.operatorToken}`]);
    const y = ac(bare.url, []);
    b.push(x.rps); base.push(y.rps);
    console.log(`round ${i + 1}: burrow ${x.rps} rps (non2xx ${x.non2xx}, errors ${x.errors})  bare ${y.rps} rps (non2xx ${y.non2xx})  ratio ${(x.rps / y.rps).toFixed(3)}`);
  }
  const med = (a: number[]) => [...a].sort((p, q) => p - q)[Math.floor(a.length / 2)];
  console.log(`median: burrow ${med(b)} bare ${med(base)} ratio ${(med(b) / med(base)).toFixed(3)}`);
} finally {
  await bare.stop();
  await server.stop();
}
