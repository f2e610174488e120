import { builder } from '../../schema/builder.js';
import { WRITE_ERRORS } from '../../schema/errors.js';
import { bindingOf, decodePositionCursor, encodeCursor, pageSize, toConnection } from '../../lib/cursor.js';
import { badRequest } from '../../lib/errors.js';
import { CONVERSATION_LIMITS } from './conversations.sql.js';
import { originalReference, type ArchiveRow, type OriginalRow } from './conversations.service.js';

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
    reference: t.string({
      description: 'The source reference that cites this original: conversation:<sessionId>/<entryId>',
      resolve: (o) => originalReference(o.sessionId, o.entryId),
    }),
  }),
});

const ConversationArchiveRef = builder.objectRef<ArchiveRow>('ConversationArchive').implement({
  description: 'The header of one archive generation: what a reset moved out of the active session',
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
  }),
});

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
    description: 'Every original of a session, active and archived, in position order (at most 100 per page)',
    args: { sessionId: t.arg.string({ required: true }), agentId: t.arg.string({ required: false }) },
    resolve: async (_, args, ctx) => {
      if (args.last != null || args.before != null) throw badRequest('conversationOriginals pages forward only: use first/after');
      const limit = pageSize(args.first, CONVERSATION_LIMITS.page, 50);
      const agentKey = ctx.viewer?.principal === 'AGENT' ? ctx.viewer.agentId : args.agentId;
      const binding = bindingOf('conversationOriginals', agentKey, args.sessionId);
      const afterPosition = decodePositionCursor(args.after, binding);
      const { rows } = await ctx.services.conversations.originals(ctx.viewer, {
        agentId: args.agentId,
        sessionId: args.sessionId,
        afterPosition,
        limit: limit + 1,
      });
      return toConnection(rows, limit, (o) => encodeCursor(binding, [o.position]));
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
    description: 'Appends an original to the runtime session (Burrow-Session; session_required without it). Appends to one session are serialized by its row lock.',
    errors: { types: WRITE_ERRORS, dataField: { name: 'entry' } },
    args: { input: t.arg({ type: AppendConversationEntryInput, required: true }) },
    resolve: (_, { input }, ctx) => ctx.services.conversations.append(ctx.viewer, input),
  }),
  resetConversation: t.field({
    type: ConversationArchiveRef,
    description: "Archives the session's active entries into a new archive generation and starts it empty. Nothing is erased.",
    errors: { types: WRITE_ERRORS, dataField: { name: 'archive' } },
    args: { input: t.arg({ type: ResetConversationInput, required: true }) },
    resolve: (_, { input }, ctx) => ctx.services.conversations.reset(ctx.viewer, input),
  }),
}));
