import { builder } from '../../schema/builder.js';
import { GLOBAL_ID_DESCRIPTION } from '../../schema/node-keys.js';
import { AgentEventRef, afterSequence } from '../../schema/events.js';
import { connectionType, pageArgs, pagesPerKey } from '../../schema/connections.js';
import { agentScopedKey, parseAgentScopedKey, rollingCardNodeKey } from '../../schema/node-keys.js';
import { AgentRef, addAgentLink } from '../agents/agents.graphql.js';
import { assertAgentAccess, resolveActingAgent, resolveScope } from '../../auth/viewer.js';
import { bindingOf, decodeTimeIdCursor, encodeTimeIdCursor, pageSize, toConnection } from '../../lib/cursor.js';
import { badRequest, NotFoundError, ValidationError } from '../../lib/errors.js';
import {
  CROSS_SCOPE_PROJECT,
  HISTORY_RETENTION_DAYS,
  cardEvidence,
  cardExpiresAt,
  checkScopedRead,
  type CardRow,
  type EnvelopeRow,
  type PassOutcome,
  type RejectedProposal,
  type ResidueRow,
} from './tiddle.service.js';
import { rollingSearchArgs } from './tiddle.inputs.js';
import { argsFrom } from '../../schema/inputs.js';
import { CARD_TTL_DEFAULT_DAYS, CARD_TTL_MAX_DAYS, CARD_TTL_MIN_DAYS, RESIDUE_EXCERPT_COUNT_LIMIT, RESIDUE_EXCERPT_TEXT_LIMIT } from './tiddle.sql.js';

const ExcerptRoleEnum = builder.enumType('TiddleExcerptRole', {
  description: 'Who said an excerpt of a terminal turn',
  values: {
    USER: { value: 'user', description: 'The person' },
    ASSISTANT: { value: 'assistant', description: 'The agent' },
    TOOL: { value: 'tool', description: 'A tool result' },
    SYSTEM: { value: 'system', description: 'A system message' },
  } as const,
});
const PassKindEnum = builder.enumType('TiddlePassKind', {
  description: 'What a Tiddle run did',
  values: {
    PASS: { value: 'pass', description: "A scope's pass: residue to card proposals" },
    SYNTHESIS: { value: 'synthesis', description: 'The daily cross-scope synthesis (project "*")' },
  } as const,
});
const PassTriggerEnum = builder.enumType('TiddlePassTrigger', {
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
const PassStatusEnum = builder.enumType('TiddlePassStatus', {
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

const ResidueRef = builder.objectRef<ResidueRow>('TiddleResidue');
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

const ResidueAppendRef = builder.objectRef<{ entry: ResidueRow; pruned: number; replaced: boolean }>('TiddleResidueAppend').implement({
  description: 'What an append stored and removed',
  fields: (t) => ({
    entry: t.field({ type: ResidueRef, description: 'The stored residue', resolve: (r) => r.entry }),
    pruned: t.exposeInt('pruned', { description: 'Residue entries of this scope older than 24 hours removed by this append' }),
    replaced: t.exposeBoolean('replaced', { description: 'An entry with the same turn reference existed and was replaced' }),
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

const RollingSearchRef = builder
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
const TiddleStatusRef = builder.objectRef<TiddleStatusShape>('TiddleStatus').implement({
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

const RejectedProposalRef = builder.objectRef<RejectedProposal>('TiddleRejectedProposal').implement({
  description: 'A card proposal the gate refused',
  fields: (t) => ({
    reason: t.exposeString('reason', { description: 'Why it was refused, for people' }),
    proposal: t.field({ type: 'JSON', description: 'The proposal as the proposer sent it (truncated past 4,000 characters)', resolve: (r) => r.proposal }),
  }),
});

const PassOutcomeRef = builder.objectRef<PassOutcome>('TiddlePassOutcome').implement({
  description: "What one scope's pass or synthesis did",
  fields: (t) => ({
    agentId: t.exposeString('agentId', { description: 'The agent id' }),
    project: t.exposeString('project', { description: 'The scope; "*" for the synthesis' }),
    passId: t.exposeString('passId', { description: 'The pass id (TiddleHistoryEntry.passId)' }),
    kind: t.field({ type: PassKindEnum, description: 'Pass or synthesis', resolve: (o) => o.kind }),
    trigger: t.field({ type: PassTriggerEnum, description: 'What started it', resolve: (o) => o.trigger }),
    status: t.field({ type: PassStatusEnum, description: 'How it ended', resolve: (o) => o.status }),
    error: t.exposeString('error', { nullable: true, description: 'Why it failed' }),
    residueConsidered: t.exposeInt('residueConsidered', { description: 'Residue entries shown to the proposer' }),
    created: t.exposeStringList('created', { description: 'Card ids created' }),
    updated: t.exposeStringList('updated', { description: 'Card ids updated' }),
    expired: t.exposeStringList('expired', { description: 'Card ids expired' }),
    preferenceSignals: t.exposeStringList('preferenceSignals', { description: 'Preference signal ids recorded' }),
    noops: t.exposeInt('noops', { description: 'Proposals that changed nothing' }),
    rejected: t.field({ type: [RejectedProposalRef], description: 'Proposals the gate refused, with reasons', resolve: (o) => o.rejected }),
    nextRunAt: t.expose('nextRunAt', { type: 'DateTime', nullable: true, description: 'When the scope is due next' }),
    at: t.expose('at', { type: 'DateTime', description: 'When it finished' }),
  }),
});
addAgentLink(PassOutcomeRef, (o) => o.agentId);

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

const AmbientContinuityRef = builder.objectRef<{ agentId: string; project: string }>('AmbientContinuity').implement({
  description:
    'Ordinary continuity assembly for one agent and scope. By design it carries no working records and no rolling cards (so it has no such fields): recall them explicitly with memoryWorkingSearch / memoryRollingSearch.',
  fields: (t) => ({
    agentId: t.exposeString('agentId', { description: 'The agent assembled for' }),
    project: t.exposeString('project', { description: 'The continuity scope it resolved to' }),
  }),
});

const RollingCardConnection = connectionType(RollingCardRef, 'RollingCard');
const HistoryConnection = connectionType(HistoryRef, 'TiddleHistoryEntry');

const CARDS_PAGE = 100;
const HISTORY_PAGE = 500;
const cardsBinding = (agentId: string, project: string) => bindingOf('rollingCards', agentId, project);
const projectArg = 'The continuity scope; "*" for cross-scope cards. Agent tokens: their runtime scope (Burrow-Continuity-Scope) or "*"; the runtime scope when absent.';

builder.objectFields(AgentRef, (t) => ({
  rollingCards: t.loadable({
    type: RollingCardConnection,
    nullable: true,
    description: `The agent's live rolling cards of one scope, most recently updated first; pages of 1 to ${CARDS_PAGE}, 20 by default. Authorized like Query.rollingCards; cursors are interchangeable with it. Nullable: without the continuity scope it needs (or refused), only this field is null, with its error beside the data, so the payload of a mutation is never erased by it.`,
    args: { project: t.arg.string({ required: false, description: projectArg }), ...pageArgs(t.arg, CARDS_PAGE) },
    byPath: true,
    load: async (agentIds: string[], ctx, args) => {
      const limit = pageSize(args.first, CARDS_PAGE, 20);
      const project = args.project ?? ctx.viewer?.scope ?? null;
      return pagesPerKey(
        agentIds,
        (agentId) => {
          if (!project) throw badRequest('rollingCards needs a project (argument or Burrow-Continuity-Scope)');
          checkScopedRead(ctx.viewer, agentId, project);
          const p = decodeTimeIdCursor(args.after, cardsBinding(agentId, project));
          return { agentId, after: p && { updatedAt: p.at, cardId: p.id } };
        },
        (agents) => ctx.services.tiddle.cardPagesForAgents(agents, project!, limit + 1),
        (page, { agentId }) => {
          const binding = cardsBinding(agentId, project!);
          return toConnection(page, limit, (c) => encodeTimeIdCursor(binding, c.updatedAt, c.cardId), args.after);
        },
      );
    },
    resolve: (agent) => agent.id,
  }),
  tiddleStatus: t.loadable({
    type: TiddleStatusRef,
    description: "The agent's Tiddle status (TTL, last synthesis, every scope's schedule). Authorized like Query.tiddleStatus.",
    args: { project: t.arg.string({ required: false, description: 'Only this scope in `scopes`; every scope when absent' }) },
    byPath: true,
    load: async (agentIds: string[], ctx, args) => {
      return pagesPerKey(
        agentIds,
        (agentId) => {
          assertAgentAccess(ctx.viewer, agentId);
          return agentId;
        },
        (allowed) => ctx.services.tiddle.statusForAgents(allowed, args.project ?? null),
        (status) => status,
      );
    },
    resolve: (agent) => agent.id,
  }),
}));

builder.queryFields((t) => ({
  rollingCards: t.field({
    type: RollingCardConnection,
    description: `Live rolling cards of one agent and scope, most recently updated first; pages of 1 to ${CARDS_PAGE}, 20 by default. Also \`Agent.rollingCards\`.`,
    args: {
      agentId: t.arg.string({ required: false, description: 'Operators name the agent; agent tokens read their own' }),
      project: t.arg.string({ required: false, description: projectArg }),
      ...pageArgs(t.arg, CARDS_PAGE),
    },
    resolve: async (_, args, ctx) => {
      const { viewer, agentId } = resolveActingAgent(ctx.viewer, args.agentId);
      const project = args.project ?? viewer.scope;
      if (!project) throw badRequest('rollingCards needs a project (argument or Burrow-Continuity-Scope)');
      const limit = pageSize(args.first, CARDS_PAGE, 20);
      const binding = cardsBinding(agentId, project);
      const position = decodeTimeIdCursor(args.after, binding);
      const after = position && { updatedAt: position.at, cardId: position.id };
      const rows = await ctx.services.tiddle.listCards(viewer, agentId, project, { limit: limit + 1, after });
      return toConnection(rows, limit, (c) => encodeTimeIdCursor(binding, c.updatedAt, c.cardId), args.after);
    },
  }),
  memoryRollingSearch: t.field({
    type: RollingSearchRef,
    description: 'memory_rolling_search: the current agent\'s live cards in the current scope (at most 10). owner is "rolling_continuity", entersPrompt false.',
    args: argsFrom(t.arg, rollingSearchArgs, {}),
    resolve: (_, args, ctx) => ctx.services.tiddle.search(ctx.viewer, args),
  }),
  tiddleStatus: t.field({
    type: TiddleStatusRef,
    description: "An agent's Tiddle status: TTL, last synthesis, every scope's schedule. Also `Agent.tiddleStatus`.",
    args: {
      agentId: t.arg.string({ required: true, description: 'The agent id' }),
      project: t.arg.string({ required: false, description: 'Only this scope in `scopes`; every scope when absent' }),
    },
    resolve: async (_, args, ctx) => {
      const status = await ctx.services.tiddle.status(ctx.viewer, args.agentId);
      return args.project == null ? status : { ...status, scopes: status.scopes.filter((s) => s.project === args.project) };
    },
  }),
  tiddleResidue: t.field({
    type: [ResidueRef],
    description: 'The stored residue of one scope, newest first (residue is pruned after 24 hours, so the list stays small)',
    args: {
      agentId: t.arg.string({ required: true, description: 'The agent id' }),
      project: t.arg.string({ required: true, description: 'The continuity scope; agent tokens: their runtime scope' }),
      first: t.arg.int({ required: false, description: 'How many: 1 to 500, 100 by default' }),
    },
    resolve: (_, args, ctx) => ctx.services.tiddle.listResidue(ctx.viewer, args.agentId, args.project, pageSize(args.first, 500, 100)),
  }),
  tiddleHistory: t.field({
    type: HistoryConnection,
    description: `Pass and synthesis history (kept ${HISTORY_RETENTION_DAYS} days), newest first; pages of 1 to ${HISTORY_PAGE}, 100 by default`,
    args: {
      agentId: t.arg.string({ required: true, description: 'The agent id' }),
      project: t.arg.string({ required: false, description: 'One scope; every scope when absent (agent tokens: their runtime scope or "*")' }),
      ...pageArgs(t.arg, HISTORY_PAGE, 100),
    },
    resolve: async (_, args, ctx) => {
      const limit = pageSize(args.first, HISTORY_PAGE, 100);
      const binding = bindingOf('tiddleHistory', args.agentId, args.project);
      const position = decodeTimeIdCursor(args.after, binding);
      const rows = await ctx.services.tiddle.listHistory(ctx.viewer, args.agentId, args.project ?? null, {
        limit: limit + 1,
        after: position && { createdAt: position.at, id: position.id },
      });
      return toConnection(rows, limit, (h) => encodeTimeIdCursor(binding, h.createdAt, h.id), args.after);
    },
  }),
  ambientContinuity: t.field({
    type: AmbientContinuityRef,
    description: 'Ordinary continuity assembly: never contains ambient working records or rolling cards',
    args: {
      agentId: t.arg.string({ required: false, description: 'Operators name the agent; agent tokens: their own' }),
      project: t.arg.string({ required: false, description: 'The scope; agent tokens: their runtime scope' }),
    },
    resolve: (_, args, ctx) => {
      const { viewer, agentId } = resolveActingAgent(ctx.viewer, args.agentId);
      return { agentId, project: resolveScope(viewer, args.project) };
    },
  }),
}));

const ExcerptInput = builder.inputType('TiddleExcerptInput', {
  description: 'One message excerpt of a terminal turn',
  fields: (t) => ({
    role: t.field({ type: ExcerptRoleEnum, required: true, description: 'Who said it' }),
    text: t.string({ required: true, description: `1 to ${RESIDUE_EXCERPT_TEXT_LIMIT} characters` }),
  }),
});
const AppendResidueInput = builder.inputType('TiddleAppendResidueInput', {
  description: "One terminal turn's residue",
  fields: (t) => ({
    turnRef: t.string({ required: true, description: 'The terminal turn reference (1 to 200 characters); the same reference replaces' }),
    excerpts: t.field({ type: [ExcerptInput], required: true, description: `1 to ${RESIDUE_EXCERPT_COUNT_LIMIT} excerpts` }),
    project: t.string({ required: false, description: 'May only repeat the runtime scope (it is the default)' }),
  }),
});
const SetCardTtlInput = builder.inputType('SetTiddleCardTtlInput', {
  description: 'A new rolling card TTL for one agent',
  fields: (t) => ({
    agentId: t.string({ required: true, description: 'The agent id' }),
    days: t.int({ required: true, description: `The TTL in days, ${CARD_TTL_MIN_DAYS} to ${CARD_TTL_MAX_DAYS}` }),
  }),
});
const TtlChangeRef = builder.objectRef<{ agentId: string; cardTtlDays: number; expiredCards: string[] }>('TiddleCardTtl').implement({
  description: 'The TTL now in force and what the change expired',
  fields: (t) => ({
    agentId: t.exposeString('agentId', { description: 'The agent id' }),
    cardTtlDays: t.exposeInt('cardTtlDays', { description: 'The TTL now in force, in days' }),
    expiredCards: t.exposeStringList('expiredCards', { description: '"project/cardId" of cards this change expired' }),
  }),
});

builder.mutationFields((t) => ({
  tiddleAppendResidue: t.field({
    type: ResidueAppendRef,
    description: "Runtime: stores one terminal turn's residue for the token's agent, the runtime scope and session. No model call, no card change.",
    errors: { types: [ValidationError], dataField: { name: 'append' } },
    args: { input: t.arg({ type: AppendResidueInput, required: true, description: 'The residue' }) },
    resolve: (_, { input }, ctx) => ctx.services.tiddle.appendResidue(ctx.viewer, input),
  }),
  tiddleRunPass: t.field({
    type: [PassOutcomeRef],
    description: 'Operators: run the pass of one scope (or every scope) of an agent now',
    errors: { types: [ValidationError, NotFoundError], dataField: { name: 'outcomes' } },
    args: {
      agentId: t.arg.string({ required: true, description: 'The agent id' }),
      project: t.arg.string({ required: false, description: 'One scope; every scope of the agent when absent' }),
    },
    resolve: (_, args, ctx) => ctx.services.tiddle.runPassNow(ctx.viewer, args),
  }),
  setTiddleCardTtl: t.field({
    type: TtlChangeRef,
    description: 'Operators: change the persisted rolling card TTL of an agent (default 90 days)',
    errors: { types: [ValidationError, NotFoundError], dataField: { name: 'setting' } },
    args: { input: t.arg({ type: SetCardTtlInput, required: true, description: 'The agent and the TTL' }) },
    resolve: (_, { input }, ctx) => ctx.services.tiddle.setCardTtl(ctx.viewer, input),
  }),
}));

builder.subscriptionFields((t) => ({
  rollingCardEvents: t.field({
    type: AgentEventRef,
    description: 'rolling_card.created / updated / expired of one agent and project; replays after `after`, then live',
    args: {
      agentId: t.arg.string({ required: true, description: 'The agent id' }),
      project: t.arg.string({ required: true, description: 'The scope; agent tokens: their runtime scope or "*"' }),
      after: t.arg.int({ required: false, description: 'Replay events after this agent event sequence first' }),
    },
    subscribe: async (_, args, ctx) => {
      const viewer = assertAgentAccess(ctx.viewer, args.agentId);
      if (viewer.principal === 'AGENT' && args.project !== CROSS_SCOPE_PROJECT) resolveScope(viewer, args.project);
      await ctx.services.agents.requireAgent(viewer, args.agentId);
      return ctx.services.hub.subscribe({ agentId: args.agentId, after: afterSequence(args.after), streams: ['rolling_card'], project: args.project });
    },
    resolve: (event) => event,
  }),
  tiddleStatusEvents: t.field({
    type: AgentEventRef,
    description: "Each pass's outcome per scope (tiddle.pass.succeeded / failed, tiddle.synthesis.*); replays after `after`, then live",
    args: {
      agentId: t.arg.string({ required: true, description: 'The agent id' }),
      after: t.arg.int({ required: false, description: 'Replay events after this agent event sequence first' }),
    },
    subscribe: async (_, args, ctx) => {
      await ctx.services.agents.requireAgent(ctx.viewer, args.agentId);
      return ctx.services.hub.subscribe({ agentId: args.agentId, after: afterSequence(args.after), streams: ['tiddle_status'] });
    },
    resolve: (event) => event,
  }),
}));
