import { builder } from '../../schema/builder.js';
import { GLOBAL_ID_DESCRIPTION } from '../../schema/node-keys.js';
import { ErrorInterface } from '../../schema/errors.js';
import { ActorRef } from '../../schema/actor.js';
import { connectionType, pageArgs, pagesPerKey } from '../../schema/connections.js';
import { agentScopedKey, parseAgentScopedKey } from '../../schema/node-keys.js';
import { AgentRef, addAgentLink } from '../agents/agents.graphql.js';
import { assertAgentAccess } from '../../auth/viewer.js';
import { bindingOf, cursorMicros, decodeCursor, decodePositionCursor, encodeCursor, pageSize, toConnection } from '../../lib/cursor.js';
import { NotFoundError, RequestError, ValidationError, badRequest } from '../../lib/errors.js';
import { charLength } from '../../lib/text.js';
import { CONVERSATION_LIMITS } from './conversations.sql.js';
import { SessionArchivedError, SessionNotArchivedError } from './conversations.errors.js';
import { originalReference } from './conversations.references.js';
import type { ArchiveRow, NewestFirstKey, OriginalRow, SessionArchiveFilter, SessionRow } from './conversations.types.js';

/** "kind:id" as stored -> the Actor shape. */
const actorOf = (stored: string) => {
  const colon = stored.indexOf(':');
  return { kind: stored.slice(0, colon), id: stored.slice(colon + 1) };
};
const parseJsonPair = (text: string): [string, number] | null => {
  try {
    const value = JSON.parse(text) as unknown;
    return Array.isArray(value) && value.length === 2 && typeof value[0] === 'string' && Number.isSafeInteger(value[1]) ? (value as [string, number]) : null;
  } catch {
    return null;
  }
};
const sessionKey = (r: { agentId: string; sessionId: string }) => agentScopedKey(r.agentId, r.sessionId);
const sessionKeyOf = (key: string) => {
  const { agentId, recordId } = parseAgentScopedKey(key);
  return { agentId, sessionId: recordId };
};

const ConversationSessionRef = builder.objectRef<SessionRow>('ConversationSession');
const ConversationArchiveRef = builder.objectRef<ArchiveRow>('ConversationArchive');

const sessionLink = {
  type: ConversationSessionRef,
  description: 'The session it belongs to',
  load: (keys: string[], ctx: { services: { conversations: { sessionsByKeys: (k: { agentId: string; sessionId: string }[]) => Promise<(SessionRow | null)[]> } } }) =>
    ctx.services.conversations.sessionsByKeys(keys.map(sessionKeyOf)).then((rows) => rows.map((r, i) => r ?? new Error(`session ${keys[i]} is gone`))),
} as const;

export const ConversationOriginalRef = builder.objectRef<OriginalRow>('ConversationOriginal');
builder.node(ConversationOriginalRef, {
  description: 'One original message of a session, active or archived (a row of the read-only view conversation_original_rows)',
  id: { description: GLOBAL_ID_DESCRIPTION, resolve: (o) => agentScopedKey(o.agentId, JSON.stringify([o.sessionId, o.position])) },
  loadOne: (id, ctx) => {
    const { agentId, recordId } = parseAgentScopedKey(id);
    const parts = parseJsonPair(recordId);
    return parts ? ctx.services.conversations.original(ctx.viewer, { agentId, sessionId: parts[0], position: parts[1] }) : null;
  },
  fields: (t) => ({
    agentId: t.exposeString('agentId', { description: 'The agent id' }),
    sessionId: t.exposeString('sessionId', { description: 'The session id' }),
    session: t.loadable({ ...sessionLink, resolve: (o) => sessionKey(o) }),
    entryId: t.exposeString('entryId', { description: 'The entry id, unique within the session (cited as conversation:<sessionId>/<entryId>)' }),
    position: t.exposeInt('position', { description: 'Order within the session, from 1; never restarts across resets' }),
    archiveGeneration: t.exposeInt('archiveGeneration', {
      nullable: true,
      description: 'Null while the entry is active; the archive generation holding it after a reset or compaction',
    }),
    role: t.exposeString('role', {
      nullable: true,
      description:
        "The role as the runtime sent it (1 to 64 characters, e.g. user, assistant, tool, system). A string, not an enum: originals keep whatever role labels the runtime's model API uses.",
    }),
    conversationId: t.exposeString('conversationId', { nullable: true, description: 'The runtime conversation (Burrow-Conversation) at the append' }),
    payload: t.exposeString('payload', {
      description:
        'The original payload as raw JSON text, byte for byte as appended (stored as PostgreSQL json, not jsonb): key order, duplicate keys, large numbers and unicode are preserved. Parse it yourself if you need a value.',
    }),
    createdAt: t.expose('createdAt', { type: 'DateTime', description: 'When it was appended' }),
    archivedAt: t.expose('archivedAt', { type: 'DateTime', nullable: true, description: 'When a reset or compaction archived it' }),
    summarizesGeneration: t.exposeInt('summarizesGeneration', {
      nullable: true,
      description: 'Set on a compaction summary: the archive generation holding the originals it stands for (read them with conversationOriginals(sessionId, generation))',
    }),
    historyPosition: t.exposeInt('historyPosition', {
      description: 'Order in the active history: a summary takes the place of the first entry it replaced; equal to position for every other entry',
    }),
    reference: t.string({
      description: 'The source reference that cites this original: conversation:<sessionId>/<entryId>',
      resolve: (o) => originalReference(o.sessionId, o.entryId),
    }),
  }),
});
addAgentLink(ConversationOriginalRef, (o) => o.agentId);

const ConversationArchiveKindEnum = builder.enumType('ConversationArchiveKind', {
  description: 'What made an archive generation',
  values: {
    RESET: { description: 'resetConversation: every active entry moved' },
    COMPACTION: { description: 'compactConversation: a span moved and a summary took its place' },
  },
});

builder.node(ConversationArchiveRef, {
  description: 'The header of one archive generation: what a reset or a compaction moved out of the active history',
  id: { description: GLOBAL_ID_DESCRIPTION, resolve: (a) => agentScopedKey(a.agentId, JSON.stringify([a.sessionId, a.generation])) },
  loadOne: async (id, ctx) => {
    const { agentId, recordId } = parseAgentScopedKey(id);
    const parts = parseJsonPair(recordId);
    if (!parts) return null;
    const archives = await ctx.services.conversations.archives(ctx.viewer, { agentId, sessionId: parts[0] });
    return archives.find((a) => a.generation === parts[1]) ?? null;
  },
  fields: (t) => ({
    agentId: t.exposeString('agentId', { description: 'The agent id' }),
    sessionId: t.exposeString('sessionId', { description: 'The session id' }),
    session: t.loadable({ ...sessionLink, resolve: (a) => sessionKey(a) }),
    generation: t.exposeInt('generation', { description: 'The generation, 1..n within the session' }),
    entryCount: t.exposeInt('entryCount', { description: 'How many originals it holds' }),
    firstPosition: t.exposeInt('firstPosition', { nullable: true, description: 'The first position it holds; null when empty' }),
    lastPosition: t.exposeInt('lastPosition', { nullable: true, description: 'The last position it holds; null when empty' }),
    reason: t.exposeString('reason', { nullable: true, description: 'The reason given' }),
    archivedAt: t.expose('archivedAt', { type: 'DateTime', description: 'When it was made' }),
    archivedBy: t.field({ type: ActorRef, description: 'Who made it', resolve: (a) => ({ kind: a.archivedByKind, id: a.archivedById }) }),
    kind: t.field({ type: ConversationArchiveKindEnum, description: 'Reset or compaction', resolve: (a) => (a.kind === 'compaction' ? 'COMPACTION' : 'RESET') }),
    summaryEntryId: t.exposeString('summaryEntryId', {
      nullable: true,
      description: "A compaction's summary entry, which took this generation's place in the active history",
    }),
  }),
});
addAgentLink(ConversationArchiveRef, (a) => a.agentId);

const OriginalConnection = connectionType(ConversationOriginalRef, 'ConversationOriginal');
const SessionConnection = connectionType(ConversationSessionRef, 'ConversationSession');

const ORIGINALS_PAGE = CONVERSATION_LIMITS.page;
const originalsBinding = (agentId: string | null | undefined, sessionId: string) => bindingOf('conversationOriginals', agentId, sessionId);

builder.node(ConversationSessionRef, {
  description: "One session of an agent's conversation history, with its counts and archive state",
  id: { description: GLOBAL_ID_DESCRIPTION, resolve: (s) => sessionKey(s) },
  loadOne: (id, ctx) => ctx.services.conversations.session(ctx.viewer, sessionKeyOf(id)),
  fields: (t) => ({
    agentId: t.exposeString('agentId', { description: 'The agent id' }),
    sessionId: t.exposeString('sessionId', { description: 'The session id (Burrow-Session) used in every conversation argument (the node id is global)' }),
    project: t.exposeString('project', { nullable: true, description: 'The continuity scope of the first append' }),
    activeCount: t.exposeInt('activeEntryCount', { description: 'Entries in the active history (summaries included)' }),
    archivedCount: t.exposeInt('archivedEntryCount', { description: 'Originals held in archive generations' }),
    originalCount: t.int({ description: 'activeCount + archivedCount', resolve: (s) => s.activeEntryCount + s.archivedEntryCount }),
    lastPosition: t.exposeInt('lastPosition', { description: 'The position of the last append (0 before the first)' }),
    archiveGenerations: t.exposeInt('archiveGenerations', { description: 'How many archive generations resets and compactions have made (1..n)' }),
    firstActivityAt: t.expose('createdAt', { type: 'DateTime', description: 'The first append' }),
    lastActivityAt: t.expose('updatedAt', { type: 'DateTime', description: 'The last append, compaction or reset' }),
    archived: t.boolean({ description: 'Whether the session is archived (archiveConversationSession)', resolve: (s) => s.archivedAt !== null }),
    archivedAt: t.expose('archivedAt', { type: 'DateTime', nullable: true, description: 'When it was archived; null when not archived' }),
    archivedBy: t.field({
      type: ActorRef,
      nullable: true,
      description: 'Who archived it; null when not archived',
      resolve: (s) => (s.archivedAt && s.archivedByKind && s.archivedById ? { kind: s.archivedByKind, id: s.archivedById } : null),
    }),
    archiveReason: t.exposeString('archiveReason', { nullable: true, description: 'The reason given when archiving' }),
    archives: t.loadableList({
      type: ConversationArchiveRef,
      description: 'The archive generations, oldest first (batched: one statement for a whole page)',
      load: (keys: string[], ctx) => ctx.services.conversations.archivesFor(keys.map(sessionKeyOf)),
      resolve: (s) => sessionKey(s),
    }),
    originals: t.loadable({
      type: OriginalConnection,
      description: `Every original of the session, active and archived, in position order; pages of 1 to ${ORIGINALS_PAGE}, 50 by default (batched: one statement for a whole page of sessions). Cursors are interchangeable with Query.conversationOriginals.`,
      args: pageArgs(t.arg, ORIGINALS_PAGE, 50),
      byPath: true,
      load: async (keys: string[], ctx, args) => {
        const limit = pageSize(args.first, ORIGINALS_PAGE, 50);
        return pagesPerKey(
          keys.map(sessionKeyOf),
          (s) => ({ ...s, afterPosition: decodePositionCursor(args.after, originalsBinding(s.agentId, s.sessionId)) }),
          (sessions) => ctx.services.conversations.originalPagesForSessions(sessions, limit + 1),
          (page, s) => {
            const binding = originalsBinding(s.agentId, s.sessionId);
            return toConnection(page, limit, (o) => encodeCursor(binding, [o.position]), args.after);
          },
        );
      },
      resolve: (s) => sessionKey(s),
    }),
  }),
});
addAgentLink(ConversationSessionRef, (s) => s.agentId);

const ConversationCompactionRef = builder.objectRef<{ archive: ArchiveRow; summary: OriginalRow }>('ConversationCompaction').implement({
  description: 'What a compaction made',
  fields: (t) => ({
    archive: t.field({ type: ConversationArchiveRef, description: 'The new archive generation holding the replaced originals', resolve: (c) => c.archive }),
    summary: t.field({ type: ConversationOriginalRef, description: 'The summary entry now in the active history', resolve: (c) => c.summary }),
  }),
});

builder.objectType(SessionArchivedError, {
  name: 'ConversationSessionArchived',
  description: 'The session is archived: it refuses appends, compactions and resets until unarchived. Nothing was changed.',
  interfaces: [ErrorInterface],
  fields: (t) => ({
    sessionId: t.exposeString('sessionId', { description: 'The session id' }),
    archivedAt: t.expose('archivedAt', { type: 'DateTime', description: 'When it was archived' }),
    archivedBy: t.field({ type: ActorRef, description: 'Who archived it', resolve: (e) => actorOf(e.archivedBy) }),
    reason: t.exposeString('reason', { nullable: true, description: 'The reason given when archiving' }),
  }),
});

builder.objectType(SessionNotArchivedError, {
  name: 'ConversationSessionNotArchived',
  description: 'The session is not archived, so there is nothing to unarchive. Nothing was changed.',
  interfaces: [ErrorInterface],
  fields: (t) => ({ sessionId: t.exposeString('sessionId', { description: 'The session id' }) }),
});

/** What each session write can answer with (no revisions, no ownership: nothing else can happen). */
const SESSION_WRITE_ERRORS = [ValidationError, NotFoundError, SessionArchivedError];
const UNARCHIVE_ERRORS = [NotFoundError, SessionNotArchivedError];

const SessionArchiveFilterEnum = builder.enumType('ConversationSessionArchiveFilter', {
  description: 'Which sessions a list holds',
  values: {
    EXCLUDE: { description: 'Sessions that are not archived (the default)' },
    INCLUDE: { description: 'Every session' },
    ONLY: { description: 'Archived sessions only' },
  },
});

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

/** A resolved source reference: `original` is set when the reference cites a stored original. */
export const SourceOriginalRef = builder.objectRef<{ ref: string; original: OriginalRow | null }>('SourceOriginal').implement({
  description: 'A source reference and, when it cites a stored conversation original, that original',
  fields: (t) => ({
    ref: t.exposeString('ref', { description: 'The reference as given' }),
    original: t.field({ type: ConversationOriginalRef, nullable: true, description: 'The original it cites; null for other references', resolve: (s) => s.original }),
  }),
});

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

const AppendConversationEntryInput = builder.inputType('AppendConversationEntryInput', {
  description: 'One original for the runtime session',
  fields: (t) => ({
    payload: t.string({ required: true, description: 'The original message as JSON text; stored and returned byte for byte (at most 1,000,000 characters)' }),
    role: t.string({
      required: false,
      description: 'The role as the model API names it, e.g. user, assistant, tool (1 to 64 characters; free text, not an enum, because model APIs differ)',
    }),
    agentId: t.string({ required: false, description: 'Operators only: the agent; agent tokens append as their agent' }),
  }),
});
const CompactConversationInput = builder.inputType('CompactConversationInput', {
  description: 'A span of the active history and the summary that replaces it',
  fields: (t) => ({
    sessionId: t.string({ required: false, description: 'Defaults to the runtime session; an agent token may only compact its runtime session' }),
    fromPosition: t.int({ required: true, description: 'Position of the first active entry of the span' }),
    toPosition: t.int({ required: true, description: 'Position of the last active entry of the span (the same entry or a later one in the active history)' }),
    summary: t.string({ required: true, description: 'The summary entry as JSON text, stored byte for byte like any original (at most 1,000,000 characters)' }),
    role: t.string({ required: false, description: "The summary entry's role (1 to 64 characters)" }),
    agentId: t.string({ required: false, description: 'Operators name the agent; agent tokens act as their agent' }),
  }),
});
const ArchiveConversationSessionInput = builder.inputType('ArchiveConversationSessionInput', {
  description: 'The session to archive',
  fields: (t) => ({
    sessionId: t.string({ required: false, description: 'Defaults to the runtime session; an agent token may only archive its runtime session' }),
    reason: t.string({ required: false, description: 'At most 2,000 characters' }),
    agentId: t.string({ required: false, description: 'Operators name the agent; agent tokens act as their agent' }),
  }),
});
const UnarchiveConversationSessionInput = builder.inputType('UnarchiveConversationSessionInput', {
  description: 'The session to unarchive',
  fields: (t) => ({
    sessionId: t.string({ required: false, description: 'Defaults to the runtime session; an agent token may only unarchive its runtime session' }),
    agentId: t.string({ required: false, description: 'Operators name the agent; agent tokens act as their agent' }),
  }),
});
const ResetConversationInput = builder.inputType('ResetConversationInput', {
  description: 'The session to reset',
  fields: (t) => ({
    sessionId: t.string({ required: false, description: 'Defaults to the runtime session; an agent token may only reset its runtime session' }),
    reason: t.string({ required: false, description: 'At most 2,000 characters' }),
    agentId: t.string({ required: false, description: 'Operators name the agent; agent tokens act as their agent' }),
  }),
});

builder.mutationFields((t) => ({
  appendConversationEntry: t.field({
    type: ConversationOriginalRef,
    description:
      'Appends an original to the runtime session (Burrow-Session; SESSION_REQUIRED without it). Appends to one session are serialized by its row lock. An archived session refuses it (ConversationSessionArchived).',
    errors: { types: SESSION_WRITE_ERRORS, dataField: { name: 'entry' } },
    args: { input: t.arg({ type: AppendConversationEntryInput, required: true, description: 'What to do' }) },
    resolve: (_, { input }, ctx) => ctx.services.conversations.append(ctx.viewer, input),
  }),
  resetConversation: t.field({
    type: ConversationArchiveRef,
    description: "Archives the session's active entries into a new archive generation and starts it empty. Nothing is erased.",
    errors: { types: SESSION_WRITE_ERRORS, dataField: { name: 'archive' } },
    args: { input: t.arg({ type: ResetConversationInput, required: true, description: 'What to do' }) },
    resolve: (_, { input }, ctx) => ctx.services.conversations.reset(ctx.viewer, input),
  }),
  compactConversation: t.field({
    type: ConversationCompactionRef,
    description:
      'Replaces a span of the active history with a summary entry. The replaced originals move into a new archive generation (kind COMPACTION, reason "compaction") exactly as a reset moves entries; nothing is erased. The summary takes the next position, stands in the span\'s place in conversationHistory and links to the generation (summarizesGeneration).',
    errors: { types: SESSION_WRITE_ERRORS, dataField: { name: 'compaction' } },
    args: { input: t.arg({ type: CompactConversationInput, required: true, description: 'What to do' }) },
    resolve: (_, { input }, ctx) => ctx.services.conversations.compact(ctx.viewer, input),
  }),
  archiveConversationSession: t.field({
    type: ConversationSessionRef,
    description:
      'Archives a session: a metadata change (archivedAt, archivedBy, reason). Every original stays; the session leaves the default session list and refuses appends, compactions and resets until unarchived.',
    errors: { types: SESSION_WRITE_ERRORS, dataField: { name: 'session' } },
    args: { input: t.arg({ type: ArchiveConversationSessionInput, required: true, description: 'What to do' }) },
    resolve: (_, { input }, ctx) => ctx.services.conversations.archiveSession(ctx.viewer, input),
  }),
  unarchiveConversationSession: t.field({
    type: ConversationSessionRef,
    description: 'Reverses archiveConversationSession: the session accepts writes again and returns to the default session list.',
    errors: { types: UNARCHIVE_ERRORS, dataField: { name: 'session' } },
    args: { input: t.arg({ type: UnarchiveConversationSessionInput, required: true, description: 'What to do' }) },
    resolve: (_, { input }, ctx) => ctx.services.conversations.unarchiveSession(ctx.viewer, input),
  }),
}));
