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
  return {
    memories: agent.counts.brains,
    // Null only for an agent token without a continuity scope (then the request failed above);
    // the console signs in with operator tokens, which count every scope.
    workingRecords: agent.counts.workingRecords ?? 0,
    rollingCards: agent.counts.rollingCards ?? 0,
    runsByState,
    scopes: agent.tiddleStatus.scopes.length,
  };
}
