/** The agent page's data: one ConsoleAgentPage answer and, per scope, one ConsoleScope answer (or the error in words). */
import type { ConsoleAgentPageQuery, ConsoleScopeQuery } from '../../graphql/generated';

export type AgentData = NonNullable<ConsoleAgentPageQuery['agent']>;
export type ScopeLists = Record<string, ConsoleScopeQuery | string>;
/** The run states in the order the page lists them. */
export const RUN_STATES = ['RUNNING', 'FINALIZING', 'INTERRUPTED', 'RECOVERY_PENDING', 'COMPLETED'] as const;
export const stateName = (state: string) => state.toLowerCase().replace('_', ' ');
/** The newest events the page keeps. */
export const MAX_EVENTS = 50;
