/**
 * Inputs of the working-memory verbs (memory_working_search, memory_working_write): one
 * definition for GraphQL and MCP, with the limits WorkingMemoryService enforces.
 */
import { formatLimit as n, type InputFields } from '../../lib/input-spec.js';
import { agentIdField, projectField } from '../../auth/runtime.inputs.js';
import { idempotencyKeyField } from '../../db/idempotency.js';
import { WORKING_KINDS, WORKING_LIMITS, WORKING_STATES } from './working-memory.sql.js';

const kindField = {
  type: 'enum',
  values: WORKING_KINDS,
  description:
    'DECISION: a choice that was made; FINDING: something learned; BLOCKER: what stops progress; HANDOFF: what the next worker needs; TASK: operational evidence about a task (not a board task).',
} as const;
const stateField = {
  type: 'enum',
  values: WORKING_STATES,
  description: 'ACTIVE (still true or open), RESOLVED (dealt with) or SUPERSEDED (replaced by another record; needs supersededById).',
} as const;

export const workingSearchArgs = {
  query: {
    type: 'string',
    maxLength: WORKING_LIMITS.query,
    description: `Words to find in title and content; every word must occur (case-insensitive). Empty or absent lists the newest records. At most ${n(WORKING_LIMITS.query)} characters.`,
  },
  kind: { ...kindField, description: `Only records of this kind. ${kindField.description}` },
  state: { ...stateField, description: `Only records in this state. ${stateField.description}` },
  first: {
    type: 'int',
    minimum: 1,
    maximum: WORKING_LIMITS.search,
    default: WORKING_LIMITS.search,
    description: `How many records to return: 1 to ${n(WORKING_LIMITS.search)}, default ${n(WORKING_LIMITS.search)}.`,
  },
  project: projectField,
  agentId: agentIdField,
  idempotencyKey: idempotencyKeyField,
} as const satisfies InputFields;

/** The short id is `recordId` (a record's field `id` is its global node id), in GraphQL and MCP alike. */
export const workingWriteInput = {
  recordId: {
    type: 'string',
    description: 'Leave out to create a new record. Give the recordId of an existing record (with expectedRevision) to rewrite it.',
  },
  expectedRevision: {
    type: 'int',
    minimum: 1,
    description: 'Required with recordId: the revision you last read. If the record changed since, nothing is written and the current record comes back (REVISION_CONFLICT).',
  },
  kind: { ...kindField, required: true },
  state: {
    ...stateField,
    description: `${stateField.description} New records default to ACTIVE; a rewrite keeps the current state when absent.`,
  },
  title: {
    type: 'string',
    required: true,
    minLength: 1,
    maxLength: WORKING_LIMITS.title,
    description: `A short headline, 1 to ${n(WORKING_LIMITS.title)} characters.`,
  },
  content: {
    type: 'string',
    required: true,
    maxLength: WORKING_LIMITS.content,
    description: `The evidence itself, at most ${n(WORKING_LIMITS.content)} characters.`,
  },
  sourceRefs: {
    type: 'stringList',
    maxItems: WORKING_LIMITS.sourceRefs,
    itemMinLength: 1,
    itemMaxLength: WORKING_LIMITS.sourceRef,
    description: `Where this came from (e.g. conversation:<sessionId>/<entryId>, a file, a URL): at most ${n(WORKING_LIMITS.sourceRefs)}, each 1 to ${n(WORKING_LIMITS.sourceRef)} characters. A rewrite keeps the current list when absent.`,
  },
  pinned: { type: 'boolean', description: 'Pinned records never expire. Default false.' },
  ttlDays: {
    type: 'int',
    minimum: WORKING_LIMITS.ttlMin,
    maximum: WORKING_LIMITS.ttlMax,
    description: `Days until the record expires, ${n(WORKING_LIMITS.ttlMin)} to ${n(WORKING_LIMITS.ttlMax)}; default from BURROW_WORKING_TTL_DAYS (90). A rewrite whose material is unchanged keeps its expiry; a real change sets a new one from now.`,
  },
  supersededById: { type: 'string', description: 'With state SUPERSEDED: the recordId of the record in this scope that replaces this one.' },
  project: projectField,
  agentId: agentIdField,
  idempotencyKey: idempotencyKeyField,
} as const satisfies InputFields;
