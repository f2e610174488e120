import { builder } from '../../schema/builder.js';
import { WRITE_ERRORS } from '../../schema/errors.js';
import { SourceOriginalRef } from '../conversations/conversations.graphql.js';
import { parseOriginalReference } from '../conversations/conversations.service.js';
import { HANDOFF_EVIDENCE, HANDOFF_ORIGINS, type HandoffEvidence, type HandoffOrigin, type HandoffSourceRef } from './handoffs.sql.js';
import type { AutomaticHandoffOutcome, HandoffRow } from './handoffs.service.js';
import { handoffReadArgs, handoffSourceRefInput, handoffWriteInput } from './handoffs.inputs.js';
import { argsFrom, inputFieldsFrom } from '../../schema/inputs.js';

export const HandoffOriginEnum = builder.enumType('HandoffOrigin', {
  values: HANDOFF_ORIGINS,
  description: 'EXPLICIT: written by the agent (sessionWriteHandoff); AUTOMATIC: written by the runtime, never over an explicit one',
});
const HandoffEvidenceEnum = builder.enumType('HandoffEvidence', {
  values: {
    ASSISTANT_ASSERTION: { description: 'Something the assistant said; not verification of it' },
    TOOL_EVIDENCE: { description: 'The result of a tool call that succeeded' },
  } satisfies Record<(typeof HANDOFF_EVIDENCE)[number], object>,
});

const HandoffSourceRefRef = builder.objectRef<HandoffSourceRef>('HandoffSourceRef').implement({
  fields: (t) => ({
    ref: t.exposeString('ref'),
    evidence: t.field({ type: HandoffEvidenceEnum, resolve: (r) => r.evidence as HandoffEvidence }),
  }),
});

export const SessionHandoffRef = builder.objectRef<HandoffRow>('SessionHandoff').implement({
  description: 'A recall aid for a session: goal, outcome and evidence pointers. Not prompt authority, not the execution-owner protocol.',
  fields: (t) => ({
    id: t.exposeString('id'),
    agentId: t.exposeString('agentId'),
    project: t.exposeString('project'),
    sessionId: t.exposeString('sessionId'),
    conversationId: t.exposeString('conversationId', { nullable: true }),
    origin: t.field({ type: HandoffOriginEnum, resolve: (h) => h.origin as HandoffOrigin }),
    title: t.exposeString('title'),
    goal: t.exposeString('goal'),
    outcome: t.exposeString('outcome'),
    body: t.exposeString('body'),
    sourceRefs: t.field({ type: [HandoffSourceRefRef], resolve: (h) => h.sourceRefs }),
    sourceOriginals: t.field({
      type: [SourceOriginalRef],
      description: 'Source references of the form conversation:<sessionId>/<entryId>, each with the original it cites',
      resolve: async (h, _, ctx) => {
        const refs = h.sourceRefs.map((r) => r.ref).filter((ref) => parseOriginalReference(ref) !== null);
        const resolved = await ctx.services.conversations.resolveReferences(h.agentId, refs);
        return refs.map((ref) => ({ ref, original: resolved.get(ref) ?? null }));
      },
    }),
    ttlDays: t.exposeInt('ttlDays'),
    expiresAt: t.expose('expiresAt', { type: 'DateTime' }),
    revision: t.exposeInt('revision'),
    writtenBy: t.string({ resolve: (h) => `${h.writtenByKind}:${h.writtenById}` }),
    operatorOwned: t.boolean({ description: 'Written by an operator: agents cannot replace it while it lives', resolve: (h) => h.writtenByKind === 'OPERATOR' }),
    createdAt: t.expose('createdAt', { type: 'DateTime' }),
    updatedAt: t.expose('updatedAt', { type: 'DateTime' }),
  }),
});

const AutomaticHandoffSkipEnum = builder.enumType('AutomaticHandoffSkip', {
  values: {
    TRIVIAL: { description: 'No tool evidence and under 80 characters of goal, outcome and body' },
    EXPLICIT_PRESENT: { description: 'The session has a live explicit handoff, which an automatic one never overwrites' },
    EXPLICIT_EXPIRED: {
      description:
        "The session's explicit handoff has expired but is kept until retention removes it; an automatic one never overwrites it (sessionReadHandoff shows neither)",
    },
  },
});
const AutomaticHandoffOutcomeRef = builder.objectRef<AutomaticHandoffOutcome>('AutomaticHandoffOutcome').implement({
  fields: (t) => ({
    written: t.exposeBoolean('written'),
    skippedReason: t.field({ type: AutomaticHandoffSkipEnum, nullable: true, resolve: (o) => o.skippedReason }),
    handoff: t.field({ type: SessionHandoffRef, nullable: true, description: 'The written handoff, or the explicit one that kept its place', resolve: (o) => o.handoff }),
  }),
});

builder.queryFields((t) => ({
  sessionReadHandoff: t.field({
    type: [SessionHandoffRef],
    description: 'Recent unexpired handoffs of the current agent and scope: explicit first, then the current session, then the newest',
    args: argsFrom(t.arg, handoffReadArgs, {}),
    // The service checks `first` (VALIDATION_FAILED, as over MCP).
    resolve: (_, args, ctx) => ctx.services.handoffs.readRecent(ctx.viewer, args),
  }),
}));

const HandoffSourceRefInput = builder.inputType('HandoffSourceRefInput', {
  fields: (t) => inputFieldsFrom(t, handoffSourceRefInput, { evidence: HandoffEvidenceEnum }),
});
const handoffFields = (name: string, description: string) =>
  builder.inputType(name, {
    description,
    fields: (t) => inputFieldsFrom(t, handoffWriteInput, { sourceRefs: HandoffSourceRefInput }),
  });
const SessionWriteHandoffInput = handoffFields('SessionWriteHandoffInput', 'An explicit handoff for the runtime agent and session (SESSION_REQUIRED without a Burrow-Session)');
const RecordAutomaticHandoffInput = handoffFields('RecordAutomaticHandoffInput', "The runtime's automatic handoff for its current session");

builder.mutationFields((t) => ({
  sessionWriteHandoff: t.field({
    type: SessionHandoffRef,
    errors: { types: WRITE_ERRORS, dataField: { name: 'handoff' } },
    args: { input: t.arg({ type: SessionWriteHandoffInput, required: true }) },
    resolve: (_, { input }, ctx) => ctx.services.handoffs.writeExplicit(ctx.viewer, input),
  }),
  recordAutomaticHandoff: t.field({
    type: AutomaticHandoffOutcomeRef,
    description: 'Runtime only (agent tokens). Skips trivial exchanges; never overwrites an explicit handoff.',
    errors: { types: WRITE_ERRORS, dataField: { name: 'outcome' } },
    args: { input: t.arg({ type: RecordAutomaticHandoffInput, required: true }) },
    resolve: (_, { input }, ctx) => ctx.services.handoffs.recordAutomatic(ctx.viewer, input),
  }),
}));
