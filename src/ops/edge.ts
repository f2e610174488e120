/**
 * The HTTP edge in front of Yoga: health probes, /metrics, in-flight request tracking and the
 * draining state of a graceful shutdown. Everything else goes to Yoga unchanged.
 */
import { createServer, type IncomingHttpHeaders, type IncomingMessage, type RequestListener, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { StartupError } from '../db/database.js';
import type { createHealth } from './health.js';
import type { Metrics } from './metrics.js';

export interface EdgeDeps {
  next: RequestListener;
  health: ReturnType<typeof createHealth>;
  metrics: Metrics;
  /** Whether the request's headers carry an operator token (for /metrics on the main port). */
  isOperator(headers: IncomingHttpHeaders): Promise<boolean>;
}

function json(res: ServerResponse, status: number, body: unknown, extraHeaders: Record<string, string> = {}) {
  res.writeHead(status, { 'content-type': 'application/json; charset=utf-8', 'cache-control': 'no-store', ...extraHeaders });
  res.end(JSON.stringify(body));
}

export async function serveMetrics(metrics: Metrics, res: ServerResponse) {
  const { contentType, body } = await metrics.render();
  res.writeHead(200, { 'content-type': contentType, 'cache-control': 'no-store' });
  res.end(body);
}

export function createEdge(deps: EdgeDeps) {
  let draining = false;
  let onIdle: (() => void) | null = null;
  /** The responses of the requests in flight (their count is what a graceful stop waits for). */
  const inFlight = new Set<ServerResponse>();

  const pathOf = (req: IncomingMessage) => (req.url ?? '/').split('?')[0];

  const listener: RequestListener = (req, res) => {
    const path = pathOf(req);
    if (path === '/health/live') return json(res, 200, deps.health.live().body);
    if (path === '/health/ready') {
      void deps.health.ready().then(
        (ready) => json(res, ready.status, ready.body),
        () => json(res, 503, { status: 'not_ready', failing: ['health'], checks: {} }),
      );
      return;
    }
    if (draining) {
      // A keep-alive connection may still bring a request after the listener closed.
      return json(res, 503, { error: 'SHUTTING_DOWN', message: 'the server is shutting down; retry on another instance' }, { connection: 'close', 'retry-after': '1' });
    }
    inFlight.add(res);
    res.once('close', () => {
      inFlight.delete(res);
      if (inFlight.size === 0) onIdle?.();
    });
    if (path === '/metrics') {
      void deps.isOperator(req.headers).then(
        (allowed) =>
          allowed
            ? serveMetrics(deps.metrics, res)
            : json(res, 401, { error: 'UNAUTHENTICATED', message: '/metrics needs an operator token (Authorization: Bearer <token>) or BURROW_METRICS_PORT' }),
        () => json(res, 503, { error: 'DATABASE_UNAVAILABLE', message: 'cannot check the token right now; retry shortly' }),
      );
      return;
    }
    deps.next(req, res);
  };

  return {
    listener,
    get draining() {
      return draining;
    },
    get inFlight() {
      return inFlight.size;
    },
    /**
     * Turns readiness to 503 and refuses new requests on open connections. The answers still to
     * come close their connection (`Connection: close`): a keep-alive client, a load balancer
     * above all, then sends its next request on a new connection, which is refused and goes to
     * another instance, instead of here to be answered 503 SHUTTING_DOWN.
     */
    drain() {
      draining = true;
      for (const res of inFlight) if (!res.headersSent) res.setHeader('connection', 'close');
    },
    /** Resolves when no request is in flight, or after `timeoutMs`; true when all finished. */
    async settled(timeoutMs: number): Promise<boolean> {
      if (inFlight.size === 0) return true;
      return new Promise<boolean>((resolve) => {
        const timer = setTimeout(() => {
          onIdle = null;
          resolve(false);
        }, timeoutMs);
        onIdle = () => {
          clearTimeout(timer);
          onIdle = null;
          resolve(true);
        };
      });
    },
  };
}

/**
 * Listens, turning the usual bind failures into a startup error that names the variables to
 * change (no stack trace).
 */
export async function listenOrExplain(server: Server, port: number, host: string, vars = { port: 'BURROW_PORT', host: 'BURROW_HOST' }): Promise<number> {
  await new Promise<void>((resolve, reject) => {
    const onError = (error: NodeJS.ErrnoException) => {
      const where = `${vars.port}=${port} on ${vars.host}=${host}`;
      if (error.code === 'EADDRINUSE') reject(new StartupError(`${where}: the port is already in use by another process; stop it or choose another ${vars.port}`));
      else if (error.code === 'EACCES') reject(new StartupError(`${where}: permission denied (ports below 1024 need privileges); choose another ${vars.port}`));
      else if (error.code === 'EADDRNOTAVAIL' || error.code === 'ENOTFOUND')
        reject(new StartupError(`${where}: this machine has no such address; set ${vars.host} to one of its addresses (or 0.0.0.0)`));
      else reject(new StartupError(`${where}: cannot listen (${error.code ?? error.message})`));
    };
    server.once('error', onError);
    server.listen(port, host, () => {
      server.off('error', onError);
      resolve();
    });
  });
  return (server.address() as AddressInfo).port;
}

/** The token-less metrics listener on BURROW_METRICS_PORT. */
export function createMetricsServer(metrics: Metrics): Server {
  return createServer((req, res) => {
    if ((req.url ?? '/').split('?')[0] === '/metrics') void serveMetrics(metrics, res);
    else json(res, 404, { error: 'NOT_FOUND', message: 'this listener serves /metrics only' });
  });
}
