/**
 * agentErase: operators only (an agent token gets FORBIDDEN, even for its own agent). The
 * answer carries the receipt, which is also kept (dataRemovalReceipts) after the agent is gone.
 */
import { builder } from '../../schema/builder.js';
import { ErrorInterface } from '../../schema/errors.js';
import { NotFoundError } from '../../lib/errors.js';
import { DataRemovalReceiptRef } from './data-rights.graphql.js';
import { OwnerLiveError } from './data-rights.errors.js';
import type { ErasureOutcome } from './agent-erasure.js';

builder.objectType(OwnerLiveError, {
  name: 'OwnerLive',
  description: 'A runtime still owns the agent (a live ownership session) and force was not set; nothing was changed',
  interfaces: [ErrorInterface],
  fields: (t) => ({
    agentId: t.exposeString('agentId', { description: 'The agent that was not erased' }),
    ownerIds: t.exposeStringList('ownerIds', { description: 'The live ownership sessions, by owner id' }),
  }),
});

const AgentEraseSuccessRef = builder.objectRef<ErasureOutcome>('AgentEraseSuccess').implement({
  description: 'The agent and every store it had are gone; the receipt is kept',
  fields: (t) => ({
    receipt: t.field({ type: DataRemovalReceiptRef, description: 'The completed receipt: counts per store and the hash of what was removed', resolve: (o) => o.receipt }),
    resumed: t.exposeBoolean('resumed', { description: 'True when this call finished an erasure that had started before (a crash, or another operator at the same time)' }),
  }),
});

const AgentEraseInput = builder.inputType('AgentEraseInput', {
  description: 'The agent to erase',
  fields: (t) => ({
    agentId: t.string({ required: true, description: 'The agent id (`Agent.agentId`)' }),
    force: t.boolean({ required: false, defaultValue: false, description: 'Erase even while a runtime owner is live (the receipt records it as forced)' }),
  }),
});

builder.mutationFields((t) => ({
  agentErase: t.field({
    type: AgentEraseSuccessRef,
    description:
      'Operators only. Removes the agent and every store it has, in batches; the agent reads as absent from the first step on. ' +
      'Re-run it to finish an erasure a crash interrupted. An unknown (or already erased) agent is NotFound; its receipt stays in dataRemovalReceipts.',
    errors: { types: [NotFoundError, OwnerLiveError], directResult: true },
    args: { input: t.arg({ type: AgentEraseInput, required: true, description: 'The agent, and whether to force past a live owner' }) },
    resolve: (_, { input }, ctx) => ctx.services.erasure.erase(ctx.viewer, { agentId: input.agentId, force: input.force }),
  }),
}));
