/**
 * The conversation types of the schema: originals, archive headers and sessions as nodes, the
 * compaction result, the session errors, the archive filter and SourceOriginal. The queries are in
 * conversations.queries.graphql.ts, the mutations in conversations.mutations.graphql.ts.
 */
import { builder } from '../../schema/builder.js';
import { GLOBAL_ID_DESCRIPTION } from '../../schema/node-keys.js';
import { ErrorInterface } from '../../schema/errors.js';
import { ActorRef } from '../../schema/actor.js';
import { connectionType, pageArgs, pagesPerKey } from '../../schema/connections.js';
import { agentScopedKey, parseAgentScopedKey } from '../../schema/node-keys.js';
import { addAgentLink } from '../agents/agents.graphql.js';
import { bindingOf, decodePositionCursor, encodeCursor, pageSize, toConnection } from '../../lib/cursor.js';
import { CONVERSATION_LIMITS } from './conversations.sql.js';
import { SessionArchivedError, SessionNotArchivedError } from './conversations.errors.js';
import { originalReference } from './conversations.references.js';
import type { ArchiveRow, OriginalRow, SessionRow } from './conversations.types.js';

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

export const ConversationSessionRef = builder.objectRef<SessionRow>('ConversationSession');
export const ConversationArchiveRef = builder.objectRef<ArchiveRow>('ConversationArchive');

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

export const OriginalConnection = connectionType(ConversationOriginalRef, 'ConversationOriginal');
export const SessionConnection = connectionType(ConversationSessionRef, 'ConversationSession');

export const ORIGINALS_PAGE = CONVERSATION_LIMITS.page;
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

export const ConversationCompactionRef = builder.objectRef<{ archive: ArchiveRow; summary: OriginalRow }>('ConversationCompaction').implement({
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

export const SessionArchiveFilterEnum = builder.enumType('ConversationSessionArchiveFilter', {
  description: 'Which sessions a list holds',
  values: {
    EXCLUDE: { description: 'Sessions that are not archived (the default)' },
    INCLUDE: { description: 'Every session' },
    ONLY: { description: 'Archived sessions only' },
  },
});

/** A resolved source reference: `original` is set when the reference cites a stored original. */
export const SourceOriginalRef = builder.objectRef<{ ref: string; original: OriginalRow | null }>('SourceOriginal').implement({
  description: 'A source reference and, when it cites a stored conversation original, that original',
  fields: (t) => ({
    ref: t.exposeString('ref', { description: 'The reference as given' }),
    original: t.field({ type: ConversationOriginalRef, nullable: true, description: 'The original it cites; null for other references', resolve: (s) => s.original }),
  }),
});
