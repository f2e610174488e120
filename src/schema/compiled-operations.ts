/**
 * Queries and mutations run as compiled JavaScript (graphql-jit) instead of through the
 * interpreting executor.
 *
 * The executor walks the selection for every object of a result and builds a resolve-info object
 * per field; on `agents(first: 50)` with profiles that is some 1,200 field visits per request, and
 * it was most of the gap to a bare handler running the same SQL. graphql-jit turns each document
 * into a function once (kept as long as Yoga's parse cache keeps the document) and calls the
 * schema's resolvers from it. Throughput of that read went from 0.48 to 0.66 of the bare handler.
 *
 * Queries and mutations (graphql-jit runs a mutation's root fields one after the other, as the
 * specification asks; the whole suite of mutation and error tests passes through it). Mutations
 * came later: on `brainSave` the interpreting executor was a sixth of the server's own CPU, and
 * the writes bench went from 0.476 to 0.511 of pgbench (docs/performance.md). Subscriptions are
 * executed once per event and shared (events/shared-execution.ts). A document
 * graphql-jit cannot compile answers its compilation errors, which the error masker types like
 * any other GraphQL error.
 */
import { useGraphQlJit } from '@envelop/graphql-jit';
import {
  coerceInputValue,
  getOperationAST,
  GraphQLError,
  isInputType,
  isNonNullType,
  typeFromAST,
  type ExecutionResult,
  type GraphQLSchema,
  type OperationDefinitionNode,
} from 'graphql';
import type { Plugin } from 'graphql-yoga';

/** graphql-jit's variable errors name the leaf field (`Variable "$role"`), not the variable. */
const JIT_VARIABLE_ERROR = /^Variable "\$[^"]*" got invalid value/;

/**
 * The variables of a refused request, checked again with graphql-js: one error per problem, naming
 * the variable the request declared and the path inside it, without repeating the variable's
 * value (it may hold a secret): `Variable "$input" got an invalid value at
 * "input.excerpts[0].role": Value "user" does not exist in "TiddleExcerptRole" enum.`
 */
function variableErrors(schema: GraphQLSchema, operation: OperationDefinitionNode, values: Record<string, unknown>): GraphQLError[] {
  const errors: GraphQLError[] = [];
  for (const definition of operation.variableDefinitions ?? []) {
    const name = definition.variable.name.value;
    const type = typeFromAST(schema, definition.type);
    if (!type || !isInputType(type)) continue;
    if (values[name] == null) {
      if (isNonNullType(type) && !definition.defaultValue) errors.push(new GraphQLError(`Variable "$${name}" of required type "${String(type)}" was not provided.`, { nodes: definition }));
      continue;
    }
    coerceInputValue(values[name], type, (path, _invalid, error) => {
      const at = path.length ? ` at "${name}${path.map((key) => (typeof key === 'number' ? `[${key}]` : `.${key}`)).join('')}"` : '';
      errors.push(new GraphQLError(`Variable "$${name}" got an invalid value${at}: ${error.message}`, { nodes: definition }));
    });
  }
  return errors;
}

/**
 * A variable graphql-jit refuses is reported with the variable the request declared and the path
 * inside it, where graphql-jit names one that does not exist (`Variable "$role"` for
 * `$input.excerpts[0].role`). Only refused requests pay for the second check. Registered first
 * among the plugins, so that the hooks after execution (suggestions removed, masking) see its
 * errors.
 */
export function useGraphqlJsVariableErrors(): Plugin {
  return {
    onExecute({ args }) {
      return {
        onExecuteDone({ result, setResult }) {
          const single = result as ExecutionResult;
          if (single.data || !single.errors?.some((error) => JIT_VARIABLE_ERROR.test(error.message))) return;
          const operation = getOperationAST(args.document, args.operationName);
          if (!operation) return;
          const errors = variableErrors(args.schema, operation, (args.variableValues ?? {}) as Record<string, unknown>);
          if (errors.length) setResult({ errors });
        },
      };
    },
  };
}

export function useCompiledOperations(): Plugin {
  return useGraphQlJit(
    {},
    {
      enableIf: (args) => getOperationAST(args.document, args.operationName)?.operation !== 'subscription',
      // The errors are the answer to the client; nothing to log.
      onError: () => {},
    },
  ) as Plugin;
}
