/** The continuity mutations: starting a run, its fenced writes, recovery claims and reconciliation. */
import { builder } from '../../schema/builder.js';
import { ForbiddenError, NotFoundError, ValidationError } from '../../lib/errors.js';
import { ContinuityFenceError } from './continuity.errors.js';
import type { ReconcileResult } from './continuity.recovery.js';
import { ContinuityEffectRef, ContinuityRunRef, loadRuns } from './continuity.types.graphql.js';
import {
  ClaimContinuityRecoveryInput,
  CommitContinuityRunInput,
  CompleteContinuityRunInput,
  FinalizeContinuityRunInput,
  InterruptContinuityRunInput,
  RecordContinuityEffectInput,
  RecordContinuityReceiptInput,
  StartContinuityRunInput,
} from './continuity.inputs.graphql.js';

/**
 * The errors each continuity write can answer with: fenced writes can meet the fence, a missing
 * run, a dead owner (Forbidden) and bad input; a start has no run to fence yet.
 */
const FENCED_ERRORS = [ContinuityFenceError, ValidationError, NotFoundError, ForbiddenError];
const START_ERRORS = [ValidationError, ForbiddenError];
const CLAIM_ERRORS = [ContinuityFenceError, NotFoundError, ForbiddenError];

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
