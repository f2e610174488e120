/**
 * On a first start (embedded, a new data directory) the banner with the operator token is
 * written before the server answers any HTTP request: a script that waits for the port finds the
 * token already printed. The server's output goes to a file, so at the moment the first answer
 * arrives the test reads exactly what the server had written before it answered.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort } from '../support/free-port.js';
import { startShipped, type ShippedServer } from '../support/shipped.js';

const outputDir = mkdtempSync(join(tmpdir(), 'bw-banner-'));
let server: ShippedServer | null = null;
afterAll(async () => {
  if (server) expect((await server.stop()).code).toBe(0);
  rmSync(outputDir, { recursive: true, force: true });
});

const TOKEN_LINE = /operator token \(first start of this data directory; shown once, only its hash is kept\): (\S+)\n/;

describe('the first start', () => {
  it('prints the banner with the operator token before it answers HTTP', async () => {
    const port = await freePort();
    let stopped = false;
    // Asks for the port as fast as the loop turns, from before the process exists; returns what
    // the server had written when its first answer arrived.
    const polling = (async () => {
      while (!stopped) {
        try {
          const response = await fetch(`http://127.0.0.1:${port}/health/live`);
          const written = readFileSync(join(outputDir, 'stdout'), 'utf8');
          await response.text();
          return { status: response.status, written };
        } catch {
          // Not listening yet.
        }
      }
      return null;
    })();
    try {
      server = await startShipped({ lifecycle: 'embedded', env: { BURROW_PORT: String(port) }, outputDir });
    } catch (error) {
      stopped = true;
      throw error;
    }
    const first = await polling;
    expect(first?.status).toBe(200);
    expect(first!.written).toContain(`serving GraphQL on http://127.0.0.1:${port}/graphql`);
    expect(TOKEN_LINE.exec(first!.written)?.[1]).toBe(server.operatorToken);
  });
});
