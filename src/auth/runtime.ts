/**
 * The runtime-owned context of an agent verb: which agent, continuity scope, session and
 * conversation it acts in. All four come from the token and the request headers, never from the
 * model's arguments; arguments may only repeat them.
 */
import { RequestError, badRequest } from '../lib/errors.js';
import { charLength } from '../lib/text.js';
import { resolveActingAgent, resolveScope, type Viewer } from './viewer.js';

export const RUNTIME_ID_LIMIT = 200;

export interface RuntimeContext {
  viewer: Viewer;
  agentId: string;
  scope: string;
  sessionId: string | null;
  conversationId: string | null;
}

export const sessionRequired = () => new RequestError('SESSION_REQUIRED', 'this operation needs a runtime session (Burrow-Session header or connectionParams)');

function checkLength(value: string | null, what: string) {
  if (value !== null && charLength(value) > RUNTIME_ID_LIMIT) throw badRequest(`the ${what} is longer than ${RUNTIME_ID_LIMIT} characters`);
}

/** Agent + scope (fails closed without a scope; a differing project is continuity_scope_mismatch). */
export function resolveRuntime(viewer: Viewer | null, input: { agentId?: string | null; project?: string | null }): RuntimeContext {
  const acting = resolveActingAgent(viewer, input.agentId);
  const scope = resolveScope(acting.viewer, input.project);
  checkLength(scope, 'continuity scope');
  checkLength(acting.viewer.sessionId, 'session id');
  checkLength(acting.viewer.conversationId, 'conversation id');
  return {
    viewer: acting.viewer,
    agentId: acting.agentId,
    scope,
    sessionId: acting.viewer.sessionId,
    conversationId: acting.viewer.conversationId,
  };
}

/**
 * The runtime of a `node(id:)` read whose global id names the record's continuity scope
 * (working records, handoffs). An agent token reads only in its runtime scope, as every scoped
 * verb (continuity_scope_required without one, continuity_scope_mismatch for another); an
 * operator without a scope header reads in the scope the id names, so a dashboard holding a
 * global id can read it again; with a header, the id must name that scope.
 */
export function resolveNodeRuntime(viewer: Viewer | null, input: { agentId: string; scope: string }): RuntimeContext {
  const acting = resolveActingAgent(viewer, input.agentId);
  const scope = acting.viewer.principal === 'OPERATOR' && !acting.viewer.scope ? input.scope : resolveScope(acting.viewer, input.scope);
  checkLength(scope, 'continuity scope');
  return { viewer: acting.viewer, agentId: acting.agentId, scope, sessionId: acting.viewer.sessionId, conversationId: acting.viewer.conversationId };
}

/** A verb bound to the runtime session fails closed (SESSION_REQUIRED) without one. */
export function requireSession(runtime: { sessionId: string | null }): string {
  if (!runtime.sessionId) throw sessionRequired();
  return runtime.sessionId;
}
