// autocannon in a process of its own, for the bench's cross-check (bench/autocannon.ts): stdin is
// a JSON LoadSpec (url, headers, bodies, seconds, concurrency, expect); it prints one JSON line
// with the run's figures. autocannon is the generator outside reports used, so the bench's own
// generator (bench/load.ts) is checked against it on the same two processes.
import { text } from 'node:stream/consumers';
import autocannon from 'autocannon';

const spec = JSON.parse(await text(process.stdin));
let mismatches = 0;
let firstMismatch = null;
const result = await autocannon({
  url: spec.url,
  connections: spec.concurrency,
  pipelining: 1,
  duration: spec.seconds,
  headers: { ...spec.headers, 'content-type': 'application/json' },
  // Connections take the bodies in turn, as the bench's generator does.
  requests: spec.bodies.map((body) => ({
    method: 'POST',
    body,
    onResponse: (status, text) => {
      if (status === 200 && (!spec.expect || text.includes(spec.expect))) return;
      mismatches++;
      firstMismatch ??= `${status} ${String(text).slice(0, 300)}`;
    },
  })),
});
process.stdout.write(
  `${JSON.stringify({
    requests: result.requests.total,
    errors: result.errors + result.timeouts + result.non2xx + mismatches,
    firstError: firstMismatch ?? (result.errors ? `${result.errors} socket errors` : null),
    rps: result.requests.total / result.duration,
    p50: result.latency.p50,
    p99: result.latency.p99,
  })}\n`,
);
