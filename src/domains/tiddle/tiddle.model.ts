/**
 * What every part of Tiddle shares: the numbers of the rolling continuity rules, the row and
 * outcome shapes, the dependencies the parts run on, and the SQL fragments that decide which
 * residue and which cards count (one definition for reads, passes, expiry and status).
 */
import { and, eq, sql, type AnyColumn, type SQL } from 'drizzle-orm';
import type { Db } from '../../db/database.js';
import { HOUR_MS, type Clock } from '../../lib/clock.js';
import { daysBeforeSql, expiryAfter } from '../../lib/expiry.js';
import type { FaultInjector } from '../../lib/faults.js';
import type { Logger } from '../../lib/logger.js';
import { assertAgentAccess, resolveScope, type Viewer } from '../../auth/viewer.js';
import type { AgentsService } from '../agents/agents.service.js';
import type { CardView, Proposer } from './tiddle.proposer.js';
import { CARD_TTL_DEFAULT_DAYS, tiddleCards, tiddleEntries, tiddleEnvelopes, tiddleSettings } from './tiddle.sql.js';

/** The project under which cross-scope (synthesis) cards live; no runtime scope may use it. */
export const CROSS_SCOPE_PROJECT = '*';
export const PASS_INTERVAL_MS = 4 * HOUR_MS;
export const RESIDUE_WINDOW_MS = 24 * HOUR_MS;
export const HISTORY_RETENTION_DAYS = 180;
/** A failed scope is due again after this long, on its own. */
export const RETRY_DELAY_MS = 5 * 60 * 1000;
export const SCHEDULER_INTERVAL_MS = 60 * 1000;
/** Selection budget of a pass: the newest residue of the last 24 hours, at most this many entries ... */
export const RESIDUE_SELECTION_LIMIT = 40;
/** ... and at most this many excerpt characters in total. */
export const RESIDUE_SELECTION_CHARS = 24_000;
/** Current cards of the scope shown to the proposer, most recently refreshed first. */
export const PASS_CARD_BUDGET = 100;
export const SYNTHESIS_WINDOW_DAYS = 21;
/** Selection budget of a synthesis: the most recently refreshed cards of the 21-day window. */
export const SYNTHESIS_CARD_BUDGET = 60;
const PROPOSAL_RECORD_LIMIT = 4_000;

/** What the parts of Tiddle run on; the proposer is replaceable (TiddleService.useProposer). */
export interface TiddleDeps {
  readonly db: Db;
  readonly clock: Clock;
  readonly faults: FaultInjector;
  readonly agents: AgentsService;
  proposer: Proposer;
  readonly logger: Logger;
  readonly proposerTimeoutMs: number;
}

export type ResidueRow = typeof tiddleEntries.$inferSelect;
export type EnvelopeRow = typeof tiddleEnvelopes.$inferSelect;
export type CardRow = typeof tiddleCards.$inferSelect & { ttlDays: number };

export interface CardIdentity {
  agentId: string;
  project: string;
  cardId: string;
}

export interface EvidenceRef {
  reference: string;
  sessionId: string | null;
  residueAt: string;
  passId: string;
}

export interface CardDocument {
  evidence: EvidenceRef[];
  metadata: Record<string, unknown>;
  sources?: CardIdentity[];
  [legacy: string]: unknown;
}

export interface RejectedProposal {
  proposal: unknown;
  reason: string;
}

export type PassStatus = 'SUCCEEDED' | 'FAILED' | 'SKIPPED';

export interface PassOutcome {
  agentId: string;
  project: string;
  passId: string;
  kind: 'pass' | 'synthesis';
  trigger: 'schedule' | 'operator';
  status: PassStatus;
  error: string | null;
  residueConsidered: number;
  created: string[];
  updated: string[];
  expired: string[];
  preferenceSignals: string[];
  noops: number;
  rejected: RejectedProposal[];
  nextRunAt: Date | null;
  at: Date;
}

export const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);
export const NUL = '\u0000';
/** PostgreSQL text and jsonb cannot hold NUL: model output loses it, API input is refused. */
export function withoutNul<T>(value: T): T {
  if (typeof value === 'string') return value.split(NUL).join('') as T;
  if (Array.isArray(value)) return value.map((item) => withoutNul(item)) as T;
  if (isRecord(value)) return Object.fromEntries(Object.entries(value).map(([k, v]) => [withoutNul(k), withoutNul(v)])) as T;
  return value;
}
/** One scope's residue rows. */
export const residueOf = (agentId: string, project: string) => and(eq(tiddleEntries.agentId, agentId), eq(tiddleEntries.project, project), eq(tiddleEntries.kind, 'residue'))!;
/** The 24-hour cutoff: appends prune before it, passes consider what is after it. */
export const residueCutoff = (now: Date) => new Date(now.getTime() - RESIDUE_WINDOW_MS);

export function recordable(proposal: unknown): unknown {
  const text = JSON.stringify(proposal) ?? 'null';
  return text.length <= PROPOSAL_RECORD_LIMIT ? proposal : { truncated: text.slice(0, PROPOSAL_RECORD_LIMIT) };
}

/** The persisted rolling TTL of an agent, in SQL: the one setting reads, expiry and status share. */
const ttlDaysSql = (agentId: string | AnyColumn) =>
  sql<number>`COALESCE((SELECT ${tiddleSettings.cardTtlDays} FROM ${tiddleSettings} WHERE ${tiddleSettings.agentId} = ${agentId}), ${CARD_TTL_DEFAULT_DAYS})`;

/** Cards that are live at `now`: not marked expired and refreshed within the persisted TTL. */
export const liveCard = (agentId: string | AnyColumn, now: Date): SQL =>
  and(eq(tiddleCards.agentId, agentId), sql`${tiddleCards.expiredAt} IS NULL`, sql`${tiddleCards.refreshedAt} > ${daysBeforeSql(now, ttlDaysSql(agentId))}`)!;

export function cardSelection(agentId: string | AnyColumn) {
  return {
    agentId: tiddleCards.agentId,
    project: tiddleCards.project,
    cardId: tiddleCards.cardId,
    title: tiddleCards.title,
    body: tiddleCards.body,
    card: tiddleCards.card,
    revision: tiddleCards.revision,
    createdAt: tiddleCards.createdAt,
    updatedAt: tiddleCards.updatedAt,
    refreshedAt: tiddleCards.refreshedAt,
    expiredAt: tiddleCards.expiredAt,
    ttlDays: sql<number>`${ttlDaysSql(agentId)}`.mapWith(Number),
  };
}

export const cardExpiresAt = (card: CardRow) => expiryAfter(card.refreshedAt, card.ttlDays);
export const cardEvidence = (card: { card: unknown }) => ((card.card as CardDocument)?.evidence ?? []) as EvidenceRef[];

/** Agent tokens read only their runtime scope (and its cross-scope cards); operators any. */
export function checkScopedRead(viewer: Viewer | null, agentId: string, project: string) {
  const v = assertAgentAccess(viewer, agentId);
  if (v.principal === 'AGENT' && project !== CROSS_SCOPE_PROJECT) resolveScope(v, project);
  return v;
}

/** What the proposer is shown of a card: its identity, text and evidence references. */
export function cardView(card: CardRow): CardView {
  return {
    agentId: card.agentId,
    project: card.project,
    cardId: card.cardId,
    title: card.title,
    body: card.body,
    evidence: cardEvidence(card).map((e) => e.reference),
    updatedAt: card.updatedAt.toISOString(),
  };
}
