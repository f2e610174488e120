import { buildApp } from '../src/app.js';
import type { BurrowConfig } from '../src/config.js';
import { openDatabase } from '../src/db/database.js';
import { migrate } from '../src/db/migrator.js';
import { createLogger } from '../src/lib/logger.js';
import { createBurrowClient } from '../clients/typescript/sdk.js';
import { createTestDatabase, externalConfig, testConfig } from '../test/support/harness.js';

/** A throwaway embedded database with every background job off: the test servers' configuration. */
export function testConfigForBench(): BurrowConfig {
  return testConfig({ lifecycle: 'embedded', dataDir: 'memory://' });
}

/**
 * The real server on a throwaway database, with an operator client. With BURROW_TEST_DATABASE_URL
 * it runs on a fresh database of that real server (dropped by stop()).
 */
let shared: Promise<BenchServer> | null = null;

/**
 * With `shared` (smoke runs), every scenario of the run gets the same server, so CI pays for one
 * start and one set of migrations; stop() leaves it running until stopSharedBenchServer().
 */
export async function startBenchServer(options: { shared?: boolean } = {}): Promise<BenchServer> {
  if (!options.shared) return startServerForBench();
  shared ??= startServerForBench();
  const server = await shared;
  return { ...server, stop: async () => {} };
}

export async function stopSharedBenchServer() {
  const server = await shared;
  shared = null;
  await server?.stop();
}

export type BenchServer = Awaited<ReturnType<typeof startServerForBench>>;

async function startServerForBench() {
  const config = testConfigForBench();
  const realServer = process.env.BURROW_TEST_DATABASE_URL ? await createTestDatabase() : null;
  // The product's default pool (BURROW_POSTGRES_POOL_MAX), not the tests' larger one; BENCH_POOL_MAX measures others.
  if (realServer) config.database = externalConfig(realServer.url!, { poolMax: Number(process.env.BENCH_POOL_MAX ?? 10) });
  const database = await openDatabase(config.database);
  await migrate(database.pool);
  const app = buildApp({ config, database, logger: createLogger('silent') });
  const port = await app.start(0, '127.0.0.1');
  // Seeding on the embedded database blocks this thread for seconds, so both ends' keep-alive
  // timers fire late and the server could close an idle connection as the client reuses it
  // (ECONNRESET); the bench's server keeps idle connections for longer than any seeding takes.
  app.server.keepAliveTimeout = 600_000;
  const { token } = await app.services.tokens.create({ kind: 'operator', name: 'bench' });
  const client = createBurrowClient({ url: `http://127.0.0.1:${port}/graphql`, token });
  return {
    database,
    app,
    client,
    /** The GraphQL endpoint and the operator token's header, for load generated outside the client. */
    url: `http://127.0.0.1:${port}/graphql`,
    headers: { authorization: `Bearer ${token}` },
    /** The real server's database the bench runs on (pgbench, a baseline's own pool); null embedded. */
    databaseUrl: realServer?.url ?? null,
    async stop() {
      await client.close();
      await app.stop();
      await database.close();
      await realServer?.drop();
    },
  };
}

export const percentile = (values: number[], p: number) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
};
export const fmt = (ms: number) => `${ms.toFixed(1)} ms`;
