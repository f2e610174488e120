/**
 * Reads of rolling cards (the listing, memory_rolling_search, the cards a pass or synthesis is
 * shown), the insert of a new card a pass or synthesis proposed, and the event every card change
 * announces.
 */
import { and, asc, desc, eq, inArray, lte, ne, or, sql } from 'drizzle-orm';
import type { DbOrTx } from '../../db/database.js';
import { appendEvent } from '../../events/events.service.js';
import { ValidationError, forbidden } from '../../lib/errors.js';
import { newId } from '../../lib/ids.js';
import { assertCleanText } from '../../lib/text-policy.js';
import { charLength, escapeLike } from '../../lib/text.js';
import { assertAgentAccess, requireViewer, resolveScope, type Viewer } from '../../auth/viewer.js';
import { tiddleCards } from './tiddle.sql.js';
import { ROLLING_SEARCH_LIMITS } from './tiddle.inputs.js';
import {
  CROSS_SCOPE_PROJECT,
  liveCard,
  cardSelection,
  checkScopedRead,
  type TiddleDeps,
  type CardRow,
  type CardIdentity,
  type CardDocument,
  type PassOutcome,
} from './tiddle.model.js';

export async function listCards(
  deps: TiddleDeps,
  viewer: Viewer | null,
  agentId: string,
  project: string,
  page: { limit: number; after: { updatedAt: Date; cardId: string } | null },
): Promise<CardRow[]> {
  checkScopedRead(viewer, agentId, project);
  const conditions = [liveCard(agentId, deps.clock.now()), eq(tiddleCards.project, project)];
  if (page.after) {
    conditions.push(sql`(${tiddleCards.updatedAt}, ${tiddleCards.cardId}) < (${page.after.updatedAt.toISOString()}::timestamptz, ${page.after.cardId})`);
  }
  return deps.db
    .select(cardSelection(agentId))
    .from(tiddleCards)
    .where(and(...conditions))
    .orderBy(desc(tiddleCards.updatedAt), desc(tiddleCards.cardId))
    .limit(page.limit);
}

/** One live card (node(id)), authorized like rollingCards: agent tokens only in their scope or "*". */
export async function getCard(deps: TiddleDeps, viewer: Viewer | null, agentId: string, project: string, cardId: string): Promise<CardRow | null> {
  checkScopedRead(viewer, agentId, project);
  const [row] = await deps.db
    .select(cardSelection(agentId))
    .from(tiddleCards)
    .where(and(liveCard(agentId, deps.clock.now()), eq(tiddleCards.project, project), eq(tiddleCards.cardId, cardId)));
  return row ?? null;
}

/**
 * A page of live cards of one scope for each of several agents in ONE statement
 * (Agent.rollingCards): numbered per agent, most recently updated first, the first `limit` kept.
 * The caller has authorized every agent; `after` is per agent (cursors are bound to one agent).
 */
export async function cardPagesForAgents(
  deps: TiddleDeps,
  keys: readonly { agentId: string; after: { updatedAt: Date; cardId: string } | null }[],
  project: string,
  limit: number,
): Promise<CardRow[][]> {
  if (keys.length === 0) return [];
  const c = tiddleCards;
  const perAgent = keys.map((k) =>
    k.after ? and(eq(c.agentId, k.agentId), sql`(${c.updatedAt}, ${c.cardId}) < (${k.after.updatedAt.toISOString()}::timestamptz, ${k.after.cardId})`) : eq(c.agentId, k.agentId),
  );
  const ranked = deps.db
    .select({
      ...cardSelection(c.agentId),
      ttlDays: sql<number>`${cardSelection(c.agentId).ttlDays}`.mapWith(Number).as('ttl_days'),
      pageRank: sql<number>`row_number() OVER (PARTITION BY ${c.agentId} ORDER BY ${c.updatedAt} DESC, ${c.cardId} DESC)`.as('page_rank'),
    })
    .from(c)
    .where(
      and(
        inArray(
          c.agentId,
          keys.map((k) => k.agentId),
        ),
        or(...perAgent),
        eq(c.project, project),
        liveCard(c.agentId, deps.clock.now()),
      ),
    )
    .as('ranked');
  const rows = await deps.db.select().from(ranked).where(lte(ranked.pageRank, limit)).orderBy(asc(ranked.pageRank));
  return keys.map((k) => rows.filter((r) => r.agentId === k.agentId).map(({ pageRank: _rank, ...card }) => card as CardRow));
}

/**
 * memory_rolling_search: the current agent's live cards in the current scope, matching any word
 * of the query in title or body, most words matched first. Bounded to 10 results.
 */
export async function search(deps: TiddleDeps, viewer: Viewer | null, input: { agentId?: string | null; project?: string | null; query: string; limit?: number | null }) {
  const v = requireViewer(viewer);
  const agentId = v.principal === 'AGENT' ? v.agentId! : input.agentId;
  if (v.principal === 'AGENT' && input.agentId && input.agentId !== v.agentId) assertAgentAccess(v, input.agentId);
  if (!agentId) throw forbidden('operators must choose the agent explicitly (agentId)');
  const project = resolveScope(v, input.project);
  const query = input.query.trim();
  assertCleanText('query', query);
  const bounds = ROLLING_SEARCH_LIMITS;
  if (charLength(query) > bounds.query) throw new ValidationError('query', `a rolling search query is at most ${bounds.query} characters`, bounds.query);
  const limit = input.limit ?? bounds.results;
  if (!Number.isInteger(limit) || limit < 1 || limit > bounds.results) throw new ValidationError('limit', `rolling search returns 1 to ${bounds.results} results`, bounds.results);
  const words = [...new Set(query.toLowerCase().split(/\s+/).filter(Boolean))].slice(0, 16);
  const matches = words.map((word) => {
    const pattern = `%${escapeLike(word)}%`;
    return sql`(CASE WHEN ${tiddleCards.title} ILIKE ${pattern} OR ${tiddleCards.body} ILIKE ${pattern} THEN 1 ELSE 0 END)`;
  });
  const score = matches.length ? sql.join(matches, sql` + `) : sql`0::int`;
  const rows = await deps.db
    .select({ ...cardSelection(agentId), score: sql<number>`${score}`.mapWith(Number) })
    .from(tiddleCards)
    .where(and(liveCard(agentId, deps.clock.now()), eq(tiddleCards.project, project), words.length ? sql`${score} > 0` : undefined))
    .orderBy(desc(sql`${score}`), desc(tiddleCards.refreshedAt), asc(tiddleCards.cardId))
    .limit(limit);
  return { owner: 'rolling_continuity' as const, entersPrompt: false as const, agentId, project, query, cards: rows as CardRow[] };
}

export async function liveCards(db: DbOrTx, agentId: string, project: string | null, now: Date, limit: number, since?: Date): Promise<CardRow[]> {
  const conditions = [liveCard(agentId, now)];
  if (project !== null) conditions.push(eq(tiddleCards.project, project));
  else conditions.push(ne(tiddleCards.project, CROSS_SCOPE_PROJECT));
  if (since) conditions.push(sql`${tiddleCards.refreshedAt} >= ${since.toISOString()}::timestamptz`);
  return db
    .select(cardSelection(agentId))
    .from(tiddleCards)
    .where(and(...conditions))
    .orderBy(desc(tiddleCards.refreshedAt), asc(tiddleCards.project), asc(tiddleCards.cardId))
    .limit(limit);
}

export async function cardEvent(deps: TiddleDeps, tx: DbOrTx, type: string, identity: CardIdentity, payload: Record<string, unknown>) {
  await appendEvent(tx, deps.clock, {
    agentId: identity.agentId,
    stream: 'rolling_card',
    type,
    subjectId: `${identity.project}/${identity.cardId}`,
    project: identity.project,
    payload: { ...identity, ...payload },
  });
}

/**
 * A new card at revision 1, created by a pass or synthesis: inserted, announced
 * (rolling_card.created with its title, revision, pass id and `announced`) and added to the
 * outcome's created cards.
 */
export async function createCard(
  deps: TiddleDeps,
  tx: DbOrTx,
  outcome: PassOutcome,
  card: { project: string; title: string; body: string; document: CardDocument },
  now: Date,
  announced: Record<string, unknown>,
): Promise<void> {
  const { agentId } = outcome;
  const { project, title, body, document } = card;
  const cardId = `card-${newId()}`;
  await tx.insert(tiddleCards).values({
    agentId,
    project,
    cardId,
    title,
    body,
    card: document,
    revision: 1,
    createdAt: now,
    updatedAt: now,
    refreshedAt: now,
  });
  await cardEvent(deps, tx, 'rolling_card.created', { agentId, project, cardId }, { title, revision: 1, passId: outcome.passId, ...announced });
  outcome.created.push(cardId);
}
