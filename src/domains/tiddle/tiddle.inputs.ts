/**
 * Inputs of memory_rolling_search: one definition for GraphQL and MCP. TiddleService enforces
 * these limits.
 */
import { formatLimit as n, type InputFields } from '../../lib/input-spec.js';
import { agentIdField, projectField } from '../../auth/runtime.inputs.js';

export const ROLLING_SEARCH_LIMITS = { query: 500, results: 10 } as const;

export const rollingSearchArgs = {
  query: {
    type: 'string',
    required: true,
    maxLength: ROLLING_SEARCH_LIMITS.query,
    description: `Words to look for in card titles and bodies; cards matching more words come first. An empty query lists the most recently refreshed cards. At most ${n(ROLLING_SEARCH_LIMITS.query)} characters.`,
  },
  project: projectField,
  agentId: agentIdField,
  limit: {
    type: 'int',
    minimum: 1,
    maximum: ROLLING_SEARCH_LIMITS.results,
    default: ROLLING_SEARCH_LIMITS.results,
    description: `How many cards to return: 1 to ${n(ROLLING_SEARCH_LIMITS.results)}, default ${n(ROLLING_SEARCH_LIMITS.results)}.`,
  },
} as const satisfies InputFields;
