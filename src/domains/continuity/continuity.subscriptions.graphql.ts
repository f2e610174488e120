/** The continuity subscriptions: a run's transitions, and runtimeOwnership, whose life is an owner session's. */
import { builder } from '../../schema/builder.js';
import { AgentEventRef, afterSequence } from '../../schema/events.js';
import { agentScopedKey } from '../../schema/node-keys.js';
import { AgentRef } from '../agents/agents.graphql.js';
import { RequestError } from '../../lib/errors.js';
import { ownerField } from './continuity.types.graphql.js';
import { ownershipEvents, type OwnershipEvent } from './continuity.ownership-stream.js';

const OwnershipEndEnum = builder.enumType('RuntimeOwnershipEnd', {
  description: 'How an ownership session ended',
  values: {
    CLOSED: { description: 'Its holder ended the subscription (or the WebSocket closed)' },
    LOST: { description: "The owner lock's database connection was lost; the owner's runs will be recovered" },
  },
});

const RuntimeOwnershipRef = builder.objectRef<OwnershipEvent>('RuntimeOwnership').implement({
  description: 'The first event names the owner; a last one (ended = LOST) says the owner lock was lost',
  fields: (t) => ({
    ownerId: t.string({ description: 'The owner id to name in startContinuityRun and every fenced write', resolve: (e) => e.session.ownerId }),
    owner: t.loadable({ ...ownerField('The owner session as stored'), resolve: (e) => agentScopedKey(e.session.agentId, e.session.ownerId) }),
    agentId: t.string({ description: 'The agent id', resolve: (e) => e.session.agentId }),
    instance: t.string({ description: 'The server instance that holds the owner lock', resolve: (e) => e.session.instance }),
    openedAt: t.field({ type: 'DateTime', description: 'When the session opened', resolve: (e) => e.session.openedAt }),
    live: t.boolean({ description: 'True on the first event; false on the last', resolve: (e) => e.ended === null }),
    ended: t.field({
      type: OwnershipEndEnum,
      nullable: true,
      description: 'How the session ended; null while it is live',
      resolve: (e) => (e.ended === null ? null : e.ended === 'lost' ? 'LOST' : 'CLOSED'),
    }),
  }),
});
builder.objectField(RuntimeOwnershipRef, 'agent', (t) =>
  t.loadable({
    type: AgentRef,
    description: 'The agent this session owns runs of',
    load: (ids: string[], ctx) => ctx.services.agents.agentsInOrder(ids),
    resolve: (e) => e.session.agentId,
  }),
);

const ownershipRequiresWebSocket = () =>
  new RequestError('OWNERSHIP_REQUIRES_WEBSOCKET', 'runtimeOwnership is served over graphql-ws only: open it on a WebSocket, whose close ends the session');

builder.subscriptionFields((t) => ({
  continuityEvents: t.field({
    type: AgentEventRef,
    description: 'Every transition of one run, in order, with its sequence. With `after`, replays from the log first.',
    args: {
      agentId: t.arg.string({ required: true, description: 'The agent id' }),
      runId: t.arg.string({ required: true, description: 'The run id' }),
      after: t.arg.int({ required: false, description: 'Replay events after this agent event sequence first' }),
    },
    subscribe: async (_, args, ctx) => {
      await ctx.services.agents.requireAgent(ctx.viewer, args.agentId);
      return ctx.services.hub.subscribe({ agentId: args.agentId, after: afterSequence(args.after), streams: ['continuity'], subjectId: args.runId });
    },
    resolve: (event) => event,
  }),
  runtimeOwnership: t.field({
    type: RuntimeOwnershipRef,
    description:
      'Opens an ownership session: the owner id is alive exactly as long as this subscription (its lock) lives. graphql-ws only (OWNERSHIP_REQUIRES_WEBSOCKET over HTTP and SSE); at most BURROW_OWNERS_PER_AGENT live owners per agent (OWNER_LIMIT_REACHED) and BURROW_OWNERS_MAX owner connections in all (OWNER_CAPACITY_REACHED).',
    args: { agentId: t.arg.string({ required: false, description: 'Operators name the agent; agent tokens own for their agent' }) },
    subscribe: async (_, args, ctx) => {
      // Over HTTP nothing tells the server reliably that the client went away (a POST answered
      // 406, an SSE stream dropped before its first read), so a session could outlive its
      // holder; a WebSocket's close always ends the subscription.
      if (ctx.transport !== 'ws') throw ownershipRequiresWebSocket();
      return ownershipEvents(await ctx.services.continuity.openOwnership(ctx.viewer, args.agentId));
    },
    resolve: (event) => event,
  }),
}));
