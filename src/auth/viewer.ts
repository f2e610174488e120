/**
 * Who is calling and in which continuity scope. The scope, session and conversation are chosen
 * by the runtime (headers / connectionParams), never by the model's arguments.
 */
import { agentMismatch, forbidden, scopeMismatch, scopeRequired, unauthenticated } from '../lib/errors.js';

export type PrincipalKind = 'OPERATOR' | 'AGENT';

export interface Viewer {
  principal: PrincipalKind;
  tokenId: string;
  tokenName: string;
  /** The agent an agent token is bound to; null for operators. */
  agentId: string | null;
  scope: string | null;
  sessionId: string | null;
  conversationId: string | null;
}

/** The runtime-owned part of a viewer: read from headers, connection params or the stdio environment (auth/authenticate.ts). */
export type RuntimeScope = Pick<Viewer, 'scope' | 'sessionId' | 'conversationId'>;

/** The actor recorded on writes. */
export interface Actor {
  kind: PrincipalKind;
  id: string;
}

export const actorOf = (viewer: Viewer): Actor => ({
  kind: viewer.principal,
  id: viewer.principal === 'AGENT' ? viewer.agentId! : viewer.tokenName,
});

export function requireViewer(viewer: Viewer | null): Viewer {
  if (!viewer) throw unauthenticated();
  return viewer;
}

export function requireOperator(viewer: Viewer | null): Viewer {
  const v = requireViewer(viewer);
  if (v.principal !== 'OPERATOR') throw forbidden('this operation needs an operator token');
  return v;
}

/** The agent a request may act on: an agent token only on its own agent, operators on any. */
export function assertAgentAccess(viewer: Viewer | null, agentId: string): Viewer {
  const v = requireViewer(viewer);
  if (v.principal === 'AGENT' && v.agentId !== agentId) throw agentMismatch();
  return v;
}

/**
 * The agent an agent-bound verb acts on: the token's agent. An operator must name it; an agent
 * naming another agent fails with AGENT_MISMATCH.
 */
export function resolveActingAgent(viewer: Viewer | null, requestedAgentId: string | null | undefined): { viewer: Viewer; agentId: string } {
  const v = requireViewer(viewer);
  if (v.principal === 'AGENT') {
    if (requestedAgentId && requestedAgentId !== v.agentId) throw agentMismatch();
    return { viewer: v, agentId: v.agentId! };
  }
  if (!requestedAgentId) throw forbidden('operators must choose the agent explicitly (agentId)');
  return { viewer: v, agentId: requestedAgentId };
}

/**
 * The continuity scope of a scoped operation. Fails closed without a runtime scope; a `project`
 * argument may only repeat the runtime scope, never choose another.
 */
export function resolveScope(viewer: Viewer, requestedProject: string | null | undefined): string {
  if (!viewer.scope) throw scopeRequired();
  if (requestedProject != null && requestedProject !== viewer.scope) throw scopeMismatch(requestedProject, viewer.scope);
  return viewer.scope;
}
