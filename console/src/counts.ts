/**
 * Per-agent counts for the dashboard. The schema has no Agent.counts yet, so they are computed
 * from list results (first 100; "100+" beyond); when Agent.counts exists, this is the one place
 * (with ConsoleAgentCounts in graphql/dashboard.graphql) to switch to it.
 */
import type { Api } from './api';
import { ConsoleAgentCountsDocument } from './graphql/generated';

export interface AgentCounts {
  memories: string;
  runsByState: Record<string, number>;
  runsMore: boolean;
  scopes: number;
}

export async function loadAgentCounts(api: Api, agentId: string): Promise<AgentCounts> {
  const data = await api.request(ConsoleAgentCountsDocument, { agentId });
  const runsByState: Record<string, number> = {};
  for (const { node } of data.continuityRuns.edges) runsByState[node.state] = (runsByState[node.state] ?? 0) + 1;
  return {
    memories: `${data.brainMemories.edges.length}${data.brainMemories.pageInfo.hasNextPage ? '+' : ''}`,
    runsByState,
    runsMore: data.continuityRuns.pageInfo.hasNextPage,
    scopes: data.tiddleStatus.scopes.length,
  };
}
