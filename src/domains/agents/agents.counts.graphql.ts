/**
 * `Agent.counts`: summary counts for an overview. Its own module because it names the continuity
 * run states: agents.graphql.ts is imported by every domain's types and must import none of them.
 */
import { builder } from '../../schema/builder.js';
import { requireViewer, resolveScope, type Viewer } from '../../auth/viewer.js';
import { ContinuityRunStateEnum } from '../continuity/continuity.types.graphql.js';
import { AgentRef } from './agents.graphql.js';
import type { AgentCounts } from './agents.counts.js';
import type { AgentRow } from './agents.types.js';

const RunStateCountRef = builder.objectRef<AgentCounts['runsByState'][number]>('ContinuityRunStateCount').implement({
  description: 'How many continuity runs of an agent are in one state',
  fields: (t) => ({
    state: t.field({ type: ContinuityRunStateEnum, description: 'The run state', resolve: (c) => c.state }),
    count: t.exposeInt('count', { description: 'Runs in this state now (0 included)' }),
  }),
});

/** Working records and rolling cards are per continuity scope: an agent token counts only its own. */
function countedScope(viewer: Viewer | null): string | null {
  const v = requireViewer(viewer);
  return v.principal === 'AGENT' ? resolveScope(v, null) : null;
}

const AgentCountsRef = builder.objectRef<AgentRow>('AgentCounts').implement({
  description:
    'Summary counts for an overview, batched: one statement per count for every agent of a response. ' +
    'Working records and rolling cards: every scope for operators, the runtime scope for an agent token (which needs one).',
  fields: (t) => ({
    brains: t.loadable({
      type: 'Int',
      description: 'Live Brain memories (removed ones are tombstones and not counted)',
      load: (agentIds: string[], ctx) => ctx.services.agents.counts.liveBrains(agentIds),
      resolve: (a) => a.id,
    }),
    workingRecords: t.loadable({
      type: 'Int',
      nullable: true,
      description: 'Working records visible now: pinned, or not yet expired (any state); null, with its error beside the data, for an agent token without a continuity scope',
      // async: a missing scope rejects the batch (continuity_scope_required) rather than throwing inside DataLoader.
      load: async (agentIds: string[], ctx) => ctx.services.agents.counts.liveWorkingRecords(agentIds, countedScope(ctx.viewer)),
      resolve: (a) => a.id,
    }),
    rollingCards: t.loadable({
      type: 'Int',
      nullable: true,
      description:
        "Live rolling cards: not expired and refreshed within the agent's rolling TTL; null, with its error beside the data, for an agent token without a continuity scope",
      load: async (agentIds: string[], ctx) => ctx.services.agents.counts.liveRollingCards(agentIds, countedScope(ctx.viewer)),
      resolve: (a) => a.id,
    }),
    runsByState: t.loadableList({
      type: RunStateCountRef,
      description: 'Continuity runs per state: every state in ContinuityRunState order, 0 included',
      load: (agentIds: string[], ctx) => ctx.services.agents.counts.runsByState(agentIds),
      resolve: (a) => a.id,
    }),
  }),
});

builder.objectFields(AgentRef, (t) => ({
  counts: t.field({
    type: AgentCountsRef,
    description: "Summary counts of the agent's stores (live records only), without a request per agent",
    resolve: (agent) => agent,
  }),
}));
