/**
 * The two arguments every agent verb accepts about who and where it acts. Both belong to the
 * runtime (token and headers), so an argument may only repeat them.
 */
import type { InputField } from '../lib/input-spec.js';

export const projectField = {
  type: 'string',
  description:
    'Optional, and usually left out: the runtime chooses the continuity scope (Burrow-Continuity-Scope). If given it must repeat that scope exactly; a different value fails with continuity_scope_mismatch and changes nothing.',
} as const satisfies InputField;

export const agentIdField = {
  type: 'string',
  description:
    'Optional, and usually left out: an agent token acts only as its own agent, so this may only repeat that agent id (another fails with AGENT_MISMATCH). Operator tokens must name the agent.',
} as const satisfies InputField;
