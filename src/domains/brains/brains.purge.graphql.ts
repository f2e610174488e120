/**
 * brainPurge: an operator turns a tombstone into a purged memory (brains.purge.ts). An agent
 * token is refused (FORBIDDEN), as on every operator-only field.
 */
import { builder } from '../../schema/builder.js';
import { NotFoundError, ValidationError } from '../../lib/errors.js';
import { DataRemovalReceiptRef } from '../data-rights/data-rights.graphql.js';
import { BrainMemoryRef } from './brains.memories.graphql.js';
import type { PurgeResult } from './brains.purge.js';

const BrainPurgeSuccessRef = builder.objectRef<PurgeResult>('BrainPurgeSuccess').implement({
  description: 'The memory as the purge left it (empty title, content and source references; the tombstone and its times stay) and the receipt',
  fields: (t) => ({
    memory: t.field({ type: BrainMemoryRef, description: 'The purged memory: purgedAt and purgedBy set, every revision emptied', resolve: (r) => r.memory }),
    receipt: t.field({
      type: DataRemovalReceiptRef,
      description: 'The removal receipt (kind MEMORY_PURGE): rows per store and the hash of what was removed',
      resolve: (r) => r.receipt,
    }),
    alreadyPurged: t.exposeBoolean('alreadyPurged', {
      description: 'True when an earlier purge had already done it: nothing changed, and `receipt` is that purge’s receipt',
    }),
  }),
});

const BrainPurgeInput = builder.inputType('BrainPurgeInput', {
  description: 'The removed memory whose content to purge',
  fields: (t) => ({
    agentId: t.string({ required: true, description: 'The owning agent' }),
    memoryId: t.string({ required: true, description: 'The memory (`BrainMemory.memoryId`); it must be removed (brainRemove) first' }),
  }),
});

builder.mutationFields((t) => ({
  brainPurge: t.field({
    type: BrainPurgeSuccessRef,
    description:
      "Operators only. Purges a removed memory: its title, content and source references and every revision's are emptied, its embedding deleted, " +
      'the title taken out of its events, in one transaction with a DataRemovalReceipt; the id, times, actors and tombstone stay. ' +
      'A live memory is refused (ValidationFailed on memoryId); purging a purged memory changes nothing and answers its receipt (alreadyPurged). ' +
      'Conversation originals are not touched (docs/data-purge.md).',
    errors: { types: [NotFoundError, ValidationError], directResult: true },
    args: { input: t.arg({ type: BrainPurgeInput, required: true, description: 'The agent and the memory' }) },
    resolve: (_, { input }, ctx) => ctx.services.brains.purge(ctx.viewer, input),
  }),
}));
