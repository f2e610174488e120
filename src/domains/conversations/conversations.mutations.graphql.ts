/** The conversation mutations and their inputs: append, reset, compact, archive and unarchive a session. */
import { builder } from '../../schema/builder.js';
import { idempotencyKeyField } from '../../db/idempotency.js';
import { idempotencyKeyOf } from '../../schema/idempotency.js';
import { NotFoundError, ValidationError } from '../../lib/errors.js';
import { SessionArchivedError, SessionNotArchivedError } from './conversations.errors.js';
import { ConversationArchiveRef, ConversationCompactionRef, ConversationOriginalRef, ConversationSessionRef } from './conversations.graphql.js';

/** What each session write can answer with (no revisions, no ownership: nothing else can happen). */
const SESSION_WRITE_ERRORS = [ValidationError, NotFoundError, SessionArchivedError];
const UNARCHIVE_ERRORS = [NotFoundError, SessionNotArchivedError];

const AppendConversationEntryInput = builder.inputType('AppendConversationEntryInput', {
  description: 'One original for the runtime session',
  fields: (t) => ({
    payload: t.string({ required: true, description: 'The original message as JSON text; stored and returned byte for byte (at most 1,000,000 characters)' }),
    role: t.string({
      required: false,
      description: 'The role as the model API names it, e.g. user, assistant, tool (1 to 64 characters; free text, not an enum, because model APIs differ)',
    }),
    agentId: t.string({ required: false, description: 'Operators only: the agent; agent tokens append as their agent' }),
    idempotencyKey: t.string({ required: false, description: idempotencyKeyField.description }),
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
    resolve: (_, { input }, ctx, info) => ctx.services.conversations.append(ctx.viewer, { ...input, idempotencyKey: idempotencyKeyOf(ctx, info, input) }),
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
