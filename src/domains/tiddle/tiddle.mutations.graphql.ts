/** The Tiddle writes: appending residue, running a pass now and setting the card TTL, with their inputs and payloads. */
import { builder } from '../../schema/builder.js';
import { addAgentLink } from '../agents/agents.graphql.js';
import { NotFoundError, ValidationError } from '../../lib/errors.js';
import type { PassOutcome, RejectedProposal, ResidueRow } from './tiddle.service.js';
import { CARD_TTL_MAX_DAYS, CARD_TTL_MIN_DAYS, RESIDUE_EXCERPT_COUNT_LIMIT, RESIDUE_EXCERPT_TEXT_LIMIT } from './tiddle.sql.js';
import { ExcerptRoleEnum, PassKindEnum, PassStatusEnum, PassTriggerEnum, ResidueRef } from './tiddle.types.graphql.js';

const ResidueAppendRef = builder.objectRef<{ entry: ResidueRow; pruned: number; replaced: boolean }>('TiddleResidueAppend').implement({
  description: 'What an append stored and removed',
  fields: (t) => ({
    entry: t.field({ type: ResidueRef, description: 'The stored residue', resolve: (r) => r.entry }),
    pruned: t.exposeInt('pruned', { description: 'Residue entries of this scope older than 24 hours removed by this append' }),
    replaced: t.exposeBoolean('replaced', { description: 'An entry with the same turn reference existed and was replaced' }),
  }),
});

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
