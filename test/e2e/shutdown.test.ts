/**
 * SIGTERM to the process group of the README's command (`npm start` embedded, `npm run burrow --
 * serve` on the real PostgreSQL server), as a container stop or a terminal sends it: npm and the
 * server both get it, and npm forwards it once more. 40 requests with half-sent bodies finish, new connections are refused, WebSockets close with 1001,
 * npm exits 0 (after the server) within the grace period + 2 s with one log line; a second signal
 * a person sends later exits at once. Also checks the JSON request log lines carry no user content.
 */
import { request as httpRequest, type ClientRequest } from 'node:http';
import { describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { startShipped, type ShippedServer } from '../support/shipped.js';

const GRACE_MS = 8000;
const IN_FLIGHT = 40;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

interface Running {
  server: ShippedServer;
  port: number;
  token: string;
  stderr: () => string;
  /** npm's exit: the README's command ends when the server has. */
  exited: Promise<number | null>;
}

async function spawnServer(): Promise<Running> {
  const server = await startShipped({ env: { BURROW_LOG_LEVEL: 'info', BURROW_SHUTDOWN_GRACE_MS: String(GRACE_MS) } });
  return { server, port: server.port, token: server.operatorToken, stderr: server.stderr, exited: server.exited.then(({ code }) => code) };
}

/** What a container stop or a terminal sends: the signal to the whole process group of the README's command. */
const signalGroup = (running: Running, signal: NodeJS.Signals) => process.kill(-running.server.child.pid!, signal);
const killGroup = (running: Running) => {
  if (running.server.child.exitCode === null) signalGroup(running, 'SIGKILL');
};

async function graphql(running: Running, query: string, variables: Record<string, unknown> = {}) {
  const response = await fetch(`http://127.0.0.1:${running.port}/graphql`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${running.token}` },
    body: JSON.stringify({ query, variables }),
  });
  return (await response.json()) as { data?: Record<string, { __typename?: string }>; errors?: unknown[] };
}

/** A request whose body is half sent: in flight until `finish()`. */
function heldRequest(running: Running, body: string) {
  let request!: ClientRequest;
  const connected = new Promise<void>((resolve) => {
    request = httpRequest({
      host: '127.0.0.1',
      port: running.port,
      path: '/graphql',
      method: 'POST',
      agent: false,
      // Keep-alive, as a load balancer's connections to its servers are: the answer says whether to reuse it.
      headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body), authorization: `Bearer ${running.token}`, connection: 'keep-alive' },
    });
    request.on('socket', (socket) => socket.on('connect', () => resolve()));
  });
  const response = new Promise<{ status: number; text: string; connection: string | undefined }>((resolve, reject) => {
    request.on('response', (res) => {
      let text = '';
      res.on('data', (chunk) => (text += chunk));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, text, connection: res.headers.connection }));
    });
    request.on('error', reject);
  });
  // Marked handled at once: a test that fails early kills the server under these requests.
  response.catch(() => {});
  request.write(body.slice(0, 10));
  return { connected, response, finish: () => request.end(body.slice(10)) };
}

const SAVE = 'mutation($input: BrainSaveInput!) { brainSave(input: $input) { __typename } }';

describe('SIGTERM on burrow serve', () => {
  it(`lets ${IN_FLIGHT} in-flight requests finish, refuses new connections, closes WebSockets with 1001 and exits 0 with one log line`, async () => {
    const running = await spawnServer();
    try {
      const created = await graphql(running, 'mutation { createAgent(input: { agentId: "sig-agent", name: "sig" }) { __typename } }');
      expect(created.data?.createAgent.__typename).toBe('CreateAgentSuccess');
      // A failing request and a successful one before the signal, for the log checks.
      await graphql(running, '{ agent(agentId: "sig-agent") { id } }');

      const socket = new WebSocket(`ws://127.0.0.1:${running.port}/graphql`, 'graphql-transport-ws');
      const wsClosed = new Promise<number>((resolve) => socket.on('close', (code) => resolve(code)));
      await new Promise<void>((resolve, reject) => {
        socket.on('open', () => socket.send(JSON.stringify({ type: 'connection_init', payload: { authorization: `Bearer ${running.token}` } })));
        socket.on('message', (data) => JSON.parse(String(data)).type === 'connection_ack' && resolve());
        socket.on('error', reject);
      });

      const held = Array.from({ length: IN_FLIGHT }, (_, n) =>
        heldRequest(running, JSON.stringify({ query: SAVE, variables: { input: { agentId: 'sig-agent', title: `in flight ${n}`, content: `private-note-${n}` } } })),
      );
      await Promise.all(held.map((h) => h.connected));
      await sleep(500);

      const logBefore = running.stderr().length;
      const signalledAt = performance.now();
      signalGroup(running, 'SIGTERM');

      // New connections are refused once the signal is handled.
      let refused = false;
      for (let i = 0; i < 100 && !refused; i++) {
        refused = await fetch(`http://127.0.0.1:${running.port}/health/live`).then(
          () => false,
          (error: { cause?: { code?: string } }) => error.cause?.code === 'ECONNREFUSED',
        );
        if (!refused) await sleep(20);
      }
      expect(refused).toBe(true);
      expect(await wsClosed).toBe(1001);

      for (const h of held) h.finish();
      const responses = await Promise.all(held.map((h) => h.response));
      expect(responses.map((r) => r.status)).toEqual(Array(IN_FLIGHT).fill(200));
      // Each tells its client not to send another request on that connection: a balancer's next
      // request opens a new one, which is refused and goes to another instance, instead of being
      // answered 503 SHUTTING_DOWN here.
      expect(responses.map((r) => r.connection)).toEqual(Array(IN_FLIGHT).fill('close'));
      expect(new Set(responses.map((r) => r.text))).toEqual(new Set([JSON.stringify({ data: { brainSave: { __typename: 'BrainSaveSuccess' } } })]));

      const code = await running.exited;
      const tookMs = performance.now() - signalledAt;
      expect(code).toBe(0);
      expect(tookMs).toBeLessThan(GRACE_MS + 2000);

      const lines = running
        .stderr()
        .trim()
        .split('\n')
        .map((line) => JSON.parse(line) as Record<string, unknown>);
      const afterSignal = running
        .stderr()
        .slice(logBefore)
        .trim()
        .split('\n')
        .map((line) => JSON.parse(line) as Record<string, unknown>)
        .filter((entry) => entry.msg !== 'graphql operation');
      expect(afterSignal).toHaveLength(1);
      expect(afterSignal[0]).toMatchObject({ level: 'info', msg: 'shut down', signal: 'SIGTERM', inFlightAtSignal: IN_FLIGHT, inFlightFinished: true, graceMs: GRACE_MS });

      // One JSON line per operation: request id, names, duration, outcome; never user content.
      const operations = lines.filter((entry) => entry.msg === 'graphql operation');
      expect(operations.filter((entry) => entry.operation === 'brainSave')).toHaveLength(IN_FLIGHT);
      for (const entry of operations) {
        expect(entry).toEqual(
          expect.objectContaining({ requestId: expect.any(String), operationType: expect.any(String), durationMs: expect.any(Number), outcome: expect.any(String) }),
        );
      }
      expect(operations.find((entry) => entry.operation === 'createAgent')).toMatchObject({ outcome: 'OK', operationType: 'mutation' });
      expect(running.stderr()).not.toContain('private-note');
    } finally {
      killGroup(running);
    }
  });

  it('a second signal exits at once', async () => {
    const running = await spawnServer();
    try {
      const held = heldRequest(running, JSON.stringify({ query: '{ viewer { principal } }' }));
      await held.connected;
      await sleep(300);
      const signalledAt = performance.now();
      signalGroup(running, 'SIGTERM');
      // Later than the echo window (npm forwards the group's signal once more at once): a person pressing again.
      await sleep(1500);
      signalGroup(running, 'SIGINT');
      const code = await running.exited;
      expect(code).toBe(1);
      // Far sooner than the grace period the held request would otherwise get.
      expect(performance.now() - signalledAt).toBeLessThan(GRACE_MS);
      expect(running.stderr()).toContain('second signal during shutdown: exiting at once');
      await held.response.catch(() => {});
    } finally {
      killGroup(running);
    }
  });
});
