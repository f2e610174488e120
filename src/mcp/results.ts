/**
 * What a tool hands back: records as plain JSON with the GraphQL types' field names and meanings
 * (the short id as `recordId`, `handoffId`, `memoryId`, `cardId`; `id` the global id GraphQL's
 * `node(id:)` reads; writers as GraphQL's Actor), and expected failures as tool errors carrying
 * the same machine-readable codes as GraphQL.
 */
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { isConnectionLoss } from '../lib/connection-errors.js';
import { BurrowError, ForbiddenError, NotFoundError, RevisionConflictError, ValidationError } from '../lib/errors.js';
import { clientDataRefusal } from '../lib/error-masking.js';
import type { Logger } from '../lib/logger.js';
import type { WorkingRecordRow } from '../domains/working-memory/working-memory.types.js';
import type { HandoffRow } from '../domains/handoffs/handoffs.service.js';
import type { BrainMemoryRow } from '../domains/brains/brains.types.js';
import type { BrainSearchResult } from '../domains/brains/brains.search.js';
import { cardEvidence, cardExpiresAt, type CardRow } from '../domains/tiddle/tiddle.model.js';
import { brainMemoryNodeKey, globalIdOf, handoffNodeKey, rollingCardNodeKey, workingRecordNodeKey } from '../schema/node-keys.js';

const iso = (date: Date | null) => (date ? date.toISOString() : null);

/** GraphQL's Actor: who wrote something. */
const actorJson = (kind: string, principalId: string) => ({ kind, principalId });

export const workingRecordJson = (r: WorkingRecordRow) => ({
  id: globalIdOf('WorkingRecord', workingRecordNodeKey(r)),
  recordId: r.id,
  agentId: r.agentId,
  project: r.project,
  sessionId: r.sessionId,
  conversationId: r.conversationId,
  kind: r.kind,
  state: r.state,
  title: r.title,
  content: r.content,
  sourceRefs: r.sourceRefs,
  pinned: r.pinned,
  ttlDays: r.ttlDays,
  expiresAt: iso(r.expiresAt),
  supersededById: r.supersededBy,
  revision: r.revision,
  createdAt: iso(r.createdAt),
  updatedAt: iso(r.updatedAt),
  writtenBy: actorJson(r.writtenByKind, r.writtenById),
  operatorOwned: r.writtenByKind === 'OPERATOR',
});

export const handoffJson = (h: HandoffRow) => ({
  id: globalIdOf('SessionHandoff', handoffNodeKey(h)),
  handoffId: h.id,
  agentId: h.agentId,
  project: h.project,
  sessionId: h.sessionId,
  conversationId: h.conversationId,
  origin: h.origin,
  title: h.title,
  goal: h.goal,
  outcome: h.outcome,
  body: h.body,
  sourceRefs: h.sourceRefs,
  ttlDays: h.ttlDays,
  expiresAt: iso(h.expiresAt),
  revision: h.revision,
  writtenBy: actorJson(h.writtenByKind, h.writtenById),
  operatorOwned: h.writtenByKind === 'OPERATOR',
  createdAt: iso(h.createdAt),
  updatedAt: iso(h.updatedAt),
});

/** `memoryId` is what brain_read, brain_update and brain_remove take. */
export const brainMemoryJson = (m: BrainMemoryRow) => ({
  id: globalIdOf('BrainMemory', brainMemoryNodeKey(m)),
  memoryId: m.id,
  agentId: m.agentId,
  title: m.title,
  content: m.content,
  sourceRefs: m.sourceRefs,
  revision: m.revision,
  ownership: m.ownership,
  labels: m.label ? [m.label] : [],
  createdBy: actorJson(m.createdByKind, m.createdById),
  updatedBy: actorJson(m.updatedByKind, m.updatedById),
  createdAt: iso(m.createdAt),
  updatedAt: iso(m.updatedAt),
  deleted: m.deletedAt !== null,
  deletedAt: iso(m.deletedAt),
});

/**
 * Values the seed names are sent as the seed spells them: `retrieval.fallback:
 * embedding_unavailable` (and `vector_unavailable` beside it), `retrieval.mode` `lexical` or
 * `hybrid`, as `owner: "rolling_continuity"` is. GraphQL's enums spell the same values in capitals.
 */
const seedValue = (value: string | null) => (value === null ? null : value.toLowerCase());

export const brainSearchJson = (r: BrainSearchResult) => ({
  agentId: r.agentId,
  query: r.query,
  retrieval: { mode: seedValue(r.retrieval.mode), fallback: seedValue(r.retrieval.fallback), reason: r.retrieval.reason },
  hits: r.hits.map((h) => ({
    memory: brainMemoryJson(h.memory),
    matchedBy: h.matchedBy,
    matchedTerms: h.matchedTerms,
    lexicalScore: h.lexicalScore,
    similarity: h.similarity,
    score: h.score,
  })),
});

export const rollingCardJson = (c: CardRow) => ({
  id: globalIdOf('RollingCard', rollingCardNodeKey(c)),
  agentId: c.agentId,
  project: c.project,
  cardId: c.cardId,
  title: c.title,
  body: c.body,
  evidence: cardEvidence(c).map((e) => e.reference),
  revision: c.revision,
  createdAt: iso(c.createdAt),
  updatedAt: iso(c.updatedAt),
  refreshedAt: iso(c.refreshedAt),
  expiresAt: iso(cardExpiresAt(c)),
});

/** A successful call: the structured result, and the same JSON as text for clients that show only text. */
export function toolResult(structured: Record<string, unknown>): CallToolResult {
  return { structuredContent: structured, content: [{ type: 'text', text: JSON.stringify(structured) }] };
}

/** The GraphQL type name of each expected failure, beside its code. */
function errorJson(error: BurrowError): Record<string, unknown> {
  const base = { code: error.code, message: error.message };
  if (error instanceof ValidationError) return { type: 'ValidationFailed', ...base, field: error.field, limit: error.limit };
  if (error instanceof NotFoundError) return { type: 'NotFound', ...base, resource: error.resource, resourceId: error.resourceId };
  if (error instanceof RevisionConflictError) {
    return {
      type: 'RevisionConflict',
      ...base,
      expectedRevision: error.expectedRevision,
      currentRevision: error.currentRevision,
      currentContent: error.currentContent,
      currentValue: error.currentValue ?? null,
    };
  }
  if (error instanceof ForbiddenError) return { type: 'Forbidden', ...base };
  return { type: 'RequestError', ...base };
}

/**
 * A failure as a tool error the model can read and act on. Domain errors keep their code; data
 * the database refused is BAD_REQUEST; anything else is masked and logged.
 */
export function toolError(error: unknown, logger: Logger): CallToolResult {
  let body: Record<string, unknown>;
  if (error instanceof BurrowError) body = errorJson(error);
  else {
    const refusal = clientDataRefusal(error);
    if (refusal) body = { type: 'RequestError', code: 'BAD_REQUEST', message: refusal };
    // What GraphQL answers as DATABASE_UNAVAILABLE (lib/error-masking.ts), after the tool's own retries (retries.ts).
    else if (isConnectionLoss(error))
      body = { type: 'RequestError', code: 'DATABASE_UNAVAILABLE', message: 'the database connection is lost for the moment: retry', retryable: true };
    else {
      logger.error('unexpected error in an MCP tool', { error: (error as Error)?.message ?? String(error) });
      body = { type: 'RequestError', code: 'INTERNAL_SERVER_ERROR', message: 'Unexpected error.' };
    }
  }
  const structured = { error: body };
  return { isError: true, structuredContent: structured, content: [{ type: 'text', text: `${body.code}: ${body.message}\n${JSON.stringify(structured)}` }] };
}
