/**
 * The server's edges (src/ops/): health probes, Prometheus metrics, graceful stop in-process,
 * and startup errors of the real CLI process (port in use, database unreachable). Runs embedded
 * and on the real server.
 */
import { createServer, request as httpRequest } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { buildApp } from '../src/app.js';
import { loadConfig } from '../src/config.js';
import { ConfigError } from '../src/config.env.js';
import { StartupError } from '../src/db/database.js';
import { createLogger } from '../src/lib/logger.js';
import { collect, scaled, startServer, testConfig, type TestServer } from './support/harness.js';
import { spawnBurrow, userEnv } from './support/shipped.js';

let server: TestServer;
const origin = () => server.url.replace(/\/graphql$/, '');
const port = () => Number(new URL(server.url).port);

beforeAll(async () => {
  server = await startServer({ config: { ops: { shutdownGraceMs: 10_000, metrics: { port: 0, host: '127.0.0.1' }, tracing: null } } });
});
afterAll(async () => server?.stop());

describe('health', () => {
  it('answers live and ready with every check named', async () => {
    const live = await fetch(`${origin()}/health/live`);
    expect(live.status).toBe(200);
    expect(await live.json()).toEqual({ status: 'live' });
    const ready = await fetch(`${origin()}/health/ready`);
    expect(ready.status).toBe(200);
    expect(await ready.json()).toEqual({
      status: 'ready',
      failing: [],
      checks: { database: { ok: true }, migrations: { ok: true }, listen: { ok: true } },
    });
  });

  it('reports pending migrations as not ready, naming the check', async () => {
    const { rows } = await server.database.pool.query<{ version: number; name: string; checksum: string }>(
      'SELECT version, name, checksum FROM burrow_schema_migrations ORDER BY version DESC LIMIT 1',
    );
    const last = rows[0];
    await server.database.pool.query('DELETE FROM burrow_schema_migrations WHERE version = $1', [last.version]);
    try {
      const ready = await fetch(`${origin()}/health/ready`);
      expect(ready.status).toBe(503);
      const body = (await ready.json()) as { failing: string[]; checks: Record<string, { ok: boolean; detail?: string }> };
      expect(body.failing).toEqual(['migrations']);
      expect(body.checks.migrations.detail).toBe('1 migration(s) pending: run burrow migrate or restart');
    } finally {
      await server.database.pool.query('INSERT INTO burrow_schema_migrations (version, name, checksum) VALUES ($1, $2, $3)', [last.version, last.name, last.checksum]);
    }
    expect((await fetch(`${origin()}/health/ready`)).status).toBe(200);
  });
});

describe('metrics', () => {
  it('needs an operator token on the main port', async () => {
    expect((await fetch(`${origin()}/metrics`)).status).toBe(401);
    const agent = await server.agentClient('metrics-agent');
    const asAgent = await fetch(`${origin()}/metrics`, { headers: { authorization: `Bearer ${agent.options.token}` } });
    expect(asAgent.status).toBe(401);
    const asOperator = await fetch(`${origin()}/metrics`, { headers: { authorization: `Bearer ${server.operator.options.token}` } });
    expect(asOperator.status).toBe(200);
    expect(asOperator.headers.get('content-type')).toMatch(/^text\/plain/);
  });

  it('counts operations by root field and outcome, and reports pool, subscriptions, LISTEN and jobs', async () => {
    const agent = await server.agentClient('metrics-b');
    await agent.viewer();
    await expect(agent.agent({ id: 'metrics-a-other' })).rejects.toMatchObject({ code: 'AGENT_MISMATCH' });
    const stream = collect(agent.agentEvents({ agentId: 'metrics-b', after: 0 }));
    await stream.waitFor(1);
    const metricsPort = server.app.metricsPort();
    expect(metricsPort).not.toBeNull();
    // The separate listener needs no token.
    const readsBefore = server.app.services.hub.channelReads;
    const text = await (await fetch(`http://127.0.0.1:${metricsPort}/metrics`)).text();
    const readsAfter = server.app.services.hub.channelReads;
    const value = (series: string) => {
      const line = text.split('\n').find((l) => l.startsWith(`${series} `));
      return line === undefined ? null : Number(line.slice(series.length + 1));
    };
    expect(value('burrow_graphql_operations_total{operation="viewer",type="query",outcome="OK"}')).toBeGreaterThanOrEqual(1);
    expect(value('burrow_graphql_operations_total{operation="agent",type="query",outcome="AGENT_MISMATCH"}')).toBe(1);
    expect(value('burrow_graphql_operations_total{operation="agentEvents",type="subscription",outcome="OK"}')).toBe(1);
    expect(value('burrow_graphql_operation_duration_seconds_count{operation="viewer",type="query"}')).toBeGreaterThanOrEqual(1);
    expect(value('burrow_subscriptions_open')).toBe(1);
    expect(value('burrow_events_listen_up')).toBe(1);
    expect(value('burrow_events_listen_reconnects_total')).toBe(0);
    // The hub's own count of event-log reads, as it stood while the scrape ran.
    expect(value('burrow_events_log_reads_total')).toBeGreaterThanOrEqual(readsBefore);
    expect(value('burrow_events_log_reads_total')).toBeLessThanOrEqual(readsAfter);
    for (const state of ['in_use', 'idle', 'waiting']) expect(value(`burrow_db_pool_connections{state="${state}"}`)).not.toBeNull();
    expect(text).toContain('# TYPE burrow_event_delivery_lag_seconds histogram');
    expect(text).toContain('# TYPE burrow_background_job_runs_total counter');
    expect(text).toContain('# TYPE burrow_background_job_failures_total counter');
    await stream.stop();
    expect((await fetch(`http://127.0.0.1:${metricsPort}/graphql`)).status).toBe(404);
  });
});

describe('operation metrics', () => {
  it('counts an executed operation once, under its root field, and not again as an unknown request', async () => {
    const agent = await server.agentClient('metrics-once');
    const scrape = async () => {
      const text = await (await fetch(`http://127.0.0.1:${server.app.metricsPort()}/metrics`)).text();
      const sum = (prefix: string) =>
        text
          .split('\n')
          .filter((l) => l.startsWith(prefix))
          .reduce((total, l) => total + Number(l.slice(l.lastIndexOf(' ') + 1)), 0);
      return { viewer: sum('burrow_graphql_operations_total{operation="viewer",type="query",outcome="OK"}'), unknown: sum('burrow_graphql_operations_total{operation="unknown"') };
    };
    const before = await scrape();
    await agent.viewer();
    await agent.viewer();
    const after = await scrape();
    expect(after.viewer - before.viewer).toBe(2);
    expect(after.unknown).toBe(before.unknown);
  });
});

describe('startup errors', () => {
  it('a port in use is a startup error naming BURROW_PORT and BURROW_HOST', async () => {
    const second = buildApp({ config: testConfig(server.testDatabase.config), database: server.database, logger: createLogger('silent') });
    const failure = await second.start(port(), '127.0.0.1').catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(StartupError);
    expect((failure as Error).message).toBe(`BURROW_PORT=${port()} on BURROW_HOST=127.0.0.1: the port is already in use by another process; stop it or choose another BURROW_PORT`);
    await second.stop();
    // The first server is untouched.
    expect((await fetch(`${origin()}/health/live`)).status).toBe(200);
  });

  /** `npm run burrow -- serve` (the built CLI) until it exits; a hang fails after `timeoutMs` and kills its process group. */
  const runCli = async (env: Record<string, string>, timeoutMs = 60_000) => {
    const running = spawnBurrow(['serve'], userEnv({ BURROW_LOG_LEVEL: 'info', ...env }));
    let timer: NodeJS.Timeout | undefined;
    const hung = new Promise<never>((_, reject) => {
      timer = setTimeout(() => {
        void running.stop('SIGKILL');
        reject(new Error(`burrow serve did not exit within ${scaled(timeoutMs)} ms; stderr: ${running.stderr()}`));
      }, scaled(timeoutMs));
    });
    try {
      return await Promise.race([running.exited, hung]);
    } finally {
      clearTimeout(timer);
    }
  };

  it('burrow serve on a port in use exits 1 with one line and no stack trace', async () => {
    const result = await runCli({ BURROW_POSTGRES_LIFECYCLE: 'embedded', BURROW_DATA_DIR: 'memory://', BURROW_PORT: String(port()), BURROW_HOST: '127.0.0.1' });
    expect(result.code).toBe(1);
    expect(result.stderr).toContain(`Burrow cannot start: BURROW_PORT=${port()} on BURROW_HOST=127.0.0.1: the port is already in use`);
    expect(result.stderr).not.toMatch(/\n\s+at /);
    expect(result.stdout).toBe('');
  });

  it('an unreachable database is retried for BURROW_POSTGRES_CONNECT_TIMEOUT_S, then named without its password', async () => {
    const result = await runCli({
      BURROW_POSTGRES_LIFECYCLE: 'external',
      BURROW_POSTGRES_URL: 'postgres://burrow:s3cret-pw@127.0.0.1:1/burrowdb',
      BURROW_POSTGRES_CONNECT_TIMEOUT_S: '2',
    });
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('PostgreSQL at 127.0.0.1:1/burrowdb is not reachable yet');
    expect(result.stderr).toContain('Burrow cannot start: cannot connect to PostgreSQL at 127.0.0.1:1/burrowdb after trying for 2 s (BURROW_POSTGRES_CONNECT_TIMEOUT_S)');
    expect(result.stderr).not.toContain('s3cret-pw');
    expect(result.stderr).not.toMatch(/\n\s+at /);
  });
});

describe('graceful stop', () => {
  it('turns ready to 503, refuses new connections, lets the in-flight request finish and closes WebSockets with 1001', async () => {
    const own = await startServer();
    try {
      const agent = await own.agentClient('drain-agent');
      const url = new URL(own.url);
      // A WebSocket with a live subscription.
      const socket = new WebSocket(own.url.replace(/^http/, 'ws'), 'graphql-transport-ws');
      const closed = new Promise<number>((resolve) => socket.on('close', (code) => resolve(code)));
      await new Promise<void>((resolve, reject) => {
        socket.on('open', () => socket.send(JSON.stringify({ type: 'connection_init', payload: { authorization: `Bearer ${agent.options.token}` } })));
        socket.on('message', (data) => {
          if (JSON.parse(String(data)).type === 'connection_ack') resolve();
        });
        socket.on('error', reject);
      });
      // An in-flight request: its body is still arriving when the stop begins.
      const body = JSON.stringify({
        query: 'mutation($input: BrainSaveInput!) { brainSave(input: $input) { __typename } }',
        variables: { input: { agentId: 'drain-agent', title: 'in flight', content: 'finished during the drain' } },
      });
      const held = httpRequest({
        host: url.hostname,
        port: url.port,
        path: '/graphql',
        method: 'POST',
        headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body), authorization: `Bearer ${agent.options.token}` },
      });
      const response = new Promise<{ status: number; text: string }>((resolve, reject) => {
        held.on('response', (res) => {
          let text = '';
          res.on('data', (chunk) => (text += chunk));
          res.on('end', () => resolve({ status: res.statusCode ?? 0, text }));
        });
        held.on('error', reject);
      });
      // In flight once the server has its headers (the 'request' event), not after a pause.
      const arrived = new Promise((resolve) => own.app.server.once('request', resolve));
      held.write(body.slice(0, 20));
      await arrived;

      // The stop turns readiness off before its first await: no pause needed either.
      const stopped = own.app.stop(5000);
      const ready = await own.app.health.ready();
      expect(ready.status).toBe(503);
      expect(ready.body.failing).toContain('shutdown');
      // On a new connection (agent: false): a pooled keep-alive one would be cut, not refused.
      const refused = await new Promise<string | undefined>((resolve) =>
        httpRequest({ host: url.hostname, port: url.port, path: '/health/live', agent: false }, () => resolve('answered'))
          .on('error', (error: NodeJS.ErrnoException) => resolve(error.code))
          .end(),
      );
      expect(refused).toBe('ECONNREFUSED');
      expect(await closed).toBe(1001);

      held.end(body.slice(20));
      const finished = await response;
      expect(finished.status).toBe(200);
      expect(JSON.parse(finished.text)).toEqual({ data: { brainSave: { __typename: 'BrainSaveSuccess' } } });
      expect(await stopped).toEqual({ drained: true, inFlightAtStop: 1 });
      const { rows } = await own.database.pool.query("SELECT count(*)::int AS n FROM brain_memories WHERE agent_id = 'drain-agent' AND title = 'in flight'");
      expect(rows[0].n).toBe(1);
    } finally {
      await own.stop();
    }
  });
});

describe('configuration of the edges', () => {
  const base = { BURROW_POSTGRES_LIFECYCLE: 'embedded' };
  it('defaults: 10 s grace, no metrics listener, no tracing, 30 s connect retry', () => {
    expect(loadConfig(base).ops).toEqual({ shutdownGraceMs: 10_000, metrics: null, tracing: null });
    const external = loadConfig({ BURROW_POSTGRES_LIFECYCLE: 'external', BURROW_POSTGRES_URL: 'postgres://a@h/db' }).database;
    expect(external).toMatchObject({ connectTimeoutSeconds: 30 });
  });
  it('reads every variable and names the bad ones', () => {
    expect(
      loadConfig({ ...base, BURROW_SHUTDOWN_GRACE_MS: '2500', BURROW_METRICS_PORT: '9464', BURROW_HOST: '0.0.0.0', OTEL_EXPORTER_OTLP_ENDPOINT: 'http://collector:4318' }).ops,
    ).toEqual({ shutdownGraceMs: 2500, metrics: { port: 9464, host: '0.0.0.0' }, tracing: { endpoint: 'http://collector:4318', serviceName: 'burrow' } });
    let problems: string[] = [];
    try {
      loadConfig({ ...base, BURROW_SHUTDOWN_GRACE_MS: '-1', BURROW_METRICS_PORT: '70000', OTEL_EXPORTER_OTLP_ENDPOINT: 'collector' });
    } catch (error) {
      problems = (error as ConfigError).problems;
    }
    expect(problems).toEqual([
      'BURROW_METRICS_PORT="70000" must be a whole number from 0 to 65535',
      'OTEL_EXPORTER_OTLP_ENDPOINT="collector" must be the http(s) URL of an OTLP/HTTP collector (e.g. http://localhost:4318)',
      'BURROW_SHUTDOWN_GRACE_MS="-1" must be a whole number from 0 to 600000',
    ]);
  });
});

describe('tracing', () => {
  it('exports a span per execution over OTLP/HTTP when an endpoint is set, without variables', async () => {
    const received: { path: string; body: string }[] = [];
    const collector = createServer((req, res) => {
      let body = '';
      req.on('data', (chunk) => (body += chunk));
      req.on('end', () => {
        received.push({ path: req.url ?? '', body });
        res.writeHead(200, { 'content-type': 'application/json' }).end('{}');
      });
    });
    await new Promise<void>((resolve) => collector.listen(0, '127.0.0.1', () => resolve()));
    const endpoint = `http://127.0.0.1:${(collector.address() as AddressInfo).port}`;
    const traced = await startServer({ config: { ops: { shutdownGraceMs: 0, metrics: null, tracing: { endpoint, serviceName: 'burrow-trace-test' } } } });
    try {
      const agent = await traced.agentClient('traced-agent');
      await agent.brainSave({ input: { agentId: 'traced-agent', title: 'traced', content: 'private-trace-content' } });
    } finally {
      await traced.stop();
      collector.close();
    }
    expect(received.length).toBeGreaterThan(0);
    expect(received.every((r) => r.path === '/v1/traces')).toBe(true);
    const all = received.map((r) => r.body).join('\n');
    expect(all).toContain('burrow-trace-test');
    expect(all).toContain('brainSave');
    expect(all).not.toContain('private-trace-content');
  });
});
