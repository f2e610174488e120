/**
 * Applies the text policy (lib/text-policy.ts) to every argument of every field, from the
 * schema's own argument types: each String or ID value anywhere in the arguments (inside input
 * objects and lists) and every JSON scalar value. It runs inside the errors plugin, so a field
 * that lists ValidationFailed answers it as data; other fields fail with VALIDATION_FAILED.
 * Field names are argument paths without the conventional `input` wrapper: `title`,
 * `sourceRefs.2`, `documents.0.content`.
 */
import SchemaBuilder, { BasePlugin, type PothosOutputFieldConfig, type SchemaTypes } from '@pothos/core';
import type { GraphQLFieldResolver, GraphQLInputObjectType, GraphQLInputType, GraphQLList, GraphQLResolveInfo } from 'graphql';
import { assertCleanText, assertJsonValue, IDENTIFIER_LIMIT } from '../lib/text-policy.js';

// Types are told apart by their tag, not instanceof: the executor and the schema may hold
// graphql classes from different copies of the module (ESM and CJS).
const kindOf = (type: GraphQLInputType) => (type as { [Symbol.toStringTag]: string })[Symbol.toStringTag];
const nullableOf = (type: GraphQLInputType): GraphQLInputType => (kindOf(type) === 'GraphQLNonNull' ? (type as unknown as { ofType: GraphQLInputType }).ofType : type);

function checkValue(field: string, type: GraphQLInputType, value: unknown): void {
  if (value == null) return;
  const nullable = nullableOf(type);
  const kind = kindOf(nullable);
  if (kind === 'GraphQLList') {
    const itemType = (nullable as GraphQLList<GraphQLInputType>).ofType;
    if (Array.isArray(value)) value.forEach((item, index) => checkValue(`${field}.${index}`, itemType, item));
    return;
  }
  if (kind === 'GraphQLInputObjectType') {
    const fields = (nullable as GraphQLInputObjectType).getFields();
    for (const [name, item] of Object.entries(value as Record<string, unknown>)) {
      const inner = fields[name];
      if (inner) checkValue(field ? `${field}.${name}` : name, inner.type, item);
    }
    return;
  }
  if (kind === 'GraphQLScalarType') {
    const name = (nullable as { name: string }).name;
    if (name === 'JSON') assertJsonValue(field, value);
    else if (name === 'ID' && typeof value === 'string') assertCleanText(field, value, null, { identifier: true, identifierLimit: 2 * IDENTIFIER_LIMIT });
    else if (typeof value === 'string') assertCleanText(field, value);
  }
}

function checkArgs(args: Record<string, unknown>, info: GraphQLResolveInfo): void {
  const definition = info.parentType.getFields()[info.fieldName];
  for (const arg of definition?.args ?? []) {
    // `input: {...}` is a wrapper: its fields are named as the service names them.
    const prefix = arg.name === 'input' && kindOf(nullableOf(arg.type)) === 'GraphQLInputObjectType' ? '' : arg.name;
    checkValue(prefix, arg.type, args[arg.name]);
  }
}

export class TextPolicyPlugin<Types extends SchemaTypes> extends BasePlugin<Types> {
  override wrapResolve(
    resolver: GraphQLFieldResolver<unknown, Types['Context'], object>,
    fieldConfig: PothosOutputFieldConfig<Types>,
  ): GraphQLFieldResolver<unknown, Types['Context'], object> {
    // A subscription's resolve runs per event; its arguments were checked once, in subscribe.
    if (Object.keys(fieldConfig.args).length === 0 || fieldConfig.kind === 'Subscription') return resolver;
    return (parent, args, context, info) => {
      checkArgs(args as Record<string, unknown>, info);
      return resolver(parent, args, context, info);
    };
  }

  override wrapSubscribe(
    subscribe: GraphQLFieldResolver<unknown, Types['Context'], object> | undefined,
    fieldConfig: PothosOutputFieldConfig<Types>,
  ): GraphQLFieldResolver<unknown, Types['Context'], object> | undefined {
    if (!subscribe || Object.keys(fieldConfig.args).length === 0) return subscribe;
    return (parent, args, context, info) => {
      checkArgs(args as Record<string, unknown>, info);
      return subscribe(parent, args, context, info);
    };
  }
}

const pluginName = 'textPolicy';
export default pluginName;
SchemaBuilder.registerPlugin(pluginName, TextPolicyPlugin);

declare global {
  export namespace PothosSchemaTypes {
    interface Plugins<Types extends SchemaTypes> {
      textPolicy: TextPolicyPlugin<Types>;
    }
  }
}
