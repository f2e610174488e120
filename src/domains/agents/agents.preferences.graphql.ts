/**
 * The GraphQL types of the PREFERENCES learning path: preference signals, the audit of automatic
 * changes, Query.preferenceLearning and Mutation.applyPreferenceLearning.
 */
import { builder } from '../../schema/builder.js';
import { connectionType, pageArgs } from '../../schema/connections.js';
import { ActorRef } from '../../schema/actor.js';
import { agentScopedKey, parseAgentScopedKey } from '../../schema/node-keys.js';
import { assertAgentAccess } from '../../auth/viewer.js';
import { bindingOf, decodeTimeIdCursor, encodeTimeIdCursor, pageSize, toConnection } from '../../lib/cursor.js';
import { NotFoundError, RevisionConflictError, ValidationError } from '../../lib/errors.js';
import type { PreferenceSignalStatus, ProfileKind } from './agents.sql.js';
import type { PreferenceLearningStateRow, PreferenceSignalRow, ProfileAuditRow } from './agents.types.js';
import { addAgentLink, agentIdArg, expectedRevisionDescription, ProfileDocumentRef, ProfileKindEnum } from './agents.graphql.js';

const PreferenceSignalStatusEnum = builder.enumType('PreferenceSignalStatus', {
  description: 'Where a preference signal is in the learning path',
  values: {
    PENDING: { value: 'pending', description: 'Waiting for the learning path to apply or dismiss it' },
    APPLIED: { value: 'applied', description: 'A PREFERENCES change (applyPreferenceLearning) applied it' },
    DISMISSED: { value: 'dismissed', description: 'Decided against; kept for the record' },
  } satisfies Record<string, { value: PreferenceSignalStatus; description: string }>,
});

const PreferenceSignalSourceEnum = builder.enumType('PreferenceSignalSource', {
  description: 'What recorded a preference signal',
  values: { TIDDLE: { value: 'tiddle', description: "Tiddle's pass, from a behavioural correction in the residue" } },
});

export const PreferenceSignalRef = builder.objectRef<PreferenceSignalRow>('PreferenceSignal');
builder.node(PreferenceSignalRef, {
  description: 'An observed preference waiting for (or used by) the PREFERENCES learning path; never a profile rewrite by itself',
  id: { description: 'The global id (node(id:))', resolve: (s) => agentScopedKey(s.agentId, s.id) },
  loadOne: (key, ctx) => {
    const { agentId, recordId } = parseAgentScopedKey(key);
    return ctx.services.agents.preferences.getSignal(ctx.viewer, agentId, recordId);
  },
  fields: (t) => ({
    signalId: t.exposeString('id', { description: 'The signal id within its agent; what `applyPreferenceLearning(signalIds:)` takes' }),
    agentId: t.exposeString('agentId', { description: 'The agent id of the owner' }),
    source: t.field({ type: PreferenceSignalSourceEnum, description: 'What recorded it', resolve: (s) => s.source as 'tiddle' }),
    project: t.exposeString('project', { nullable: true, description: 'The continuity scope it was observed in; null when not scoped' }),
    statement: t.exposeString('statement', { description: 'The preference in words, at most 2,000 characters' }),
    evidence: t.expose('evidence', { type: 'JSON', description: 'What it was observed from, as the source recorded it (Tiddle: the residue turn references)' }),
    status: t.field({ type: PreferenceSignalStatusEnum, description: 'Pending, applied or dismissed', resolve: (s) => s.status }),
    createdAt: t.expose('createdAt', { type: 'DateTime', description: 'When it was recorded' }),
  }),
});
addAgentLink(PreferenceSignalRef, (s) => s.agentId);
const PreferenceSignalConnection = connectionType(PreferenceSignalRef, 'PreferenceSignal');

const ProfileAuditActionEnum = builder.enumType('ProfileAuditAction', {
  description: 'The kinds of automatic profile change the audit records',
  values: { PREFERENCE_LEARNING: { value: 'preference_learning', description: 'A PREFERENCES change by applyPreferenceLearning' } },
});

const ProfileAuditEntryRef = builder.objectRef<ProfileAuditRow>('ProfileAuditEntry');
builder.node(ProfileAuditEntryRef, {
  description: 'The audit record of one automatic profile change, committed with the change itself',
  id: { description: 'The global id (node(id:))', resolve: (a) => agentScopedKey(a.agentId, a.id) },
  loadOne: (key, ctx) => {
    const { agentId, recordId } = parseAgentScopedKey(key);
    return ctx.services.agents.preferences.getAuditEntry(ctx.viewer, agentId, recordId);
  },
  fields: (t) => ({
    auditEntryId: t.exposeString('id', { description: 'The audit entry id within its agent' }),
    agentId: t.exposeString('agentId', { description: 'The agent id of the owner' }),
    kind: t.field({ type: ProfileKindEnum, description: 'The document changed', resolve: (a) => a.kind as ProfileKind }),
    action: t.field({ type: ProfileAuditActionEnum, description: 'What changed it', resolve: (a) => a.action as 'preference_learning' }),
    fromRevision: t.exposeInt('fromRevision', { description: 'The revision the change replaced' }),
    toRevision: t.exposeInt('toRevision', { description: 'The revision the change wrote' }),
    actor: t.field({ type: ActorRef, description: 'Who applied it', resolve: (a) => ({ kind: a.actorKind, id: a.actorId }) }),
    reason: t.string({ description: 'The reason given with the change', resolve: (a) => String((a.detail as { reason?: unknown }).reason ?? '') }),
    signalIds: t.stringList({
      description: 'The preference signals (`PreferenceSignal.signalId`) the change applied',
      resolve: (a) => ((a.detail as { signalIds?: unknown }).signalIds as string[] | undefined) ?? [],
    }),
    createdAt: t.expose('createdAt', { type: 'DateTime', description: 'When the change committed' }),
  }),
});
const ProfileAuditConnection = connectionType(ProfileAuditEntryRef, 'ProfileAuditEntry', {
  totalCount: 'Every audit entry of the agent',
});

interface LearningShape {
  agentId: string;
  state: PreferenceLearningStateRow | null;
}

const PreferenceLearningRef = builder.objectRef<LearningShape>('PreferenceLearning').implement({
  description: 'The automatic PREFERENCES learning path of an agent: what was applied, its audit and the signals',
  fields: (t) => ({
    appliedCount: t.int({ description: 'How many automatic changes were applied (0 before any)', resolve: (l) => l.state?.appliedCount ?? 0 }),
    lastAppliedRevision: t.int({
      nullable: true,
      description: 'The PREFERENCES revision the last automatic change wrote; null before any',
      resolve: (l) => l.state?.lastAppliedRevision ?? null,
    }),
    lastAppliedAt: t.field({
      type: 'DateTime',
      nullable: true,
      description: 'When the last automatic change was applied; null before any',
      resolve: (l) => l.state?.lastAppliedAt ?? null,
    }),
    audit: t.field({
      type: ProfileAuditConnection,
      description: 'The audit of automatic changes, newest first',
      args: pageArgs(t.arg, 200, 50),
      resolve: async (l, args, ctx) => {
        const limit = pageSize(args.first, 200, 50);
        const binding = bindingOf('profile-audit', l.agentId);
        const position = decodeTimeIdCursor(args.after, binding);
        const rows = await ctx.services.agents.preferences.auditPage(l.agentId, { limit: limit + 1, after: position && { createdAt: position.at, id: position.id } });
        return {
          ...toConnection(rows, limit, (a) => encodeTimeIdCursor(binding, a.createdAt, a.id), args.after),
          totalCount: () => ctx.services.agents.preferences.countAudit(l.agentId),
        };
      },
    }),
    signals: t.field({
      type: PreferenceSignalConnection,
      description: 'Preference signals, oldest first (the order the learning path works through them)',
      args: {
        statuses: t.arg({ type: [PreferenceSignalStatusEnum], required: false, description: 'Only these statuses; every status when absent' }),
        ...pageArgs(t.arg, 200, 50),
      },
      resolve: async (l, args, ctx) => {
        const limit = pageSize(args.first, 200, 50);
        const statuses = args.statuses ? [...new Set(args.statuses)].sort() : null;
        const binding = bindingOf('preference-signals', l.agentId, statuses?.join(','));
        const position = decodeTimeIdCursor(args.after, binding);
        const rows = await ctx.services.agents.preferences.signalsPage(l.agentId, {
          limit: limit + 1,
          after: position && { createdAt: position.at, id: position.id },
          statuses,
        });
        return toConnection(rows, limit, (s) => encodeTimeIdCursor(binding, s.createdAt, s.id), args.after);
      },
    }),
  }),
});

builder.queryFields((t) => ({
  preferenceLearning: t.field({
    type: PreferenceLearningRef,
    description: 'The PREFERENCES learning path of an agent: applied changes, audit and signals',
    args: { agentId: agentIdArg(t) },
    resolve: async (_, args, ctx) => {
      assertAgentAccess(ctx.viewer, args.agentId);
      return { agentId: args.agentId, state: await ctx.services.agents.preferences.learningState(args.agentId) };
    },
  }),
}));

const ApplyPreferenceLearningInput = builder.inputType('ApplyPreferenceLearningInput', {
  description: 'An automatic PREFERENCES change, with its reason and the signals it applies',
  fields: (t) => ({
    agentId: t.string({ required: true, description: 'The agent id (`Agent.agentId`)' }),
    content: t.string({ required: true, description: 'The new PREFERENCES document, at most 48,000 characters' }),
    expectedRevision: t.int({ required: true, description: expectedRevisionDescription }),
    reason: t.string({ required: true, description: 'Why, 1 to 2,000 characters; kept in the audit' }),
    signalIds: t.stringList({
      required: false,
      description: 'Pending preference signals (`PreferenceSignal.signalId`) this change applies; each becomes APPLIED',
    }),
  }),
});

builder.mutationFields((t) => ({
  applyPreferenceLearning: t.field({
    type: ProfileDocumentRef,
    description: 'An automatic PREFERENCES change: document, learning state and audit commit together or not at all',
    errors: { types: [ValidationError, NotFoundError, RevisionConflictError], dataField: { name: 'document' } },
    args: { input: t.arg({ type: ApplyPreferenceLearningInput, required: true, description: 'The new document, reason and signals' }) },
    resolve: (_, { input }, ctx) => ctx.services.agents.preferences.applyPreferenceLearning(ctx.viewer, input),
  }),
}));
