// The load generator of bench/load.ts, on its own thread so that it does not share the server's
// event loop: `concurrency` keep-alive connections, each sending its next request as soon as the
// previous answer is read, for `seconds`. Plain JavaScript: workers do not inherit tsx's loader.
import { Agent, request } from 'node:http';
import { parentPort, workerData } from 'node:worker_threads';

const { url, headers, bodies, seconds, concurrency, expect } = workerData;
const target = new URL(url);
const agent = new Agent({ keepAlive: true, maxSockets: concurrency });
const latencies = [];
let errors = 0;
let firstError = null;
let bytes = 0;
let next = 0;

function send(body) {
  return new Promise((resolve) => {
    const started = performance.now();
    const req = request(
      { agent, host: target.hostname, port: target.port, path: target.pathname, method: 'POST', headers: { ...headers, 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) } },
      (res) => {
        const chunks = [];
        res.on('data', (chunk) => chunks.push(chunk));
        res.on('end', () => {
          const text = Buffer.concat(chunks).toString('utf8');
          bytes += text.length;
          // A GraphQL error answers 200 too: a request only counts when it carried no errors.
          if (res.statusCode !== 200 || text.includes('"errors"') || (expect && !text.includes(expect))) {
            errors++;
            firstError ??= `${res.statusCode} ${text.slice(0, 300)}`;
          } else latencies.push(performance.now() - started);
          resolve();
        });
      },
    );
    req.on('error', (error) => {
      errors++;
      firstError ??= String(error);
      resolve();
    });
    req.end(body);
  });
}

const started = performance.now();
const deadline = started + seconds * 1000;
await Promise.all(
  Array.from({ length: concurrency }, async () => {
    while (performance.now() < deadline) await send(bodies[next++ % bodies.length]);
  }),
);
const elapsedMs = performance.now() - started;
agent.destroy();
parentPort.postMessage({ latencies, errors, firstError, elapsedMs, bytes });
