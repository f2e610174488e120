/**
 * Inputs of the Brains verbs (brain_search, brain_read, brain_save, brain_update, brain_remove):
 * one definition for GraphQL and MCP, with the limits BrainsService enforces.
 */
import { formatLimit as n, type InputFields } from '../../lib/input-spec.js';
import { agentIdField } from '../../auth/runtime.inputs.js';
import { idempotencyKeyField } from '../../db/idempotency.js';
import { BRAIN_CONTENT_LIMIT, BRAIN_SOURCE_REF_LENGTH_LIMIT, BRAIN_SOURCE_REFS_LIMIT, BRAIN_TITLE_LIMIT } from './brains.sql.js';
import { QUERY_MAX_LENGTH, QUERY_MIN_LENGTH, SEARCH_LIMIT_DEFAULT, SEARCH_LIMIT_MAX } from './brains.search.js';

const idField = { type: 'id', required: true, description: 'The memory id: `memoryId` of a memory from brain_search, brain_read or brain_save (not its global `id`).' } as const;
const expectedRevisionField = {
  type: 'int',
  required: true,
  minimum: 1,
  description: 'The revision you last read. If the memory changed since, nothing is written and the current memory comes back (REVISION_CONFLICT).',
} as const;
const title = <R extends boolean>(required: R) =>
  ({ type: 'string', required, minLength: 1, maxLength: BRAIN_TITLE_LIMIT, description: `1 to ${n(BRAIN_TITLE_LIMIT)} characters (trimmed).` }) as const;
const content = <R extends boolean>(required: R) =>
  ({ type: 'string', required, maxLength: BRAIN_CONTENT_LIMIT, description: `The memory itself, at most ${n(BRAIN_CONTENT_LIMIT)} characters.` }) as const;
const sourceRefs = (extra: string) =>
  ({
    type: 'stringList',
    maxItems: BRAIN_SOURCE_REFS_LIMIT,
    itemMinLength: 1,
    itemMaxLength: BRAIN_SOURCE_REF_LENGTH_LIMIT,
    description: `Where the claim came from: at most ${n(BRAIN_SOURCE_REFS_LIMIT)}, each 1 to ${n(BRAIN_SOURCE_REF_LENGTH_LIMIT)} characters. A reference is not verification of current state.${extra}`,
  }) as const;

export const brainSearchArgs = {
  query: {
    type: 'string',
    required: true,
    minLength: QUERY_MIN_LENGTH,
    maxLength: QUERY_MAX_LENGTH,
    description: `Words to look for; words of at least ${n(QUERY_MIN_LENGTH)} characters are matched, in title (counts double) and content. At most ${n(QUERY_MAX_LENGTH)} characters.`,
  },
  limit: {
    type: 'int',
    minimum: 1,
    maximum: SEARCH_LIMIT_MAX,
    default: SEARCH_LIMIT_DEFAULT,
    description: `How many hits to return: 1 to ${n(SEARCH_LIMIT_MAX)}, default ${n(SEARCH_LIMIT_DEFAULT)}.`,
  },
  agentId: agentIdField,
} as const satisfies InputFields;

/** Reading the past: the memory as it was at an instant, from its revisions. */
export const asOfField = {
  type: 'dateTime',
  description:
    'Read the memory as it was at this instant (ISO-8601, e.g. 2026-06-01T12:00:00.000Z; a time the API showed, such as updatedAt, includes the revision written then): ' +
    'its latest revision written at or before asOf. Not found when it did not exist yet; a removed memory comes back as its tombstone (deleted true, deletedAt set). Absent: the current memory.',
} as const;

export const brainReadArgs = { id: idField, agentId: agentIdField, asOf: asOfField } as const satisfies InputFields;

export const brainSaveInput = {
  agentId: agentIdField,
  title: title(true),
  content: content(true),
  sourceRefs: sourceRefs(''),
  idempotencyKey: idempotencyKeyField,
} as const satisfies InputFields;

export const brainUpdateInput = {
  id: idField,
  agentId: agentIdField,
  expectedRevision: expectedRevisionField,
  title: { ...title(false), description: `New title, 1 to ${n(BRAIN_TITLE_LIMIT)} characters; absent keeps the current one.` },
  content: { ...content(false), description: `New content, at most ${n(BRAIN_CONTENT_LIMIT)} characters; absent keeps the current one.` },
  sourceRefs: sourceRefs(' Replaces the list when given; absent keeps it.'),
} as const satisfies InputFields;

export const brainRemoveInput = { id: idField, agentId: agentIdField, expectedRevision: expectedRevisionField } as const satisfies InputFields;

/**
 * The forms GraphQL and the MCP tools both take: the short id is `memoryId` (`id` is the global
 * node id, as on every entity) and the page size is `first`, as on every other field. One set of
 * names, limits and descriptions for both transports.
 */
const memoryIdField = { ...idField, type: 'string' } as const;
const { id: _readId, ...readRest } = brainReadArgs;
const { id: _updateId, ...updateRest } = brainUpdateInput;
const { id: _removeId, ...removeRest } = brainRemoveInput;
const { limit: searchLimitField, ...searchRest } = brainSearchArgs;
export const brainReadGraphqlArgs = { memoryId: memoryIdField, ...readRest } as const satisfies InputFields;
export const brainUpdateGraphqlInput = { memoryId: memoryIdField, ...updateRest } as const satisfies InputFields;
export const brainRemoveGraphqlInput = { memoryId: memoryIdField, ...removeRest } as const satisfies InputFields;
export const brainSearchGraphqlArgs = { ...searchRest, first: searchLimitField } as const satisfies InputFields;
/** Agent.brainSearch: the agent is the parent. */
const { agentId: _searchAgent, ...agentSearchRest } = brainSearchGraphqlArgs;
export const agentBrainSearchArgs = agentSearchRest satisfies InputFields;
