/**
 * The Dream diary, operators only in both directions (an agent token gets FORBIDDEN, even for
 * its own agent). No agent-readable type links to it.
 */
import { builder } from '../../schema/builder.js';
import { NotFoundError, ValidationError } from '../../lib/errors.js';
import type { DreamDiaryEntryRow } from './dream-diary.service.js';

const DreamDiaryEntryRef = builder.objectRef<DreamDiaryEntryRow>('DreamDiaryEntry').implement({
  description: 'A dated narrative entry for operators: separate history, never runtime prompt authority. Append-only.',
  fields: (t) => ({
    id: t.exposeString('id'),
    agentId: t.exposeString('agentId'),
    entryDate: t.exposeString('entryDate', { description: 'YYYY-MM-DD' }),
    title: t.exposeString('title'),
    body: t.exposeString('body'),
    writtenBy: t.exposeString('writtenBy'),
    createdAt: t.expose('createdAt', { type: 'DateTime' }),
    expiresAt: t.expose('expiresAt', { type: 'DateTime', description: 'Retention removes the entry after this (BURROW_DREAM_DIARY_RETENTION_DAYS)' }),
  }),
});

builder.queryFields((t) => ({
  dreamDiary: t.field({
    type: [DreamDiaryEntryRef],
    description: 'Operators only. Newest first by entry date.',
    args: { agentId: t.arg.string({ required: true }), first: t.arg.int({ required: false, description: '1 to 200, default 50' }) },
    resolve: (_, args, ctx) => ctx.services.dreamDiary.list(ctx.viewer, args.agentId, args.first),
  }),
}));

const AppendDreamDiaryEntryInput = builder.inputType('AppendDreamDiaryEntryInput', {
  fields: (t) => ({
    agentId: t.string({ required: true }),
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
    args: { input: t.arg({ type: AppendDreamDiaryEntryInput, required: true }) },
    resolve: (_, { input }, ctx) => ctx.services.dreamDiary.append(ctx.viewer, input),
  }),
}));
