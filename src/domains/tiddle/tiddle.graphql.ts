import { builder } from '../../schema/builder.js';
import { WRITE_ERRORS } from '../../schema/errors.js';
import { AgentEventRef, afterSequence } from '../../schema/events.js';
import { assertAgentAccess, resolveActingAgent, resolveScope } from '../../auth/viewer.js';
import { bindingOf, decodeTimeIdCursor, encodeTimeIdCursor, pageSize, toConnection } from '../../lib/cursor.js';
import { badRequest, NotFoundError, ValidationError } from '../../lib/errors.js';
import {
  CROSS_SCOPE_PROJECT,
  cardEvidence,
  cardExpiresAt,
  type CardRow,
  type EnvelopeRow,
  type PassOutcome,
  type RejectedProposal,
  type ResidueRow,
} from './tiddle.service.js';
import { rollingSearchArgs } from './tiddle.inputs.js';
import { argsFrom } from '../../schema/inputs.js';
import { RESIDUE_EXCERPT_COUNT_LIMIT, RESIDUE_EXCERPT_TEXT_LIMIT } from './tiddle.sql.js';

const ExcerptRef = builder.objectRef<{ role: string; text: string }>('TiddleExcerpt').implement({
  fields: (t) => ({ role: t.exposeString('role'), text: t.exposeString('text') }),
});

const ResidueRef = builder.objectRef<ResidueRow>('TiddleResidue').implement({
  description: `One terminal turn's residue: a turn reference and at most ${RESIDUE_EXCERPT_COUNT_LIMIT} excerpts of at most ${RESIDUE_EXCERPT_TEXT_LIMIT} characters`,
  fields: (t) => ({
    agentId: t.exposeString('agentId'),
    project: t.exposeString('project'),
    reference: t.exposeString('reference', { description: 'The turn reference; a later append with the same reference replaces this one' }),
    sessionId: t.exposeString('sessionId', { nullable: true }),
    excerpts: t.field({ type: [ExcerptRef], resolve: (r) => r.excerpts as { role: string; text: string }[] }),
    createdAt: t.expose('createdAt', { type: 'DateTime' }),
  }),
});

const ResidueAppendRef = builder.objectRef<{ entry: ResidueRow; pruned: number; replaced: boolean }>('TiddleResidueAppend').implement({
  fields: (t) => ({
    entry: t.field({ type: ResidueRef, resolve: (r) => r.entry }),
    pruned: t.exposeInt('pruned', { description: 'Residue entries of this scope older than 24 hours removed by this append' }),
    replaced: t.exposeBoolean('replaced', { description: 'An entry with the same turn reference existed and was replaced' }),
  }),
});

export const RollingCardRef = builder.objectRef<CardRow>('RollingCard').implement({
  description: 'A Tiddle rolling continuity card. Identity is (agentId, project, cardId); project "*" holds cross-scope cards.',
  fields: (t) => ({
    agentId: t.exposeString('agentId'),
    project: t.exposeString('project'),
    cardId: t.exposeString('cardId'),
    title: t.exposeString('title'),
    body: t.exposeString('body'),
    evidence: t.stringList({ description: 'Residue references this card cites; updates only ever add to them', resolve: (c) => cardEvidence(c).map((e) => e.reference) }),
    card: t.field({ type: 'JSON', description: 'The card document: evidence (with session and pass), metadata (legacy kept), sources of cross-scope cards', resolve: (c) => c.card }),
    revision: t.exposeInt('revision'),
    createdAt: t.expose('createdAt', { type: 'DateTime' }),
    updatedAt: t.expose('updatedAt', { type: 'DateTime' }),
    refreshedAt: t.expose('refreshedAt', { type: 'DateTime' }),
    expiresAt: t.field({ type: 'DateTime', description: 'refreshedAt + the persisted rolling TTL', resolve: (c) => cardExpiresAt(c) }),
  }),
});

const RollingSearchRef = builder
  .objectRef<{ owner: 'rolling_continuity'; entersPrompt: false; agentId: string; project: string; query: string; cards: CardRow[] }>('RollingSearchResult')
  .implement({
    fields: (t) => ({
      owner: t.exposeString('owner', { description: 'Always "rolling_continuity"' }),
      entersPrompt: t.exposeBoolean('entersPrompt', {
        description: 'Always false: rolling cards never enter ambient prompt assembly. This describes that policy; the tool result itself is visible to the caller.',
      }),
      agentId: t.exposeString('agentId'),
      project: t.exposeString('project'),
      query: t.exposeString('query'),
      cards: t.field({ type: [RollingCardRef], resolve: (r) => r.cards }),
    }),
  });

const ScopeStatusRef = builder.objectRef<EnvelopeRow>('TiddleScopeStatus').implement({
  fields: (t) => ({
    project: t.exposeString('project', { description: 'The scope; "*" is the cross-scope synthesis' }),
    nextRunAt: t.expose('nextRunAt', { type: 'DateTime' }),
    lastSuccessAt: t.expose('lastSuccessAt', { type: 'DateTime', nullable: true }),
    lastAttemptAt: t.expose('lastAttemptAt', { type: 'DateTime', nullable: true }),
    lastError: t.exposeString('lastError', { nullable: true }),
    lastErrorAt: t.expose('lastErrorAt', { type: 'DateTime', nullable: true }),
    consecutiveFailures: t.exposeInt('consecutiveFailures'),
    lastPassId: t.exposeString('lastPassId', { nullable: true }),
  }),
});

const TiddleStatusRef = builder
  .objectRef<{ agentId: string; cardTtlDays: number; lastSynthesisDate: string | null; lastSynthesisAt: Date | null; scopes: EnvelopeRow[]; schedulerEnabled: boolean; proposer: string }>('TiddleStatus')
  .implement({
    fields: (t) => ({
      agentId: t.exposeString('agentId'),
      cardTtlDays: t.exposeInt('cardTtlDays', { description: 'The persisted rolling TTL: the same setting expiry uses' }),
      lastSynthesisDate: t.exposeString('lastSynthesisDate', { nullable: true, description: 'UTC date (YYYY-MM-DD) of the last cross-scope synthesis' }),
      lastSynthesisAt: t.expose('lastSynthesisAt', { type: 'DateTime', nullable: true }),
      schedulerEnabled: t.exposeBoolean('schedulerEnabled', { description: 'Whether this instance runs the scheduler' }),
      proposer: t.exposeString('proposer'),
      scopes: t.field({ type: [ScopeStatusRef], resolve: (s) => s.scopes }),
    }),
  });

const PassStatusEnum = builder.enumType('TiddlePassStatus', { values: ['SUCCEEDED', 'FAILED', 'SKIPPED'] as const });

const RejectedProposalRef = builder.objectRef<RejectedProposal>('TiddleRejectedProposal').implement({
  fields: (t) => ({
    reason: t.exposeString('reason'),
    proposal: t.field({ type: 'JSON', resolve: (r) => r.proposal }),
  }),
});

const PassOutcomeRef = builder.objectRef<PassOutcome>('TiddlePassOutcome').implement({
  fields: (t) => ({
    agentId: t.exposeString('agentId'),
    project: t.exposeString('project'),
    passId: t.exposeString('passId'),
    kind: t.exposeString('kind', { description: 'pass or synthesis' }),
    trigger: t.exposeString('trigger', { description: 'schedule or operator' }),
    status: t.field({ type: PassStatusEnum, resolve: (o) => o.status }),
    error: t.exposeString('error', { nullable: true }),
    residueConsidered: t.exposeInt('residueConsidered'),
    created: t.exposeStringList('created'),
    updated: t.exposeStringList('updated'),
    expired: t.exposeStringList('expired'),
    preferenceSignals: t.exposeStringList('preferenceSignals'),
    noops: t.exposeInt('noops'),
    rejected: t.field({ type: [RejectedProposalRef], resolve: (o) => o.rejected }),
    nextRunAt: t.expose('nextRunAt', { type: 'DateTime', nullable: true }),
    at: t.expose('at', { type: 'DateTime' }),
  }),
});

const HistoryRef = builder.objectRef<ResidueRow>('TiddleHistoryEntry').implement({
  fields: (t) => ({
    project: t.exposeString('project'),
    passId: t.exposeString('reference'),
    createdAt: t.expose('createdAt', { type: 'DateTime' }),
    payload: t.field({ type: 'JSON', description: 'Outcome, created/updated/expired cards, preference signals, rejected proposals with reasons', resolve: (h) => h.payload }),
  }),
});

const AmbientContinuityRef = builder
  .objectRef<{ agentId: string; project: string }>('AmbientContinuity')
  .implement({
    description:
      'Ordinary continuity assembly. It deliberately returns no ambient working records and no rolling cards; use memoryWorkingSearch / memoryRollingSearch to recall explicitly.',
    fields: (t) => ({
      agentId: t.exposeString('agentId'),
      project: t.exposeString('project'),
      workingRecords: t.field({ type: ['JSON'], description: 'Always empty', resolve: () => [] }),
      rollingCards: t.field({ type: [RollingCardRef], description: 'Always empty', resolve: () => [] }),
      entersPrompt: t.boolean({ resolve: () => false }),
    }),
  });

builder.queryFields((t) => ({
  rollingCards: t.connection({
    type: RollingCardRef,
    description: 'Live rolling cards of one agent and scope, most recently updated first. Agent tokens read their runtime scope (or "*").',
    args: { agentId: t.arg.string({ required: false }), project: t.arg.string({ required: false }) },
    resolve: async (_, args, ctx) => {
      if (args.last != null || args.before != null) throw badRequest('rollingCards pages forward only: use first/after');
      const { viewer, agentId } = resolveActingAgent(ctx.viewer, args.agentId);
      const project = args.project ?? viewer.scope;
      if (!project) throw badRequest('rollingCards needs a project (argument or Burrow-Continuity-Scope)');
      const limit = pageSize(args.first, 100, 20);
      const binding = bindingOf('rollingCards', agentId, project);
      const position = decodeTimeIdCursor(args.after, binding);
      const after = position && { updatedAt: position.at, cardId: position.id };
      const rows = await ctx.services.tiddle.listCards(viewer, agentId, project, { limit: limit + 1, after });
      return toConnection(rows, limit, (c) => encodeTimeIdCursor(binding, c.updatedAt, c.cardId));
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
    args: { agentId: t.arg.string({ required: true }) },
    resolve: async (_, args, ctx) => ({
      ...(await ctx.services.tiddle.status(ctx.viewer, args.agentId)),
      schedulerEnabled: ctx.services.config.tiddle.scheduler,
      proposer: ctx.services.config.tiddle.proposer.kind,
    }),
  }),
  tiddleResidue: t.field({
    type: [ResidueRef],
    description: 'The stored residue of one scope, newest first',
    args: { agentId: t.arg.string({ required: true }), project: t.arg.string({ required: true }), first: t.arg.int({ required: false }) },
    resolve: (_, args, ctx) => ctx.services.tiddle.listResidue(ctx.viewer, args.agentId, args.project, pageSize(args.first, 500, 100)),
  }),
  tiddleHistory: t.field({
    type: [HistoryRef],
    description: 'Pass and synthesis history (kept 180 days), newest first',
    args: { agentId: t.arg.string({ required: true }), project: t.arg.string({ required: false }), first: t.arg.int({ required: false }) },
    resolve: (_, args, ctx) => ctx.services.tiddle.listHistory(ctx.viewer, args.agentId, args.project ?? null, pageSize(args.first, 500, 100)),
  }),
  ambientContinuity: t.field({
    type: AmbientContinuityRef,
    description: 'Ordinary continuity assembly: never contains ambient working records or rolling cards',
    args: { agentId: t.arg.string({ required: false }), project: t.arg.string({ required: false }) },
    resolve: (_, args, ctx) => {
      const { viewer, agentId } = resolveActingAgent(ctx.viewer, args.agentId);
      return { agentId, project: resolveScope(viewer, args.project) };
    },
  }),
}));

const ExcerptInput = builder.inputType('TiddleExcerptInput', {
  fields: (t) => ({
    role: t.string({ required: true, description: 'user, assistant, tool or system' }),
    text: t.string({ required: true, description: `1 to ${RESIDUE_EXCERPT_TEXT_LIMIT} characters` }),
  }),
});
const AppendResidueInput = builder.inputType('TiddleAppendResidueInput', {
  fields: (t) => ({
    turnRef: t.string({ required: true, description: 'The terminal turn reference (1 to 200 characters); the same reference replaces' }),
    excerpts: t.field({ type: [ExcerptInput], required: true, description: `1 to ${RESIDUE_EXCERPT_COUNT_LIMIT} excerpts` }),
    project: t.string({ required: false, description: 'May only repeat the runtime scope' }),
  }),
});
const SetCardTtlInput = builder.inputType('SetTiddleCardTtlInput', {
  fields: (t) => ({ agentId: t.string({ required: true }), days: t.int({ required: true, description: '1 to 36,500' }) }),
});
const TtlChangeRef = builder.objectRef<{ agentId: string; cardTtlDays: number; expiredCards: string[] }>('TiddleCardTtl').implement({
  fields: (t) => ({
    agentId: t.exposeString('agentId'),
    cardTtlDays: t.exposeInt('cardTtlDays'),
    expiredCards: t.exposeStringList('expiredCards', { description: '"project/cardId" of cards this change expired' }),
  }),
});

builder.mutationFields((t) => ({
  tiddleAppendResidue: t.field({
    type: ResidueAppendRef,
    description: "Runtime: stores one terminal turn's residue for the token's agent, the runtime scope and session. No model call, no card change.",
    errors: { types: [ValidationError], dataField: { name: 'append' } },
    args: { input: t.arg({ type: AppendResidueInput, required: true }) },
    resolve: (_, { input }, ctx) => ctx.services.tiddle.appendResidue(ctx.viewer, input),
  }),
  tiddleRunPass: t.field({
    type: [PassOutcomeRef],
    description: 'Operators: run the pass of one scope (or every scope) of an agent now',
    errors: { types: [ValidationError, NotFoundError], dataField: { name: 'outcomes' } },
    args: {
      agentId: t.arg.string({ required: true }),
      project: t.arg.string({ required: false, description: 'One scope; every scope of the agent when absent' }),
    },
    resolve: (_, args, ctx) => ctx.services.tiddle.runPassNow(ctx.viewer, args),
  }),
  setTiddleCardTtl: t.field({
    type: TtlChangeRef,
    description: 'Operators: change the persisted rolling card TTL of an agent (default 90 days)',
    errors: { types: WRITE_ERRORS, dataField: { name: 'setting' } },
    args: { input: t.arg({ type: SetCardTtlInput, required: true }) },
    resolve: (_, { input }, ctx) => ctx.services.tiddle.setCardTtl(ctx.viewer, input),
  }),
}));

builder.subscriptionFields((t) => ({
  rollingCardEvents: t.field({
    type: AgentEventRef,
    description: 'rolling_card.created / updated / expired of one agent and project; replays after `after`, then live',
    args: { agentId: t.arg.string({ required: true }), project: t.arg.string({ required: true }), after: t.arg.int({ required: false }) },
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
    args: { agentId: t.arg.string({ required: true }), after: t.arg.int({ required: false }) },
    subscribe: async (_, args, ctx) => {
      await ctx.services.agents.requireAgent(ctx.viewer, args.agentId);
      return ctx.services.hub.subscribe({ agentId: args.agentId, after: afterSequence(args.after), streams: ['tiddle_status'] });
    },
    resolve: (event) => event,
  }),
}));
