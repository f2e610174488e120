/** The schema builder: plugins and scalars only. Types live beside their domain. */
import SchemaBuilder from '@pothos/core';
import ErrorsPlugin from '@pothos/plugin-errors';
import DataloaderPlugin from '@pothos/plugin-dataloader';
import RelayPlugin from '@pothos/plugin-relay';
import SimpleObjectsPlugin from '@pothos/plugin-simple-objects';
import type { Context } from '../context.js';
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
  // errors before dataloader, as the errors plugin requires; the text policy last, so it runs
  // innermost and its ValidationError becomes a ValidationFailed result where a field has one.
  plugins: [ErrorsPlugin, DataloaderPlugin, RelayPlugin, SimpleObjectsPlugin, TextPolicyPlugin],
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

builder.queryType({});
builder.mutationType({});
builder.subscriptionType({});

/** The builder's type parameters, for helpers that take refs or field builders. */
export type Types = typeof builder extends PothosSchemaTypes.SchemaBuilder<infer T> ? T : never;
