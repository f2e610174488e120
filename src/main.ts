/**
 * Opens what a command needs: config -> database (+ migrations). Every startup failure prints
 * what is wrong and how to fix it, without a stack trace.
 */
import { loadConfig, type BurrowConfig } from './config.js';
import { ConfigError } from './config.env.js';
import { StartupError, type Database } from './db/database.js';
import { openDatabase } from './db/database.open.js';
import { claimEmbeddedDirectory } from './db/embedded-lock.js';
import { MigrationError, migrate } from './db/migrator.js';
import { createLogger, type Logger } from './lib/logger.js';

export interface Runtime {
  config: BurrowConfig;
  database: Database;
  logger: Logger;
  migrations: string[];
  close(): Promise<void>;
}

/** `oneShot`: a command that runs a few statements and exits (OpenOptions.oneShot). */
export async function openRuntime({ oneShot = false }: { oneShot?: boolean } = {}): Promise<Runtime> {
  const config = loadConfig();
  const logger = createLogger(config.logLevel, { service: 'burrow' });
  const release = config.database.lifecycle === 'embedded' ? claimEmbeddedDirectory(config.database.dataDir) : () => {};
  let database: Database;
  try {
    database = await openDatabase(config.database, { onWaiting: (message) => logger.warn(message), oneShot });
  } catch (error) {
    release();
    throw error;
  }
  try {
    const { applied } = await migrate(database.migrationPool ?? database.pool);
    return {
      config,
      database,
      logger,
      migrations: applied,
      close: async () => {
        await database.close();
        release();
      },
    };
  } catch (error) {
    await database.close().catch(() => {});
    release();
    throw error;
  }
}

/** Runs a command body; known startup errors print cleanly and exit 1. */
export async function runCommand(body: () => Promise<void>): Promise<void> {
  try {
    await body();
  } catch (error) {
    if (error instanceof ConfigError || error instanceof StartupError || error instanceof MigrationError) {
      process.stderr.write(`${error.message.startsWith('Burrow') ? '' : 'Burrow cannot start: '}${error.message}\n`);
    } else {
      process.stderr.write(`burrow: ${(error as Error).message ?? String(error)}\n`);
    }
    process.exitCode = 1;
  }
}
