/** The Tiddle reads: Agent.rollingCards and Agent.tiddleStatus, and the rolling card, search, status, residue, history and ambient queries. */
import { builder } from '../../schema/builder.js';
import { pageArgs, pagesPerKey } from '../../schema/connections.js';
import { argsFrom } from '../../schema/inputs.js';
import { AgentRef } from '../agents/agents.graphql.js';
import { assertAgentAccess, resolveActingAgent, resolveScope } from '../../auth/viewer.js';
import { bindingOf, decodeTimeIdCursor, encodeTimeIdCursor, pageSize, toConnection } from '../../lib/cursor.js';
import { badRequest } from '../../lib/errors.js';
import { HISTORY_RETENTION_DAYS, checkScopedRead } from './tiddle.service.js';
import { rollingSearchArgs } from './tiddle.inputs.js';
import { AmbientContinuityRef, HistoryConnection, ResidueRef, RollingCardConnection, RollingSearchRef, TiddleStatusRef } from './tiddle.types.graphql.js';

const CARDS_PAGE = 100;
const HISTORY_PAGE = 500;
const cardsBinding = (agentId: string, project: string) => bindingOf('rollingCards', agentId, project);
const projectArg = 'The continuity scope; "*" for cross-scope cards. Agent tokens: their runtime scope (Burrow-Continuity-Scope) or "*"; the runtime scope when absent.';

builder.objectFields(AgentRef, (t) => ({
  rollingCards: t.loadable({
    type: RollingCardConnection,
    nullable: true,
    description: `The agent's live rolling cards of one scope, most recently updated first; pages of 1 to ${CARDS_PAGE}, 20 by default. Authorized like Query.rollingCards; cursors are interchangeable with it. Nullable: without the continuity scope it needs (or refused), only this field is null, with its error beside the data, so the payload of a mutation is never erased by it.`,
    args: { project: t.arg.string({ required: false, description: projectArg }), ...pageArgs(t.arg, CARDS_PAGE) },
    byPath: true,
    load: async (agentIds: string[], ctx, args) => {
      const limit = pageSize(args.first, CARDS_PAGE, 20);
      const project = args.project ?? ctx.viewer?.scope ?? null;
      return pagesPerKey(
        agentIds,
        (agentId) => {
          if (!project) throw badRequest('rollingCards needs a project (argument or Burrow-Continuity-Scope)');
          checkScopedRead(ctx.viewer, agentId, project);
          const p = decodeTimeIdCursor(args.after, cardsBinding(agentId, project));
          return { agentId, after: p && { updatedAt: p.at, cardId: p.id } };
        },
        (agents) => ctx.services.tiddle.cardPagesForAgents(agents, project!, limit + 1),
        (page, { agentId }) => {
          const binding = cardsBinding(agentId, project!);
          return toConnection(page, limit, (c) => encodeTimeIdCursor(binding, c.updatedAt, c.cardId), args.after);
        },
      );
    },
    resolve: (agent) => agent.id,
  }),
  tiddleStatus: t.loadable({
    type: TiddleStatusRef,
    description: "The agent's Tiddle status (TTL, last synthesis, every scope's schedule). Authorized like Query.tiddleStatus.",
    args: { project: t.arg.string({ required: false, description: 'Only this scope in `scopes`; every scope when absent' }) },
    byPath: true,
    load: async (agentIds: string[], ctx, args) => {
      return pagesPerKey(
        agentIds,
        (agentId) => {
          assertAgentAccess(ctx.viewer, agentId);
          return agentId;
        },
        (allowed) => ctx.services.tiddle.statusForAgents(allowed, args.project ?? null),
        (status) => status,
      );
    },
    resolve: (agent) => agent.id,
  }),
}));

builder.queryFields((t) => ({
  rollingCards: t.field({
    type: RollingCardConnection,
    description: `Live rolling cards of one agent and scope, most recently updated first; pages of 1 to ${CARDS_PAGE}, 20 by default. Also \`Agent.rollingCards\`.`,
    args: {
      agentId: t.arg.string({ required: false, description: 'Operators name the agent; agent tokens read their own' }),
      project: t.arg.string({ required: false, description: projectArg }),
      ...pageArgs(t.arg, CARDS_PAGE),
    },
    resolve: async (_, args, ctx) => {
      const { viewer, agentId } = resolveActingAgent(ctx.viewer, args.agentId);
      const project = args.project ?? viewer.scope;
      if (!project) throw badRequest('rollingCards needs a project (argument or Burrow-Continuity-Scope)');
      const limit = pageSize(args.first, CARDS_PAGE, 20);
      const binding = cardsBinding(agentId, project);
      const position = decodeTimeIdCursor(args.after, binding);
      const after = position && { updatedAt: position.at, cardId: position.id };
      const rows = await ctx.services.tiddle.listCards(viewer, agentId, project, { limit: limit + 1, after });
      return toConnection(rows, limit, (c) => encodeTimeIdCursor(binding, c.updatedAt, c.cardId), args.after);
    },
  }),
  memoryRollingSearch: t.field({
    type: RollingSearchRef,
    description: 'memory_rolling_search: the current agent\'s live cards in the current scope (at most 10). owner is "rolling_continuity", entersPrompt false.',
    args: argsFrom(t.arg, rollingSearchArgs, {}),
    resolve: (_, args, ctx) => ctx.services.tiddle.search(ctx.viewer, args),
  }),
  tiddleStatus: t.field({
    type: TiddleStatusRef,
    description: "An agent's Tiddle status: TTL, last synthesis, every scope's schedule. Also `Agent.tiddleStatus`.",
    args: {
      agentId: t.arg.string({ required: true, description: 'The agent id' }),
      project: t.arg.string({ required: false, description: 'Only this scope in `scopes`; every scope when absent' }),
    },
    resolve: async (_, args, ctx) => {
      const status = await ctx.services.tiddle.status(ctx.viewer, args.agentId);
      return args.project == null ? status : { ...status, scopes: status.scopes.filter((s) => s.project === args.project) };
    },
  }),
  tiddleResidue: t.field({
    type: [ResidueRef],
    description: 'The stored residue of one scope, newest first (residue is pruned after 24 hours, so the list stays small)',
    args: {
      agentId: t.arg.string({ required: true, description: 'The agent id' }),
      project: t.arg.string({ required: true, description: 'The continuity scope; agent tokens: their runtime scope' }),
      first: t.arg.int({ required: false, description: 'How many: 1 to 500, 100 by default' }),
    },
    resolve: (_, args, ctx) => ctx.services.tiddle.listResidue(ctx.viewer, args.agentId, args.project, pageSize(args.first, 500, 100)),
  }),
  tiddleHistory: t.field({
    type: HistoryConnection,
    description: `Pass and synthesis history (kept ${HISTORY_RETENTION_DAYS} days), newest first; pages of 1 to ${HISTORY_PAGE}, 100 by default`,
    args: {
      agentId: t.arg.string({ required: true, description: 'The agent id' }),
      project: t.arg.string({ required: false, description: 'One scope; every scope when absent (agent tokens: their runtime scope or "*")' }),
      ...pageArgs(t.arg, HISTORY_PAGE, 100),
    },
    resolve: async (_, args, ctx) => {
      const limit = pageSize(args.first, HISTORY_PAGE, 100);
      const binding = bindingOf('tiddleHistory', args.agentId, args.project);
      const position = decodeTimeIdCursor(args.after, binding);
      const rows = await ctx.services.tiddle.listHistory(ctx.viewer, args.agentId, args.project ?? null, {
        limit: limit + 1,
        after: position && { createdAt: position.at, id: position.id },
      });
      return toConnection(rows, limit, (h) => encodeTimeIdCursor(binding, h.createdAt, h.id), args.after);
    },
  }),
  ambientContinuity: t.field({
    type: AmbientContinuityRef,
    description: 'Ordinary continuity assembly: never contains ambient working records or rolling cards',
    args: {
      agentId: t.arg.string({ required: false, description: 'Operators name the agent; agent tokens: their own' }),
      project: t.arg.string({ required: false, description: 'The scope; agent tokens: their runtime scope' }),
    },
    resolve: (_, args, ctx) => {
      const { viewer, agentId } = resolveActingAgent(ctx.viewer, args.agentId);
      return { agentId, project: resolveScope(viewer, args.project) };
    },
  }),
}));
