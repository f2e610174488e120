/** The Tiddle subscriptions: rolling card changes of one scope and each pass's outcome. */
import { builder } from '../../schema/builder.js';
import { AgentEventRef, afterSequence } from '../../schema/events.js';
import { assertAgentAccess, resolveScope } from '../../auth/viewer.js';
import { CROSS_SCOPE_PROJECT } from './tiddle.service.js';

builder.subscriptionFields((t) => ({
  rollingCardEvents: t.field({
    type: AgentEventRef,
    description: 'rolling_card.created / updated / expired of one agent and project; replays after `after`, then live',
    args: {
      agentId: t.arg.string({ required: true, description: 'The agent id' }),
      project: t.arg.string({ required: true, description: 'The scope; agent tokens: their runtime scope or "*"' }),
      after: t.arg.int({ required: false, description: 'Replay events after this agent event sequence first' }),
    },
    subscribe: async (_, args, ctx) => {
      const viewer = assertAgentAccess(ctx.viewer, args.agentId);
      if (viewer.principal === 'AGENT' && args.project !== CROSS_SCOPE_PROJECT) resolveScope(viewer, args.project);
      await ctx.services.agents.requireAgent(viewer, args.agentId);
      return ctx.services.hub.subscribe({ agentId: args.agentId, after: afterSequence(args.after), streams: ['rolling_card'], project: args.project });
    },
    resolve: (event) => event,
  }),
  tiddleStatusEvents: t.field({
    type: AgentEventRef,
    description: "Each pass's outcome per scope (tiddle.pass.succeeded / failed, tiddle.synthesis.*); replays after `after`, then live",
    args: {
      agentId: t.arg.string({ required: true, description: 'The agent id' }),
      after: t.arg.int({ required: false, description: 'Replay events after this agent event sequence first' }),
    },
    subscribe: async (_, args, ctx) => {
      await ctx.services.agents.requireAgent(ctx.viewer, args.agentId);
      return ctx.services.hub.subscribe({ agentId: args.agentId, after: afterSequence(args.after), streams: ['tiddle_status'] });
    },
    resolve: (event) => event,
  }),
}));
