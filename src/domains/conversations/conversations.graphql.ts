import { builder } from '../../schema/builder.js';
import { WRITE_ERRORS } from '../../schema/errors.js';
import { bindingOf, decodeCursor, decodePositionCursor, encodeCursor, pageSize, toConnection } from '../../lib/cursor.js';
import { RequestError, badRequest } from '../../lib/errors.js';
import { charLength } from '../../lib/text.js';
import { CONVERSATION_LIMITS } from './conversations.sql.js';
import {
  SessionArchivedError,
  SessionNotArchivedError,
  originalReference,
  type ArchiveRow,
  type NewestFirstKey,
  type OriginalRow,
  type SessionArchiveFilter,
  type SessionRow,
} from './conversations.service.js';
import { ErrorInterface } from '../../schema/errors.js';

export const ConversationOriginalRef = builder.objectRef<OriginalRow>('ConversationOriginal').implement({
  description: 'One original message of a session, active or archived (a row of the read-only view conversation_original_rows)',
  fields: (t) => ({
    agentId: t.exposeString('agentId'),
    sessionId: t.exposeString('sessionId'),
    entryId: t.exposeString('entryId'),
    position: t.exposeInt('position', { description: 'Order within the session; never restarts across resets' }),
    archiveGeneration: t.exposeInt('archiveGeneration', {
      nullable: true,
      description: 'Null while the entry is active; the archive generation holding it after a reset',
    }),
    role: t.exposeString('role', { nullable: true }),
    conversationId: t.exposeString('conversationId', { nullable: true }),
    payload: t.exposeString('payload', {
      description:
        'The original payload as raw JSON text, byte for byte as appended (stored as PostgreSQL json, not jsonb): key order, duplicate keys, large numbers and unicode are preserved. Parse it yourself if you need a value.',
    }),
    createdAt: t.expose('createdAt', { type: 'DateTime' }),
    archivedAt: t.expose('archivedAt', { type: 'DateTime', nullable: true }),
    summarizesGeneration: t.exposeInt('summarizesGeneration', {
      nullable: true,
      description:
        'Set on a compaction summary: the archive generation holding the originals it stands for (read them with conversationOriginals(sessionId, generation))',
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

const ConversationArchiveKindEnum = builder.enumType('ConversationArchiveKind', { values: ['RESET', 'COMPACTION'] as const });

const ConversationArchiveRef = builder.objectRef<ArchiveRow>('ConversationArchive').implement({
  description: 'The header of one archive generation: what a reset or a compaction moved out of the active history',
  fields: (t) => ({
    agentId: t.exposeString('agentId'),
    sessionId: t.exposeString('sessionId'),
    generation: t.exposeInt('generation'),
    entryCount: t.exposeInt('entryCount'),
    firstPosition: t.exposeInt('firstPosition', { nullable: true }),
    lastPosition: t.exposeInt('lastPosition', { nullable: true }),
    reason: t.exposeString('reason', { nullable: true }),
    archivedAt: t.expose('archivedAt', { type: 'DateTime' }),
    archivedBy: t.string({ resolve: (a) => `${a.archivedByKind}:${a.archivedById}` }),
    kind: t.field({ type: ConversationArchiveKindEnum, resolve: (a) => (a.kind === 'compaction' ? 'COMPACTION' : 'RESET') }),
    summaryEntryId: t.exposeString('summaryEntryId', {
      nullable: true,
      description: "A compaction's summary entry, which took this generation's place in the active history",
    }),
  }),
});

const ConversationSessionRef = builder.objectRef<SessionRow>('ConversationSession').implement({
  description: "One session of an agent's conversation history, with its counts and archive state",
  fields: (t) => ({
    agentId: t.exposeString('agentId'),
    sessionId: t.exposeString('sessionId'),
    project: t.exposeString('project', { nullable: true, description: 'The continuity scope of the first append' }),
    activeCount: t.exposeInt('activeEntryCount', { description: 'Entries in the active history (summaries included)' }),
    archivedCount: t.exposeInt('archivedEntryCount', { description: 'Originals held in archive generations' }),
    originalCount: t.int({ description: 'activeCount + archivedCount', resolve: (s) => s.activeEntryCount + s.archivedEntryCount }),
    lastPosition: t.exposeInt('lastPosition'),
    archiveGenerations: t.exposeInt('archiveGenerations', { description: 'How many archive generations resets and compactions have made (1..n)' }),
    firstActivityAt: t.expose('createdAt', { type: 'DateTime', description: 'The first append' }),
    lastActivityAt: t.expose('updatedAt', { type: 'DateTime', description: 'The last append, compaction or reset' }),
    archived: t.boolean({ resolve: (s) => s.archivedAt !== null }),
    archivedAt: t.expose('archivedAt', { type: 'DateTime', nullable: true }),
    archivedBy: t.string({ nullable: true, resolve: (s) => (s.archivedAt ? `${s.archivedByKind}:${s.archivedById}` : null) }),
    archiveReason: t.exposeString('archiveReason', { nullable: true }),
    archives: t.loadableList({
      type: ConversationArchiveRef,
      description: 'The archive generations, oldest first (batched: one statement for a whole page)',
      load: (keys: string[], ctx) => ctx.services.conversations.archivesFor(keys.map((key) => JSON.parse(key) as { agentId: string; sessionId: string })),
      resolve: (s) => JSON.stringify({ agentId: s.agentId, sessionId: s.sessionId }),
    }),
  }),
});

const ConversationCompactionRef = builder.objectRef<{ archive: ArchiveRow; summary: OriginalRow }>('ConversationCompaction').implement({
  fields: (t) => ({
    archive: t.field({ type: ConversationArchiveRef, resolve: (c) => c.archive }),
    summary: t.field({ type: ConversationOriginalRef, resolve: (c) => c.summary }),
  }),
});

builder.objectType(SessionArchivedError, {
  name: 'ConversationSessionArchived',
  description: 'The session is archived: it refuses appends, compactions and resets until unarchived. Nothing was changed.',
  interfaces: [ErrorInterface],
  fields: (t) => ({
    sessionId: t.exposeString('sessionId'),
    archivedAt: t.expose('archivedAt', { type: 'DateTime' }),
    archivedBy: t.exposeString('archivedBy'),
    reason: t.exposeString('reason', { nullable: true }),
  }),
});

builder.objectType(SessionNotArchivedError, {
  name: 'ConversationSessionNotArchived',
  interfaces: [ErrorInterface],
  fields: (t) => ({ sessionId: t.exposeString('sessionId') }),
});

const SESSION_WRITE_ERRORS = [...WRITE_ERRORS, SessionArchivedError];

const SessionArchiveFilterEnum = builder.enumType('ConversationSessionArchiveFilter', {
  description: 'Which sessions a list holds: EXCLUDE archived ones (the default), INCLUDE them, or ONLY archived ones',
  values: ['EXCLUDE', 'INCLUDE', 'ONLY'] as const,
});

/** Decodes a newest-first cursor: [microseconds since the epoch, sessionId, position?]. */
function newestFirstKey(position: unknown[] | null, withPosition: boolean): NewestFirstKey | null {
  if (!position) return null;
  const [micros, sessionId, entryPosition] = position;
  const valid =
    typeof micros === 'string' &&
    /^-?\d{1,19}$/.test(micros) &&
    typeof sessionId === 'string' &&
    position.length === (withPosition ? 3 : 2) &&
    (!withPosition || Number.isSafeInteger(entryPosition));
  if (!valid) throw new RequestError('BAD_CURSOR', 'the cursor is malformed');
  return { micros: micros as string, sessionId: sessionId as string, position: withPosition ? (entryPosition as number) : undefined };
}

const forwardOnly = (name: string, args: { last?: number | null; before?: string | null }) => {
  if (args.last != null || args.before != null) throw badRequest(`${name} pages forward only: use first/after`);
};

/** A resolved source reference: `original` is set when the reference cites a stored original. */
export const SourceOriginalRef = builder.objectRef<{ ref: string; original: OriginalRow | null }>('SourceOriginal').implement({
  fields: (t) => ({
    ref: t.exposeString('ref'),
    original: t.field({ type: ConversationOriginalRef, nullable: true, resolve: (s) => s.original }),
  }),
});

builder.queryFields((t) => ({
  conversationOriginals: t.connection({
    type: ConversationOriginalRef,
    description: 'Every original of a session, active and archived, in position order (at most 100 per page); `generation` narrows it to one archive generation',
    args: {
      sessionId: t.arg.string({ required: true }),
      agentId: t.arg.string({ required: false }),
      generation: t.arg.int({ required: false, description: 'Only the originals archived in this generation (e.g. what a summary stands for)' }),
    },
    resolve: async (_, args, ctx) => {
      if (args.last != null || args.before != null) throw badRequest('conversationOriginals pages forward only: use first/after');
      const limit = pageSize(args.first, CONVERSATION_LIMITS.page, 50);
      const agentKey = ctx.viewer?.principal === 'AGENT' ? ctx.viewer.agentId : args.agentId;
      // Without a generation the binding is what it always was, so existing cursors stay valid.
      const binding = args.generation == null ? bindingOf('conversationOriginals', agentKey, args.sessionId) : bindingOf('conversationOriginals', agentKey, args.sessionId, String(args.generation));
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
  conversationHistory: t.connection({
    type: ConversationOriginalRef,
    description:
      'The active history of a session in historyPosition order: what a runtime continues from, with each compaction summary in place of the span it replaced (at most 100 per page)',
    args: { sessionId: t.arg.string({ required: true }), agentId: t.arg.string({ required: false }) },
    resolve: async (_, args, ctx) => {
      forwardOnly('conversationHistory', args);
      const limit = pageSize(args.first, CONVERSATION_LIMITS.page, 50);
      const agentKey = ctx.viewer?.principal === 'AGENT' ? ctx.viewer.agentId : args.agentId;
      const binding = bindingOf('conversationHistory', agentKey, args.sessionId);
      const afterHistoryPosition = decodePositionCursor(args.after, binding);
      const { rows } = await ctx.services.conversations.history(ctx.viewer, { agentId: args.agentId, sessionId: args.sessionId, afterHistoryPosition, limit: limit + 1 });
      return toConnection(rows, limit, (o) => encodeCursor(binding, [o.historyPosition]), args.after);
    },
  }),
  conversationSessions: t.connection({
    type: ConversationSessionRef,
    description:
      "An agent's conversation sessions, newest first activity first, with counts and archive generations. Archived sessions are left out unless `archived` says INCLUDE or ONLY. At most 100 per page; cursors are bound to the agent and the filter.",
    args: {
      agentId: t.arg.string({ required: false }),
      archived: t.arg({ type: SessionArchiveFilterEnum, required: false, defaultValue: 'EXCLUDE' }),
    },
    resolve: async (_, args, ctx) => {
      forwardOnly('conversationSessions', args);
      const limit = pageSize(args.first, CONVERSATION_LIMITS.sessionsPage, 20);
      const archived = (args.archived ?? 'EXCLUDE') as SessionArchiveFilter;
      const agentKey = ctx.viewer?.principal === 'AGENT' ? ctx.viewer.agentId : args.agentId;
      const binding = bindingOf('conversationSessions', agentKey, archived);
      const after = newestFirstKey(decodeCursor(args.after, binding), false);
      const { rows } = await ctx.services.conversations.sessions(ctx.viewer, { agentId: args.agentId, archived, after, limit: limit + 1 });
      return toConnection(rows, limit, (s) => encodeCursor(binding, [s.micros, s.sessionId]), args.after);
    },
  }),
  conversationSession: t.field({
    type: ConversationSessionRef,
    nullable: true,
    description: 'One session of an agent (archived or not), or null',
    args: { sessionId: t.arg.string({ required: true }), agentId: t.arg.string({ required: false }) },
    resolve: (_, args, ctx) => ctx.services.conversations.session(ctx.viewer, args),
  }),
  conversationSearch: t.connection({
    type: ConversationOriginalRef,
    description:
      "Case-insensitive substring search over an agent's originals, active and archived, in every session (archived sessions too): the query is matched against each payload's JSON text as stored. Newest first (createdAt, then sessionId and position, descending). At most 50 per page; cursors are bound to the agent, the query and every filter.",
    args: {
      query: t.arg.string({ required: true, description: `${3} to ${CONVERSATION_LIMITS.searchQuery} characters, matched literally (% and _ are not wildcards)` }),
      agentId: t.arg.string({ required: false }),
      sessionId: t.arg.string({ required: false }),
      role: t.arg.string({ required: false, description: 'Exact role, e.g. user' }),
      createdFrom: t.arg({ type: 'DateTime', required: false, description: 'Inclusive lower bound of createdAt' }),
      createdBefore: t.arg({ type: 'DateTime', required: false, description: 'Exclusive upper bound of createdAt' }),
    },
    resolve: async (_, args, ctx) => {
      forwardOnly('conversationSearch', args);
      const limit = pageSize(args.first, CONVERSATION_LIMITS.searchPage, 20);
      const length = charLength(args.query);
      if (length < 3 || length > CONVERSATION_LIMITS.searchQuery) {
        throw badRequest(`query must be 3 to ${CONVERSATION_LIMITS.searchQuery} characters (got ${length})`);
      }
      for (const [name, value] of [['query', args.query], ['sessionId', args.sessionId], ['role', args.role]] as const) {
        if (value?.includes('\u0000')) throw badRequest(`${name} must not contain U+0000`);
      }
      if (args.createdFrom && args.createdBefore && args.createdFrom >= args.createdBefore) throw badRequest('createdFrom must be before createdBefore');
      const agentKey = ctx.viewer?.principal === 'AGENT' ? ctx.viewer.agentId : args.agentId;
      const binding = bindingOf(
        'conversationSearch',
        agentKey,
        args.query,
        args.sessionId,
        args.role,
        args.createdFrom?.toISOString(),
        args.createdBefore?.toISOString(),
      );
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
    description: 'The archive generations of a session, oldest first',
    args: { sessionId: t.arg.string({ required: true }), agentId: t.arg.string({ required: false }) },
    resolve: (_, args, ctx) => ctx.services.conversations.archives(ctx.viewer, args),
  }),
}));

const AppendConversationEntryInput = builder.inputType('AppendConversationEntryInput', {
  fields: (t) => ({
    payload: t.string({ required: true, description: 'The original message as JSON text; stored and returned byte for byte (at most 1,000,000 characters)' }),
    role: t.string({ required: false, description: 'e.g. user, assistant, tool (at most 64 characters)' }),
    agentId: t.string({ required: false, description: 'Operators only: the agent; agent tokens append as their agent' }),
  }),
});
const CompactConversationInput = builder.inputType('CompactConversationInput', {
  fields: (t) => ({
    sessionId: t.string({ required: false, description: 'Defaults to the runtime session; an agent token may only compact its runtime session' }),
    fromPosition: t.int({ required: true, description: 'Position of the first active entry of the span' }),
    toPosition: t.int({ required: true, description: 'Position of the last active entry of the span (the same entry or a later one in the active history)' }),
    summary: t.string({ required: true, description: 'The summary entry as JSON text, stored byte for byte like any original (at most 1,000,000 characters)' }),
    role: t.string({ required: false, description: 'The summary entry\'s role (at most 64 characters)' }),
    agentId: t.string({ required: false }),
  }),
});
const ArchiveConversationSessionInput = builder.inputType('ArchiveConversationSessionInput', {
  fields: (t) => ({
    sessionId: t.string({ required: false, description: 'Defaults to the runtime session; an agent token may only archive its runtime session' }),
    reason: t.string({ required: false, description: 'At most 2,000 characters' }),
    agentId: t.string({ required: false }),
  }),
});
const UnarchiveConversationSessionInput = builder.inputType('UnarchiveConversationSessionInput', {
  fields: (t) => ({
    sessionId: t.string({ required: false, description: 'Defaults to the runtime session; an agent token may only unarchive its runtime session' }),
    agentId: t.string({ required: false }),
  }),
});
const ResetConversationInput = builder.inputType('ResetConversationInput', {
  fields: (t) => ({
    sessionId: t.string({ required: false, description: 'Defaults to the runtime session; an agent token may only reset its runtime session' }),
    reason: t.string({ required: false }),
    agentId: t.string({ required: false }),
  }),
});

builder.mutationFields((t) => ({
  appendConversationEntry: t.field({
    type: ConversationOriginalRef,
    description:
      'Appends an original to the runtime session (Burrow-Session; SESSION_REQUIRED without it). Appends to one session are serialized by its row lock. An archived session refuses it (ConversationSessionArchived).',
    errors: { types: SESSION_WRITE_ERRORS, dataField: { name: 'entry' } },
    args: { input: t.arg({ type: AppendConversationEntryInput, required: true }) },
    resolve: (_, { input }, ctx) => ctx.services.conversations.append(ctx.viewer, input),
  }),
  resetConversation: t.field({
    type: ConversationArchiveRef,
    description: "Archives the session's active entries into a new archive generation and starts it empty. Nothing is erased.",
    errors: { types: SESSION_WRITE_ERRORS, dataField: { name: 'archive' } },
    args: { input: t.arg({ type: ResetConversationInput, required: true }) },
    resolve: (_, { input }, ctx) => ctx.services.conversations.reset(ctx.viewer, input),
  }),
  compactConversation: t.field({
    type: ConversationCompactionRef,
    description:
      'Replaces a span of the active history with a summary entry. The replaced originals move into a new archive generation (kind COMPACTION, reason "compaction") exactly as a reset moves entries; nothing is erased. The summary takes the next position, stands in the span\'s place in conversationHistory and links to the generation (summarizesGeneration).',
    errors: { types: SESSION_WRITE_ERRORS, dataField: { name: 'compaction' } },
    args: { input: t.arg({ type: CompactConversationInput, required: true }) },
    resolve: (_, { input }, ctx) => ctx.services.conversations.compact(ctx.viewer, input),
  }),
  archiveConversationSession: t.field({
    type: ConversationSessionRef,
    description:
      'Archives a session: a metadata change (archivedAt, archivedBy, reason). Every original stays; the session leaves the default session list and refuses appends, compactions and resets until unarchived.',
    errors: { types: SESSION_WRITE_ERRORS, dataField: { name: 'session' } },
    args: { input: t.arg({ type: ArchiveConversationSessionInput, required: true }) },
    resolve: (_, { input }, ctx) => ctx.services.conversations.archiveSession(ctx.viewer, input),
  }),
  unarchiveConversationSession: t.field({
    type: ConversationSessionRef,
    description: 'Reverses archiveConversationSession: the session accepts writes again and returns to the default session list.',
    errors: { types: [...WRITE_ERRORS, SessionNotArchivedError], dataField: { name: 'session' } },
    args: { input: t.arg({ type: UnarchiveConversationSessionInput, required: true }) },
    resolve: (_, { input }, ctx) => ctx.services.conversations.unarchiveSession(ctx.viewer, input),
  }),
}));
