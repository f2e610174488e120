/**
 * Connections page forward only: `first` and `after`, nothing that would then be refused. Each
 * node type has one `<Type>Connection` and `<Type>Edge`, shared by the root field and the
 * Agent's nested field, so clients cache and reuse one shape. `totalCount` is offered where
 * counting is one cheap indexed statement; the resolver passes it as a thunk so a query that
 * does not select it does not pay for it.
 */
import type { InterfaceRef, ObjectRef } from '@pothos/core';
import { isObjectType, type GraphQLSchema } from 'graphql';
import { builder, type Types } from './builder.js';
type ArgBuilder = PothosSchemaTypes.FieldBuilder<Types, unknown>['arg'];

/** The page arguments of every connection (and of every other paged list). */
export function pageArgs(arg: ArgBuilder, max: number, fallback = Math.min(20, max)) {
  return {
    first: arg.int({ required: false, description: `How many to return: 1 to ${max}; ${fallback} when absent` }),
    after: arg.string({ required: false, description: 'The `endCursor` of the previous page; the first page when absent' }),
  };
}

/** What a connection resolver returns: toConnection(...) plus, where offered, a count. */
export interface CountedConnection {
  totalCount?: () => Promise<number> | number;
}

/** The connection and edge types connectionType made, for inlineConnectionFields. */
const made: { connection: string; edge: string }[] = [];

export function connectionType<Node extends ObjectRef<Types, unknown, unknown> | InterfaceRef<Types, unknown, unknown>>(
  node: Node,
  name: string,
  options: { totalCount?: string } = {},
) {
  made.push({ connection: `${name}Connection`, edge: `${name}Edge` });
  return builder.connectionObject(
    {
      name: `${name}Connection`,
      type: node,
      description: `A forward-only page of ${name} (first/after)`,
      fields: (t) => {
        const fields: Record<string, ReturnType<typeof t.int>> = {};
        if (!options.totalCount) return fields;
        fields.totalCount = t.int({
          description: options.totalCount,
          resolve: async (connection) => {
            const count = (connection as CountedConnection).totalCount;
            if (!count) throw new Error(`${name}Connection.totalCount: the resolver gave no count`);
            return count();
          },
        });
        return fields;
      },
    },
    { name: `${name}Edge`, description: `One ${name} and its cursor` },
  );
}

/**
 * Drops the resolvers Pothos's relay plugin gives `edges`, `pageInfo` and `node`: each returns
 * its parent's property of the same name, which is what a field without a resolver does. The
 * answer is the same; what changes is that graphql-jit reads such a field inline, while for a
 * field with a resolver it calls a function with a resolve-info object built for that call: one
 * per edge of every page (50 on `agents(first: 50)`).
 */
export function inlineConnectionFields(schema: GraphQLSchema): GraphQLSchema {
  const fieldOf = (typeName: string, fieldName: string) => {
    const type = schema.getType(typeName);
    const field = isObjectType(type) ? type.getFields()[fieldName] : undefined;
    if (!field?.resolve) throw new Error(`inlineConnectionFields: ${typeName}.${fieldName} is not a resolved field`);
    return field;
  };
  for (const { connection, edge } of made) {
    for (const field of [fieldOf(connection, 'edges'), fieldOf(connection, 'pageInfo'), fieldOf(edge, 'node')]) {
      field.resolve = undefined;
    }
  }
  return schema;
}

/**
 * The batch load of a nested field (one DataLoader batch = every parent of a response): each key
 * is prepared on its own (authorization, cursor decoding), so a refused key fails only its own
 * field; the keys that passed are read together in one statement; each answer is then built in
 * key order. `loadAll` returns one page per prepared key, in the order given.
 */
export async function pagesPerKey<Key, Prepared, Page, Result>(
  keys: readonly Key[],
  prepare: (key: Key) => Prepared,
  loadAll: (prepared: Prepared[]) => Promise<Page[]>,
  build: (page: Page, prepared: Prepared) => Result,
): Promise<(Result | Error)[]> {
  const outcomes = keys.map((key): { ok: true; prepared: Prepared } | { ok: false; error: Error } => {
    try {
      return { ok: true, prepared: prepare(key) };
    } catch (error) {
      return { ok: false, error: error as Error };
    }
  });
  const ready = outcomes.flatMap((o) => (o.ok ? [o.prepared] : []));
  const pages = ready.length ? await loadAll(ready) : [];
  let next = 0;
  return outcomes.map((o) => (o.ok ? build(pages[next++], o.prepared) : o.error));
}
