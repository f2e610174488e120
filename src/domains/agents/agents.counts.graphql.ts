/**
 * `Agent.counts`: summary counts for an overview. Its own module because it names the continuity
 * run states: agents.graphql.ts is imported by every domain's types and must import none of them.
 */
import { builder } from '../../schema/builder.js';
import { requireViewer, resolveScope, type Viewer } from '../../auth/viewer.js';
import { ContinuityRunStateEnum } from '../continuity/continuity.types.graphql.js';
import { AgentRef } from './agents.graphql.js';
import type { AgentCounts, ScopeCounts } from './agents.counts.js';
import type { AgentRow } from './agents.types.js';

const RunStateCountRef = builder.objectRef<AgentCounts['runsByState'][number]>('ContinuityRunStateCount').implement({
  description: 'How many continuity runs of an agent are in one state',
  fields: (t) => ({
    state: t.field({ type: ContinuityRunStateEnum, description: 'The run state', resolve: (c) => c.state }),
    count: t.exposeInt('count', { description: 'Runs in this state now (0 included)' }),
  }),
});

const ScopeCountsRef = builder.objectRef<ScopeCounts>('ContinuityScopeCounts').implement({
  description: "An agent's live records in one continuity scope",
  fields: (t) => ({
    project: t.exposeString('project', { description: 'The continuity scope' }),
    workingRecords: t.exposeInt('workingRecords', { description: 'Working records visible now: pinned, or not yet expired' }),
    handoffs: t.exposeInt('handoffs', { description: 'Handoffs not yet expired' }),
    rollingCards: t.exposeInt('rollingCards', { description: 'Live rolling cards ("*": the cross-scope cards)' }),
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
    scopes: t.loadableList({
      type: ScopeCountsRef,
      nullable: true,
      description:
        'Per continuity scope, sorted by project: every scope holding a live working record, an unexpired handoff or a live rolling card (the runtime scope only for an agent token); null, with its error beside the data, for an agent token without a continuity scope',
      load: async (agentIds: string[], ctx) => ctx.services.agents.counts.byScope(agentIds, countedScope(ctx.viewer)),
      resolve: (a) => a.id,
    }),
    conversationSessions: t.loadable({
      type: 'Int',
      description: 'Conversation sessions, archived ones included',
      load: (agentIds: string[], ctx) => ctx.services.agents.counts.conversations(agentIds).then((all) => all.map((c) => c.sessions)),
      resolve: (a) => a.id,
    }),
    conversationOriginals: t.loadable({
      type: 'Int',
      description: 'Conversation originals in every session, active and archived',
      load: (agentIds: string[], ctx) => ctx.services.agents.counts.conversations(agentIds).then((all) => all.map((c) => c.originals)),
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
