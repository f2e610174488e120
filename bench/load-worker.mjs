// The load generator of bench/load.ts, on its own thread so that it does not share the server's
// event loop: `concurrency` keep-alive connections, each sending its next request as soon as the
// previous answer is read, for `seconds`. Plain JavaScript: workers do not inherit tsx's loader.
//
// Like autocannon, it writes requests serialized once up front on raw sockets and reads answers
// with a minimal HTTP/1.1 parser (status, Content-Length or chunked body). node:http's client
// cost several times more CPU per request, taken from the two cores the server and PostgreSQL
// share; pgbench, the writes scenario's baseline, is a C client (docs/performance.md).
import { connect } from 'node:net';
import { parentPort, workerData } from 'node:worker_threads';

const { url, headers, bodies, seconds, concurrency, expect } = workerData;
const target = new URL(url);
const port = Number(target.port || 80);

/** Every request, whole, as the bytes sent. */
const requests = bodies.map((body) => {
  const fields = { host: target.host, ...lowerCased(headers), 'content-type': 'application/json', 'content-length': String(Buffer.byteLength(body)) };
  const head = `POST ${target.pathname}${target.search} HTTP/1.1\r\n${Object.entries(fields)
    .map(([name, value]) => `${name}: ${value}\r\n`)
    .join('')}\r\n`;
  return Buffer.concat([Buffer.from(head, 'latin1'), Buffer.from(body, 'utf8')]);
});
const HEAD_END = Buffer.from('\r\n\r\n');
const latencies = [];
let errors = 0;
let firstError = null;
let bytes = 0;
let next = 0;

function lowerCased(record) {
  return Object.fromEntries(Object.entries(record).map(([name, value]) => [name.toLowerCase(), value]));
}

function fail(reason) {
  errors++;
  firstError ??= reason;
}

/**
 * The answer at the start of `buffer`, or null while it is incomplete: its status, the bytes it
 * takes (`consumed`) and its body (a chunked body decoded).
 */
function parse(buffer) {
  const headEnd = buffer.indexOf(HEAD_END);
  if (headEnd < 0) return null;
  const head = buffer.toString('latin1', 0, headEnd).toLowerCase();
  const status = Number(head.slice(9, 12));
  const bodyStart = headEnd + 4;
  const length = /\r\ncontent-length: *(\d+)/.exec(head);
  if (length) {
    const end = bodyStart + Number(length[1]);
    return end > buffer.length ? null : { status, consumed: end, body: buffer.subarray(bodyStart, end) };
  }
  if (!/\r\ntransfer-encoding: *chunked/.test(head)) throw new Error(`an answer with neither Content-Length nor chunked encoding: ${head.slice(0, 200)}`);
  const parts = [];
  let at = bodyStart;
  for (;;) {
    const lineEnd = buffer.indexOf('\r\n', at);
    if (lineEnd < 0) return null;
    const size = parseInt(buffer.toString('latin1', at, lineEnd), 16);
    const dataEnd = lineEnd + 2 + size;
    if (dataEnd + 2 > buffer.length) return null;
    if (size === 0) return { status, consumed: dataEnd + 2, body: Buffer.concat(parts) };
    parts.push(buffer.subarray(lineEnd + 2, dataEnd));
    at = dataEnd + 2;
  }
}

/** A keep-alive connection that sends one request at a time and resolves with its answer. */
function connection() {
  let socket = null;
  let buffer = Buffer.alloc(0);
  let waiting = null;
  const open = () =>
    new Promise((resolve, reject) => {
      const s = connect({ host: target.hostname, port });
      s.setNoDelay(true);
      s.once('connect', () => resolve(s));
      s.once('error', reject);
      // An error is followed by 'close', which settles the request in flight.
      s.on('error', () => {});
      s.on('data', (chunk) => {
        buffer = buffer.length === 0 ? chunk : Buffer.concat([buffer, chunk]);
        if (!waiting) return;
        let answer;
        try {
          answer = parse(buffer);
        } catch (error) {
          return settle(null, String(error));
        }
        if (!answer) return;
        buffer = buffer.subarray(answer.consumed);
        settle(answer, null);
      });
      s.once('close', () => {
        socket = null;
        buffer = Buffer.alloc(0);
        settle(null, 'the server closed the connection');
      });
    });
  function settle(answer, error) {
    const w = waiting;
    waiting = null;
    w?.(answer, error);
  }
  return async function exchange(request) {
    if (!socket) socket = await open();
    return new Promise((resolve) => {
      waiting = (answer, error) => resolve({ answer, error });
      socket.write(request);
    });
  };
}

async function drive(deadline) {
  const exchange = connection();
  while (performance.now() < deadline) {
    const started = performance.now();
    let result;
    try {
      result = await exchange(requests[next++ % requests.length]);
    } catch (error) {
      fail(String(error));
      continue;
    }
    const { answer, error } = result;
    if (!answer) {
      fail(error);
      continue;
    }
    const text = answer.body.toString('utf8');
    bytes += text.length;
    // A GraphQL error answers 200 too: a request only counts when it carried no errors.
    if (answer.status !== 200 || text.includes('"errors"') || (expect && !text.includes(expect))) fail(`${answer.status} ${text.slice(0, 300)}`);
    else latencies.push(performance.now() - started);
  }
}

const started = performance.now();
const deadline = started + seconds * 1000;
await Promise.all(Array.from({ length: concurrency }, () => drive(deadline)));
const elapsedMs = performance.now() - started;
parentPort.postMessage({ latencies, errors, firstError, elapsedMs, bytes });
