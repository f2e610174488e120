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
export async function startBenchServer() {
  const config = testConfigForBench();
  const realServer = process.env.BURROW_TEST_DATABASE_URL ? await createTestDatabase() : null;
  if (realServer) config.database = externalConfig(realServer.url!);
  const database = await openDatabase(config.database);
  await migrate(database.pool);
  const app = buildApp({ config, database, logger: createLogger('silent') });
  const port = await app.start(0, '127.0.0.1');
  const { token } = await app.services.tokens.create({ kind: 'operator', name: 'bench' });
  const client = createBurrowClient({ url: `http://127.0.0.1:${port}/graphql`, token });
  return {
    database,
    app,
    client,
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
