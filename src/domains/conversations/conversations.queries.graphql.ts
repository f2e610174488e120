/** The conversation queries: originals, the active history, sessions (also Agent.conversationSessions), one session, search and archives. */
import { builder } from '../../schema/builder.js';
import { pageArgs, pagesPerKey } from '../../schema/connections.js';
import { AgentRef } from '../agents/agents.graphql.js';
import { assertAgentAccess } from '../../auth/viewer.js';
import { bindingOf, cursorMicros, decodeCursor, decodePositionCursor, encodeCursor, pageSize, toConnection } from '../../lib/cursor.js';
import { RequestError, badRequest } from '../../lib/errors.js';
import { charLength } from '../../lib/text.js';
import { CONVERSATION_LIMITS } from './conversations.sql.js';
import type { NewestFirstKey, SessionArchiveFilter } from './conversations.types.js';
import { ConversationArchiveRef, ConversationSessionRef, ORIGINALS_PAGE, OriginalConnection, SessionArchiveFilterEnum, SessionConnection } from './conversations.graphql.js';

/** Decodes a newest-first cursor: [microseconds since the epoch, sessionId, position?]. */
function newestFirstKey(position: unknown[] | null, withPosition: boolean): NewestFirstKey | null {
  if (!position) return null;
  const [micros, sessionId, entryPosition] = position;
  const valid =
    cursorMicros(micros) !== null &&
    typeof sessionId === 'string' &&
    position.length === (withPosition ? 3 : 2) &&
    (!withPosition || (Number.isSafeInteger(entryPosition) && (entryPosition as number) >= 0));
  if (!valid) throw new RequestError('BAD_CURSOR', 'the cursor is malformed');
  return { micros: micros as string, sessionId: sessionId as string, position: withPosition ? (entryPosition as number) : undefined };
}

const SESSIONS_PAGE = CONVERSATION_LIMITS.sessionsPage;
const sessionsBinding = (agentId: string | null | undefined, archived: SessionArchiveFilter) => bindingOf('conversationSessions', agentId, archived);

builder.objectFields(AgentRef, (t) => ({
  conversationSessions: t.loadable({
    type: SessionConnection,
    description: `The agent's conversation sessions, newest first (first append, then sessionId); pages of 1 to ${SESSIONS_PAGE}, 20 by default. Authorized like Query.conversationSessions; cursors are interchangeable with it.`,
    args: {
      archived: t.arg({ type: SessionArchiveFilterEnum, required: false, defaultValue: 'EXCLUDE', description: 'Which sessions: EXCLUDE archived ones by default' }),
      ...pageArgs(t.arg, SESSIONS_PAGE),
    },
    byPath: true,
    load: async (agentIds: string[], ctx, args) => {
      const limit = pageSize(args.first, SESSIONS_PAGE, 20);
      const archived = (args.archived ?? 'EXCLUDE') as SessionArchiveFilter;
      return pagesPerKey(
        agentIds,
        (agentId) => {
          assertAgentAccess(ctx.viewer, agentId);
          return { agentId, after: newestFirstKey(decodeCursor(args.after, sessionsBinding(agentId, archived)), false) };
        },
        (agents) => ctx.services.conversations.sessionPagesForAgents(agents, archived, limit + 1),
        (page, { agentId }) => {
          const binding = sessionsBinding(agentId, archived);
          return toConnection(page, limit, (s) => encodeCursor(binding, [s.micros, s.sessionId]), args.after);
        },
      );
    },
    resolve: (agent) => agent.id,
  }),
}));

builder.queryFields((t) => ({
  conversationOriginals: t.field({
    type: OriginalConnection,
    description: `Every original of a session, active and archived, in position order; pages of 1 to ${ORIGINALS_PAGE}, 50 by default; \`generation\` narrows it to one archive generation. Also \`ConversationSession.originals\`.`,
    args: {
      sessionId: t.arg.string({ required: true, description: 'The session id' }),
      agentId: t.arg.string({ required: false, description: 'Operators name the agent; agent tokens read their own' }),
      generation: t.arg.int({ required: false, description: 'Only the originals archived in this generation (e.g. what a summary stands for)' }),
      ...pageArgs(t.arg, ORIGINALS_PAGE, 50),
    },
    resolve: async (_, args, ctx) => {
      const limit = pageSize(args.first, CONVERSATION_LIMITS.page, 50);
      const agentKey = ctx.viewer?.principal === 'AGENT' ? ctx.viewer.agentId : args.agentId;
      // Without a generation the binding is what it always was, so existing cursors stay valid.
      const binding =
        args.generation == null
          ? bindingOf('conversationOriginals', agentKey, args.sessionId)
          : bindingOf('conversationOriginals', agentKey, args.sessionId, String(args.generation));
      const afterPosition = decodePositionCursor(args.after, binding);
      const { rows } = await ctx.services.conversations.originals(ctx.viewer, {
        agentId: args.agentId,
        sessionId: args.sessionId,
        generation: args.generation,
        afterPosition,
        limit: limit + 1,
      });
      return toConnection(rows, limit, (o) => encodeCursor(binding, [o.position]), args.after);
    },
  }),
  conversationHistory: t.field({
    type: OriginalConnection,
    description: `The active history of a session in historyPosition order: what a runtime continues from, with each compaction summary in place of the span it replaced; pages of 1 to ${ORIGINALS_PAGE}, 50 by default`,
    args: {
      sessionId: t.arg.string({ required: true, description: 'The session id' }),
      agentId: t.arg.string({ required: false, description: 'Operators name the agent; agent tokens read their own' }),
      ...pageArgs(t.arg, ORIGINALS_PAGE, 50),
    },
    resolve: async (_, args, ctx) => {
      const limit = pageSize(args.first, CONVERSATION_LIMITS.page, 50);
      const agentKey = ctx.viewer?.principal === 'AGENT' ? ctx.viewer.agentId : args.agentId;
      const binding = bindingOf('conversationHistory', agentKey, args.sessionId);
      const afterHistoryPosition = decodePositionCursor(args.after, binding);
      const { rows } = await ctx.services.conversations.history(ctx.viewer, { agentId: args.agentId, sessionId: args.sessionId, afterHistoryPosition, limit: limit + 1 });
      return toConnection(rows, limit, (o) => encodeCursor(binding, [o.historyPosition]), args.after);
    },
  }),
  conversationSessions: t.field({
    type: SessionConnection,
    description: `An agent's conversation sessions, newest first (first append, then sessionId), with counts and archive generations. Archived sessions are left out unless \`archived\` says INCLUDE or ONLY. Pages of 1 to ${SESSIONS_PAGE}, 20 by default; cursors are bound to the agent and the filter. Also \`Agent.conversationSessions\`.`,
    args: {
      agentId: t.arg.string({ required: false, description: 'Operators name the agent; agent tokens read their own' }),
      archived: t.arg({ type: SessionArchiveFilterEnum, required: false, defaultValue: 'EXCLUDE', description: 'Which sessions: EXCLUDE archived ones by default' }),
      ...pageArgs(t.arg, SESSIONS_PAGE),
    },
    resolve: async (_, args, ctx) => {
      const limit = pageSize(args.first, SESSIONS_PAGE, 20);
      const archived = (args.archived ?? 'EXCLUDE') as SessionArchiveFilter;
      const agentKey = ctx.viewer?.principal === 'AGENT' ? ctx.viewer.agentId : args.agentId;
      const binding = sessionsBinding(agentKey, archived);
      const after = newestFirstKey(decodeCursor(args.after, binding), false);
      const { rows } = await ctx.services.conversations.sessions(ctx.viewer, { agentId: args.agentId, archived, after, limit: limit + 1 });
      return toConnection(rows, limit, (s) => encodeCursor(binding, [s.micros, s.sessionId]), args.after);
    },
  }),
  conversationSession: t.field({
    type: ConversationSessionRef,
    nullable: true,
    description: 'One session of an agent (archived or not), or null',
    args: {
      sessionId: t.arg.string({ required: true, description: 'The session id' }),
      agentId: t.arg.string({ required: false, description: 'Operators name the agent; agent tokens read their own' }),
    },
    resolve: (_, args, ctx) => ctx.services.conversations.session(ctx.viewer, args),
  }),
  conversationSearch: t.field({
    type: OriginalConnection,
    description:
      "Case-insensitive substring search over an agent's originals, active and archived, in every session (archived sessions too): the query is matched against each payload's JSON text as stored. Newest first (createdAt, then sessionId and position, descending). At most 50 per page; cursors are bound to the agent, the query and every filter.",
    args: {
      query: t.arg.string({ required: true, description: `${3} to ${CONVERSATION_LIMITS.searchQuery} characters, matched literally (% and _ are not wildcards)` }),
      agentId: t.arg.string({ required: false, description: 'Operators name the agent; agent tokens search their own' }),
      sessionId: t.arg.string({ required: false, description: 'Only this session' }),
      role: t.arg.string({ required: false, description: 'Exact role, e.g. user' }),
      createdFrom: t.arg({ type: 'DateTime', required: false, description: 'Inclusive lower bound of createdAt' }),
      createdBefore: t.arg({ type: 'DateTime', required: false, description: 'Exclusive upper bound of createdAt' }),
      ...pageArgs(t.arg, CONVERSATION_LIMITS.searchPage),
    },
    resolve: async (_, args, ctx) => {
      const limit = pageSize(args.first, CONVERSATION_LIMITS.searchPage, 20);
      const length = charLength(args.query);
      if (length < 3 || length > CONVERSATION_LIMITS.searchQuery) {
        throw badRequest(`query must be 3 to ${CONVERSATION_LIMITS.searchQuery} characters (got ${length})`);
      }
      for (const [name, value] of [
        ['query', args.query],
        ['sessionId', args.sessionId],
        ['role', args.role],
      ] as const) {
        if (value?.includes('\u0000')) throw badRequest(`${name} must not contain U+0000`);
      }
      if (args.createdFrom && args.createdBefore && args.createdFrom >= args.createdBefore) throw badRequest('createdFrom must be before createdBefore');
      const agentKey = ctx.viewer?.principal === 'AGENT' ? ctx.viewer.agentId : args.agentId;
      const binding = bindingOf('conversationSearch', agentKey, args.query, args.sessionId, args.role, args.createdFrom?.toISOString(), args.createdBefore?.toISOString());
      const after = newestFirstKey(decodeCursor(args.after, binding), true);
      const { rows } = await ctx.services.conversations.search(ctx.viewer, {
        agentId: args.agentId,
        query: args.query,
        sessionId: args.sessionId,
        role: args.role,
        createdFrom: args.createdFrom,
        createdBefore: args.createdBefore,
        after,
        limit: limit + 1,
      });
      return toConnection(rows, limit, (o) => encodeCursor(binding, [o.micros, o.sessionId, o.position]), args.after);
    },
  }),
  conversationArchives: t.field({
    type: [ConversationArchiveRef],
    description: 'The archive generations of a session, oldest first (also `ConversationSession.archives`)',
    args: {
      sessionId: t.arg.string({ required: true, description: 'The session id' }),
      agentId: t.arg.string({ required: false, description: 'Operators name the agent; agent tokens read their own' }),
    },
    resolve: (_, args, ctx) => ctx.services.conversations.archives(ctx.viewer, args),
  }),
}));
