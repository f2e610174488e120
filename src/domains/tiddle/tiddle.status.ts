/**
 * An agent's Tiddle status: its TTL, its last synthesis and every scope's envelope.
 */
import { and, asc, eq, inArray } from 'drizzle-orm';
import { NotFoundError } from '../../lib/errors.js';
import { assertAgentAccess, type Viewer } from '../../auth/viewer.js';
import { CARD_TTL_DEFAULT_DAYS, tiddleEnvelopes, tiddleSettings } from './tiddle.sql.js';
import type { TiddleDeps } from './tiddle.model.js';

export async function status(deps: TiddleDeps, viewer: Viewer | null, agentId: string) {
  assertAgentAccess(viewer, agentId);
  await requireAgent(deps, agentId);
  const [settings] = await deps.db.select().from(tiddleSettings).where(eq(tiddleSettings.agentId, agentId));
  const scopes = await deps.db.select().from(tiddleEnvelopes).where(eq(tiddleEnvelopes.agentId, agentId)).orderBy(asc(tiddleEnvelopes.project));
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

/**
 * The status of several agents in two statements (Agent.tiddleStatus); the caller has authorized
 * every agent and each exists (it is a loaded Agent). `project` narrows the scopes to one.
 */
export async function statusForAgents(deps: TiddleDeps, agentIds: readonly string[], project: string | null) {
  if (agentIds.length === 0) return [];
  const settings = await deps.db
    .select()
    .from(tiddleSettings)
    .where(inArray(tiddleSettings.agentId, [...agentIds]));
  const scopes = await deps.db
    .select()
    .from(tiddleEnvelopes)
    .where(and(inArray(tiddleEnvelopes.agentId, [...agentIds]), project == null ? undefined : eq(tiddleEnvelopes.project, project)))
    .orderBy(asc(tiddleEnvelopes.project));
  return agentIds.map((agentId) => {
    const own = settings.find((s) => s.agentId === agentId);
    return {
      agentId,
      cardTtlDays: own?.cardTtlDays ?? CARD_TTL_DEFAULT_DAYS,
      lastSynthesisDate: own?.lastSynthesisOn ?? null,
      lastSynthesisAt: own?.lastSynthesisAt ?? null,
      scopes: scopes.filter((e) => e.agentId === agentId),
    };
  });
}
