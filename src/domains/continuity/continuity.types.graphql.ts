/**
 * The continuity node types: runs, their effects and transition log, owner sessions, the run
 * state enums and the fence error, with the batched links between them.
 */
import { builder } from '../../schema/builder.js';
import type { Context } from '../../context.js';
import { ErrorInterface } from '../../schema/errors.js';
import { connectionType, pageArgs, pagesPerKey } from '../../schema/connections.js';
import { GLOBAL_ID_DESCRIPTION, agentScopedKey, parseAgentScopedKey, parsePositionKey } from '../../schema/node-keys.js';
import { addAgentLink } from '../agents/agents.graphql.js';
import { bindingOf, decodePositionCursor, decodeTimeIdCursor, encodeCursor, encodeTimeIdCursor, pageSize, toConnection, INT4_MAX } from '../../lib/cursor.js';
import { CONTINUITY_RUN_STATES, type ContinuityRunState, type EffectOutcome } from './continuity.sql.js';
import { ContinuityFenceError } from './continuity.errors.js';
import type { ContinuityEffectRow, ContinuityLogRow, ContinuityOwnerRow, ContinuityRunRow, RunKey } from './continuity.reads.js';

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
export const ContinuityOwnerRef = builder.objectRef<ContinuityOwnerRow>('ContinuityOwner');
export const ContinuityEffectRef = builder.objectRef<ContinuityEffectRow>('ContinuityEffect');

/** Runs by their node keys for a link to a run: one statement per batch; a run that is gone fails its own field. */
export const loadRuns = (keys: string[], ctx: Context) =>
  ctx.services.continuity.runsByKeys(keys.map(runKeyOf)).then((runs) => runs.map((r, i) => r ?? new Error(`run ${keys[i]} is gone`)));

/** `owner: ContinuityOwner` on a record naming an owner session, batched. */
export function ownerField(description: string) {
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
export const RunConnection = connectionType(ContinuityRunRef, 'ContinuityRun');

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
