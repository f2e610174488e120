/** The schema builder: plugins and scalars only. Types live beside their domain. */
import SchemaBuilder from '@pothos/core';
import ErrorsPlugin from '@pothos/plugin-errors';
import DataloaderPlugin from '@pothos/plugin-dataloader';
import RelayPlugin from '@pothos/plugin-relay';
import SimpleObjectsPlugin from '@pothos/plugin-simple-objects';
import type { Context } from '../context.js';
import AbsentAgentPlugin from './absent-agent-plugin.js';
import TextPolicyPlugin from './text-policy-plugin.js';

const pascal = (name: string) => name.charAt(0).toUpperCase() + name.slice(1);

export const builder = new SchemaBuilder<{
  Context: Context;
  DefaultFieldNullability: false;
  Scalars: {
    DateTime: { Input: Date; Output: Date };
    JSON: { Input: unknown; Output: unknown };
  };
}>({
  // errors before dataloader, as the errors plugin requires; absentAgent answers NotFound for an
  // agent whose erasure started (docs/agent-erasure.md); the text policy last, so it runs
  // innermost and its ValidationError becomes a ValidationFailed result where a field has one.
  plugins: [ErrorsPlugin, DataloaderPlugin, RelayPlugin, SimpleObjectsPlugin, AbsentAgentPlugin, TextPolicyPlugin],
  defaultFieldNullability: false,
  relay: {
    clientMutationId: 'omit',
    cursorType: 'String',
    nodeTypeOptions: { description: 'An entity with a global id that `node(id:)` reads back' },
    nodeQueryOptions: {
      nullable: true,
      description: 'Any entity by its global id, authorized as the root field that reads it; null when there is none',
      args: { id: { description: 'The global id (`id` of any Node)' } },
    },
    nodesQueryOptions: false,
  },
  errors: {
    defaultResultOptions: { name: ({ fieldName }) => `${pascal(fieldName)}Success` },
    defaultUnionOptions: { name: ({ fieldName }) => `${pascal(fieldName)}Result` },
  },
});

builder.queryType({
  description:
    "Reads. Agent tokens read their own agent only; operators read every agent. Per-agent stores are fields of `Agent` (batched) and, for runtimes, root fields named after the seed's tools.",
});
builder.mutationType({
  description: 'Writes. Every mutation answers a result union: the success payload, or an `Error` member saying what was wrong, in which case nothing was changed.',
});
builder.subscriptionType({
  description: 'Live events over graphql-ws (graphql-transport-ws), resumable from the last sequence or cursor a client saw.',
});

/** The builder's type parameters, for helpers that take refs or field builders. */
export type Types = typeof builder extends PothosSchemaTypes.SchemaBuilder<infer T> ? T : never;
