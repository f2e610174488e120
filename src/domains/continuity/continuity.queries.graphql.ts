/** The continuity reads: Agent.continuityRuns and the continuityRun, continuityRuns and continuityOwners queries. */
import { builder } from '../../schema/builder.js';
import { pageArgs, pagesPerKey } from '../../schema/connections.js';
import { AgentRef } from '../agents/agents.graphql.js';
import { bindingOf, decodeTimeIdCursor, encodeTimeIdCursor, pageSize, toConnection } from '../../lib/cursor.js';
import { assertAgentAccess } from '../../auth/viewer.js';
import type { ContinuityRunState } from './continuity.sql.js';
import { ContinuityOwnerRef, ContinuityRunRef, ContinuityRunStateEnum, RunConnection } from './continuity.types.graphql.js';

const RUNS_PAGE = 100;
const runsBinding = (agentId: string | null, states: readonly ContinuityRunState[] | null) => bindingOf('continuityRuns', agentId, ...(states ?? []));

builder.objectFields(AgentRef, (t) => ({
  continuityRuns: t.loadable({
    type: RunConnection,
    description: `The agent's runs, newest first (createdAt, then runId); pages of 1 to ${RUNS_PAGE}, 20 by default. Authorized like Query.continuityRuns; cursors are interchangeable with it.`,
    args: {
      states: t.arg({ type: [ContinuityRunStateEnum], required: false, description: 'Only runs in these states; every state when absent' }),
      ...pageArgs(t.arg, RUNS_PAGE),
    },
    byPath: true,
    load: async (agentIds: string[], ctx, args) => {
      const limit = pageSize(args.first, RUNS_PAGE, 20);
      const states = args.states ? [...new Set(args.states)].sort() : null;
      return pagesPerKey(
        agentIds,
        (agentId) => {
          assertAgentAccess(ctx.viewer, agentId);
          const p = decodeTimeIdCursor(args.after, runsBinding(agentId, states));
          return { agentId, after: p && { createdAt: p.at, runId: p.id } };
        },
        (agents) => ctx.services.continuity.runPagesForAgents(agents, states, limit + 1),
        (page, { agentId }) => {
          const binding = runsBinding(agentId, states);
          return toConnection(page, limit, (r) => encodeTimeIdCursor(binding, r.createdAt, r.runId), args.after);
        },
      );
    },
    resolve: (agent) => agent.id,
  }),
}));

builder.queryFields((t) => ({
  continuityRun: t.field({
    type: ContinuityRunRef,
    nullable: true,
    description: 'One run by its run id, or null',
    args: {
      runId: t.arg.string({ required: true, description: 'The run id (`ContinuityRun.runId`)' }),
      agentId: t.arg.string({ required: false, description: 'Operators name the agent; agent tokens read their own' }),
    },
    resolve: (_, args, ctx) => ctx.services.continuity.getRun(ctx.viewer, args.agentId, args.runId),
  }),
  continuityRuns: t.field({
    type: RunConnection,
    description: `Runs of one agent, newest first (createdAt, then runId); pages of 1 to ${RUNS_PAGE}, 20 by default. Also \`Agent.continuityRuns\`.`,
    args: {
      agentId: t.arg.string({ required: false, description: 'Operators name the agent; agent tokens read their own' }),
      states: t.arg({ type: [ContinuityRunStateEnum], required: false, description: 'Only runs in these states; every state when absent' }),
      ...pageArgs(t.arg, RUNS_PAGE),
    },
    resolve: async (_, args, ctx) => {
      const limit = pageSize(args.first, RUNS_PAGE, 20);
      const states = args.states ? [...new Set(args.states)].sort() : null;
      const binding = runsBinding(args.agentId ?? ctx.viewer?.agentId ?? null, states);
      const position = decodeTimeIdCursor(args.after, binding);
      const after = position && { createdAt: position.at, runId: position.id };
      const { rows } = await ctx.services.continuity.listRuns(ctx.viewer, { agentId: args.agentId, states, limit: limit + 1, after });
      return toConnection(rows, limit, (r) => encodeTimeIdCursor(binding, r.createdAt, r.runId), args.after);
    },
  }),
  continuityOwners: t.field({
    type: [ContinuityOwnerRef],
    description: 'Ownership sessions of an agent with their liveness (lock protocol), newest first, at most 500',
    args: {
      agentId: t.arg.string({ required: false, description: 'Operators name the agent; agent tokens read their own' }),
      includeClosed: t.arg.boolean({ required: false, description: 'Also sessions that have ended; false by default' }),
    },
    resolve: (_, args, ctx) => ctx.services.continuity.listOwners(ctx.viewer, args.agentId, args.includeClosed ?? false),
  }),
}));
