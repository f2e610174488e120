import { cpSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { buildApp } from '../src/app.js';
import type { BurrowConfig } from '../src/config.js';
import type { Database } from '../src/db/database.js';
import { openDatabase } from '../src/db/database.open.js';
import { migrate } from '../src/db/migrator.js';
import { createLogger } from '../src/lib/logger.js';
import { createBurrowClient } from '../clients/typescript/sdk.js';
import { createTestDatabase, externalConfig, testConfig } from '../test/support/harness.js';
import { startShipped } from '../test/support/shipped.js';
import { groupCpuMs } from './process-cpu.js';

/** Where a bench's data lives: a fresh database of the real server in BURROW_TEST_DATABASE_URL, or an embedded data directory. */
export type BenchDatabaseSpec = { url: string } | { dataDir: string };

/**
 * The server as users run it: the built artifact started by `npm start` (embedded) or
 * `npm run burrow -- serve` (external, on a fresh database of BURROW_TEST_DATABASE_URL), in its
 * own process group, after `seed` wrote the scenario's data straight into the migrated tables.
 *
 * On a real server the bench keeps its own small pool (`database`) for inspection while Burrow
 * runs (needles, EXPLAIN, pgbench's database). On the embedded database PGlite belongs to the
 * server's process, so the bench seeds the data directory first, closes it, and has no
 * `database` while Burrow runs; with `baselineData` a copy of the seeded directory, taken before
 * the server starts, gives a baseline in another process the same data.
 *
 * The per-token rate limit is off (BURROW_RATE_LIMIT_PER_SECOND=0): the load comes from one
 * operator token, which the default 50 requests/s would throttle; everything else is the
 * product's default, NODE_ENV=production as a deployment sets it.
 */
export async function startBenchServer(
  options: {
    seed?: (database: Database) => Promise<void>;
    env?: Record<string, string>;
    baselineData?: boolean;
    /** A PostgreSQL 17 server of the scenario's own (the soak restarts it) instead of BURROW_TEST_DATABASE_URL's. */
    databaseServer?: string;
  } = {},
) {
  const real = options.databaseServer
    ? await createTestDatabase({ server: { url: options.databaseServer, requiredMajor: 17 } })
    : process.env.BURROW_TEST_DATABASE_URL
      ? await createTestDatabase()
      : null;
  const dataDir = real ? null : mkdtempSync(join(tmpdir(), 'bw-bench-'));
  const open = () => openDatabase(real ? externalConfig(real.url!, { poolMax: 4 }) : { lifecycle: 'embedded', dataDir: dataDir! });
  let database: Database | null = await open();
  const cleanups: (() => Promise<void> | void)[] = [];
  try {
    await migrate(database.pool);
    await options.seed?.(database);
    const description = database.description;
    let baselineData: BenchDatabaseSpec | null = real ? { url: real.url! } : null;
    if (!real) {
      await database.close();
      database = null;
      if (options.baselineData) {
        const copy = mkdtempSync(join(tmpdir(), 'bw-bench-copy-'));
        cleanups.push(() => rmSync(copy, { recursive: true, force: true }));
        cpSync(dataDir!, copy, { recursive: true });
        baselineData = { dataDir: copy };
      }
    }
    const shipped = await startShipped({
      lifecycle: real ? 'external' : 'embedded',
      ...(real ? { database: real } : { dataDir: dataDir! }),
      env: {
        NODE_ENV: 'production',
        BURROW_RATE_LIMIT_PER_SECOND: '0',
        ...(process.env.BENCH_POOL_MAX ? { BURROW_POSTGRES_POOL_MAX: process.env.BENCH_POOL_MAX } : {}),
        ...options.env,
      },
    });
    const client = createBurrowClient({ url: shipped.url, token: shipped.operatorToken });
    return {
      /** The bench's own connection to Burrow's database on a real server; null embedded (the server's process owns PGlite). */
      database,
      description: `${description}, the built server in its own process (${real ? 'npm run burrow -- serve' : 'npm start'})`,
      client,
      url: shipped.url,
      wsUrl: shipped.wsUrl,
      origin: shipped.origin,
      operatorToken: shipped.operatorToken,
      /** Everything the server's process group wrote on stderr so far (the inspector's URL with NODE_OPTIONS=--inspect). */
      stderr: shipped.stderr,
      headers: { authorization: `Bearer ${shipped.operatorToken}` },
      /** CPU milliseconds used so far by the server's process group (npm and the server it runs). */
      cpuMs: () => groupCpuMs(shipped.child.pid!),
      /** The real server's database (pgbench, a baseline's own pool); null embedded. */
      databaseUrl: real?.url ?? null,
      /** Where a baseline in another process reads the same data: the real database, or the copy (baselineData). */
      baselineData,
      async stop() {
        await client.close();
        const exit = await shipped.stop();
        if (exit.code !== 0) throw new Error(`the bench's server exited with ${exit.code ?? exit.signal}: ${shipped.stderr().slice(-500)}`);
        await database?.close();
        for (const step of cleanups.reverse()) await step();
        if (dataDir) rmSync(dataDir, { recursive: true, force: true });
        await real?.drop();
      },
    };
  } catch (error) {
    await database?.close();
    for (const step of cleanups.reverse()) await step();
    if (dataDir) rmSync(dataDir, { recursive: true, force: true });
    await real?.drop();
    throw error;
  }
}

export type BenchServer = Awaited<ReturnType<typeof startBenchServer>>;

/** The test servers' configuration on a throwaway in-memory database: every background job off. */
export function testConfigForBench(): BurrowConfig {
  return testConfig({ lifecycle: 'embedded', dataDir: 'memory://' });
}

/**
 * Burrow inside this process, for the CPU profile of the sources (bench/cpu-profile.ts). The
 * scenarios measure the built server (startBenchServer). With BURROW_TEST_DATABASE_URL it runs on
 * a fresh database of that real server (dropped by stop()).
 */
export async function startInProcessServer() {
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
    async stop() {
      await client.close();
      await app.stop();
      await database.close();
      await realServer?.drop();
    },
  };
}

export type InProcessServer = Awaited<ReturnType<typeof startInProcessServer>>;

export const percentile = (values: number[], p: number) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
};
export const fmt = (ms: number) => `${ms.toFixed(1)} ms`;
