/** What the console shell (main.tsx) hands every page: its own module, so pages do not import the shell. */
import type { Api } from './api';
import type { ConsoleAgentsQuery } from './graphql/generated';

export type AgentSummary = ConsoleAgentsQuery['agents']['edges'][number]['node'];
export interface PageProps {
  api: Api;
  agents: AgentSummary[];
  /** More agents exist than the first 100 the console lists (and subscribes to). */
  agentsMore: boolean;
  announce: (message: string) => void;
}
