/**
 * The model connections a starting server uses: an env variable, when set, overrides the stored
 * row (BURROW_EMBEDDINGS_URL for BRAIN_EMBEDDINGS; BURROW_TIDDLE_PROPOSER=openai for
 * TIDDLE_PROPOSER); otherwise the stored row applies. Read once at start: a changed row takes
 * effect at the next start. A stored API key that cannot be opened (no key, another key) leaves
 * that connection off with a warning that names the connection, never the secret.
 */
import type { BurrowConfig } from '../../config.js';
import type { Db } from '../../db/database.js';
import type { Logger } from '../../lib/logger.js';
import { decryptSecret } from './settings.crypto.js';
import { secretSite } from './settings.service.js';
import { modelConnections, type ModelPurpose } from './settings.sql.js';

export type ConnectionSource = 'env' | 'stored' | 'off';

export async function withStoredModelConnections(config: BurrowConfig, db: Db, logger: Logger): Promise<{ config: BurrowConfig; sources: Record<ModelPurpose, ConnectionSource> }> {
  const rows = await db.select().from(modelConnections);
  const stored = (purpose: ModelPurpose) => {
    const row = rows.find((r) => r.purpose === purpose);
    if (!row) return null;
    try {
      const apiKey = row.apiKeySecret ? decryptSecret([config.settings.key], secretSite.model(purpose), row.apiKeySecret) : null;
      return { url: row.url, model: row.model, timeoutMs: row.timeoutMs, apiKey };
    } catch (error) {
      logger.warn(`the stored ${purpose} model connection stays off: ${(error as Error).message}`);
      return null;
    }
  };
  const sources: Record<ModelPurpose, ConnectionSource> = { BRAIN_EMBEDDINGS: 'off', TIDDLE_PROPOSER: 'off' };
  let embeddings = config.embeddings;
  if (embeddings) sources.BRAIN_EMBEDDINGS = 'env';
  else {
    const row = stored('BRAIN_EMBEDDINGS');
    if (row) ((embeddings = { ...row, indexIntervalMs: 5000 }), (sources.BRAIN_EMBEDDINGS = 'stored'));
  }
  let proposer = config.tiddle.proposer;
  if (proposer.kind === 'openai') sources.TIDDLE_PROPOSER = 'env';
  else {
    const row = stored('TIDDLE_PROPOSER');
    if (row) ((proposer = { kind: 'openai', ...row }), (sources.TIDDLE_PROPOSER = 'stored'));
  }
  return { config: { ...config, embeddings, tiddle: { ...config.tiddle, proposer } }, sources };
}
