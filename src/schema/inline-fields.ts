/**
 * Drops the resolver of the fields that only read their parent's property of the same name, on
 * the types whose values are plain rows (objects of data, never functions). Pothos gives such a
 * field (`t.exposeString('content')`) graphql's defaultFieldResolver; graphql-jit calls any
 * resolver through a resolve-info object and a response path built for that call, while a field
 * without one it reads inline. On `agents(first: 50)` with profiles that was some 950 calls per
 * request (name, kind, content, revision of 50 agents and 300 documents). The answer is the
 * same: defaultFieldResolver returns the property too, and would call it only were it a
 * function, which a row's value never is.
 */
import { defaultFieldResolver, isObjectType, type GraphQLSchema } from 'graphql';

/** The types read straight from rows (Drizzle selects and the documents' as-of mapping). */
const ROW_TYPES = ['Agent', 'ProfileDocument', 'ProfileDocumentRevision'];

export function inlineRowFields(schema: GraphQLSchema): GraphQLSchema {
  for (const typeName of ROW_TYPES) {
    const type = schema.getType(typeName);
    if (!isObjectType(type)) throw new Error(`inlineRowFields: ${typeName} is not an object type`);
    for (const field of Object.values(type.getFields())) {
      if (field.resolve === defaultFieldResolver) field.resolve = undefined;
    }
  }
  return schema;
}
