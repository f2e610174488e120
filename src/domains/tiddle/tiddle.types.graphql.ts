/**
 * The Tiddle read types: residue, rolling cards, the rolling search result, status and schedules,
 * pass history and ambient continuity, with the enums they share with the mutations.
 */
import { builder } from '../../schema/builder.js';
import { connectionType } from '../../schema/connections.js';
import { GLOBAL_ID_DESCRIPTION, agentScopedKey, parseAgentScopedKey, rollingCardNodeKey } from '../../schema/node-keys.js';
import { addAgentLink } from '../agents/agents.graphql.js';
import { HISTORY_RETENTION_DAYS, cardEvidence, cardExpiresAt, type CardRow, type EnvelopeRow, type ResidueRow } from './tiddle.service.js';
import { CARD_TTL_DEFAULT_DAYS, CARD_TTL_MAX_DAYS, CARD_TTL_MIN_DAYS, RESIDUE_EXCERPT_COUNT_LIMIT, RESIDUE_EXCERPT_TEXT_LIMIT } from './tiddle.sql.js';

export const ExcerptRoleEnum = builder.enumType('TiddleExcerptRole', {
  description: 'Who said an excerpt of a terminal turn',
  values: {
    USER: { value: 'user', description: 'The person' },
    ASSISTANT: { value: 'assistant', description: 'The agent' },
    TOOL: { value: 'tool', description: 'A tool result' },
    SYSTEM: { value: 'system', description: 'A system message' },
  } as const,
});
export const PassKindEnum = builder.enumType('TiddlePassKind', {
  description: 'What a Tiddle run did',
  values: {
    PASS: { value: 'pass', description: "A scope's pass: residue to card proposals" },
    SYNTHESIS: { value: 'synthesis', description: 'The daily cross-scope synthesis (project "*")' },
  } as const,
});
export const PassTriggerEnum = builder.enumType('TiddlePassTrigger', {
  description: 'What started a Tiddle run',
  values: {
    SCHEDULE: { value: 'schedule', description: 'The scheduler, when the scope was due' },
    OPERATOR: { value: 'operator', description: 'An operator, with tiddleRunPass' },
  } as const,
});
const ProposerKindEnum = builder.enumType('TiddleProposerKind', {
  description: 'Where card proposals come from (BURROW_TIDDLE_PROPOSER)',
  values: {
    NOOP: { value: 'noop', description: 'No model: passes propose nothing' },
    OPENAI: { value: 'openai', description: 'A chat-completions model' },
  } as const,
});
export const PassStatusEnum = builder.enumType('TiddlePassStatus', {
  description: "The outcome of one scope's run",
  values: {
    SUCCEEDED: { description: 'The run finished and its changes committed' },
    FAILED: { description: 'The run failed; nothing it proposed was applied and the scope retries later' },
    SKIPPED: { description: 'Another instance held the scope, or there was nothing to do' },
  },
});

const ExcerptRef = builder.objectRef<{ role: string; text: string }>('TiddleExcerpt').implement({
  description: 'One message excerpt of a terminal turn',
  fields: (t) => ({
    role: t.field({ type: ExcerptRoleEnum, description: 'Who said it', resolve: (e) => e.role as 'user' }),
    text: t.exposeString('text', { description: `The excerpt, 1 to ${RESIDUE_EXCERPT_TEXT_LIMIT} characters` }),
  }),
});

/** Residue and history share one table whose key is (agent id, entry id). */
const entryKey = (e: ResidueRow) => agentScopedKey(e.agentId, e.id);

export const ResidueRef = builder.objectRef<ResidueRow>('TiddleResidue');
builder.node(ResidueRef, {
  description: `One terminal turn's residue: a turn reference and at most ${RESIDUE_EXCERPT_COUNT_LIMIT} excerpts of at most ${RESIDUE_EXCERPT_TEXT_LIMIT} characters`,
  id: { description: GLOBAL_ID_DESCRIPTION, resolve: entryKey },
  loadOne: (id, ctx) => {
    const { agentId, recordId } = parseAgentScopedKey(id);
    return ctx.services.tiddle.getEntry(ctx.viewer, agentId, 'residue', recordId);
  },
  fields: (t) => ({
    entryId: t.exposeString('id', { description: 'The entry id within its agent; kept when a later append with the same reference replaces the entry' }),
    agentId: t.exposeString('agentId', { description: 'The agent id' }),
    project: t.exposeString('project', { description: 'The continuity scope' }),
    reference: t.exposeString('reference', { description: 'The turn reference; a later append with the same reference replaces this one' }),
    sessionId: t.exposeString('sessionId', { nullable: true, description: 'The runtime session that appended it' }),
    excerpts: t.field({ type: [ExcerptRef], description: 'The excerpts in the order given', resolve: (r) => r.excerpts as { role: string; text: string }[] }),
    createdAt: t.expose('createdAt', { type: 'DateTime', description: 'When it was appended (pruned 24 hours later)' }),
  }),
});

export const RollingCardRef = builder.objectRef<CardRow>('RollingCard');
builder.node(RollingCardRef, {
  description: 'A Tiddle rolling continuity card. Identity is (agentId, project, cardId); project "*" holds cross-scope cards. node(id) finds live cards only.',
  id: { description: GLOBAL_ID_DESCRIPTION, resolve: rollingCardNodeKey },
  loadOne: (id, ctx) => {
    const { agentId, recordId } = parseAgentScopedKey(id);
    let parts: unknown;
    try {
      parts = JSON.parse(recordId);
    } catch {
      return null;
    }
    if (!Array.isArray(parts) || parts.length !== 2 || !parts.every((p) => typeof p === 'string')) return null;
    return ctx.services.tiddle.getCard(ctx.viewer, agentId, parts[0], parts[1]);
  },
  fields: (t) => ({
    agentId: t.exposeString('agentId', { description: 'The agent id' }),
    project: t.exposeString('project', { description: 'The continuity scope; "*" for cross-scope cards' }),
    cardId: t.exposeString('cardId', { description: 'The card id within its agent and scope (the node id is global)' }),
    title: t.exposeString('title', { description: 'A short title' }),
    body: t.exposeString('body', { description: 'The card text' }),
    evidence: t.stringList({ description: 'Residue references this card cites; updates only ever add to them', resolve: (c) => cardEvidence(c).map((e) => e.reference) }),
    card: t.field({
      type: 'JSON',
      description: 'The card document: evidence (with session and pass), metadata (legacy kept), sources of cross-scope cards',
      resolve: (c) => c.card,
    }),
    revision: t.exposeInt('revision', { description: 'Starts at 1; each update adds 1' }),
    createdAt: t.expose('createdAt', { type: 'DateTime', description: 'When a pass created it' }),
    updatedAt: t.expose('updatedAt', { type: 'DateTime', description: 'The last change of title, body or evidence' }),
    refreshedAt: t.expose('refreshedAt', { type: 'DateTime', description: 'The last time a pass confirmed it; the TTL counts from here' }),
    expiresAt: t.field({ type: 'DateTime', description: 'refreshedAt + the persisted rolling TTL', resolve: (c) => cardExpiresAt(c) }),
  }),
});
addAgentLink(RollingCardRef, (c) => c.agentId);

export const RollingSearchRef = builder
  .objectRef<{ owner: 'rolling_continuity'; entersPrompt: false; agentId: string; project: string; query: string; cards: CardRow[] }>('RollingSearchResult')
  .implement({
    description: "memory_rolling_search's result, the same shape the MCP tool returns",
    fields: (t) => ({
      owner: t.exposeString('owner', {
        description: 'Always "rolling_continuity": part of the memory_rolling_search contract runtimes check, kept identical to the MCP tool result',
      }),
      entersPrompt: t.exposeBoolean('entersPrompt', {
        description:
          'Always false: rolling cards never enter ambient prompt assembly. Part of the memory_rolling_search contract runtimes check (kept identical to the MCP tool result); the tool result itself is visible to the caller.',
      }),
      agentId: t.exposeString('agentId', { description: 'The agent searched' }),
      project: t.exposeString('project', { description: 'The scope searched' }),
      query: t.exposeString('query', { description: 'The query as applied (trimmed)' }),
      cards: t.field({ type: [RollingCardRef], description: 'Cards matching more query words first, then most recently refreshed', resolve: (r) => r.cards }),
    }),
  });

const ScopeStatusRef = builder.objectRef<EnvelopeRow>('TiddleScopeStatus').implement({
  description: "One scope's schedule and last outcome",
  fields: (t) => ({
    project: t.exposeString('project', { description: 'The scope; "*" is the cross-scope synthesis' }),
    nextRunAt: t.expose('nextRunAt', { type: 'DateTime', description: 'When the scope is due next' }),
    lastSuccessAt: t.expose('lastSuccessAt', { type: 'DateTime', nullable: true, description: 'The last successful pass' }),
    lastAttemptAt: t.expose('lastAttemptAt', { type: 'DateTime', nullable: true, description: 'The last pass, successful or not' }),
    lastError: t.exposeString('lastError', { nullable: true, description: 'The error of the last failed pass; cleared by a success' }),
    lastErrorAt: t.expose('lastErrorAt', { type: 'DateTime', nullable: true, description: 'When the last pass failed' }),
    consecutiveFailures: t.exposeInt('consecutiveFailures', { description: 'Failures since the last success' }),
    lastPassId: t.exposeString('lastPassId', { nullable: true, description: 'The pass id of the last pass (TiddleHistoryEntry.passId)' }),
  }),
});

interface TiddleStatusShape {
  agentId: string;
  cardTtlDays: number;
  lastSynthesisDate: string | null;
  lastSynthesisAt: Date | null;
  scopes: EnvelopeRow[];
}
export const TiddleStatusRef = builder.objectRef<TiddleStatusShape>('TiddleStatus').implement({
  description: "An agent's Tiddle settings and every scope's schedule",
  fields: (t) => ({
    agentId: t.exposeString('agentId', { description: 'The agent id' }),
    cardTtlDays: t.exposeInt('cardTtlDays', {
      description: `The persisted rolling TTL in days (${CARD_TTL_MIN_DAYS} to ${CARD_TTL_MAX_DAYS}, ${CARD_TTL_DEFAULT_DAYS} by default): the same setting expiry uses`,
    }),
    lastSynthesisDate: t.exposeString('lastSynthesisDate', { nullable: true, description: 'UTC date (YYYY-MM-DD) of the last cross-scope synthesis' }),
    lastSynthesisAt: t.expose('lastSynthesisAt', { type: 'DateTime', nullable: true, description: 'When the last cross-scope synthesis ran' }),
    schedulerEnabled: t.boolean({
      description: 'Whether this server instance runs the scheduler (BURROW_TIDDLE_SCHEDULER)',
      resolve: (_, __, ctx) => ctx.services.config.tiddle.scheduler,
    }),
    proposer: t.field({ type: ProposerKindEnum, description: "This instance's proposer", resolve: (_, __, ctx) => ctx.services.config.tiddle.proposer.kind }),
    scopes: t.field({ type: [ScopeStatusRef], description: 'Every scope of the agent (or the one asked for), by project', resolve: (s) => s.scopes }),
  }),
});
addAgentLink(TiddleStatusRef, (s) => s.agentId);

const HistoryRef = builder.objectRef<ResidueRow>('TiddleHistoryEntry');
builder.node(HistoryRef, {
  description: `One pass or synthesis as recorded (kept ${HISTORY_RETENTION_DAYS} days)`,
  id: { description: GLOBAL_ID_DESCRIPTION, resolve: entryKey },
  loadOne: (id, ctx) => {
    const { agentId, recordId } = parseAgentScopedKey(id);
    return ctx.services.tiddle.getEntry(ctx.viewer, agentId, 'history', recordId);
  },
  fields: (t) => ({
    entryId: t.exposeString('id', { description: 'The entry id within its agent (the pass id is `passId`)' }),
    agentId: t.exposeString('agentId', { description: 'The agent id' }),
    project: t.exposeString('project', { description: 'The scope; "*" for the synthesis' }),
    passId: t.exposeString('reference', { description: 'The pass id' }),
    createdAt: t.expose('createdAt', { type: 'DateTime', description: 'When it was recorded' }),
    payload: t.field({ type: 'JSON', description: 'Outcome, created/updated/expired cards, preference signals, rejected proposals with reasons', resolve: (h) => h.payload }),
  }),
});
addAgentLink(HistoryRef, (h) => h.agentId);

export const AmbientContinuityRef = builder.objectRef<{ agentId: string; project: string }>('AmbientContinuity').implement({
  description:
    'Ordinary continuity assembly for one agent and scope. By design it carries no working records and no rolling cards (so it has no such fields): recall them explicitly with memoryWorkingSearch / memoryRollingSearch.',
  fields: (t) => ({
    agentId: t.exposeString('agentId', { description: 'The agent assembled for' }),
    project: t.exposeString('project', { description: 'The continuity scope it resolved to' }),
  }),
});

export const RollingCardConnection = connectionType(RollingCardRef, 'RollingCard');
export const HistoryConnection = connectionType(HistoryRef, 'TiddleHistoryEntry');
