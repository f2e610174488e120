/**
 * What the test/unions-*.test.ts files share: the members of the union a mutation returns, read
 * from the executable schema, and a tally of what each mutation answered through the real
 * server, so a file can show that every error member it lists actually happens.
 */
import { isUnionType } from 'graphql';
import { schema as executable } from '../../src/schema/index.js';
import { introspected } from './schema-operations.js';

// Rebuilt from introspection: the test's graphql module is not the server's.
const schema = introspected(executable);

/** The member names of the union `mutation` returns, sorted; null when it returns no union. */
export function mutationUnionMembers(mutation: string): string[] | null {
  const type = schema.getMutationType()!.getFields()[mutation].type;
  const union = 'ofType' in type ? type.ofType : type;
  return isUnionType(union)
    ? union
        .getTypes()
        .map((t) => t.name)
        .sort()
    : null;
}

const isError = (member: string) => !member.endsWith('Success');

/** Error members only (not the `…Success` payload), sorted. */
export const errorMembers = (members: readonly string[]) => members.filter(isError).sort();

/** Every `__typename` each mutation answered in one test file. */
export function unionTally() {
  const seen = new Map<string, Set<string>>();
  return {
    /** Records what `mutation` answered; returns its `__typename`. */
    note(mutation: string, typename: string): string {
      if (!seen.has(mutation)) seen.set(mutation, new Set());
      seen.get(mutation)!.add(typename);
      return typename;
    },
    /** The error members `mutation` answered at least once, sorted. */
    errorsProduced: (mutation: string) => errorMembers([...(seen.get(mutation) ?? [])]),
  };
}
