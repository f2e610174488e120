/**
 * The stream of events across agents: one operatorEvents subscription for the agents the
 * dashboard lists, live from the moment it opens.
 */
import type { Api } from './api';
import { ConsoleOperatorEventsDocument, type ConsoleOperatorEventsSubscription } from './graphql/generated';

export type ConsoleEvent = ConsoleOperatorEventsSubscription['operatorEvents'];

export function subscribeToEvents(
  api: Api,
  agents: ReadonlyArray<{ agentId: string }>,
  onEvent: (event: ConsoleEvent) => void,
  onError: (message: string) => void,
): () => void {
  if (agents.length === 0) return () => {};
  return api.subscribe(
    ConsoleOperatorEventsDocument,
    { agentIds: agents.map((agent) => agent.agentId) },
    (data) => onEvent(data.operatorEvents),
    (error) => onError(error.message),
  );
}
