/**
 * Inputs of the handoff verbs (session_read_handoff, session_write_handoff): one definition for
 * GraphQL and MCP, with the limits HandoffsService enforces.
 */
import { formatLimit as n, type InputFields } from '../../lib/input-spec.js';
import { agentIdField, projectField } from '../../auth/runtime.inputs.js';
import { idempotencyKeyField } from '../../db/idempotency.js';
import { HANDOFF_EVIDENCE, HANDOFF_LIMITS } from './handoffs.sql.js';

export const handoffReadArgs = {
  first: {
    type: 'int',
    minimum: 1,
    maximum: HANDOFF_LIMITS.read,
    default: HANDOFF_LIMITS.readDefault,
    description: `How many recent handoffs to return: 1 to ${n(HANDOFF_LIMITS.read)}, default ${n(HANDOFF_LIMITS.readDefault)}.`,
  },
  project: projectField,
  agentId: agentIdField,
} as const satisfies InputFields;

export const handoffSourceRefInput = {
  ref: {
    type: 'string',
    required: true,
    minLength: 1,
    maxLength: HANDOFF_LIMITS.sourceRef,
    description: `1 to ${n(HANDOFF_LIMITS.sourceRef)} characters, e.g. conversation:<sessionId>/<entryId>.`,
  },
  evidence: {
    type: 'enum',
    values: HANDOFF_EVIDENCE,
    description: 'ASSISTANT_ASSERTION (default): something the assistant said, not verification of it. TOOL_EVIDENCE: the result of a tool call that succeeded.',
  },
} as const satisfies InputFields;

export const handoffWriteInput = {
  title: {
    type: 'string',
    required: true,
    minLength: 1,
    maxLength: HANDOFF_LIMITS.title,
    description: `A short headline, 1 to ${n(HANDOFF_LIMITS.title)} characters.`,
  },
  goal: { type: 'string', required: true, maxLength: HANDOFF_LIMITS.goal, description: `What the session was trying to do, at most ${n(HANDOFF_LIMITS.goal)} characters.` },
  outcome: { type: 'string', required: true, maxLength: HANDOFF_LIMITS.outcome, description: `Where it ended up, at most ${n(HANDOFF_LIMITS.outcome)} characters.` },
  body: { type: 'string', required: true, maxLength: HANDOFF_LIMITS.body, description: `What the next session needs to know, at most ${n(HANDOFF_LIMITS.body)} characters.` },
  sourceRefs: {
    type: 'objectList',
    maxItems: HANDOFF_LIMITS.sourceRefs,
    fields: handoffSourceRefInput,
    description: `Evidence pointers, at most ${n(HANDOFF_LIMITS.sourceRefs)}.`,
  },
  ttlDays: {
    type: 'int',
    minimum: HANDOFF_LIMITS.ttlMin,
    maximum: HANDOFF_LIMITS.ttlMax,
    default: HANDOFF_LIMITS.defaultTtlDays,
    description: `Days until the handoff expires, ${n(HANDOFF_LIMITS.ttlMin)} to ${n(HANDOFF_LIMITS.ttlMax)}, default ${n(HANDOFF_LIMITS.defaultTtlDays)}.`,
  },
  project: projectField,
  agentId: agentIdField,
  idempotencyKey: idempotencyKeyField,
} as const satisfies InputFields;

/** Agent.handoffs: the agent is the parent; `sessionId` narrows to one session. */
const { agentId: _agent, ...agentReadRest } = handoffReadArgs;
export const agentHandoffsArgs = {
  sessionId: { type: 'string', description: 'Only the handoff of this runtime session (at most one per session and scope); absent: every session.' },
  ...agentReadRest,
} as const satisfies InputFields;
