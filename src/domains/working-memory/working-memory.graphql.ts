import { builder } from '../../schema/builder.js';
import { WRITE_ERRORS } from '../../schema/errors.js';
import { bindingOf, decodeTimeIdCursor, encodeTimeIdCursor, pageSize, toConnection } from '../../lib/cursor.js';
import { badRequest } from '../../lib/errors.js';
import { SourceOriginalRef } from '../conversations/conversations.graphql.js';
import { WORKING_KINDS, WORKING_LIMITS, WORKING_STATES, type WorkingKind, type WorkingState } from './working-memory.sql.js';
import type { WorkingRecordRow } from './working-memory.service.js';
import { workingSearchArgs, workingWriteInput } from './working-memory.inputs.js';
import { argsFrom, inputFieldsFrom } from '../../schema/inputs.js';

export const WorkingRecordKindEnum = builder.enumType('WorkingRecordKind', {
  values: {
    DECISION: {},
    FINDING: {},
    BLOCKER: {},
    HANDOFF: {},
    TASK: {
      description:
        'Operational evidence about a task. It is not a board task: task status and execution receipts have their own store and lifecycle.',
    },
  } satisfies Record<(typeof WORKING_KINDS)[number], object>,
});
export const WorkingRecordStateEnum = builder.enumType('WorkingRecordState', { values: WORKING_STATES });

export const WorkingRecordRef = builder.objectRef<WorkingRecordRow>('WorkingRecord').implement({
  description: 'Operational working memory of one agent in one continuity scope',
  fields: (t) => ({
    id: t.exposeString('id', { description: 'Give it with expectedRevision to rewrite or change the state of this record' }),
    agentId: t.exposeString('agentId'),
    project: t.exposeString('project', { description: 'The continuity scope the record belongs to' }),
    sessionId: t.exposeString('sessionId', { nullable: true, description: 'The runtime session it was written in' }),
    conversationId: t.exposeString('conversationId', { nullable: true }),
    kind: t.field({ type: WorkingRecordKindEnum, resolve: (r) => r.kind as WorkingKind }),
    state: t.field({ type: WorkingRecordStateEnum, resolve: (r) => r.state as WorkingState }),
    title: t.exposeString('title'),
    content: t.exposeString('content'),
    sourceRefs: t.exposeStringList('sourceRefs'),
    sourceOriginals: t.field({
      type: [SourceOriginalRef],
      description: 'Source references of the form conversation:<sessionId>/<entryId>, each with the original it cites (null when it does not resolve)',
      resolve: async (r, _, ctx) => {
        const refs = r.sourceRefs.filter((ref) => ref.startsWith('conversation:'));
        const resolved = await ctx.services.conversations.resolveReferences(r.agentId, refs);
        return refs.map((ref) => ({ ref, original: resolved.get(ref) ?? null }));
      },
    }),
    pinned: t.exposeBoolean('pinned', { description: 'Pinned records are never hidden or removed by expiry' }),
    ttlDays: t.exposeInt('ttlDays'),
    expiresAt: t.expose('expiresAt', { type: 'DateTime' }),
    supersededById: t.exposeString('supersededBy', { nullable: true }),
    revision: t.exposeInt('revision'),
    createdAt: t.expose('createdAt', { type: 'DateTime' }),
    updatedAt: t.expose('updatedAt', { type: 'DateTime' }),
    writtenBy: t.string({ resolve: (r) => `${r.writtenByKind}:${r.writtenById}` }),
    operatorOwned: t.boolean({ description: 'Last written by an operator: agents cannot rewrite it or change its state', resolve: (r) => r.writtenByKind === 'OPERATOR' }),
  }),
});


builder.queryFields((t) => ({
  memoryWorkingSearch: t.field({
    type: [WorkingRecordRef],
    description:
      'Lexical search over title and content of the current agent and continuity scope: every term must occur (case-insensitive). At most 10 results; expired records never appear.',
    args: argsFrom(t.arg, workingSearchArgs, { kind: WorkingRecordKindEnum, state: WorkingRecordStateEnum }),
    // The service checks `first` (VALIDATION_FAILED, as over MCP).
    resolve: (_, args, ctx) => ctx.services.working.search(ctx.viewer, args),
  }),
  workingRecords: t.connection({
    type: WorkingRecordRef,
    description: 'Working records of the current agent and scope, newest first, at most 100 per page',
    args: {
      kind: t.arg({ type: WorkingRecordKindEnum, required: false }),
      state: t.arg({ type: WorkingRecordStateEnum, required: false }),
      project: t.arg.string({ required: false }),
      agentId: t.arg.string({ required: false }),
    },
    resolve: async (_, args, ctx) => {
      if (args.last != null || args.before != null) throw badRequest('workingRecords pages forward only: use first/after');
      const limit = pageSize(args.first, WORKING_LIMITS.list, 20);
      const agentKey = ctx.viewer?.principal === 'AGENT' ? ctx.viewer.agentId : args.agentId;
      const binding = bindingOf('workingRecords', agentKey, ctx.viewer?.scope, args.kind, args.state);
      const position = decodeTimeIdCursor(args.after, binding);
      const after = position && { createdAt: position.at, id: position.id };
      const { rows } = await ctx.services.working.list(ctx.viewer, { ...args, limit: limit + 1, after });
      return toConnection(rows, limit, (r) => encodeTimeIdCursor(binding, r.createdAt, r.id), args.after);
    },
  }),
  workingRecord: t.field({
    type: WorkingRecordRef,
    nullable: true,
    description: 'One record of the current agent and scope; null when absent or expired',
    args: { id: t.arg.string({ required: true }), project: t.arg.string({ required: false }), agentId: t.arg.string({ required: false }) },
    resolve: (_, args, ctx) => ctx.services.working.get(ctx.viewer, args),
  }),
}));

const MemoryWorkingWriteInput = builder.inputType('MemoryWorkingWriteInput', {
  description:
    'The agent, session, conversation and continuity scope come from the runtime (token and headers). Without id a new record is created; with id and expectedRevision that record is rewritten.',
  fields: (t) => inputFieldsFrom(t, workingWriteInput, { kind: WorkingRecordKindEnum, state: WorkingRecordStateEnum }),
});

const WorkingRecordStateChangeInput = (name: string, withLink: boolean) =>
  builder.inputType(name, {
    fields: (t) => ({
      id: t.string({ required: true }),
      expectedRevision: t.int({ required: true }),
      ...(withLink ? { supersededById: t.string({ required: true, description: 'The record that supersedes this one' }) } : {}),
      project: t.string({ required: false }),
      agentId: t.string({ required: false }),
    }),
  });
const ResolveWorkingRecordInput = WorkingRecordStateChangeInput('ResolveWorkingRecordInput', false);
const SupersedeWorkingRecordInput = WorkingRecordStateChangeInput('SupersedeWorkingRecordInput', true);
const ReactivateWorkingRecordInput = WorkingRecordStateChangeInput('ReactivateWorkingRecordInput', false);

builder.mutationFields((t) => ({
  memoryWorkingWrite: t.field({
    type: WorkingRecordRef,
    description: 'Records operational evidence in the runtime-owned agent, session, conversation and scope',
    errors: { types: WRITE_ERRORS, dataField: { name: 'record' } },
    args: { input: t.arg({ type: MemoryWorkingWriteInput, required: true }) },
    resolve: (_, { input }, ctx) => ctx.services.working.write(ctx.viewer, input),
  }),
  resolveWorkingRecord: t.field({
    type: WorkingRecordRef,
    description: 'Marks a record RESOLVED (revision-checked; expiry unchanged)',
    errors: { types: WRITE_ERRORS, dataField: { name: 'record' } },
    args: { input: t.arg({ type: ResolveWorkingRecordInput, required: true }) },
    resolve: (_, { input }, ctx) => ctx.services.working.setState(ctx.viewer, { ...input, state: 'RESOLVED' }),
  }),
  supersedeWorkingRecord: t.field({
    type: WorkingRecordRef,
    description: 'Marks a record SUPERSEDED by another record of the same agent and scope (revision-checked; expiry unchanged)',
    errors: { types: WRITE_ERRORS, dataField: { name: 'record' } },
    args: { input: t.arg({ type: SupersedeWorkingRecordInput, required: true }) },
    resolve: (_, { input }, ctx) =>
      ctx.services.working.setState(ctx.viewer, { ...input, supersededById: (input as { supersededById: string }).supersededById, state: 'SUPERSEDED' }),
  }),
  reactivateWorkingRecord: t.field({
    type: WorkingRecordRef,
    description: 'Returns a resolved or superseded record to ACTIVE (revision-checked; expiry unchanged)',
    errors: { types: WRITE_ERRORS, dataField: { name: 'record' } },
    args: { input: t.arg({ type: ReactivateWorkingRecordInput, required: true }) },
    resolve: (_, { input }, ctx) => ctx.services.working.setState(ctx.viewer, { ...input, state: 'ACTIVE' }),
  }),
}));
