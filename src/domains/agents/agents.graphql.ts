import { builder } from '../../schema/builder.js';
import { WRITE_ERRORS } from '../../schema/errors.js';
import { AgentEventRef, afterSequence } from '../../schema/events.js';
import { assertAgentAccess, requireViewer, type Viewer } from '../../auth/viewer.js';
import { bindingOf, decodeTimeIdCursor, encodeTimeIdCursor, pageSize, toConnection } from '../../lib/cursor.js';
import { AlreadyExistsError, badRequest } from '../../lib/errors.js';
import { PROFILE_KINDS, type ProfileKind } from './agents.sql.js';
import { profileReference, type AgentRow, type ProfileDocumentRow, type ProfileRevisionRow } from './agents.service.js';

export const ProfileKindEnum = builder.enumType('ProfileKind', { values: PROFILE_KINDS });
export const PrincipalKindEnum = builder.enumType('PrincipalKind', { values: ['OPERATOR', 'AGENT'] as const });

const ActorRef = builder.objectRef<{ kind: string; id: string }>('Actor').implement({
  fields: (t) => ({
    kind: t.field({ type: PrincipalKindEnum, resolve: (a) => a.kind as 'OPERATOR' | 'AGENT' }),
    id: t.exposeString('id'),
  }),
});

const ProfileRevisionRef = builder.objectRef<ProfileRevisionRow>('ProfileDocumentRevision').implement({
  fields: (t) => ({
    revision: t.exposeInt('revision'),
    content: t.exposeString('content'),
    reason: t.exposeString('reason'),
    actor: t.field({ type: ActorRef, resolve: (r) => ({ kind: r.actorKind, id: r.actorId }) }),
    createdAt: t.expose('createdAt', { type: 'DateTime' }),
  }),
});

export const ProfileDocumentRef = builder.objectRef<ProfileDocumentRow>('ProfileDocument');
builder.node(ProfileDocumentRef, {
  id: { resolve: (d) => `${d.agentId}/${d.kind}` },
  loadOne: async (id, ctx) => {
    const [agentId, kind] = id.split('/');
    if (!PROFILE_KINDS.includes(kind as ProfileKind)) return null;
    return ctx.services.agents.getDocument(ctx.viewer, agentId, kind as ProfileKind);
  },
  fields: (t) => ({
    agentId: t.exposeString('agentId'),
    kind: t.field({ type: ProfileKindEnum, resolve: (d) => d.kind as ProfileKind }),
    content: t.exposeString('content'),
    revision: t.exposeInt('revision'),
    updatedAt: t.expose('updatedAt', { type: 'DateTime' }),
    updatedBy: t.field({ type: ActorRef, resolve: (d) => ({ kind: d.updatedByKind, id: d.updatedById }) }),
    reference: t.string({
      description: 'Virtual file-like reference; not a file on disk',
      resolve: (d) => profileReference(d.agentId, d.kind),
    }),
    revisions: t.field({
      type: [ProfileRevisionRef],
      description: 'Every revision, newest first, with its actor',
      args: { first: t.arg.int({ required: false }) },
      resolve: (d, args, ctx) => ctx.services.agents.revisions(d.agentId, d.kind, pageSize(args.first, 500, 100)),
    }),
  }),
});

export const AgentRef = builder.objectRef<AgentRow>('Agent');
builder.node(AgentRef, {
  id: { resolve: (a) => a.id },
  loadOne: (id, ctx) => ctx.services.agents.getAgent(ctx.viewer, id),
  fields: (t) => ({
    agentId: t.exposeString('id', { description: 'The agent id used in every other argument (the node id is global)' }),
    name: t.exposeString('name'),
    createdAt: t.expose('createdAt', { type: 'DateTime' }),
    profile: t.loadableList({
      type: ProfileDocumentRef,
      description: 'The six profile documents in kind order',
      load: (agentIds: string[], ctx) => ctx.services.agents.documentsForAgents(agentIds),
      resolve: (agent) => agent.id,
    }),
    lastEventSequence: t.exposeInt('lastEventSequence'),
  }),
});

const ViewerRef = builder.objectRef<Viewer>('Viewer').implement({
  fields: (t) => ({
    principal: t.field({ type: PrincipalKindEnum, resolve: (v) => v.principal }),
    tokenName: t.exposeString('tokenName'),
    agentId: t.exposeString('agentId', { nullable: true }),
    agent: t.field({ type: AgentRef, nullable: true, resolve: (v, _, ctx) => (v.agentId ? ctx.services.agents.getAgent(v, v.agentId) : null) }),
    scope: t.exposeString('scope', { nullable: true, description: 'The continuity scope (project) chosen by the runtime' }),
    sessionId: t.exposeString('sessionId', { nullable: true }),
    conversationId: t.exposeString('conversationId', { nullable: true }),
  }),
});

const learningSignal = builder.simpleObject('PreferenceSignal', {
  fields: (t) => ({
    id: t.string(),
    source: t.string(),
    project: t.string({ nullable: true }),
    statement: t.string(),
    evidence: t.field({ type: 'JSON' }),
    status: t.string(),
    createdAt: t.field({ type: 'DateTime' }),
  }),
});
const learningAudit = builder.simpleObject('ProfileAuditEntry', {
  fields: (t) => ({
    kind: t.field({ type: ProfileKindEnum }),
    action: t.string(),
    fromRevision: t.int(),
    toRevision: t.int(),
    actor: t.field({ type: ActorRef }),
    detail: t.field({ type: 'JSON' }),
    createdAt: t.field({ type: 'DateTime' }),
  }),
});
const PreferenceLearningRef = builder.simpleObject('PreferenceLearning', {
  fields: (t) => ({
    appliedCount: t.int(),
    lastAppliedRevision: t.int({ nullable: true }),
    lastAppliedAt: t.field({ type: 'DateTime', nullable: true }),
    audit: t.field({ type: [learningAudit] }),
    signals: t.field({ type: [learningSignal] }),
  }),
});

builder.queryFields((t) => ({
  viewer: t.field({ type: ViewerRef, resolve: (_, __, ctx) => requireViewer(ctx.viewer) }),
  agent: t.field({
    type: AgentRef,
    nullable: true,
    args: { id: t.arg.string({ required: true }) },
    resolve: (_, args, ctx) => ctx.services.agents.getAgent(ctx.viewer, args.id),
  }),
  agents: t.connection({
    type: AgentRef,
    description: 'Newest first. Operators see every agent; an agent token sees only itself.',
    resolve: async (_, args, ctx) => {
      if (args.last != null || args.before != null) throw badRequest('agents pages forward only: use first/after');
      const limit = pageSize(args.first, 100, 20);
      // An agent token lists only itself: its cursors belong to its own list, not the operator's.
      const binding = bindingOf('agents', ctx.viewer?.principal === 'AGENT' ? ctx.viewer.agentId : null);
      const position = decodeTimeIdCursor(args.after, binding);
      const after = position && { createdAt: position.at, id: position.id };
      const rows = await ctx.services.agents.listAgents(ctx.viewer, { limit: limit + 1, after });
      return toConnection(rows, limit, (a) => encodeTimeIdCursor(binding, a.createdAt, a.id));
    },
  }),
  profileDocument: t.field({
    type: ProfileDocumentRef,
    nullable: true,
    args: { agentId: t.arg.string({ required: true }), kind: t.arg({ type: ProfileKindEnum, required: true }) },
    resolve: (_, args, ctx) => ctx.services.agents.getDocument(ctx.viewer, args.agentId, args.kind),
  }),
  preferenceLearning: t.field({
    type: PreferenceLearningRef,
    description: 'The PREFERENCES learning path of an agent: applied changes, audit and pending signals',
    args: { agentId: t.arg.string({ required: true }) },
    resolve: async (_, args, ctx) => {
      assertAgentAccess(ctx.viewer, args.agentId);
      const { state, audit, signals } = await ctx.services.agents.learningState(args.agentId);
      return {
        appliedCount: state?.appliedCount ?? 0,
        lastAppliedRevision: state?.lastAppliedRevision ?? null,
        lastAppliedAt: state?.lastAppliedAt ?? null,
        audit: audit.map((a) => ({ ...a, kind: a.kind as ProfileKind, actor: { kind: a.actorKind, id: a.actorId } })),
        signals,
      };
    },
  }),
}));

const CreateAgentInput = builder.inputType('CreateAgentInput', {
  fields: (t) => ({
    id: t.string({ required: false, description: 'a-z, 0-9, "_" and "-", at most 63; generated when absent' }),
    name: t.string({ required: true }),
  }),
});
const UpdateProfileDocumentInput = builder.inputType('UpdateProfileDocumentInput', {
  fields: (t) => ({
    agentId: t.string({ required: true }),
    kind: t.field({ type: ProfileKindEnum, required: true }),
    content: t.string({ required: true }),
    expectedRevision: t.int({ required: true }),
  }),
});
const ProfileDocumentInput = builder.inputType('ProfileDocumentInput', {
  fields: (t) => ({
    kind: t.field({ type: ProfileKindEnum, required: true }),
    content: t.string({ required: true }),
    expectedRevision: t.int({ required: false, description: 'When given, the replacement is refused unless the document is at this revision' }),
  }),
});
const ReplaceProfileInput = builder.inputType('ReplaceProfileInput', {
  fields: (t) => ({
    agentId: t.string({ required: true }),
    documents: t.field({ type: [ProfileDocumentInput], required: true }),
  }),
});
const ApplyPreferenceLearningInput = builder.inputType('ApplyPreferenceLearningInput', {
  fields: (t) => ({
    agentId: t.string({ required: true }),
    content: t.string({ required: true, description: 'The new PREFERENCES document' }),
    expectedRevision: t.int({ required: true }),
    reason: t.string({ required: true }),
    signalIds: t.stringList({ required: false, description: 'Preference signals this change applies' }),
  }),
});

builder.mutationFields((t) => ({
  createAgent: t.field({
    type: AgentRef,
    errors: { types: [...WRITE_ERRORS, AlreadyExistsError], dataField: { name: 'agent' } },
    args: { input: t.arg({ type: CreateAgentInput, required: true }) },
    resolve: (_, { input }, ctx) => ctx.services.agents.createAgent(ctx.viewer, input),
  }),
  updateProfileDocument: t.field({
    type: ProfileDocumentRef,
    errors: { types: WRITE_ERRORS, dataField: { name: 'document' } },
    args: { input: t.arg({ type: UpdateProfileDocumentInput, required: true }) },
    resolve: (_, { input }, ctx) => ctx.services.agents.updateProfileDocument(ctx.viewer, input),
  }),
  replaceProfile: t.field({
    type: [ProfileDocumentRef],
    errors: { types: WRITE_ERRORS, dataField: { name: 'documents' } },
    args: { input: t.arg({ type: ReplaceProfileInput, required: true }) },
    resolve: (_, { input }, ctx) => ctx.services.agents.replaceProfile(ctx.viewer, input),
  }),
  applyPreferenceLearning: t.field({
    type: ProfileDocumentRef,
    description: 'An automatic PREFERENCES change: document, learning state and audit commit together or not at all',
    errors: { types: WRITE_ERRORS, dataField: { name: 'document' } },
    args: { input: t.arg({ type: ApplyPreferenceLearningInput, required: true }) },
    resolve: (_, { input }, ctx) => ctx.services.agents.applyPreferenceLearning(ctx.viewer, input),
  }),
}));

builder.subscriptionFields((t) => ({
  agentEvents: t.field({
    type: AgentEventRef,
    description: 'Every change of one agent. With `after`, replays the log after that sequence, then continues live.',
    args: { agentId: t.arg.string({ required: true }), after: t.arg.int({ required: false }) },
    subscribe: async (_, args, ctx) => {
      await ctx.services.agents.requireAgent(ctx.viewer, args.agentId);
      return ctx.services.hub.subscribe({ agentId: args.agentId, after: afterSequence(args.after) });
    },
    resolve: (event) => event,
  }),
}));
