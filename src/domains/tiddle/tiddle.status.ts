/**
 * An agent's Tiddle status: its TTL, its last synthesis and every scope's envelope.
 */
import { asc, eq } from 'drizzle-orm';
import { NotFoundError } from '../../lib/errors.js';
import { assertAgentAccess, type Viewer } from '../../auth/viewer.js';
import { CARD_TTL_DEFAULT_DAYS, tiddleEnvelopes, tiddleSettings } from './tiddle.sql.js';
import type { TiddleDeps } from './tiddle.model.js';

export async function status(deps: TiddleDeps, viewer: Viewer | null, agentId: string) {
  assertAgentAccess(viewer, agentId);
  await requireAgent(deps, agentId);
  const [settings] = await deps.db.select().from(tiddleSettings).where(eq(tiddleSettings.agentId, agentId));
  const scopes = await deps.db
    .select()
    .from(tiddleEnvelopes)
    .where(eq(tiddleEnvelopes.agentId, agentId))
    .orderBy(asc(tiddleEnvelopes.project));
  return {
    agentId,
    cardTtlDays: settings?.cardTtlDays ?? CARD_TTL_DEFAULT_DAYS,
    lastSynthesisDate: settings?.lastSynthesisOn ?? null,
    lastSynthesisAt: settings?.lastSynthesisAt ?? null,
    scopes,
  };
}

export async function requireAgent(deps: TiddleDeps, agentId: string): Promise<void> {
  const [agent] = await deps.agents.agentsByIds([agentId]);
  if (!agent) throw new NotFoundError('Agent', agentId);
}
