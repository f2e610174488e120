/** The input types of the continuity mutations: every fenced write names run, generation and owner. */
import { builder } from '../../schema/builder.js';

const ReceiptOutcomeEnum = builder.enumType('ContinuityReceiptOutcome', {
  description: 'The confirmed outcome a receipt records',
  values: {
    SUCCEEDED: { description: 'The effect happened' },
    FAILED: { description: 'The effect did not happen' },
  },
});

const fenceFields = (t: PothosSchemaTypes.InputFieldBuilder<PothosSchemaTypes.ExtendDefaultTypes<object>, 'InputObject'>) => ({
  agentId: t.string({ required: false, description: 'Operators name the agent; agent tokens act as their agent' }),
  runId: t.string({ required: true, description: 'The run id' }),
  generation: t.int({ required: true, description: 'The generation the writer holds (positive); a stale one is refused (STALE_GENERATION)' }),
  ownerId: t.string({ required: true, description: 'The live owner session the writer holds; another one is refused (NOT_OWNER)' }),
});

export const StartContinuityRunInput = builder.inputType('StartContinuityRunInput', {
  description: 'A new run, claimed by a live owner at generation 1',
  fields: (t) => ({
    agentId: t.string({ required: false, description: 'Operators name the agent; agent tokens act as their agent' }),
    runId: t.string({ required: false, description: '1 to 128 letters, digits, ".", "_", ":" or "-"; generated when absent' }),
    ownerId: t.string({ required: true, description: 'A live ownership session (runtimeOwnership) of the agent' }),
    head: t.string({ required: false, description: 'Initial head, JSON text (default {}), at most 262,144 characters' }),
  }),
});
export const CommitContinuityRunInput = builder.inputType('CommitContinuityRunInput', {
  description: 'A fenced head commit',
  fields: (t) => ({ ...fenceFields(t as never), head: t.string({ required: true, description: 'JSON text, at most 262,144 characters' }) }),
});
export const RecordContinuityEffectInput = builder.inputType('RecordContinuityEffectInput', {
  description: 'A fenced record of an external effect, before it is attempted',
  fields: (t) => ({
    ...fenceFields(t as never),
    effectId: t.string({ required: false, description: '1 to 128 letters, digits, ".", "_", ":" or "-"; generated when absent' }),
    kind: t.string({ required: true, description: 'What kind of effect, 1 to 200 characters' }),
    request: t.string({ required: true, description: 'What the effect will do, JSON text, at most 65,536 characters' }),
  }),
});
export const RecordContinuityReceiptInput = builder.inputType('RecordContinuityReceiptInput', {
  description: "A fenced receipt: an effect's confirmed outcome (final once recorded)",
  fields: (t) => ({
    ...fenceFields(t as never),
    effectId: t.string({ required: true, description: 'The effect, also one intended by an earlier generation' }),
    outcome: t.field({ type: ReceiptOutcomeEnum, required: true, description: 'What happened' }),
    receipt: t.string({ required: true, description: 'JSON text, at most 65,536 characters' }),
  }),
});
export const FinalizeContinuityRunInput = builder.inputType('FinalizeContinuityRunInput', {
  description: 'The fenced terminal commit',
  fields: (t) => ({
    ...fenceFields(t as never),
    result: t.string({ required: false, description: 'The final result, JSON text; a re-finalization keeps the earlier one when absent' }),
  }),
});
export const CompleteContinuityRunInput = builder.inputType('CompleteContinuityRunInput', {
  description: 'The fenced durable completion',
  fields: (t) => fenceFields(t as never),
});
export const InterruptContinuityRunInput = builder.inputType('InterruptContinuityRunInput', {
  description: "The owner's fenced interruption",
  fields: (t) => ({ ...fenceFields(t as never), reason: t.string({ required: true, description: 'Why, 1 to 2,000 characters' }) }),
});
export const ClaimContinuityRecoveryInput = builder.inputType('ClaimContinuityRecoveryInput', {
  description: 'A claim of a RECOVERY_PENDING run by a live owner',
  fields: (t) => ({
    agentId: t.string({ required: false, description: 'Operators name the agent; agent tokens act as their agent' }),
    runId: t.string({ required: true, description: 'The run id' }),
    ownerId: t.string({ required: true, description: 'A live ownership session of the agent; it becomes the owner' }),
    expectedGeneration: t.int({ required: false, description: 'The generation being recovered; refused (STALE_GENERATION) if the run moved on' }),
  }),
});
