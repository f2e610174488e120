/**
 * Operations generated from the executable schema, for tests that must cover every field the day
 * it is added (the authorization matrix): which root fields take an agent, minimal variables
 * derived from argument types, and an operation text with a selection of the whole result.
 */
import { createRequire } from 'node:module';
import {
  buildClientSchema,
  getNamedType,
  introspectionFromSchema,
  isEnumType,
  isInputObjectType,
  isInterfaceType,
  isLeafType,
  isListType,
  isNonNullType,
  isObjectType,
  isRequiredArgument,
  isRequiredInputField,
  isScalarType,
  isUnionType,
  type GraphQLField,
  type GraphQLInputType,
  type GraphQLOutputType,
  type GraphQLSchema,
} from 'graphql';

/**
 * The executable schema as introspection sees it, rebuilt in this module's copy of graphql.
 * Pothos may have built it with the other copy (CJS where this file gets ESM), and graphql-js
 * refuses to mix types across copies; introspection is plain data and crosses freely.
 */
export function introspected(executable: GraphQLSchema): GraphQLSchema {
  let introspection;
  try {
    introspection = introspectionFromSchema(executable);
  } catch {
    const other = createRequire(import.meta.url)('graphql') as typeof import('graphql');
    introspection = other.introspectionFromSchema(executable);
  }
  return buildClientSchema(introspection);
}

export type RootKind = 'query' | 'mutation' | 'subscription';

export interface RootField {
  kind: RootKind;
  name: string;
  field: GraphQLField<unknown, unknown>;
}

export function rootFields(schema: GraphQLSchema): RootField[] {
  const roots: [RootKind, ReturnType<GraphQLSchema['getQueryType']>][] = [
    ['query', schema.getQueryType()],
    ['mutation', schema.getMutationType()],
    ['subscription', schema.getSubscriptionType()],
  ];
  return roots.flatMap(([kind, type]) => Object.values(type?.getFields() ?? {}).map((field) => ({ kind, name: field.name, field })));
}

/**
 * Where a field takes an agent id: an argument or (nested) input field named agentId, or the `id`
 * argument of a field that returns an Agent. Each path starts with the argument name.
 */
export function agentPaths(field: GraphQLField<unknown, unknown>): string[][] {
  const paths: string[][] = [];
  const walk = (type: GraphQLInputType, path: string[], seen: Set<string>) => {
    const named = getNamedType(type);
    if (!isInputObjectType(named) || seen.has(named.name)) return;
    for (const inner of Object.values(named.getFields())) {
      if (inner.name === 'agentId') paths.push([...path, inner.name]);
      else walk(inner.type, [...path, inner.name], new Set([...seen, named.name]));
    }
  };
  for (const arg of field.args) {
    if (arg.name === 'agentId' || (arg.name === 'id' && getNamedType(field.type).name === 'Agent')) paths.push([arg.name]);
    else walk(arg.type, [arg.name], new Set());
  }
  return paths;
}

/**
 * Values by argument or input-field name, for names whose valid value the type cannot tell
 * (JSON text in a String, an existing run or session). Applied wherever the name occurs.
 */
export type NamedValues = Record<string, unknown>;

/** Minimal variables: every required argument and input field, from `named` or from its type. */
export function minimalVariables(field: GraphQLField<unknown, unknown>, named: NamedValues, where: string): Record<string, unknown> {
  const variables: Record<string, unknown> = {};
  for (const arg of field.args) {
    if (isRequiredArgument(arg)) variables[arg.name] = valueOf(arg.type, arg.name, named, `${where}(${arg.name})`);
  }
  return variables;
}

function valueOf(type: GraphQLInputType, name: string, named: NamedValues, where: string): unknown {
  if (name in named) return structuredClone(named[name]);
  if (isNonNullType(type)) return valueOf(type.ofType, name, named, where);
  if (isListType(type)) return [valueOf(type.ofType, name, named, where)];
  if (isInputObjectType(type)) {
    const value: Record<string, unknown> = {};
    for (const inner of Object.values(type.getFields())) {
      if (isRequiredInputField(inner)) value[inner.name] = valueOf(inner.type, inner.name, named, `${where}.${inner.name}`);
    }
    return value;
  }
  if (isEnumType(type)) return type.getValues()[0].name;
  if (isScalarType(type)) {
    switch (type.name) {
      case 'String':
      case 'ID':
        return 'matrix';
      case 'Int':
      case 'Float':
        return 1;
      case 'Boolean':
        return false;
      case 'JSON':
        return {};
      case 'DateTime':
        return new Date(0).toISOString();
    }
  }
  throw new Error(`cannot derive a value of type ${String(type)} for ${where}: add one to the named values or the field's override`);
}

/** Sets `value` at `path` (through lists: on every element), creating objects on the way. */
export function setAt(target: Record<string, unknown>, path: string[], value: unknown): void {
  const [head, ...rest] = path;
  if (rest.length === 0) {
    target[head] = value;
    return;
  }
  const next = (target[head] ??= {}) as Record<string, unknown> | Record<string, unknown>[];
  for (const item of Array.isArray(next) ? next : [next]) setAt(item, rest, value);
}

/** Deep merge of plain objects; arrays and scalars in `patch` replace. */
export function merge(base: Record<string, unknown>, patch: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = { ...base };
  for (const [key, value] of Object.entries(patch)) {
    const current = out[key];
    out[key] =
      value && typeof value === 'object' && !Array.isArray(value) && current && typeof current === 'object' && !Array.isArray(current)
        ? merge(current as Record<string, unknown>, value as Record<string, unknown>)
        : value;
  }
  return out;
}

const SELECTION_DEPTH = 3;

/**
 * A selection of the whole result down to SELECTION_DEPTH levels: every field without required
 * arguments. Union members' fields are aliased by type so members never conflict.
 */
export function selectionOf(type: GraphQLOutputType, depth = 0, prefix = ''): string {
  const named = getNamedType(type);
  if (isLeafType(named)) return '';
  if (depth >= SELECTION_DEPTH) return ' { __typename }';
  if (isUnionType(named)) {
    const members = named.getTypes().map((member) => `... on ${member.name}${selectionOf(member, depth, `${member.name}_`)}`);
    return ` { __typename ${members.join(' ')} }`;
  }
  if (!isObjectType(named) && !isInterfaceType(named)) return '';
  const fields = Object.values(named.getFields())
    .filter((f) => !f.args.some(isRequiredArgument))
    // A record's `agent` link is the agent already authorized for the record: its id is enough
    // and descending into the agent's own stores would multiply the query's cost past the limit.
    .map((f) => `${prefix ? `${prefix}${f.name}: ` : ''}${f.name}${getNamedType(f.type).name === 'Agent' ? ' { __typename agentId }' : selectionOf(f.type, depth + 1)}`);
  return ` { __typename ${fields.join(' ')} }`;
}

/** The operation text for one root field with the given variables (argument names = variable names). */
export function operationOf(root: RootField, variables: Record<string, unknown>): string {
  const args = root.field.args.filter((a) => a.name in variables);
  const definitions = args.map((a) => `$${a.name}: ${String(a.type)}`).join(', ');
  const call = args.map((a) => `${a.name}: $${a.name}`).join(', ');
  return `${root.kind} Matrix${definitions ? `(${definitions})` : ''} { ${root.name}${call ? `(${call})` : ''}${selectionOf(root.field.type)} }`;
}
