/**
 * Opens the configured database: embedded, external or managed (see db/database.ts).
 */
import type { DatabaseConfig } from '../config.database.js';
import type { Database, OpenOptions } from './database.js';
import { openEmbedded } from './database.embedded.js';
import { openExternal } from './database.external.js';

export async function openDatabase(config: DatabaseConfig, options: OpenOptions = {}): Promise<Database> {
  // Loaded on demand: only the managed lifecycle needs it.
  if (config.lifecycle === 'managed') return (await import('./managed.js')).openManaged(config);
  return config.lifecycle === 'embedded' ? openEmbedded(config, options) : openExternal(config, options);
}
