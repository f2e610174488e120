import { builder } from '../../schema/builder.js';
import type { Context } from '../../context.js';
import { ErrorInterface } from '../../schema/errors.js';
import { AgentEventRef, afterSequence } from '../../schema/events.js';
import { connectionType, pageArgs, pagesPerKey } from '../../schema/connections.js';
import { GLOBAL_ID_DESCRIPTION, agentScopedKey, parseAgentScopedKey, parsePositionKey } from '../../schema/node-keys.js';
import { AgentRef, addAgentLink } from '../agents/agents.graphql.js';
import { bindingOf, decodePositionCursor, decodeTimeIdCursor, encodeCursor, encodeTimeIdCursor, pageSize, toConnection, INT4_MAX } from '../../lib/cursor.js';
import { ForbiddenError, NotFoundError, RequestError, ValidationError } from '../../lib/errors.js';
import { assertAgentAccess } from '../../auth/viewer.js';
import { CONTINUITY_RUN_STATES, type ContinuityRunState, type EffectOutcome } from './continuity.sql.js';
import { ContinuityFenceError } from './continuity.errors.js';
import type { ContinuityEffectRow, ContinuityLogRow, ContinuityOwnerRow, ContinuityRunRow, ReconcileResult, RunKey } from './continuity.service.js';
import type { OwnershipSession } from './ownership.js';

const RUN_STATE_DESCRIPTIONS: Record<ContinuityRunState, string> = {
  RUNNING: 'Owned by one live owner at one generation; head commits, effects and receipts are accepted',
  FINALIZING: 'The fenced terminal commit happened; waiting for the durable completion',
  COMPLETED: 'Finished; nothing changes any more',
  INTERRUPTED: 'Stopped by its owner or found abandoned by reconciliation; waiting to be assessed',
  RECOVERY_PENDING: 'Assessed from durable evidence; a live owner may claim it at the next generation',
};
export const ContinuityRunStateEnum = builder.enumType('ContinuityRunState', {
  description: 'Where a run is in its state machine',
  values: Object.fromEntries(CONTINUITY_RUN_STATES.map((s) => [s, { description: RUN_STATE_DESCRIPTIONS[s] }])) as Record<ContinuityRunState, { description: string }>,
});
const EffectOutcomeEnum = builder.enumType('ContinuityEffectOutcome', {
  description: 'What is known of an external effect',
  values: {
    UNKNOWN: { description: 'Intended, no receipt yet: it may or may not have happened' },
    SUCCEEDED: { description: 'A receipt confirmed it happened' },
    FAILED: { description: 'A receipt confirmed it did not happen' },
  },
});
const ReceiptOutcomeEnum = builder.enumType('ContinuityReceiptOutcome', {
  description: 'The confirmed outcome a receipt records',
  values: {
    SUCCEEDED: { description: 'The effect happened' },
    FAILED: { description: 'The effect did not happen' },
  },
});
const OwnershipEndEnum = builder.enumType('RuntimeOwnershipEnd', {
  description: 'How an ownership session ended',
  values: {
    CLOSED: { description: 'Its holder ended the subscription (or the WebSocket closed)' },
    LOST: { description: "The owner lock's database connection was lost; the owner's runs will be recovered" },
  },
});

/**
 * The errors each continuity write can answer with: fenced writes can meet the fence, a missing
 * run, a dead owner (Forbidden) and bad input; a start has no run to fence yet.
 */
const FENCED_ERRORS = [ContinuityFenceError, ValidationError, NotFoundError, ForbiddenError];
const START_ERRORS = [ValidationError, ForbiddenError];
const CLAIM_ERRORS = [ContinuityFenceError, NotFoundError, ForbiddenError];

builder.objectType(ContinuityFenceError, {
  name: 'ContinuityFenceRejected',
  description: 'A fenced write was refused (STALE_GENERATION, NOT_OWNER, FORBIDDEN_TRANSITION); nothing was changed',
  interfaces: [ErrorInterface],
  fields: (t) => ({
    runId: t.exposeString('runId', { description: 'The run the write named' }),
    currentState: t.field({ type: ContinuityRunStateEnum, description: "The run's state now", resolve: (e) => e.currentState as ContinuityRunState }),
    currentGeneration: t.exposeInt('currentGeneration', { description: "The run's generation now" }),
  }),
});

const runKeyString = (r: RunKey) => agentScopedKey(r.agentId, r.runId);
const runKeyOf = (key: string): RunKey => {
  const { agentId, recordId } = parseAgentScopedKey(key);
  return { agentId, runId: recordId };
};

export const ContinuityRunRef = builder.objectRef<ContinuityRunRow>('ContinuityRun');
const ContinuityOwnerRef = builder.objectRef<ContinuityOwnerRow>('ContinuityOwner');
const ContinuityEffectRef = builder.objectRef<ContinuityEffectRow>('ContinuityEffect');

/** Runs by their node keys for a link to a run: one statement per batch; a run that is gone fails its own field. */
const loadRuns = (keys: string[], ctx: Context) =>
  ctx.services.continuity.runsByKeys(keys.map(runKeyOf)).then((runs) => runs.map((r, i) => r ?? new Error(`run ${keys[i]} is gone`)));

/** `owner: ContinuityOwner` on a record naming an owner session, batched. */
function ownerField(description: string) {
  return {
    type: ContinuityOwnerRef,
    nullable: true,
    description,
    load: (keys: string[], ctx: { services: { continuity: { ownersByKeys: (k: { agentId: string; ownerId: string }[]) => Promise<(ContinuityOwnerRow | null)[]> } } }) =>
      ctx.services.continuity.ownersByKeys(
        keys.map((key) => {
          const { agentId, recordId } = parseAgentScopedKey(key);
          return { agentId, ownerId: recordId };
        }),
      ),
  } as const;
}

builder.node(ContinuityEffectRef, {
  description: 'An external effect a run recorded before attempting it, and its receipt once confirmed',
  id: { description: GLOBAL_ID_DESCRIPTION, resolve: (e) => agentScopedKey(e.agentId, JSON.stringify([e.runId, e.effectId])) },
  loadOne: (id, ctx) => {
    const { agentId, recordId } = parseAgentScopedKey(id);
    const parts = parseJsonPair(recordId);
    return parts ? ctx.services.continuity.getEffect(ctx.viewer, agentId, parts[0], parts[1]) : null;
  },
  fields: (t) => ({
    effectId: t.exposeString('effectId', { description: 'The effect id within its run (given by the runtime or generated)' }),
    agentId: t.exposeString('agentId', { description: 'The agent id' }),
    runId: t.exposeString('runId', { description: 'The run id' }),
    run: t.loadable({ type: ContinuityRunRef, description: 'The run that recorded the effect', load: loadRuns, resolve: (e) => runKeyString(e) }),
    kind: t.exposeString('kind', { description: 'What kind of effect, as the runtime named it (1 to 200 characters)' }),
    request: t.exposeString('request', { description: 'What the effect will do: the JSON text exactly as recorded' }),
    outcome: t.field({ type: EffectOutcomeEnum, description: 'What is known of it', resolve: (e) => e.outcome as EffectOutcome }),
    receipt: t.exposeString('receipt', { nullable: true, description: 'The receipt, JSON text exactly as recorded; null until one is recorded' }),
    intendedGeneration: t.exposeInt('intendedGeneration', { description: 'The run generation that recorded the intent' }),
    intendedBy: t.exposeString('intendedBy', { description: 'The owner id that recorded the intent' }),
    intendedAt: t.expose('intendedAt', { type: 'DateTime', description: 'When the intent was recorded' }),
    receiptGeneration: t.exposeInt('receiptGeneration', { nullable: true, description: 'The run generation that recorded the receipt' }),
    receiptBy: t.exposeString('receiptBy', { nullable: true, description: 'The owner id that recorded the receipt' }),
    receiptAt: t.expose('receiptAt', { type: 'DateTime', nullable: true, description: 'When the receipt was recorded' }),
  }),
});
addAgentLink(ContinuityEffectRef, (e) => e.agentId);
builder.objectField(ContinuityEffectRef, 'intendedByOwner', (t) =>
  t.loadable({ ...ownerField('The owner session that recorded the intent'), resolve: (e) => agentScopedKey(e.agentId, e.intendedBy) }),
);

function parseJsonPair(text: string): [string, string] | null {
  try {
    const value = JSON.parse(text) as unknown;
    return Array.isArray(value) && value.length === 2 && value.every((v) => typeof v === 'string') ? (value as [string, string]) : null;
  } catch {
    return null;
  }
}

const ContinuityTransitionRef = builder.objectRef<ContinuityLogRow>('ContinuityTransition');
builder.node(ContinuityTransitionRef, {
  description: "One entry of a run's transition log: append-only, positions 1..n without gaps",
  id: { description: GLOBAL_ID_DESCRIPTION, resolve: (l) => agentScopedKey(l.agentId, JSON.stringify([l.runId, l.position])) },
  loadOne: (id, ctx) => {
    const { agentId, recordId } = parseAgentScopedKey(id);
    const entry = parsePositionKey(recordId);
    return entry ? ctx.services.continuity.getTransition(ctx.viewer, agentId, entry.id, entry.position) : null;
  },
  fields: (t) => ({
    agentId: t.exposeString('agentId', { description: 'The agent id' }),
    runId: t.exposeString('runId', { description: 'The run id' }),
    run: t.loadable({ type: ContinuityRunRef, description: 'The run this transition belongs to', load: loadRuns, resolve: (l) => runKeyString(l) }),
    position: t.exposeInt('position', { description: 'Position in the log, from 1' }),
    from: t.field({
      type: ContinuityRunStateEnum,
      nullable: true,
      description: 'The state before; null for the first claim',
      resolve: (l) => l.fromState as ContinuityRunState | null,
    }),
    to: t.field({ type: ContinuityRunStateEnum, description: 'The state after', resolve: (l) => l.toState as ContinuityRunState }),
    generation: t.exposeInt('generation', { description: 'The run generation after the transition' }),
    ownerId: t.exposeString('ownerId', { description: 'The owner id after the transition' }),
    owner: t.loadable({ ...ownerField('The owner session after the transition'), resolve: (l) => agentScopedKey(l.agentId, l.ownerId) }),
    reason: t.exposeString('reason', { description: 'Why: claimed, finalized, completed, interrupted, abandoned, assessed, recovery_claimed, or the reason an owner gave' }),
    sequence: t.exposeInt('eventSequence', { description: 'The agent event sequence that announced it' }),
    at: t.expose('at', { type: 'DateTime', description: 'When it happened' }),
  }),
});
addAgentLink(ContinuityTransitionRef, (l) => l.agentId);

const EffectConnection = connectionType(ContinuityEffectRef, 'ContinuityEffect', { totalCount: "Every effect of the run (the run's effectCount)" });
const TransitionConnection = connectionType(ContinuityTransitionRef, 'ContinuityTransition', { totalCount: 'Every transition of the run' });
const RunConnection = connectionType(ContinuityRunRef, 'ContinuityRun');

const EFFECTS_PAGE = 500;
/** The loader key of a run's nested list: the run and its count (the run row already holds it). */
const countedKey = (r: RunKey, count: number) => JSON.stringify([r.agentId, r.runId, count]);
const countedKeyOf = (key: string) => {
  const [agentId, runId, count] = JSON.parse(key) as [string, string, number];
  return { run: { agentId, runId }, count };
};
const effectsBinding = (r: RunKey) => bindingOf('continuityEffects', r.agentId, r.runId);
const transitionsBinding = (r: RunKey) => bindingOf('continuityTransitions', r.agentId, r.runId);

builder.node(ContinuityRunRef, {
  description: 'One run of an agent under continuity: its owner, generation, committed head, effects and transition log',
  id: { description: GLOBAL_ID_DESCRIPTION, resolve: (r) => runKeyString(r) },
  loadOne: (id, ctx) => {
    const { agentId, runId } = runKeyOf(id);
    return ctx.services.continuity.getRun(ctx.viewer, agentId, runId);
  },
  fields: (t) => ({
    runId: t.exposeString('runId', { description: 'The run id used in every continuity argument (the node id is global)' }),
    agentId: t.exposeString('agentId', { description: 'The agent id' }),
    sessionId: t.exposeString('sessionId', { nullable: true, description: 'The runtime session (Burrow-Session) that started the run' }),
    project: t.exposeString('project', { nullable: true, description: 'The continuity scope (Burrow-Continuity-Scope) that started the run' }),
    state: t.field({ type: ContinuityRunStateEnum, description: 'Where the run is', resolve: (r) => r.state as ContinuityRunState }),
    generation: t.exposeInt('generation', { description: 'Starts at 1; each recovery claim adds 1. Fenced writes name it.' }),
    ownerId: t.exposeString('ownerId', { description: 'The owner session that holds the run at this generation' }),
    owner: t.loadable({ ...ownerField('The owner session that holds the run at this generation'), resolve: (r) => agentScopedKey(r.agentId, r.ownerId) }),
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
    effectCount: t.exposeInt('effectCount', { description: 'How many effects the run recorded' }),
    createdAt: t.expose('createdAt', { type: 'DateTime', description: 'When the run started' }),
    updatedAt: t.expose('updatedAt', { type: 'DateTime', description: 'The last change' }),
    completedAt: t.expose('completedAt', { type: 'DateTime', nullable: true, description: 'When it completed' }),
    interruptedAt: t.expose('interruptedAt', { type: 'DateTime', nullable: true, description: 'The last interruption' }),
    effects: t.loadable({
      type: EffectConnection,
      description: `External effects in the order they were intended (intendedAt, then effectId); pages of 1 to ${EFFECTS_PAGE}, 100 by default`,
      args: pageArgs(t.arg, EFFECTS_PAGE, 100),
      byPath: true,
      load: async (keys: string[], ctx, args) => {
        const limit = pageSize(args.first, EFFECTS_PAGE, 100);
        return pagesPerKey(
          keys.map(countedKeyOf),
          ({ run, count }) => {
            const p = decodeTimeIdCursor(args.after, effectsBinding(run));
            return { ...run, count, after: p && { intendedAt: p.at, effectId: p.id } };
          },
          (runs) => ctx.services.continuity.effectPagesForRuns(runs, limit + 1),
          (page, run) => {
            const binding = effectsBinding(run);
            return { ...toConnection(page, limit, (e) => encodeTimeIdCursor(binding, e.intendedAt, e.effectId), args.after), totalCount: () => run.count };
          },
        );
      },
      resolve: (r) => countedKey(r, r.effectCount),
    }),
    transitions: t.loadable({
      type: TransitionConnection,
      description: `The transition log of the run in position order; pages of 1 to ${EFFECTS_PAGE}, 100 by default`,
      args: pageArgs(t.arg, EFFECTS_PAGE, 100),
      byPath: true,
      load: async (keys: string[], ctx, args) => {
        const limit = pageSize(args.first, EFFECTS_PAGE, 100);
        return pagesPerKey(
          keys.map(countedKeyOf),
          ({ run, count }) => ({ ...run, count, afterPosition: decodePositionCursor(args.after, transitionsBinding(run), INT4_MAX) }),
          (runs) => ctx.services.continuity.transitionPagesForRuns(runs, limit + 1),
          (page, run) => {
            const binding = transitionsBinding(run);
            return { ...toConnection(page, limit, (l) => encodeCursor(binding, [l.position]), args.after), totalCount: () => run.count };
          },
        );
      },
      resolve: (r) => countedKey(r, r.transitionCount),
    }),
  }),
});
addAgentLink(ContinuityRunRef, (r) => r.agentId);
// The counts come from the run row itself, so totalCount costs nothing.
builder.objectField(ContinuityRunRef, 'transitionCount', (t) => t.exposeInt('transitionCount', { description: 'How many transitions the log holds' }));

builder.node(ContinuityOwnerRef, {
  description: 'An ownership session of an agent (opened by runtimeOwnership): runs are claimed and fenced by its owner id',
  id: { description: GLOBAL_ID_DESCRIPTION, resolve: (o) => agentScopedKey(o.agentId, o.id) },
  loadOne: (id, ctx) => {
    const { agentId, recordId } = parseAgentScopedKey(id);
    return ctx.services.continuity.getOwner(ctx.viewer, agentId, recordId);
  },
  fields: (t) => ({
    ownerId: t.exposeString('id', { description: 'The owner id that fenced writes name' }),
    agentId: t.exposeString('agentId', { description: 'The agent id' }),
    instance: t.exposeString('instance', { description: 'The server instance that holds the owner lock' }),
    openedAt: t.expose('openedAt', { type: 'DateTime', description: 'When the session opened' }),
    closedAt: t.expose('closedAt', { type: 'DateTime', nullable: true, description: 'When the session was recorded as ended; null while open' }),
    live: t.exposeBoolean('live', { description: 'Decided by the owner lock protocol at read time' }),
  }),
});
addAgentLink(ContinuityOwnerRef, (o) => o.agentId);

interface OwnershipEvent {
  session: OwnershipSession;
  ended: 'closed' | 'lost' | null;
}

const RuntimeOwnershipRef = builder.objectRef<OwnershipEvent>('RuntimeOwnership').implement({
  description: 'The first event names the owner; a last one (ended = LOST) says the owner lock was lost',
  fields: (t) => ({
    ownerId: t.string({ description: 'The owner id to name in startContinuityRun and every fenced write', resolve: (e) => e.session.ownerId }),
    owner: t.loadable({ ...ownerField('The owner session as stored'), resolve: (e) => agentScopedKey(e.session.agentId, e.session.ownerId) }),
    agentId: t.string({ description: 'The agent id', resolve: (e) => e.session.agentId }),
    instance: t.string({ description: 'The server instance that holds the owner lock', resolve: (e) => e.session.instance }),
    openedAt: t.field({ type: 'DateTime', description: 'When the session opened', resolve: (e) => e.session.openedAt }),
    live: t.boolean({ description: 'True on the first event; false on the last', resolve: (e) => e.ended === null }),
    ended: t.field({
      type: OwnershipEndEnum,
      nullable: true,
      description: 'How the session ended; null while it is live',
      resolve: (e) => (e.ended === null ? null : e.ended === 'lost' ? 'LOST' : 'CLOSED'),
    }),
  }),
});
builder.objectField(RuntimeOwnershipRef, 'agent', (t) =>
  t.loadable({
    type: AgentRef,
    description: 'The agent this session owns runs of',
    load: (ids: string[], ctx) => ctx.services.agents.agentsInOrder(ids),
    resolve: (e) => e.session.agentId,
  }),
);

const ReconcileContinuityPayloadRef = builder.objectRef<ReconcileResult>('ReconcileContinuityPayload').implement({
  description: 'What one reconciliation pass did',
  fields: (t) => ({
    ownersChecked: t.exposeInt('ownersChecked', { description: 'Owner sessions whose liveness this pass checked' }),
    failed: t.loadable({
      type: [ContinuityRunRef],
      description: 'Runs whose reconciliation failed this pass; the next pass retries them',
      load: loadRuns,
      resolve: (r) => r.failed,
    }),
    interrupted: t.field({ type: [ContinuityRunRef], description: 'Runs this pass found abandoned and interrupted', resolve: (r) => r.interrupted }),
    recoveryPending: t.field({ type: [ContinuityRunRef], description: 'Runs this pass assessed into RECOVERY_PENDING', resolve: (r) => r.recoveryPending }),
  }),
});

const RUNS_PAGE = 100;
const runsBinding = (agentId: string | null, states: readonly ContinuityRunState[] | null) => bindingOf('continuityRuns', agentId, ...(states ?? []));

builder.objectFields(AgentRef, (t) => ({
  continuityRuns: t.loadable({
    type: RunConnection,
    description: `The agent's runs, newest first (createdAt, then runId); pages of 1 to ${RUNS_PAGE}, 20 by default. Authorized like Query.continuityRuns; cursors are interchangeable with it.`,
    args: {
      states: t.arg({ type: [ContinuityRunStateEnum], required: false, description: 'Only runs in these states; every state when absent' }),
      ...pageArgs(t.arg, RUNS_PAGE),
    },
    byPath: true,
    load: async (agentIds: string[], ctx, args) => {
      const limit = pageSize(args.first, RUNS_PAGE, 20);
      const states = args.states ? [...new Set(args.states)].sort() : null;
      return pagesPerKey(
        agentIds,
        (agentId) => {
          assertAgentAccess(ctx.viewer, agentId);
          const p = decodeTimeIdCursor(args.after, runsBinding(agentId, states));
          return { agentId, after: p && { createdAt: p.at, runId: p.id } };
        },
        (agents) => ctx.services.continuity.runPagesForAgents(agents, states, limit + 1),
        (page, { agentId }) => {
          const binding = runsBinding(agentId, states);
          return toConnection(page, limit, (r) => encodeTimeIdCursor(binding, r.createdAt, r.runId), args.after);
        },
      );
    },
    resolve: (agent) => agent.id,
  }),
}));

builder.queryFields((t) => ({
  continuityRun: t.field({
    type: ContinuityRunRef,
    nullable: true,
    description: 'One run by its run id, or null',
    args: {
      runId: t.arg.string({ required: true, description: 'The run id (`ContinuityRun.runId`)' }),
      agentId: t.arg.string({ required: false, description: 'Operators name the agent; agent tokens read their own' }),
    },
    resolve: (_, args, ctx) => ctx.services.continuity.getRun(ctx.viewer, args.agentId, args.runId),
  }),
  continuityRuns: t.field({
    type: RunConnection,
    description: `Runs of one agent, newest first (createdAt, then runId); pages of 1 to ${RUNS_PAGE}, 20 by default. Also \`Agent.continuityRuns\`.`,
    args: {
      agentId: t.arg.string({ required: false, description: 'Operators name the agent; agent tokens read their own' }),
      states: t.arg({ type: [ContinuityRunStateEnum], required: false, description: 'Only runs in these states; every state when absent' }),
      ...pageArgs(t.arg, RUNS_PAGE),
    },
    resolve: async (_, args, ctx) => {
      const limit = pageSize(args.first, RUNS_PAGE, 20);
      const states = args.states ? [...new Set(args.states)].sort() : null;
      const binding = runsBinding(args.agentId ?? ctx.viewer?.agentId ?? null, states);
      const position = decodeTimeIdCursor(args.after, binding);
      const after = position && { createdAt: position.at, runId: position.id };
      const { rows } = await ctx.services.continuity.listRuns(ctx.viewer, { agentId: args.agentId, states, limit: limit + 1, after });
      return toConnection(rows, limit, (r) => encodeTimeIdCursor(binding, r.createdAt, r.runId), args.after);
    },
  }),
  continuityOwners: t.field({
    type: [ContinuityOwnerRef],
    description: 'Ownership sessions of an agent with their liveness (lock protocol), newest first, at most 500',
    args: {
      agentId: t.arg.string({ required: false, description: 'Operators name the agent; agent tokens read their own' }),
      includeClosed: t.arg.boolean({ required: false, description: 'Also sessions that have ended; false by default' }),
    },
    resolve: (_, args, ctx) => ctx.services.continuity.listOwners(ctx.viewer, args.agentId, args.includeClosed ?? false),
  }),
}));

const fenceFields = (t: PothosSchemaTypes.InputFieldBuilder<PothosSchemaTypes.ExtendDefaultTypes<object>, 'InputObject'>) => ({
  agentId: t.string({ required: false, description: 'Operators name the agent; agent tokens act as their agent' }),
  runId: t.string({ required: true, description: 'The run id' }),
  generation: t.int({ required: true, description: 'The generation the writer holds (positive); a stale one is refused (STALE_GENERATION)' }),
  ownerId: t.string({ required: true, description: 'The live owner session the writer holds; another one is refused (NOT_OWNER)' }),
});

const StartContinuityRunInput = builder.inputType('StartContinuityRunInput', {
  description: 'A new run, claimed by a live owner at generation 1',
  fields: (t) => ({
    agentId: t.string({ required: false, description: 'Operators name the agent; agent tokens act as their agent' }),
    runId: t.string({ required: false, description: '1 to 128 letters, digits, ".", "_", ":" or "-"; generated when absent' }),
    ownerId: t.string({ required: true, description: 'A live ownership session (runtimeOwnership) of the agent' }),
    head: t.string({ required: false, description: 'Initial head, JSON text (default {}), at most 262,144 characters' }),
  }),
});
const CommitContinuityRunInput = builder.inputType('CommitContinuityRunInput', {
  description: 'A fenced head commit',
  fields: (t) => ({ ...fenceFields(t as never), head: t.string({ required: true, description: 'JSON text, at most 262,144 characters' }) }),
});
const RecordContinuityEffectInput = builder.inputType('RecordContinuityEffectInput', {
  description: 'A fenced record of an external effect, before it is attempted',
  fields: (t) => ({
    ...fenceFields(t as never),
    effectId: t.string({ required: false, description: '1 to 128 letters, digits, ".", "_", ":" or "-"; generated when absent' }),
    kind: t.string({ required: true, description: 'What kind of effect, 1 to 200 characters' }),
    request: t.string({ required: true, description: 'What the effect will do, JSON text, at most 65,536 characters' }),
  }),
});
const RecordContinuityReceiptInput = builder.inputType('RecordContinuityReceiptInput', {
  description: "A fenced receipt: an effect's confirmed outcome (final once recorded)",
  fields: (t) => ({
    ...fenceFields(t as never),
    effectId: t.string({ required: true, description: 'The effect, also one intended by an earlier generation' }),
    outcome: t.field({ type: ReceiptOutcomeEnum, required: true, description: 'What happened' }),
    receipt: t.string({ required: true, description: 'JSON text, at most 65,536 characters' }),
  }),
});
const FinalizeContinuityRunInput = builder.inputType('FinalizeContinuityRunInput', {
  description: 'The fenced terminal commit',
  fields: (t) => ({
    ...fenceFields(t as never),
    result: t.string({ required: false, description: 'The final result, JSON text; a re-finalization keeps the earlier one when absent' }),
  }),
});
const CompleteContinuityRunInput = builder.inputType('CompleteContinuityRunInput', {
  description: 'The fenced durable completion',
  fields: (t) => fenceFields(t as never),
});
const InterruptContinuityRunInput = builder.inputType('InterruptContinuityRunInput', {
  description: "The owner's fenced interruption",
  fields: (t) => ({ ...fenceFields(t as never), reason: t.string({ required: true, description: 'Why, 1 to 2,000 characters' }) }),
});
const ClaimContinuityRecoveryInput = builder.inputType('ClaimContinuityRecoveryInput', {
  description: 'A claim of a RECOVERY_PENDING run by a live owner',
  fields: (t) => ({
    agentId: t.string({ required: false, description: 'Operators name the agent; agent tokens act as their agent' }),
    runId: t.string({ required: true, description: 'The run id' }),
    ownerId: t.string({ required: true, description: 'A live ownership session of the agent; it becomes the owner' }),
    expectedGeneration: t.int({ required: false, description: 'The generation being recovered; refused (STALE_GENERATION) if the run moved on' }),
  }),
});

builder.mutationFields((t) => ({
  startContinuityRun: t.field({
    type: ContinuityRunRef,
    description: 'Starts a run RUNNING at generation 1 under a live owner (OWNER_NOT_LIVE otherwise); a taken run id is ValidationFailed',
    errors: { types: START_ERRORS, dataField: { name: 'run' } },
    args: { input: t.arg({ type: StartContinuityRunInput, required: true, description: 'The run' }) },
    resolve: (_, { input }, ctx) => ctx.services.continuity.startRun(ctx.viewer, input),
  }),
  commitContinuityRun: t.field({
    type: ContinuityRunRef,
    description: 'Fenced head commit (RUNNING only)',
    errors: { types: FENCED_ERRORS, dataField: { name: 'run' } },
    args: { input: t.arg({ type: CommitContinuityRunInput, required: true, description: 'The fence and the head' }) },
    resolve: (_, { input }, ctx) => ctx.services.continuity.commitHead(ctx.viewer, input),
  }),
  recordContinuityEffect: t.field({
    type: ContinuityEffectRef,
    description: 'Fenced: records an external effect before it is attempted (RUNNING or FINALIZING)',
    errors: { types: FENCED_ERRORS, dataField: { name: 'effect' } },
    args: { input: t.arg({ type: RecordContinuityEffectInput, required: true, description: 'The fence and the effect' }) },
    resolve: (_, { input }, ctx) => ctx.services.continuity.recordEffect(ctx.viewer, input),
  }),
  recordContinuityReceipt: t.field({
    type: ContinuityEffectRef,
    description: 'Fenced: records the confirmed outcome of an effect (also one intended by an earlier generation); a second receipt is Forbidden (RECEIPT_RECORDED)',
    errors: { types: FENCED_ERRORS, dataField: { name: 'effect' } },
    args: { input: t.arg({ type: RecordContinuityReceiptInput, required: true, description: 'The fence and the receipt' }) },
    resolve: (_, { input }, ctx) => ctx.services.continuity.recordReceipt(ctx.viewer, input),
  }),
  finalizeContinuityRun: t.field({
    type: ContinuityRunRef,
    description: 'RUNNING -> FINALIZING: the fenced terminal commit',
    errors: { types: FENCED_ERRORS, dataField: { name: 'run' } },
    args: { input: t.arg({ type: FinalizeContinuityRunInput, required: true, description: 'The fence and the result' }) },
    resolve: (_, { input }, ctx) => ctx.services.continuity.finalize(ctx.viewer, input),
  }),
  completeContinuityRun: t.field({
    type: ContinuityRunRef,
    description: 'FINALIZING -> COMPLETED: the durable completion',
    errors: { types: FENCED_ERRORS, dataField: { name: 'run' } },
    args: { input: t.arg({ type: CompleteContinuityRunInput, required: true, description: 'The fence' }) },
    resolve: (_, { input }, ctx) => ctx.services.continuity.complete(ctx.viewer, input),
  }),
  interruptContinuityRun: t.field({
    type: ContinuityRunRef,
    description: 'RUNNING | FINALIZING -> INTERRUPTED by the owner, with an interruption manifest',
    errors: { types: FENCED_ERRORS, dataField: { name: 'run' } },
    args: { input: t.arg({ type: InterruptContinuityRunInput, required: true, description: 'The fence and the reason' }) },
    resolve: (_, { input }, ctx) => ctx.services.continuity.interrupt(ctx.viewer, input),
  }),
  claimContinuityRecovery: t.field({
    type: ContinuityRunRef,
    description: 'RECOVERY_PENDING -> RUNNING at the next generation, by a live owner',
    errors: { types: CLAIM_ERRORS, dataField: { name: 'run' } },
    args: { input: t.arg({ type: ClaimContinuityRecoveryInput, required: true, description: 'The run and the claiming owner' }) },
    resolve: (_, { input }, ctx) => ctx.services.continuity.claimRecovery(ctx.viewer, input),
  }),
  reconcileContinuity: t.field({
    type: ReconcileContinuityPayloadRef,
    description: 'Interrupts runs whose owner is gone and assesses interrupted runs; agent tokens reconcile their own agent, operators one agent or all',
    args: { agentId: t.arg.string({ required: false, description: 'Operators: one agent, or every agent when absent; agent tokens: their own' }) },
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
    args: {
      agentId: t.arg.string({ required: true, description: 'The agent id' }),
      runId: t.arg.string({ required: true, description: 'The run id' }),
      after: t.arg.int({ required: false, description: 'Replay events after this agent event sequence first' }),
    },
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
    args: { agentId: t.arg.string({ required: false, description: 'Operators name the agent; agent tokens own for their agent' }) },
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
