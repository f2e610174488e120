/**
 * An HTTP proxy in front of a test server that loses answers on purpose, for the clients' retry
 * tests (docs/idempotency.md). Each request is handled by the next planned step:
 * - `drop`: forwarded, the server's answer read (so the write has committed), then the client's
 *   connection is destroyed without an answer: a response lost in a failover;
 * - `unavailable`: answered 503 DATABASE_UNAVAILABLE with Retry-After, nothing forwarded;
 * - `pass` (and every request once the plan is used up): forwarded and answered.
 * It records each request's Idempotency-Key header.
 */
import { createServer, request as httpRequest, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

export type Step = 'drop' | 'unavailable' | 'pass';

export interface LossyProxy {
  url: string;
  /** The steps for the next requests, in order. */
  plan(steps: Step[]): void;
  /** Every request seen since the last plan: its step and its Idempotency-Key (null without one). */
  seen: { step: Step; idempotencyKey: string | null }[];
  close(): Promise<void>;
}

const UNAVAILABLE = JSON.stringify({
  errors: [{ message: 'the database connection is lost for the moment: retry', extensions: { code: 'DATABASE_UNAVAILABLE', retryable: true } }],
});

function forward(target: URL, req: IncomingMessage, body: Buffer): Promise<{ status: number; headers: Record<string, string | string[] | undefined>; body: Buffer }> {
  return new Promise((resolve, reject) => {
    const out = httpRequest(target, { method: req.method, headers: { ...req.headers, host: target.host } }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode ?? 502, headers: res.headers, body: Buffer.concat(chunks) }));
      res.on('error', reject);
    });
    out.on('error', reject);
    out.end(body);
  });
}

export async function startLossyProxy(graphqlUrl: string): Promise<LossyProxy> {
  const target = new URL(graphqlUrl);
  let steps: Step[] = [];
  const seen: LossyProxy['seen'] = [];
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const step = steps.shift() ?? 'pass';
      const key = req.headers['idempotency-key'];
      seen.push({ step, idempotencyKey: typeof key === 'string' ? key : null });
      if (step === 'unavailable') {
        res.writeHead(503, { 'content-type': 'application/json', 'retry-after': '1' }).end(UNAVAILABLE);
        return;
      }
      forward(target, req, Buffer.concat(chunks)).then(
        (answer) => {
          if (step === 'drop') {
            req.socket.destroy();
            return;
          }
          res.writeHead(answer.status, answer.headers).end(answer.body);
        },
        () => req.socket.destroy(),
      );
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}${target.pathname}`,
    plan(next) {
      steps = [...next];
      seen.length = 0;
    },
    seen,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
