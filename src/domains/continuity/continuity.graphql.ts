import { builder } from '../../schema/builder.js';
import { ErrorInterface } from '../../schema/errors.js';
import { AgentEventRef, afterSequence } from '../../schema/events.js';
import { bindingOf, decodeTimeIdCursor, encodeTimeIdCursor, pageSize, toConnection } from '../../lib/cursor.js';
import { badRequest, ForbiddenError, NotFoundError, RequestError, ValidationError } from '../../lib/errors.js';
import { CONTINUITY_RUN_STATES, EFFECT_OUTCOMES, type ContinuityRunState, type EffectOutcome } from './continuity.sql.js';
import { ContinuityFenceError } from './continuity.errors.js';
import type { ContinuityEffectRow, ContinuityLogRow, ContinuityOwnerRow, ContinuityRunRow, ReconcileResult, RunKey } from './continuity.service.js';
import type { OwnershipSession } from './ownership.js';

export const ContinuityRunStateEnum = builder.enumType('ContinuityRunState', { values: CONTINUITY_RUN_STATES });
const EffectOutcomeEnum = builder.enumType('ContinuityEffectOutcome', {
  description: 'UNKNOWN: intended, no receipt yet; it may or may not have happened',
  values: EFFECT_OUTCOMES,
});
const ReceiptOutcomeEnum = builder.enumType('ContinuityReceiptOutcome', { values: ['SUCCEEDED', 'FAILED'] as const });

/** Continuity writes: the fence refusal first (it is a Forbidden too, but a more precise one). */
const CONTINUITY_ERRORS = [ContinuityFenceError, ValidationError, NotFoundError, ForbiddenError];

builder.objectType(ContinuityFenceError, {
  name: 'ContinuityFenceRejected',
  description: 'A fenced write was refused (STALE_GENERATION, NOT_OWNER, FORBIDDEN_TRANSITION); nothing was changed',
  interfaces: [ErrorInterface],
  fields: (t) => ({
    runId: t.exposeString('runId'),
    currentState: t.field({ type: ContinuityRunStateEnum, resolve: (e) => e.currentState as ContinuityRunState }),
    currentGeneration: t.exposeInt('currentGeneration'),
  }),
});

const ContinuityEffectRef = builder.objectRef<ContinuityEffectRow>('ContinuityEffect').implement({
  fields: (t) => ({
    effectId: t.exposeString('effectId'),
    kind: t.exposeString('kind'),
    request: t.exposeString('request', { description: 'The JSON text exactly as recorded' }),
    outcome: t.field({ type: EffectOutcomeEnum, resolve: (e) => e.outcome as EffectOutcome }),
    receipt: t.exposeString('receipt', { nullable: true, description: 'The JSON text exactly as recorded' }),
    intendedGeneration: t.exposeInt('intendedGeneration'),
    intendedBy: t.exposeString('intendedBy'),
    intendedAt: t.expose('intendedAt', { type: 'DateTime' }),
    receiptGeneration: t.exposeInt('receiptGeneration', { nullable: true }),
    receiptBy: t.exposeString('receiptBy', { nullable: true }),
    receiptAt: t.expose('receiptAt', { type: 'DateTime', nullable: true }),
  }),
});

const ContinuityTransitionRef = builder.objectRef<ContinuityLogRow>('ContinuityTransition').implement({
  description: 'One continuity_log entry',
  fields: (t) => ({
    position: t.exposeInt('position'),
    from: t.field({ type: ContinuityRunStateEnum, nullable: true, resolve: (l) => l.fromState as ContinuityRunState | null }),
    to: t.field({ type: ContinuityRunStateEnum, resolve: (l) => l.toState as ContinuityRunState }),
    generation: t.exposeInt('generation'),
    ownerId: t.exposeString('ownerId'),
    reason: t.exposeString('reason'),
    sequence: t.exposeInt('eventSequence', { description: 'The agent event sequence that announced it' }),
    at: t.expose('at', { type: 'DateTime' }),
  }),
});

/** Agent ids and run ids never contain "/", so "agentId/runId" is an unambiguous key. */
const runKeyOf = (key: string): RunKey => ({ agentId: key.slice(0, key.indexOf('/')), runId: key.slice(key.indexOf('/') + 1) });

export const ContinuityRunRef = builder.objectRef<ContinuityRunRow>('ContinuityRun');
builder.node(ContinuityRunRef, {
  id: { resolve: (r) => `${r.agentId}/${r.runId}` },
  loadOne: (id, ctx) => {
    const slash = id.indexOf('/');
    if (slash < 1) return null;
    return ctx.services.continuity.getRun(ctx.viewer, id.slice(0, slash), id.slice(slash + 1));
  },
  fields: (t) => ({
    runId: t.exposeString('runId'),
    agentId: t.exposeString('agentId'),
    sessionId: t.exposeString('sessionId', { nullable: true }),
    project: t.exposeString('project', { nullable: true }),
    state: t.field({ type: ContinuityRunStateEnum, resolve: (r) => r.state as ContinuityRunState }),
    generation: t.exposeInt('generation'),
    ownerId: t.exposeString('ownerId'),
    head: t.exposeString('head', { description: 'The committed head: JSON text exactly as committed (lossless)' }),
    headRevision: t.exposeInt('headRevision', { description: 'How many head commits the run has had' }),
    finalResult: t.exposeString('finalResult', { nullable: true, description: 'The fenced terminal commit, JSON text exactly as sent' }),
    interruptionManifest: t.field({
      type: 'JSON',
      nullable: true,
      description: 'What was in flight at the last interruption, from durable evidence only',
      resolve: (r) => r.interruptionManifest ?? null,
    }),
    recoveryQueue: t.field({ type: 'JSON', nullable: true, description: 'The assessed recovery queue', resolve: (r) => r.recoveryQueue ?? null }),
    effectCount: t.exposeInt('effectCount'),
    createdAt: t.expose('createdAt', { type: 'DateTime' }),
    updatedAt: t.expose('updatedAt', { type: 'DateTime' }),
    completedAt: t.expose('completedAt', { type: 'DateTime', nullable: true }),
    interruptedAt: t.expose('interruptedAt', { type: 'DateTime', nullable: true }),
    effects: t.loadableList({
      type: ContinuityEffectRef,
      description: 'External effects in the order they were intended',
      load: (keys: string[], ctx) => ctx.services.continuity.effectsForRuns(keys.map(runKeyOf)),
      resolve: (r) => `${r.agentId}/${r.runId}`,
    }),
    transitions: t.loadableList({
      type: ContinuityTransitionRef,
      description: 'The continuity_log of the run, in order',
      load: (keys: string[], ctx) => ctx.services.continuity.logsForRuns(keys.map(runKeyOf)),
      resolve: (r) => `${r.agentId}/${r.runId}`,
    }),
  }),
});

const ContinuityOwnerRef = builder.objectRef<ContinuityOwnerRow>('ContinuityOwner').implement({
  fields: (t) => ({
    ownerId: t.exposeString('id'),
    agentId: t.exposeString('agentId'),
    instance: t.exposeString('instance'),
    openedAt: t.expose('openedAt', { type: 'DateTime' }),
    closedAt: t.expose('closedAt', { type: 'DateTime', nullable: true }),
    live: t.exposeBoolean('live', { description: 'Decided by the owner lock protocol at read time' }),
  }),
});

interface OwnershipEvent {
  session: OwnershipSession;
  ended: 'closed' | 'lost' | null;
}

const RuntimeOwnershipRef = builder.objectRef<OwnershipEvent>('RuntimeOwnership').implement({
  description: 'The first event names the owner; a last one (ended = lost) says the owner lock was lost',
  fields: (t) => ({
    ownerId: t.string({ resolve: (e) => e.session.ownerId }),
    agentId: t.string({ resolve: (e) => e.session.agentId }),
    instance: t.string({ resolve: (e) => e.session.instance }),
    openedAt: t.field({ type: 'DateTime', resolve: (e) => e.session.openedAt }),
    live: t.boolean({ resolve: (e) => e.ended === null }),
    ended: t.string({ nullable: true, description: 'closed or lost once the session is over', resolve: (e) => e.ended }),
  }),
});

const ReconcileContinuityPayloadRef = builder.objectRef<ReconcileResult>('ReconcileContinuityPayload').implement({
  fields: (t) => ({
    ownersChecked: t.exposeInt('ownersChecked'),
    failed: t.exposeStringList('failed', { description: '"agentId/runId" of runs whose reconciliation failed this pass; the next pass retries them' }),
    interrupted: t.field({ type: [ContinuityRunRef], description: 'Runs this pass found abandoned and interrupted', resolve: (r) => r.interrupted }),
    recoveryPending: t.field({ type: [ContinuityRunRef], description: 'Runs this pass assessed into RECOVERY_PENDING', resolve: (r) => r.recoveryPending }),
  }),
});

builder.queryFields((t) => ({
  continuityRun: t.field({
    type: ContinuityRunRef,
    nullable: true,
    args: { runId: t.arg.string({ required: true }), agentId: t.arg.string({ required: false, description: 'Operators name the agent' }) },
    resolve: (_, args, ctx) => ctx.services.continuity.getRun(ctx.viewer, args.agentId, args.runId),
  }),
  continuityRuns: t.connection({
    type: ContinuityRunRef,
    description: 'Runs of one agent, newest first',
    args: {
      agentId: t.arg.string({ required: false }),
      states: t.arg({ type: [ContinuityRunStateEnum], required: false }),
    },
    resolve: async (_, args, ctx) => {
      if (args.last != null || args.before != null) throw badRequest('continuityRuns pages forward only: use first/after');
      const limit = pageSize(args.first, 100, 20);
      const states = args.states ? [...new Set(args.states)].sort() : null;
      const binding = bindingOf('continuityRuns', args.agentId ?? ctx.viewer?.agentId ?? null, ...(states ?? []));
      const position = decodeTimeIdCursor(args.after, binding);
      const after = position && { createdAt: position.at, runId: position.id };
      const { rows } = await ctx.services.continuity.listRuns(ctx.viewer, { agentId: args.agentId, states, limit: limit + 1, after });
      return toConnection(rows, limit, (r) => encodeTimeIdCursor(binding, r.createdAt, r.runId));
    },
  }),
  continuityOwners: t.field({
    type: [ContinuityOwnerRef],
    description: 'Ownership sessions of an agent with their liveness (lock protocol)',
    args: { agentId: t.arg.string({ required: false }), includeClosed: t.arg.boolean({ required: false }) },
    resolve: (_, args, ctx) => ctx.services.continuity.listOwners(ctx.viewer, args.agentId, args.includeClosed ?? false),
  }),
}));

const fenceFields = (t: PothosSchemaTypes.InputFieldBuilder<PothosSchemaTypes.ExtendDefaultTypes<object>, 'InputObject'>) => ({
  agentId: t.string({ required: false, description: 'Operators name the agent; agent tokens act as their agent' }),
  runId: t.string({ required: true }),
  generation: t.int({ required: true }),
  ownerId: t.string({ required: true }),
});

const StartContinuityRunInput = builder.inputType('StartContinuityRunInput', {
  fields: (t) => ({
    agentId: t.string({ required: false }),
    runId: t.string({ required: false, description: 'Generated when absent' }),
    ownerId: t.string({ required: true, description: 'A live ownership session (runtimeOwnership) of the agent' }),
    head: t.string({ required: false, description: 'Initial head, JSON text (default {}), at most 262,144 characters' }),
  }),
});
const CommitContinuityRunInput = builder.inputType('CommitContinuityRunInput', {
  fields: (t) => ({ ...fenceFields(t as never), head: t.string({ required: true, description: 'JSON text, at most 262,144 characters' }) }),
});
const RecordContinuityEffectInput = builder.inputType('RecordContinuityEffectInput', {
  fields: (t) => ({
    ...fenceFields(t as never),
    effectId: t.string({ required: false, description: 'Generated when absent' }),
    kind: t.string({ required: true }),
    request: t.string({ required: true, description: 'What the effect will do, JSON text, at most 65,536 characters' }),
  }),
});
const RecordContinuityReceiptInput = builder.inputType('RecordContinuityReceiptInput', {
  fields: (t) => ({
    ...fenceFields(t as never),
    effectId: t.string({ required: true }),
    outcome: t.field({ type: ReceiptOutcomeEnum, required: true }),
    receipt: t.string({ required: true, description: 'JSON text, at most 65,536 characters' }),
  }),
});
const FinalizeContinuityRunInput = builder.inputType('FinalizeContinuityRunInput', {
  fields: (t) => ({ ...fenceFields(t as never), result: t.string({ required: false, description: 'The final result, JSON text' }) }),
});
const CompleteContinuityRunInput = builder.inputType('CompleteContinuityRunInput', {
  fields: (t) => fenceFields(t as never),
});
const InterruptContinuityRunInput = builder.inputType('InterruptContinuityRunInput', {
  fields: (t) => ({ ...fenceFields(t as never), reason: t.string({ required: true }) }),
});
const ClaimContinuityRecoveryInput = builder.inputType('ClaimContinuityRecoveryInput', {
  fields: (t) => ({
    agentId: t.string({ required: false }),
    runId: t.string({ required: true }),
    ownerId: t.string({ required: true }),
    expectedGeneration: t.int({ required: false, description: 'The generation being recovered; refused if the run moved on' }),
  }),
});

builder.mutationFields((t) => ({
  startContinuityRun: t.field({
    type: ContinuityRunRef,
    errors: { types: CONTINUITY_ERRORS, dataField: { name: 'run' } },
    args: { input: t.arg({ type: StartContinuityRunInput, required: true }) },
    resolve: (_, { input }, ctx) => ctx.services.continuity.startRun(ctx.viewer, input),
  }),
  commitContinuityRun: t.field({
    type: ContinuityRunRef,
    description: 'Fenced head commit (RUNNING only)',
    errors: { types: CONTINUITY_ERRORS, dataField: { name: 'run' } },
    args: { input: t.arg({ type: CommitContinuityRunInput, required: true }) },
    resolve: (_, { input }, ctx) => ctx.services.continuity.commitHead(ctx.viewer, input),
  }),
  recordContinuityEffect: t.field({
    type: ContinuityEffectRef,
    description: 'Fenced: records an external effect before it is attempted',
    errors: { types: CONTINUITY_ERRORS, dataField: { name: 'effect' } },
    args: { input: t.arg({ type: RecordContinuityEffectInput, required: true }) },
    resolve: (_, { input }, ctx) => ctx.services.continuity.recordEffect(ctx.viewer, input),
  }),
  recordContinuityReceipt: t.field({
    type: ContinuityEffectRef,
    description: 'Fenced: records the confirmed outcome of an effect (also one intended by an earlier generation)',
    errors: { types: CONTINUITY_ERRORS, dataField: { name: 'effect' } },
    args: { input: t.arg({ type: RecordContinuityReceiptInput, required: true }) },
    resolve: (_, { input }, ctx) => ctx.services.continuity.recordReceipt(ctx.viewer, input),
  }),
  finalizeContinuityRun: t.field({
    type: ContinuityRunRef,
    description: 'RUNNING -> FINALIZING: the fenced terminal commit',
    errors: { types: CONTINUITY_ERRORS, dataField: { name: 'run' } },
    args: { input: t.arg({ type: FinalizeContinuityRunInput, required: true }) },
    resolve: (_, { input }, ctx) => ctx.services.continuity.finalize(ctx.viewer, input),
  }),
  completeContinuityRun: t.field({
    type: ContinuityRunRef,
    description: 'FINALIZING -> COMPLETED: the durable completion',
    errors: { types: CONTINUITY_ERRORS, dataField: { name: 'run' } },
    args: { input: t.arg({ type: CompleteContinuityRunInput, required: true }) },
    resolve: (_, { input }, ctx) => ctx.services.continuity.complete(ctx.viewer, input),
  }),
  interruptContinuityRun: t.field({
    type: ContinuityRunRef,
    description: 'RUNNING | FINALIZING -> INTERRUPTED by the owner, with an interruption manifest',
    errors: { types: CONTINUITY_ERRORS, dataField: { name: 'run' } },
    args: { input: t.arg({ type: InterruptContinuityRunInput, required: true }) },
    resolve: (_, { input }, ctx) => ctx.services.continuity.interrupt(ctx.viewer, input),
  }),
  claimContinuityRecovery: t.field({
    type: ContinuityRunRef,
    description: 'RECOVERY_PENDING -> RUNNING at the next generation, by a live owner',
    errors: { types: CONTINUITY_ERRORS, dataField: { name: 'run' } },
    args: { input: t.arg({ type: ClaimContinuityRecoveryInput, required: true }) },
    resolve: (_, { input }, ctx) => ctx.services.continuity.claimRecovery(ctx.viewer, input),
  }),
  reconcileContinuity: t.field({
    type: ReconcileContinuityPayloadRef,
    description: 'Interrupts runs whose owner is gone and assesses interrupted runs; agent tokens reconcile their own agent',
    args: { agentId: t.arg.string({ required: false }) },
    resolve: (_, args, ctx) => ctx.services.continuity.reconcileFor(ctx.viewer, args.agentId),
  }),
}));

/**
 * The ownership session as an iterator: first the owner, then (if the lock connection dies) a
 * last event with ended = lost. Ending the subscription ends the session and releases its lock.
 */
function ownershipEvents(session: OwnershipSession): AsyncIterableIterator<OwnershipEvent> {
  let opened = false;
  let done = false;
  const iterator: AsyncIterableIterator<OwnershipEvent> = {
    [Symbol.asyncIterator]: () => iterator,
    async next() {
      if (done) return { done: true, value: undefined };
      if (!opened) {
        opened = true;
        return { done: false, value: { session, ended: null } };
      }
      const how = await session.ended;
      if (done) return { done: true, value: undefined };
      done = true;
      return { done: false, value: { session, ended: how } };
    },
    async return() {
      done = true;
      await session.close();
      await session.ended;
      return { done: true, value: undefined };
    },
  };
  return iterator;
}

const ownershipRequiresWebSocket = () =>
  new RequestError('OWNERSHIP_REQUIRES_WEBSOCKET', 'runtimeOwnership is served over graphql-ws only: open it on a WebSocket, whose close ends the session');

builder.subscriptionFields((t) => ({
  continuityEvents: t.field({
    type: AgentEventRef,
    description: 'Every transition of one run, in order, with its sequence. With `after`, replays from the log first.',
    args: { agentId: t.arg.string({ required: true }), runId: t.arg.string({ required: true }), after: t.arg.int({ required: false }) },
    subscribe: async (_, args, ctx) => {
      await ctx.services.agents.requireAgent(ctx.viewer, args.agentId);
      return ctx.services.hub.subscribe({ agentId: args.agentId, after: afterSequence(args.after), streams: ['continuity'], subjectId: args.runId });
    },
    resolve: (event) => event,
  }),
  runtimeOwnership: t.field({
    type: RuntimeOwnershipRef,
    description:
      'Opens an ownership session: the owner id is alive exactly as long as this subscription (its lock) lives. graphql-ws only (OWNERSHIP_REQUIRES_WEBSOCKET over HTTP and SSE); at most BURROW_OWNERS_PER_AGENT live owners per agent (OWNER_LIMIT_REACHED) and BURROW_OWNERS_MAX owner connections in all (OWNER_CAPACITY_REACHED).',
    args: { agentId: t.arg.string({ required: false }) },
    subscribe: async (_, args, ctx) => {
      // Over HTTP nothing tells the server reliably that the client went away (a POST answered
      // 406, an SSE stream dropped before its first read), so a session could outlive its
      // holder; a WebSocket's close always ends the subscription.
      if (ctx.transport !== 'ws') throw ownershipRequiresWebSocket();
      return ownershipEvents(await ctx.services.continuity.openOwnership(ctx.viewer, args.agentId));
    },
    resolve: (event) => event,
  }),
}));
