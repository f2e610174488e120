import type { ObjectRef } from '@pothos/core';
import DataLoader from 'dataloader';
import { Kind, type GraphQLResolveInfo, type SelectionNode } from 'graphql';
import { builder, type Types } from '../../schema/builder.js';
import { connectionType, pageArgs } from '../../schema/connections.js';
import { ActorRef, PrincipalKindEnum } from '../../schema/actor.js';
import { AgentEventRef, afterSequence } from '../../schema/events.js';
import { agentScopedKey, parseAgentScopedKey } from '../../schema/node-keys.js';
import { assertAgentAccess, requireViewer, type Viewer } from '../../auth/viewer.js';
import { bindingOf, decodePositionCursor, INT4_MAX, decodeTimeIdCursor, encodeCursor, encodeTimeIdCursor, pageSize, toConnection } from '../../lib/cursor.js';
import { AlreadyExistsError, NotFoundError, RevisionConflictError, ValidationError } from '../../lib/errors.js';
import { PROFILE_KINDS, type ProfileKind } from './agents.sql.js';
import { profileReference, type AgentRow, type ProfileDocumentRow, type ProfileRevisionRow } from './agents.types.js';

const KIND_DESCRIPTIONS: Record<ProfileKind, string> = {
  SOUL: 'Who the agent is: character, voice and values',
  RULES: 'Rules the agent must follow',
  ORIENTATION: 'Where the agent stands: its situation, people and projects',
  PREFERENCES: "The agent's learned and stated preferences; the only document automatic learning changes",
  TOOLS: 'The tools the agent has and how to use them',
  DREAM_MEMORY: 'The compact dream memory (the dated Dream diary is separate and operator-only)',
};
export const ProfileKindEnum = builder.enumType('ProfileKind', {
  description: 'The six profile documents every agent has, each exactly once',
  values: Object.fromEntries(PROFILE_KINDS.map((kind) => [kind, { description: KIND_DESCRIPTIONS[kind] }])) as Record<ProfileKind, { description: string }>,
});

const ProfileRevisionRef = builder.objectRef<ProfileRevisionRow>('ProfileDocumentRevision');
builder.node(ProfileRevisionRef, {
  description: 'One kept revision of a profile document: its full content and who wrote it. Revisions are never removed.',
  id: { description: 'The global id (node(id:))', resolve: (r) => agentScopedKey(r.agentId, `${r.kind}/${r.revision}`) },
  loadOne: (key, ctx) => {
    const { agentId, recordId } = parseAgentScopedKey(key);
    const [kind, revision] = recordId.split('/');
    assertAgentAccess(ctx.viewer, agentId);
    if (!PROFILE_KINDS.includes(kind as ProfileKind) || !/^[1-9]\d{0,8}$/.test(revision ?? '')) return null;
    return ctx.services.agents.documents.getRevision(ctx.viewer, agentId, kind, Number(revision));
  },
  fields: (t) => ({
    agentId: t.exposeString('agentId', { description: 'The agent id of the owner' }),
    kind: t.field({ type: ProfileKindEnum, description: 'Which of the six documents', resolve: (r) => r.kind as ProfileKind }),
    revision: t.exposeInt('revision', { description: 'The revision number: 1 at creation, +1 per write' }),
    content: t.exposeString('content', { description: 'The whole document as of this revision' }),
    reason: t.exposeString('reason', {
      description: 'Why it was written: created, updated, replaced, preference_learning, or the reason an import gave',
    }),
    actor: t.field({ type: ActorRef, description: 'Who wrote this revision', resolve: (r) => ({ kind: r.actorKind, id: r.actorId }) }),
    createdAt: t.expose('createdAt', { type: 'DateTime', description: 'When this revision was written' }),
  }),
});
const ProfileRevisionConnection = connectionType(ProfileRevisionRef, 'ProfileDocumentRevision', {
  totalCount: 'How many revisions the document has (its current revision number: revisions are dense from 1)',
});

export const ProfileDocumentRef = builder.objectRef<ProfileDocumentRow>('ProfileDocument');
builder.node(ProfileDocumentRef, {
  description: 'One of the six profile documents of an agent, revision-checked on every write',
  id: { description: 'The global id (node(id:))', resolve: (d) => agentScopedKey(d.agentId, d.kind) },
  loadOne: async (key, ctx) => {
    const { agentId, recordId: kind } = parseAgentScopedKey(key);
    assertAgentAccess(ctx.viewer, agentId);
    if (!PROFILE_KINDS.includes(kind as ProfileKind)) return null;
    return ctx.services.agents.documents.getDocument(ctx.viewer, agentId, kind as ProfileKind);
  },
  fields: (t) => ({
    agentId: t.exposeString('agentId', { description: 'The agent id of the owner' }),
    kind: t.expose('kind', { type: ProfileKindEnum, description: 'Which of the six documents' }),
    content: t.exposeString('content', { description: 'The current content, at most 48,000 characters; empty at creation' }),
    revision: t.exposeInt('revision', { description: 'The current revision; every write names it as `expectedRevision`' }),
    updatedAt: t.expose('updatedAt', { type: 'DateTime', description: 'When the current revision was written' }),
    updatedBy: t.field({ type: ActorRef, description: 'Who wrote the current revision', resolve: (d) => ({ kind: d.updatedByKind, id: d.updatedById }) }),
    reference: t.string({
      description: 'Virtual file-like reference (postgres:agent_profile_documents/<agentId>/<kind>); not a file on disk',
      resolve: (d) => profileReference(d.agentId, d.kind),
    }),
    revisions: t.field({
      type: ProfileRevisionConnection,
      description: 'Every revision up to this one, newest first, with its actor (on a document read with `asOf`: those written by then)',
      args: pageArgs(t.arg, 500, 100),
      resolve: async (d, args, ctx) => {
        const limit = pageSize(args.first, 500, 100);
        const binding = bindingOf('profile-revisions', d.agentId, d.kind);
        // revision is an integer column.
        // Up to this document's revision: a document read with asOf lists the revisions written by then.
        const before = Math.min(decodePositionCursor(args.after, binding, INT4_MAX) ?? INT4_MAX, d.revision + 1);
        const rows = await ctx.services.agents.documents.revisions(d.agentId, d.kind, limit + 1, before);
        return {
          ...toConnection(rows, limit, (r) => encodeCursor(binding, [r.revision]), args.after),
          totalCount: () => d.revision,
        };
      },
    }),
  }),
});

const profileAsOfArg = (arg: PothosSchemaTypes.FieldBuilder<Types, unknown>['arg']) =>
  arg({
    type: 'DateTime',
    required: false,
    description:
      'Read as of this instant: the latest revision written at or before it (a time the API showed, such as updatedAt, includes the revision written then). Absent: now.',
  });

/**
 * Agent.profile's batches: one DataLoader per request and place in the operation (the field's
 * nodes, the same array for every item of a list; one place has one `asOf` and one selection),
 * made with the first call's `asOf`, the batching of the `t.loadableList({ byPath: true })` this
 * replaces. That one cost more than its load per agent: an async resolver around the loader, and
 * a context cache, a set of the request's loaders and a Map probed twice per call. Keyed by the
 * nodes rather than by the path's string (`cacheKey(info.path)`), which was built anew for each
 * of a page's 50 agents. The loaders live in the request's context (Context.loaders).
 */
function profileLoader(ctx: Types['Context'], info: GraphQLResolveInfo, asOf: Date | null | undefined) {
  const loaders = (ctx.loaders ??= new Map());
  const key = info.fieldNodes;
  let loader = loaders.get(key) as DataLoader<string, ProfileDocumentRow[]> | undefined;
  if (!loader) {
    const documents = ctx.services.agents.documents;
    // A read that selects only content fields reads only those columns (see CONTENT_FIELDS).
    const contentOnly = info.fieldNodes.every((node) => node.selectionSet && selectsOnlyContent(node.selectionSet.selections, info.fragments));
    loader = new DataLoader((agentIds: readonly string[]) =>
      asOf
        ? documents.documentsForAgentsAsOf(agentIds, asOf)
        : contentOnly
          ? (documents.documentsForAgents(agentIds, true) as Promise<ProfileDocumentRow[][]>)
          : documents.documentsForAgents(agentIds),
    );
    loaders.set(key, loader);
  }
  return loader;
}

/**
 * The ProfileDocument fields that read nothing of their document but its agentId, kind, content
 * and revision (a field added to ProfileDocument joins this list only if that holds for it).
 */
const CONTENT_FIELDS = new Set(['__typename', 'id', 'agentId', 'kind', 'content', 'revision', 'reference', 'revisions', 'agent']);

/** Whether a selection on ProfileDocument (its fragments included) asks only for CONTENT_FIELDS. */
function selectsOnlyContent(selections: readonly SelectionNode[], fragments: GraphQLResolveInfo['fragments']): boolean {
  return selections.every((selection) => {
    if (selection.kind === Kind.FIELD) return CONTENT_FIELDS.has(selection.name.value);
    const fragment = selection.kind === Kind.INLINE_FRAGMENT ? selection : fragments[selection.name.value];
    return fragment !== undefined && selectsOnlyContent(fragment.selectionSet.selections, fragments);
  });
}

export const AgentRef = builder.objectRef<AgentRow>('Agent');
builder.node(AgentRef, {
  description: 'An agent: its profile and, through nested fields, every store it owns',
  id: { description: 'The global id (node(id:)); `agentId` is the id other arguments take', resolve: (a) => a.id },
  loadOne: (id, ctx) => ctx.services.agents.getAgent(ctx.viewer, id),
  fields: (t) => ({
    agentId: t.exposeString('id', { description: 'The agent id used in every other argument (the node id is global)' }),
    name: t.exposeString('name', { description: 'A display name, 1 to 200 characters' }),
    createdAt: t.expose('createdAt', { type: 'DateTime', description: 'When the agent was created' }),
    profile: t.field({
      type: [ProfileDocumentRef],
      description:
        'The six profile documents in kind order (SOUL, RULES, ORIENTATION, PREFERENCES, TOOLS, DREAM_MEMORY). With `asOf`: each as it was then, from its revisions (none before the agent existed); one statement for every agent of the page.',
      args: { asOf: profileAsOfArg(t.arg) },
      resolve: (agent, args, ctx, info) => profileLoader(ctx, info, args.asOf).load(agent.id),
    }),
    lastEventSequence: t.exposeInt('lastEventSequence', {
      description: "The sequence of the agent's newest event (0 before any); `agentEvents(after:)` resumes from it",
    }),
  }),
});

const AgentConnection = connectionType(AgentRef, 'Agent', { totalCount: 'Every agent this token sees (an agent token: 1)' });

/**
 * `agent: Agent!` on a per-agent record type: batched (one statement for every record of a
 * response level) and not re-authorized, because the record was readable only to a token that
 * may read its agent.
 */
export function addAgentLink<T>(ref: ObjectRef<Types, T>, agentIdOf: (record: T) => string) {
  builder.objectField(ref, 'agent', (t) =>
    t.loadable({
      type: AgentRef,
      description: 'The agent this record belongs to',
      load: (ids: string[], ctx) => ctx.services.agents.agentsInOrder(ids),
      resolve: agentIdOf,
    }),
  );
}
addAgentLink(ProfileDocumentRef, (d) => d.agentId);

// ---------------------------------------------------------------- viewer

const ViewerRef = builder.objectRef<Viewer>('Viewer').implement({
  description: 'The caller: the bearer token and the runtime context its headers chose',
  fields: (t) => ({
    principal: t.field({ type: PrincipalKindEnum, description: 'Operator or agent token', resolve: (v) => v.principal }),
    tokenName: t.exposeString('tokenName', { description: 'The name the token was created with' }),
    agentId: t.exposeString('agentId', { nullable: true, description: 'The agent an agent token acts as; null for operators' }),
    agent: t.field({
      type: AgentRef,
      nullable: true,
      description: 'The agent an agent token acts as; null for operators',
      resolve: (v, _, ctx) => (v.agentId ? ctx.services.agents.getAgent(v, v.agentId) : null),
    }),
    project: t.exposeString('scope', {
      nullable: true,
      description: 'The continuity scope (project) the runtime chose (Burrow-Continuity-Scope); every `project` argument must repeat it',
    }),
    sessionId: t.exposeString('sessionId', { nullable: true, description: 'The runtime session (Burrow-Session), if any' }),
    conversationId: t.exposeString('conversationId', { nullable: true, description: 'The runtime conversation (Burrow-Conversation), if any' }),
  }),
});

// ---------------------------------------------------------------- root fields

export const agentIdArg = (t: { arg: PothosSchemaTypes.FieldBuilder<Types, unknown>['arg'] }, description = 'The agent id (`Agent.agentId`)') =>
  t.arg.string({ required: true, description });

builder.queryFields((t) => ({
  viewer: t.field({
    type: ViewerRef,
    description: 'The caller: token, agent and runtime context (UNAUTHENTICATED without a token)',
    resolve: (_, __, ctx) => requireViewer(ctx.viewer),
  }),
  agent: t.field({
    type: AgentRef,
    nullable: true,
    description: 'One agent by its agent id (`Agent.agentId`); null when there is none. `node(id:)` takes the global `Agent.id`.',
    args: { agentId: agentIdArg(t, 'The agent id, as in every other argument') },
    resolve: (_, args, ctx) => ctx.services.agents.getAgent(ctx.viewer, args.agentId),
  }),
  agents: t.field({
    type: AgentConnection,
    description: 'Newest first. Operators see every agent; an agent token sees only itself.',
    args: pageArgs(t.arg, 100),
    resolve: async (_, args, ctx) => {
      const limit = pageSize(args.first, 100, 20);
      // An agent token lists only itself: its cursors belong to its own list, not the operator's.
      const binding = bindingOf('agents', ctx.viewer?.principal === 'AGENT' ? ctx.viewer.agentId : null);
      const position = decodeTimeIdCursor(args.after, binding);
      const after = position && { createdAt: position.at, id: position.id };
      const rows = await ctx.services.agents.listAgents(ctx.viewer, { limit: limit + 1, after });
      return {
        ...toConnection(rows, limit, (a) => encodeTimeIdCursor(binding, a.createdAt, a.id), args.after),
        totalCount: () => ctx.services.agents.countAgents(ctx.viewer),
      };
    },
  }),
  profileDocument: t.field({
    type: ProfileDocumentRef,
    nullable: true,
    description: 'One profile document of an agent; null when the agent does not exist (with `asOf`: did not exist yet)',
    args: {
      agentId: agentIdArg(t),
      kind: t.arg({ type: ProfileKindEnum, required: true, description: 'Which of the six documents' }),
      asOf: profileAsOfArg(t.arg),
    },
    resolve: (_, args, ctx) =>
      args.asOf
        ? ctx.services.agents.documents.getDocumentAsOf(ctx.viewer, args.agentId, args.kind, args.asOf)
        : ctx.services.agents.documents.getDocument(ctx.viewer, args.agentId, args.kind),
  }),
}));

const CreateAgentInput = builder.inputType('CreateAgentInput', {
  description: 'A new agent; its six profile documents start empty at revision 1',
  fields: (t) => ({
    agentId: t.string({
      required: false,
      description: '1 to 63 characters of a-z, 0-9, "_" and "-", starting with a letter or digit; generated (agent-xxxxxxxx) when absent',
    }),
    name: t.string({ required: true, description: 'A display name, 1 to 200 characters' }),
  }),
});
export const expectedRevisionDescription = 'The revision the change was based on (`ProfileDocument.revision`); RevisionConflict when it is no longer current';
const UpdateProfileDocumentInput = builder.inputType('UpdateProfileDocumentInput', {
  description: 'A new revision of one profile document',
  fields: (t) => ({
    agentId: t.string({ required: true, description: 'The agent id (`Agent.agentId`)' }),
    kind: t.field({ type: ProfileKindEnum, required: true, description: 'Which of the six documents' }),
    content: t.string({ required: true, description: 'The whole new content, at most 48,000 characters' }),
    expectedRevision: t.int({ required: true, description: expectedRevisionDescription }),
  }),
});
const ProfileDocumentInput = builder.inputType('ProfileDocumentInput', {
  description: 'One document of a whole-profile replacement',
  fields: (t) => ({
    kind: t.field({ type: ProfileKindEnum, required: true, description: 'Which of the six documents (each exactly once)' }),
    content: t.string({ required: true, description: 'The whole new content, at most 48,000 characters' }),
    expectedRevision: t.int({ required: false, description: 'When given, the replacement is refused unless the document is at this revision' }),
  }),
});
const ReplaceProfileInput = builder.inputType('ReplaceProfileInput', {
  description: 'All six documents at once: every one is written, or none',
  fields: (t) => ({
    agentId: t.string({ required: true, description: 'The agent id (`Agent.agentId`)' }),
    documents: t.field({ type: [ProfileDocumentInput], required: true, description: 'Each of the six kinds exactly once' }),
  }),
});
builder.mutationFields((t) => ({
  createAgent: t.field({
    type: AgentRef,
    description: 'Creates an agent with its six empty profile documents (operators only)',
    errors: { types: [ValidationError, AlreadyExistsError], dataField: { name: 'agent' } },
    args: { input: t.arg({ type: CreateAgentInput, required: true, description: 'The agent id and name' }) },
    resolve: (_, { input }, ctx) => ctx.services.agents.createAgent(ctx.viewer, input),
  }),
  updateProfileDocument: t.field({
    type: ProfileDocumentRef,
    description: 'Writes one profile document if it is still at `expectedRevision`',
    errors: { types: [ValidationError, NotFoundError, RevisionConflictError], dataField: { name: 'document' } },
    args: { input: t.arg({ type: UpdateProfileDocumentInput, required: true, description: 'The document, its content and expected revision' }) },
    resolve: (_, { input }, ctx) => ctx.services.agents.documents.updateProfileDocument(ctx.viewer, input),
  }),
  replaceProfile: t.field({
    type: [ProfileDocumentRef],
    description: 'Replaces all six profile documents atomically; returns them in kind order',
    errors: { types: [ValidationError, NotFoundError, RevisionConflictError], dataField: { name: 'documents' } },
    args: { input: t.arg({ type: ReplaceProfileInput, required: true, description: 'The agent and its six documents' }) },
    resolve: (_, { input }, ctx) => ctx.services.agents.documents.replaceProfile(ctx.viewer, input),
  }),
}));

builder.subscriptionFields((t) => ({
  agentEvents: t.field({
    type: AgentEventRef,
    description: 'Every change of one agent. With `after`, replays the log after that sequence, then continues live.',
    args: {
      agentId: agentIdArg(t),
      after: t.arg.int({ required: false, description: 'Replay events after this sequence first (0: the whole kept log); live only when absent' }),
    },
    subscribe: async (_, args, ctx) => {
      await ctx.services.agents.requireAgent(ctx.viewer, args.agentId);
      ctx.services.faults('events.subscribe');
      return ctx.services.hub.subscribe({ agentId: args.agentId, after: afterSequence(args.after) });
    },
    // Executed once per event for all the subscribers that share it (events/shared-execution.ts).
    resolve: (event, _args, ctx) => (ctx.services.faults('events.resolve'), event),
  }),
}));
