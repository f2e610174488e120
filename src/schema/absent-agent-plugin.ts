/**
 * An agent whose erasure has started is absent (docs/agent-erasure.md). AgentsService hides it
 * wherever agents are looked up; this plugin covers the root reads that name an agent by a
 * top-level `agentId` argument and read one store directly (brainMemories, profileDocument, …):
 * for an operator they answer NotFound from the first step on, instead of listing what the
 * batches have not removed yet. No statement: the set lives in memory (ErasingAgents). Agent
 * tokens are left alone: an erasing agent's tokens are revoked in the same first step.
 */
import SchemaBuilder, { BasePlugin, type PothosOutputFieldConfig, type SchemaTypes } from '@pothos/core';
import type { GraphQLFieldResolver } from 'graphql';
import { NotFoundError } from '../lib/errors.js';

interface Erasing {
  services: { erasingAgents: { has(agentId: string): boolean } };
  viewer: { principal: string } | null;
}

function refuseErasing(args: unknown, context: unknown) {
  const agentId = (args as { agentId?: unknown }).agentId;
  const ctx = context as Erasing;
  if (typeof agentId === 'string' && ctx.viewer?.principal === 'OPERATOR' && ctx.services.erasingAgents.has(agentId)) throw new NotFoundError('Agent', agentId);
}

/**
 * Root fields with an `agentId` that answer for an erasing agent on their own: `agent` is null
 * (AgentsService), and the removal receipts must stay readable while the erasure runs.
 */
const EXEMPT = new Set(['agent', 'dataRemovalReceipts']);

const covered = (fieldConfig: { kind: string; name: string; args: object }) =>
  (fieldConfig.kind === 'Query' || fieldConfig.kind === 'Subscription') && 'agentId' in fieldConfig.args && !EXEMPT.has(fieldConfig.name);

export class AbsentAgentPlugin<Types extends SchemaTypes> extends BasePlugin<Types> {
  override wrapResolve(
    resolver: GraphQLFieldResolver<unknown, Types['Context'], object>,
    fieldConfig: PothosOutputFieldConfig<Types>,
  ): GraphQLFieldResolver<unknown, Types['Context'], object> {
    // A subscription's resolve runs per event; it was checked once, in subscribe.
    if (fieldConfig.kind !== 'Query' || !covered(fieldConfig)) return resolver;
    return (parent, args, context, info) => {
      refuseErasing(args, context);
      return resolver(parent, args, context, info);
    };
  }

  override wrapSubscribe(
    subscribe: GraphQLFieldResolver<unknown, Types['Context'], object> | undefined,
    fieldConfig: PothosOutputFieldConfig<Types>,
  ): GraphQLFieldResolver<unknown, Types['Context'], object> | undefined {
    if (!subscribe || !covered(fieldConfig)) return subscribe;
    return (parent, args, context, info) => {
      refuseErasing(args, context);
      return subscribe(parent, args, context, info);
    };
  }
}

const pluginName = 'absentAgent';
export default pluginName;
SchemaBuilder.registerPlugin(pluginName, AbsentAgentPlugin);

declare global {
  export namespace PothosSchemaTypes {
    interface Plugins<Types extends SchemaTypes> {
      absentAgent: AbsentAgentPlugin<Types>;
    }
  }
}
