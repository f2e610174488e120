import { builder } from '../../schema/builder.js';
import { GLOBAL_ID_DESCRIPTION } from '../../schema/node-keys.js';
import { ForbiddenError, NotFoundError, ValidationError } from '../../lib/errors.js';
import { ActorRef } from '../../schema/actor.js';
import { handoffNodeKey, parseScopedRecordKey } from '../../schema/node-keys.js';
import { resolveNodeRuntime } from '../../auth/runtime.js';
import { AgentRef, addAgentLink } from '../agents/agents.graphql.js';
import { SourceOriginalRef } from '../conversations/conversations.graphql.js';
import { parseOriginalReference } from '../conversations/conversations.references.js';
import { HANDOFF_EVIDENCE, HANDOFF_ORIGINS, type HandoffEvidence, type HandoffOrigin, type HandoffSourceRef } from './handoffs.sql.js';
import type { AutomaticHandoffOutcome, HandoffRow } from './handoffs.service.js';
import { agentHandoffsArgs, handoffReadArgs, handoffSourceRefInput, handoffWriteInput } from './handoffs.inputs.js';
import { argsFrom, inputFieldsFrom } from '../../schema/inputs.js';
import { idempotencyKeyOf } from '../../schema/idempotency.js';

export const HandoffOriginEnum = builder.enumType('HandoffOrigin', {
  description: 'Who decided to write a handoff',
  values: {
    EXPLICIT: { description: "Written on purpose (sessionWriteHandoff); it keeps the session's slot until retention removes it" },
    AUTOMATIC: { description: 'Written by the runtime (recordAutomaticHandoff), never over an explicit one' },
  } satisfies Record<(typeof HANDOFF_ORIGINS)[number], object>,
});
const HandoffEvidenceEnum = builder.enumType('HandoffEvidence', {
  description: 'How much a source reference of a handoff proves',
  values: {
    ASSISTANT_ASSERTION: { description: 'Something the assistant said; not verification of it' },
    TOOL_EVIDENCE: { description: 'The result of a tool call that succeeded' },
  } satisfies Record<(typeof HANDOFF_EVIDENCE)[number], object>,
});

const HandoffSourceRefRef = builder.objectRef<HandoffSourceRef>('HandoffSourceRef').implement({
  description: 'An evidence pointer of a handoff',
  fields: (t) => ({
    ref: t.exposeString('ref', { description: 'The reference as given, e.g. conversation:<sessionId>/<entryId>' }),
    evidence: t.field({ type: HandoffEvidenceEnum, description: 'How much it proves', resolve: (r) => r.evidence as HandoffEvidence }),
  }),
});

export const SessionHandoffRef = builder.objectRef<HandoffRow>('SessionHandoff');
builder.node(SessionHandoffRef, {
  description: 'A recall aid for a session: goal, outcome and evidence pointers. Not prompt authority, not the execution-owner protocol.',
  id: { description: GLOBAL_ID_DESCRIPTION, resolve: handoffNodeKey },
  // node(id) reads as sessionReadHandoff does (an agent token: its own agent, its runtime scope;
  // unexpired); the id names the scope, so an operator needs no scope header.
  loadOne: (key, ctx) => {
    const { agentId, scope, id } = parseScopedRecordKey(key);
    return scope === null ? ctx.services.handoffs.get(ctx.viewer, { agentId, id }) : ctx.services.handoffs.getInScope(resolveNodeRuntime(ctx.viewer, { agentId, scope }), id);
  },
  fields: (t) => ({
    handoffId: t.exposeString('id', { description: 'The handoff id; unique within its agent' }),
    agentId: t.exposeString('agentId', { description: 'The agent it belongs to' }),
    project: t.exposeString('project', { description: 'The continuity scope it belongs to' }),
    sessionId: t.exposeString('sessionId', { description: 'The runtime session it hands off (one handoff per session and scope)' }),
    conversationId: t.exposeString('conversationId', { nullable: true, description: 'The runtime conversation it was written in' }),
    origin: t.field({ type: HandoffOriginEnum, description: 'Explicit or automatic', resolve: (h) => h.origin as HandoffOrigin }),
    title: t.exposeString('title', { description: 'A short headline' }),
    goal: t.exposeString('goal', { description: 'What the session was trying to do' }),
    outcome: t.exposeString('outcome', { description: 'Where it ended up' }),
    body: t.exposeString('body', { description: 'What the next session needs to know' }),
    sourceRefs: t.field({ type: [HandoffSourceRefRef], description: 'Evidence pointers, as given', resolve: (h) => h.sourceRefs }),
    sourceOriginals: t.field({
      type: [SourceOriginalRef],
      description: 'Source references of the form conversation:<sessionId>/<entryId>, each with the original it cites',
      resolve: async (h, _, ctx) => {
        const refs = h.sourceRefs.map((r) => r.ref).filter((ref) => parseOriginalReference(ref) !== null);
        const resolved = await ctx.services.conversations.resolveReferences(h.agentId, refs);
        return refs.map((ref) => ({ ref, original: resolved.get(ref) ?? null }));
      },
    }),
    ttlDays: t.exposeInt('ttlDays', { description: 'Days from the last write to expiry' }),
    expiresAt: t.expose('expiresAt', { type: 'DateTime', description: 'When it stops being read; retention removes it later' }),
    revision: t.exposeInt('revision', { description: "How many times the session's slot was written (1 for the first)" }),
    writtenBy: t.field({ type: ActorRef, description: 'Who wrote it last', resolve: (h) => ({ kind: h.writtenByKind, id: h.writtenById }) }),
    operatorOwned: t.boolean({ description: 'Written by an operator: agents cannot replace it while it lives', resolve: (h) => h.writtenByKind === 'OPERATOR' }),
    createdAt: t.expose('createdAt', { type: 'DateTime', description: "When the session's slot was first written" }),
    updatedAt: t.expose('updatedAt', { type: 'DateTime', description: 'When it was last written' }),
  }),
});
addAgentLink(SessionHandoffRef, (h) => h.agentId);

const AutomaticHandoffSkipEnum = builder.enumType('AutomaticHandoffSkip', {
  description: 'Why recordAutomaticHandoff wrote nothing',
  values: {
    TRIVIAL: { description: 'No tool evidence and under 80 characters of goal, outcome and body' },
    EXPLICIT_PRESENT: { description: 'The session has a live explicit handoff, which an automatic one never overwrites' },
    EXPLICIT_EXPIRED: {
      description: "The session's explicit handoff has expired but is kept until retention removes it; an automatic one never overwrites it (sessionReadHandoff shows neither)",
    },
  },
});
const AutomaticHandoffOutcomeRef = builder.objectRef<AutomaticHandoffOutcome>('AutomaticHandoffOutcome').implement({
  description: 'What recordAutomaticHandoff did',
  fields: (t) => ({
    written: t.exposeBoolean('written', { description: 'The automatic handoff was written (skippedReason is then null)' }),
    skippedReason: t.field({ type: AutomaticHandoffSkipEnum, nullable: true, description: 'Why nothing was written; null when written', resolve: (o) => o.skippedReason }),
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

/**
 * Agent.handoffs: every agent of a response level in one statement, each authorized and scoped
 * as sessionReadHandoff is (an agent token sees only itself; the runtime scope is required).
 */
builder.objectFields(AgentRef, (t) => ({
  handoffs: t.loadableList({
    type: SessionHandoffRef,
    nullable: true,
    description:
      "This agent's unexpired handoffs in the runtime scope, in sessionReadHandoff's order (explicit first, then the current session, then the newest); with sessionId only that session's. Nullable: without the continuity scope it needs (or refused), only this field is null, with its error beside the data, so the payload of a mutation is never erased by it.",
    args: argsFrom(t.arg, agentHandoffsArgs, {}),
    byPath: true,
    load: (agentIds: string[], ctx, args) => ctx.services.handoffs.readRecentMany(ctx.viewer, agentIds, args),
    resolve: (agent) => agent.id,
  }),
}));

const HandoffSourceRefInput = builder.inputType('HandoffSourceRefInput', {
  description: 'An evidence pointer of a handoff',
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
    description: "Writes the explicit handoff of the runtime session, replacing the session's earlier one (an agent cannot replace a live operator-written one: OPERATOR_OWNED)",
    // NotFound: an operator naming an agent that does not exist. No revision check: the session's slot is simply replaced.
    errors: { types: [ValidationError, NotFoundError, ForbiddenError], dataField: { name: 'handoff' } },
    args: { input: t.arg({ type: SessionWriteHandoffInput, required: true, description: 'The handoff' }) },
    resolve: (_, { input }, ctx, info) => ctx.services.handoffs.writeExplicit(ctx.viewer, { ...input, idempotencyKey: idempotencyKeyOf(ctx, info, input) }),
  }),
  recordAutomaticHandoff: t.field({
    type: AutomaticHandoffOutcomeRef,
    description: 'Runtime only (agent tokens). Skips trivial exchanges; never overwrites an explicit handoff.',
    // Agent tokens only, whose agent exists; a skip is an outcome, not an error.
    errors: { types: [ValidationError], dataField: { name: 'outcome' } },
    args: { input: t.arg({ type: RecordAutomaticHandoffInput, required: true, description: 'The handoff' }) },
    resolve: (_, { input }, ctx, info) => ctx.services.handoffs.recordAutomatic(ctx.viewer, { ...input, idempotencyKey: idempotencyKeyOf(ctx, info, input) }),
  }),
}));
