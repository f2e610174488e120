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
import { getOperationAST } from 'graphql';
import type { Plugin } from 'graphql-yoga';

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
