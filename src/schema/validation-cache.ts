/**
 * Validation results remembered per parsed document, in place of Yoga's own validation cache.
 *
 * Yoga keys its cache by the names of the request's validation rules, joined into one string:
 * graphql's specified rules plus the three graphql-armor limits, which are added to a new list
 * on every request. Reading some 40 function names, joining them and hashing the long key in an
 * LRU cost about 1.7 % of a one-agent read. Here the rules are compared by identity with the list
 * the first validation saw; a request whose list differs is validated without the cache, so a
 * remembered result is only ever reused under the same rules. That needs the rules themselves to
 * be made once (limits/document-limits.ts): a plugin that made a new rule per request would turn
 * the cache off, never make it wrong. Yoga still caches parsing
 * (`parserAndValidationCache: { validationCache: false }` in app.ts).
 */
import type { DocumentNode, GraphQLSchema } from 'graphql';
import type { Plugin } from 'graphql-yoga';

export function useValidationCache(): Plugin {
  // Unset until the first validation; then that validation's rules (undefined: graphql's defaults).
  let known: { rules: readonly unknown[] | undefined } | null = null;
  const sameRules = (rules: readonly unknown[] | undefined): boolean => {
    if (!known) {
      known = { rules: rules && [...rules] };
      return true;
    }
    const expected = known.rules;
    if (!rules || !expected) return rules === expected;
    if (rules.length !== expected.length) return false;
    for (let i = 0; i < rules.length; i++) if (rules[i] !== expected[i]) return false;
    return true;
  };
  const bySchema = new WeakMap<GraphQLSchema, WeakMap<DocumentNode, readonly Error[]>>();
  return {
    onValidate({ params: { schema, documentAST, rules }, setResult }) {
      if (!sameRules(rules)) return;
      let results = bySchema.get(schema);
      if (!results) bySchema.set(schema, (results = new WeakMap()));
      const remembered = results.get(documentAST);
      if (remembered) {
        setResult(remembered);
        return;
      }
      return ({ result }) => {
        if (result != null) results.set(documentAST, result);
      };
    },
  };
}
