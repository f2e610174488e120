/** Per-agent counts for the dashboard, from Agent.counts (exact, not capped). */
import type { Api } from './api';
import { ConsoleAgentCountsDocument } from './graphql/generated';

export interface AgentCounts {
  memories: number;
  workingRecords: number;
  rollingCards: number;
  runsByState: Record<string, number>;
  scopes: number;
}

export async function loadAgentCounts(api: Api, agentId: string): Promise<AgentCounts> {
  const { agent } = await api.request(ConsoleAgentCountsDocument, { agentId });
  // The agent list comes from the same server: a missing agent was removed since it was listed.
  if (!agent) throw new Error(`agent ${agentId} no longer exists; reload the agent list`);
  const runsByState: Record<string, number> = {};
  for (const { state, count } of agent.counts.runsByState) runsByState[state] = count;
  // Null only for a token that needs a continuity scope and sent none; the console's operator
  // token counts every scope, so a null here means the server changed what it promises.
  const { workingRecords, rollingCards } = agent.counts;
  if (workingRecords === null || rollingCards === null) throw new Error(`the server gave no working-record or rolling-card count for ${agentId}`);
  return {
    memories: agent.counts.brains,
    workingRecords,
    rollingCards,
    runsByState,
    scopes: agent.tiddleStatus.scopes.length,
  };
}
