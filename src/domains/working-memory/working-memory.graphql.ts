import { builder } from '../../schema/builder.js';
import { GLOBAL_ID_DESCRIPTION } from '../../schema/node-keys.js';
import { OWNED_RECORD_WRITE_ERRORS } from '../../schema/errors.js';
import { ActorRef } from '../../schema/actor.js';
import { connectionType, pageArgs } from '../../schema/connections.js';
import { agentScopedKey, parseAgentScopedKey, parseScopedRecordKey, workingRecordNodeKey } from '../../schema/node-keys.js';
import { resolveNodeRuntime } from '../../auth/runtime.js';
import { bindingOf, decodeTimeIdCursor, encodeTimeIdCursor, pageSize, toConnection } from '../../lib/cursor.js';
import { AgentRef, addAgentLink } from '../agents/agents.graphql.js';
import { SourceOriginalRef } from '../conversations/conversations.graphql.js';
import { WORKING_KINDS, WORKING_LIMITS, WORKING_STATES, type WorkingKind, type WorkingState } from './working-memory.sql.js';
import type { WorkingRecordRow } from './working-memory.types.js';
import { workingSearchArgs, workingWriteInput } from './working-memory.inputs.js';
import { argsFrom, inputFieldsFrom } from '../../schema/inputs.js';
import { idempotencyKeyOf } from '../../schema/idempotency.js';
import { projectField } from '../../auth/runtime.inputs.js';

export const WorkingRecordKindEnum = builder.enumType('WorkingRecordKind', {
  description: 'What a working record is about',
  values: {
    DECISION: { description: 'A choice that was made' },
    FINDING: { description: 'Something learned' },
    BLOCKER: { description: 'What stops progress' },
    HANDOFF: { description: 'What the next worker needs' },
    TASK: {
      description: 'Operational evidence about a task. It is not a board task: task status and execution receipts have their own store and lifecycle.',
    },
  } satisfies Record<(typeof WORKING_KINDS)[number], object>,
});
export const WorkingRecordStateEnum = builder.enumType('WorkingRecordState', {
  description: 'Whether a working record still holds',
  values: {
    ACTIVE: { description: 'Still true or open' },
    RESOLVED: { description: 'Dealt with (resolveWorkingRecord)' },
    SUPERSEDED: { description: 'Replaced by another record of the same agent and scope (supersededBy)' },
  } satisfies Record<(typeof WORKING_STATES)[number], object>,
});

export const WorkingRecordRef = builder.objectRef<WorkingRecordRow>('WorkingRecord');
builder.node(WorkingRecordRef, {
  description: 'Operational working memory of one agent in one continuity scope',
  id: { description: GLOBAL_ID_DESCRIPTION, resolve: workingRecordNodeKey },
  // node(id) reads as workingRecord does (an agent token: its own agent, its runtime scope); the id
  // names the scope, so an operator needs no scope header (auth/runtime.ts resolveNodeRuntime).
  loadOne: (key, ctx) => {
    const { agentId, scope, id } = parseScopedRecordKey(key);
    return scope === null ? ctx.services.working.get(ctx.viewer, { agentId, id }) : ctx.services.working.getInScope(resolveNodeRuntime(ctx.viewer, { agentId, scope }), id);
  },
  fields: (t) => ({
    recordId: t.exposeString('id', { description: 'The record id the working-memory verbs take (`recordId:`), with expectedRevision to rewrite or change its state' }),
    agentId: t.exposeString('agentId', { description: 'The agent it belongs to' }),
    project: t.exposeString('project', { description: 'The continuity scope the record belongs to' }),
    sessionId: t.exposeString('sessionId', { nullable: true, description: 'The runtime session it was written in' }),
    conversationId: t.exposeString('conversationId', { nullable: true, description: 'The runtime conversation it was written in' }),
    kind: t.field({ type: WorkingRecordKindEnum, description: 'What it is about', resolve: (r) => r.kind as WorkingKind }),
    state: t.field({ type: WorkingRecordStateEnum, description: 'Whether it still holds', resolve: (r) => r.state as WorkingState }),
    title: t.exposeString('title', { description: 'A short headline' }),
    content: t.exposeString('content', { description: 'The evidence itself' }),
    sourceRefs: t.exposeStringList('sourceRefs', { description: 'Where it came from, as given' }),
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
    ttlDays: t.exposeInt('ttlDays', { description: 'Days from the last real change to expiry' }),
    expiresAt: t.expose('expiresAt', { type: 'DateTime', description: 'When it stops being visible (unless pinned); retention removes it later' }),
    supersededById: t.exposeString('supersededBy', { nullable: true, description: 'The recordId of the record that supersedes this one (state SUPERSEDED); null otherwise' }),
    supersededBy: t.loadable({
      type: WorkingRecordRef,
      nullable: true,
      description: 'The record that supersedes this one; null when none, or when it has expired or been removed (supersededById still names it)',
      load: (keys: string[], ctx) =>
        ctx.services.working.byKeys(
          keys.map((key) => {
            const { agentId, recordId } = parseAgentScopedKey(key);
            return { agentId, id: recordId };
          }),
        ),
      resolve: (r) => (r.supersededBy ? agentScopedKey(r.agentId, r.supersededBy) : null),
    }),
    revision: t.exposeInt('revision', { description: 'The current revision; rewrites and state changes need it as expectedRevision' }),
    createdAt: t.expose('createdAt', { type: 'DateTime', description: 'When it was created' }),
    updatedAt: t.expose('updatedAt', { type: 'DateTime', description: 'When it last changed' }),
    writtenBy: t.field({ type: ActorRef, description: 'Who wrote the current revision', resolve: (r) => ({ kind: r.writtenByKind, id: r.writtenById }) }),
    operatorOwned: t.boolean({ description: 'Last written by an operator: agents cannot rewrite it or change its state', resolve: (r) => r.writtenByKind === 'OPERATOR' }),
  }),
});
addAgentLink(WorkingRecordRef, (r) => r.agentId);

const WorkingRecordConnection = connectionType(WorkingRecordRef, 'WorkingRecord');

type ArgMaker = Parameters<Parameters<typeof builder.queryFields>[0]>[0]['arg'];
const listFilterArgs = (arg: ArgMaker) => ({
  kinds: arg({ type: [WorkingRecordKindEnum], required: false, description: 'Only records of these kinds; absent or empty: every kind' }),
  states: arg({ type: [WorkingRecordStateEnum], required: false, description: 'Only records in these states; absent or empty: every state' }),
  project: arg.string({ required: false, description: projectField.description }),
  ...pageArgs(arg, WORKING_LIMITS.list),
});
/** Cursors are bound to the agent, the scope and the filters, for the root and the nested list alike. */
const listBinding = (agentId: string | null | undefined, scope: string | null | undefined, kinds?: readonly string[] | null, states?: readonly string[] | null) =>
  bindingOf('workingRecords', agentId, scope, kinds?.length ? [...kinds].sort().join(',') : null, states?.length ? [...states].sort().join(',') : null);

builder.queryFields((t) => ({
  memoryWorkingSearch: t.field({
    type: [WorkingRecordRef],
    description:
      'Lexical search over title and content of the current agent and continuity scope: every term must occur (case-insensitive). Title matches of the whole query first, then updatedAt newest first. At most 10 results; expired records never appear.',
    args: argsFrom(t.arg, workingSearchArgs, { kind: WorkingRecordKindEnum, state: WorkingRecordStateEnum }),
    // The service checks `first` (VALIDATION_FAILED, as over MCP).
    resolve: (_, args, ctx) => ctx.services.working.search(ctx.viewer, args),
  }),
  workingRecords: t.field({
    type: WorkingRecordConnection,
    description: 'Working records of the current agent and scope, newest first (createdAt, then recordId); expired records never appear',
    args: { ...listFilterArgs(t.arg), agentId: t.arg.string({ required: false, description: 'The agent (an agent token: itself; operators must name it)' }) },
    resolve: async (_, args, ctx) => {
      const limit = pageSize(args.first, WORKING_LIMITS.list, 20);
      const agentKey = ctx.viewer?.principal === 'AGENT' ? ctx.viewer.agentId : args.agentId;
      const binding = listBinding(agentKey, ctx.viewer?.scope, args.kinds, args.states);
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
    args: {
      recordId: t.arg.string({ required: true, description: 'The record id (`WorkingRecord.recordId`)' }),
      project: t.arg.string({ required: false, description: projectField.description }),
      agentId: t.arg.string({ required: false, description: 'The agent (an agent token: itself; operators must name it)' }),
    },
    resolve: (_, { recordId, ...args }, ctx) => ctx.services.working.get(ctx.viewer, { ...args, id: recordId }),
  }),
}));

/**
 * Agent.workingRecords: every agent of a response level in one statement, each authorized and
 * scoped as the root field is (an agent token sees only itself; the runtime scope is required).
 */
builder.objectFields(AgentRef, (t) => ({
  workingRecords: t.loadable({
    type: WorkingRecordConnection,
    nullable: true,
    description:
      "This agent's working records in the runtime scope, newest first: the same list and cursors as Query.workingRecords. Nullable: without the continuity scope it needs (or refused), only this field is null, with its error beside the data, so the payload of a mutation is never erased by it.",
    args: listFilterArgs(t.arg),
    byPath: true,
    load: async (agentIds: string[], ctx, args) => {
      const limit = pageSize(args.first, WORKING_LIMITS.list, 20);
      const bindingOf = (agentId: string, scope: string) => listBinding(agentId, scope, args.kinds, args.states);
      const pages = await ctx.services.working.listPages(ctx.viewer, agentIds, {
        project: args.project,
        kinds: args.kinds,
        states: args.states,
        limit: limit + 1,
        afterOf: (runtime) => {
          const position = decodeTimeIdCursor(args.after, bindingOf(runtime.agentId, runtime.scope));
          return position && { createdAt: position.at, id: position.id };
        },
      });
      return pages.map((page) => {
        if (page instanceof Error) return page;
        const binding = bindingOf(page.runtime.agentId, page.runtime.scope);
        return toConnection(page.rows, limit, (r) => encodeTimeIdCursor(binding, r.createdAt, r.id), args.after);
      });
    },
    resolve: (agent) => agent.id,
  }),
}));

const MemoryWorkingWriteInput = builder.inputType('MemoryWorkingWriteInput', {
  description:
    'The agent, session, conversation and continuity scope come from the runtime (token and headers). Without recordId a new record is created; with recordId and expectedRevision that record is rewritten.',
  fields: (t) => inputFieldsFrom(t, workingWriteInput, { kind: WorkingRecordKindEnum, state: WorkingRecordStateEnum }),
});

const stateChangeFields = (t: PothosSchemaTypes.InputFieldBuilder<typeof builder extends PothosSchemaTypes.SchemaBuilder<infer T> ? T : never, 'InputObject'>) => ({
  recordId: t.string({ required: true, description: 'The record id (`WorkingRecord.recordId`)' }),
  expectedRevision: t.int({ required: true, description: 'The revision last read; a changed record is left alone (REVISION_CONFLICT)' }),
  project: t.string({ required: false, description: projectField.description }),
  agentId: t.string({ required: false, description: 'The agent (an agent token: itself; operators must name it)' }),
});
/** resolveWorkingRecord and reactivateWorkingRecord take the same record and revision. */
const WorkingRecordStateChangeInput = builder.inputType('WorkingRecordStateChangeInput', {
  description: 'A revision-checked state change of one record',
  fields: (t) => stateChangeFields(t),
});
const SupersedeWorkingRecordInput = builder.inputType('SupersedeWorkingRecordInput', {
  description: 'A revision-checked change to SUPERSEDED, naming the record that replaces this one',
  fields: (t) => ({
    ...stateChangeFields(t),
    supersededById: t.string({ required: true, description: 'The recordId of the record (same agent and scope) that supersedes this one' }),
  }),
});

builder.mutationFields((t) => ({
  memoryWorkingWrite: t.field({
    type: WorkingRecordRef,
    description: 'Records operational evidence in the runtime-owned agent, session, conversation and scope',
    errors: { types: OWNED_RECORD_WRITE_ERRORS, dataField: { name: 'record' } },
    args: { input: t.arg({ type: MemoryWorkingWriteInput, required: true, description: 'The record' }) },
    resolve: (_, { input }, ctx, info) => {
      const { recordId, ...rest } = input;
      return ctx.services.working.write(ctx.viewer, { ...rest, id: recordId, idempotencyKey: idempotencyKeyOf(ctx, info, input) });
    },
  }),
  resolveWorkingRecord: t.field({
    type: WorkingRecordRef,
    description: 'Marks a record RESOLVED (revision-checked; expiry unchanged)',
    errors: { types: OWNED_RECORD_WRITE_ERRORS, dataField: { name: 'record' } },
    args: { input: t.arg({ type: WorkingRecordStateChangeInput, required: true, description: 'The record and its expected revision' }) },
    resolve: (_, { input: { recordId, ...input } }, ctx) => ctx.services.working.setState(ctx.viewer, { ...input, id: recordId, state: 'RESOLVED' }),
  }),
  supersedeWorkingRecord: t.field({
    type: WorkingRecordRef,
    description: 'Marks a record SUPERSEDED by another record of the same agent and scope (revision-checked; expiry unchanged)',
    errors: { types: OWNED_RECORD_WRITE_ERRORS, dataField: { name: 'record' } },
    args: { input: t.arg({ type: SupersedeWorkingRecordInput, required: true, description: 'The record, its expected revision and its successor' }) },
    resolve: (_, { input: { recordId, ...input } }, ctx) => ctx.services.working.setState(ctx.viewer, { ...input, id: recordId, state: 'SUPERSEDED' }),
  }),
  reactivateWorkingRecord: t.field({
    type: WorkingRecordRef,
    description: 'Returns a resolved or superseded record to ACTIVE (revision-checked; expiry unchanged)',
    errors: { types: OWNED_RECORD_WRITE_ERRORS, dataField: { name: 'record' } },
    args: { input: t.arg({ type: WorkingRecordStateChangeInput, required: true, description: 'The record and its expected revision' }) },
    resolve: (_, { input: { recordId, ...input } }, ctx) => ctx.services.working.setState(ctx.viewer, { ...input, id: recordId, state: 'ACTIVE' }),
  }),
}));
