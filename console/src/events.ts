/**
 * The stream of events across agents. The schema offers agentEvents per agent today, so this opens
 * one subscription per agent and merges them; when an operator-wide subscription exists, this
 * function is the one place to switch (one subscription, same callback).
 */
import type { Api } from './api';
import { ConsoleAgentEventsDocument, type ConsoleAgentEventsSubscription } from './graphql/generated';

export type ConsoleEvent = ConsoleAgentEventsSubscription['agentEvents'];

/** How many past events per agent are replayed when the dashboard opens. */
export const REPLAYED_PER_AGENT = 10;

export function subscribeToEvents(
  api: Api,
  agents: ReadonlyArray<{ agentId: string; lastEventSequence: number }>,
  onEvent: (event: ConsoleEvent) => void,
  onError: (message: string) => void,
): () => void {
  const stops = agents.map((agent) =>
    api.subscribe(
      ConsoleAgentEventsDocument,
      { agentId: agent.agentId, after: Math.max(0, agent.lastEventSequence - REPLAYED_PER_AGENT) },
      (data) => onEvent(data.agentEvents),
      (error) => onError(`${agent.agentId}: ${error.message}`),
    ),
  );
  return () => stops.forEach((stop) => stop());
}
