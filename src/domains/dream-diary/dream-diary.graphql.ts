/**
 * The Dream diary, operators only in both directions (an agent token gets FORBIDDEN, even for
 * its own agent, from the root field and from node(id) alike). No agent-readable type links to it.
 */
import { builder } from '../../schema/builder.js';
import { connectionType, pageArgs } from '../../schema/connections.js';
import { agentScopedKey, parseAgentScopedKey } from '../../schema/node-keys.js';
import { bindingOf, cursorTime, decodeCursor, encodeCursor, malformedCursor, pageSize, toConnection } from '../../lib/cursor.js';
import { badRequest, NotFoundError, ValidationError } from '../../lib/errors.js';
import { addAgentLink } from '../agents/agents.graphql.js';
import { DREAM_DIARY_LIMITS } from './dream-diary.sql.js';
import type { DreamDiaryEntryRow } from './dream-diary.service.js';

const DreamDiaryEntryRef = builder.objectRef<DreamDiaryEntryRow>('DreamDiaryEntry');
builder.node(DreamDiaryEntryRef, {
  description: 'A dated narrative entry for operators: separate history, never runtime prompt authority. Append-only.',
  id: { description: 'The global id (node(id:))', resolve: (e) => agentScopedKey(e.agentId, e.id) },
  loadOne: (key, ctx) => {
    const { agentId, recordId } = parseAgentScopedKey(key);
    return ctx.services.dreamDiary.get(ctx.viewer, agentId, recordId);
  },
  fields: (t) => ({
    entryId: t.exposeString('id', { description: 'The entry id within its agent' }),
    agentId: t.exposeString('agentId', { description: 'The agent id the entry is about' }),
    entryDate: t.exposeString('entryDate', { description: 'The day the entry is about, YYYY-MM-DD' }),
    title: t.exposeString('title', { description: 'At most 240 characters; empty when none was given' }),
    body: t.exposeString('body', { description: 'The narrative, 1 to 24,000 characters' }),
    writtenBy: t.exposeString('writtenBy', { description: 'The name of the operator token that wrote it' }),
    createdAt: t.expose('createdAt', { type: 'DateTime', description: 'When it was written' }),
    expiresAt: t.expose('expiresAt', {
      type: 'DateTime',
      description: 'Hidden from this instant; retention removes it after the grace period (BURROW_DREAM_DIARY_RETENTION_DAYS)',
    }),
  }),
});
addAgentLink(DreamDiaryEntryRef, (e) => e.agentId);
const DreamDiaryEntryConnection = connectionType(DreamDiaryEntryRef, 'DreamDiaryEntry');

/** The cursor is the last entry's (entryDate, createdAt, id). */
function decodeDiaryCursor(cursor: string | null | undefined, binding: string) {
  const position = decodeCursor(cursor, binding);
  if (!position) return null;
  const [entryDate, createdAt, id] = position;
  const at = cursorTime(createdAt);
  // The entry's calendar date, as the list wrote it: a real day (not 2026-02-30) of years 0001-9999.
  const day = typeof entryDate === 'string' && /^\d{4}-\d{2}-\d{2}$/.test(entryDate) ? cursorTime(`${entryDate}T00:00:00.000Z`) : null;
  if (position.length !== 3 || !day || !at || typeof id !== 'string') throw malformedCursor();
  return { entryDate: entryDate as string, createdAt: at, id };
}

builder.queryFields((t) => ({
  dreamDiary: t.field({
    type: DreamDiaryEntryConnection,
    description: 'Operators only. Newest first by entry date, then writing time; expired entries are hidden.',
    args: {
      agentId: t.arg.string({ required: true, description: 'The agent id (`Agent.agentId`)' }),
      ...pageArgs(t.arg, DREAM_DIARY_LIMITS.read, DREAM_DIARY_LIMITS.defaultRead),
    },
    resolve: async (_, args, ctx) => {
      const limit = pageSize(args.first, DREAM_DIARY_LIMITS.read, DREAM_DIARY_LIMITS.defaultRead);
      const binding = bindingOf('dream-diary', args.agentId);
      const after = decodeDiaryCursor(args.after, binding);
      const rows = await ctx.services.dreamDiary.list(ctx.viewer, args.agentId, { limit: limit + 1, after });
      return toConnection(rows, limit, (e) => encodeCursor(binding, [e.entryDate, e.createdAt.toISOString(), e.id]), args.after);
    },
  }),
}));

const AppendDreamDiaryEntryInput = builder.inputType('AppendDreamDiaryEntryInput', {
  description: 'A new Dream diary entry',
  fields: (t) => ({
    agentId: t.string({ required: true, description: 'The agent id (`Agent.agentId`) the entry is about' }),
    entryDate: t.string({ required: false, description: 'YYYY-MM-DD; default today (UTC)' }),
    title: t.string({ required: false, description: 'At most 240 characters' }),
    body: t.string({ required: true, description: '1 to 24,000 characters' }),
  }),
});

builder.mutationFields((t) => ({
  appendDreamDiaryEntry: t.field({
    type: DreamDiaryEntryRef,
    description: 'Operators only. Entries cannot be edited or removed (retention removes them when they expire).',
    errors: { types: [ValidationError, NotFoundError], dataField: { name: 'entry' } },
    args: { input: t.arg({ type: AppendDreamDiaryEntryInput, required: true, description: 'The agent, date, title and body' }) },
    resolve: (_, { input }, ctx) => ctx.services.dreamDiary.append(ctx.viewer, input),
  }),
}));
