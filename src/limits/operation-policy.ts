/**
 * Checks made once the operation and its variables are known, before anything runs, for HTTP, SSE
 * and WebSocket alike (envelop's onExecute / onSubscribe): cost, root mutation fields and
 * introspection. They run at execution rather than validation because cost depends on variables
 * (page sizes usually arrive as $first) and introspection on the viewer, while Yoga caches
 * validation per document.
 */
import {
  getNamedType,
  getOperationAST,
  isInterfaceType,
  isObjectType,
  Kind,
  type DocumentNode,
  type FragmentDefinitionNode,
  type GraphQLField,
  type GraphQLNamedType,
  type GraphQLSchema,
  type SelectionSetNode,
} from 'graphql';
import { createGraphQLError, type Plugin } from 'graphql-yoga';
import type { LimitsConfig, SecurityConfig } from '../config.server.js';
import type { Viewer } from '../auth/viewer.js';
import { limitExceeded } from './errors.js';
import { returnThis } from '../lib/async-iterators.js';

const fieldsOfType = (type: GraphQLNamedType | undefined) =>
  isObjectType(type) || isInterfaceType(type) ? (type.getFields() as Record<string, GraphQLField<unknown, unknown>>) : undefined;

const PAGE_ARGUMENTS = ['first', 'last', 'limit'];
/** A page-size argument left out counts as this many items: the largest default page of the API. */
export const DEFAULT_PAGE_WEIGHT = 100;
/** Larger page sizes are refused by the resolvers themselves (BAD_REQUEST); no list serves more. */
export const MAX_PAGE_WEIGHT = 500;

export interface OperationFacts {
  operation: 'query' | 'mutation' | 'subscription';
  cost: number;
  /** Root fields of a mutation (each runs in turn, each may write). */
  rootFields: number;
  introspection: boolean;
}

/**
 * Cost: every field counts 1; a field with a page-size argument (first, last, limit) multiplies the
 * cost of what it selects by that page size (literal or variable). Fragments count once per spread;
 * a fragment's cost is computed once (no blow-up from fragments spread many times).
 */
export function analyzeOperation(
  schema: GraphQLSchema,
  document: DocumentNode,
  operationName: string | null | undefined,
  variables: Record<string, unknown> | null | undefined,
  /** Collects the names of the variables the cost depended on. */
  variablesRead?: Set<string>,
): OperationFacts | null {
  const operation = getOperationAST(document, operationName);
  if (!operation) return null;
  const fragments = new Map<string, FragmentDefinitionNode>();
  for (const definition of document.definitions) if (definition.kind === Kind.FRAGMENT_DEFINITION) fragments.set(definition.name.value, definition);
  const fragmentCosts = new Map<string, number>();
  const fragmentFields = new Map<string, number>();
  let introspection = false;

  const pageWeight = (field: GraphQLField<unknown, unknown> | undefined, args: readonly { name: { value: string }; value: import('graphql').ValueNode }[] = []) => {
    const pageArgs = field?.args.filter((a) => PAGE_ARGUMENTS.includes(a.name)) ?? [];
    if (pageArgs.length === 0) return 1;
    let weight: number | null = null;
    for (const arg of args) {
      if (!PAGE_ARGUMENTS.includes(arg.name.value)) continue;
      if (arg.value.kind === Kind.VARIABLE) variablesRead?.add(arg.value.name.value);
      const value = arg.value.kind === Kind.INT ? Number(arg.value.value) : arg.value.kind === Kind.VARIABLE ? variables?.[arg.value.name.value] : null;
      if (typeof value === 'number' && Number.isFinite(value)) weight = Math.max(weight ?? 1, value);
    }
    if (weight === null) {
      const defaults = pageArgs.map((a) => a.defaultValue).filter((v): v is number => typeof v === 'number');
      weight = defaults.length > 0 ? Math.max(...defaults) : DEFAULT_PAGE_WEIGHT;
    }
    return Math.min(Math.max(weight, 1), MAX_PAGE_WEIGHT);
  };

  const costOf = (set: SelectionSetNode, type: GraphQLNamedType | undefined): number => {
    let total = 0;
    for (const selection of set.selections) {
      if (selection.kind === Kind.FIELD) {
        const name = selection.name.value;
        if (name === '__schema' || name === '__type') introspection = true;
        const field = fieldsOfType(type)?.[name];
        const child = selection.selectionSet ? costOf(selection.selectionSet, field ? getNamedType(field.type) : undefined) : 0;
        total += 1 + pageWeight(field, selection.arguments) * child;
      } else if (selection.kind === Kind.INLINE_FRAGMENT) {
        total += costOf(selection.selectionSet, selection.typeCondition ? schema.getType(selection.typeCondition.name.value) : type);
      } else {
        const name = selection.name.value;
        if (!fragmentCosts.has(name)) {
          fragmentCosts.set(name, 0); // a cycle (refused by validation anyway) adds nothing
          const fragment = fragments.get(name);
          if (fragment) fragmentCosts.set(name, costOf(fragment.selectionSet, schema.getType(fragment.typeCondition.name.value)));
        }
        total += fragmentCosts.get(name)!;
      }
    }
    return total;
  };

  const fieldsOf = (set: SelectionSetNode): number => {
    let total = 0;
    for (const selection of set.selections) {
      if (selection.kind === Kind.FIELD) total += selection.name.value === '__typename' ? 0 : 1;
      else if (selection.kind === Kind.INLINE_FRAGMENT) total += fieldsOf(selection.selectionSet);
      else {
        const name = selection.name.value;
        if (!fragmentFields.has(name)) {
          fragmentFields.set(name, 0);
          const fragment = fragments.get(name);
          if (fragment) fragmentFields.set(name, fieldsOf(fragment.selectionSet));
        }
        total += fragmentFields.get(name)!;
      }
    }
    return total;
  };

  const rootType = schema.getRootType(operation.operation) ?? undefined;
  const cost = costOf(operation.selectionSet, rootType);
  return { operation: operation.operation, cost, rootFields: fieldsOf(operation.selectionSet), introspection };
}

export function mayIntrospect(viewer: Viewer | null | undefined, policy: SecurityConfig['introspection']): boolean {
  return policy === 'all' || (policy === 'operators' && viewer?.principal === 'OPERATOR');
}

/** The refusal for an operation that breaks a limit or the introspection policy, or null. */
export function operationRefusal(facts: OperationFacts | null, viewer: Viewer | null | undefined, limits: LimitsConfig, security: SecurityConfig) {
  if (!facts) return null;
  if (facts.introspection && !mayIntrospect(viewer, security.introspection)) {
    return createGraphQLError(
      security.introspection === 'none' ? 'introspection is disabled (BURROW_INTROSPECTION=none)' : 'introspection needs an operator token (BURROW_INTROSPECTION=operators)',
      { extensions: { code: 'FORBIDDEN', http: { status: 403 } } },
    );
  }
  if (facts.operation === 'mutation' && facts.rootFields > limits.maxMutationFields) {
    return limitExceeded('BURROW_MAX_MUTATION_FIELDS', `a mutation may have at most ${limits.maxMutationFields} root fields, found ${facts.rootFields}`, limits.maxMutationFields);
  }
  if (facts.cost > limits.maxCost) {
    return limitExceeded('BURROW_MAX_COST', `query cost limit of ${limits.maxCost} exceeded, found ${facts.cost}`, limits.maxCost);
  }
  return null;
}

type PolicyArgs = {
  schema: GraphQLSchema;
  document: DocumentNode;
  operationName?: string | null;
  variableValues?: Record<string, unknown> | null;
  contextValue?: unknown;
};

type Remembered = { variablesRead: string[]; byValues: Map<string, OperationFacts | null> };
/**
 * The facts of an operation, remembered per parsed document (Yoga's parse cache hands the same
 * document object to every request with the same text) and, when the cost read page sizes from
 * variables, per value of those variables. Walking the document was ~1 % of a small query's CPU.
 */
const analyses = new WeakMap<DocumentNode, Map<string, Remembered>>();
/** Distinct variable values remembered per operation before the memo starts over. */
const VALUES_REMEMBERED = 64;

/** The page sizes' values as a key; null when one is not a number (not coerced yet: never remembered). */
const valuesKey = (remembered: Remembered, args: PolicyArgs): string | null => {
  const values = remembered.variablesRead.map((name) => args.variableValues?.[name] ?? null);
  return values.every((value) => value === null || typeof value === 'number') ? values.join(',') : null;
};

function factsOf(args: PolicyArgs): OperationFacts | null {
  let byOperation = analyses.get(args.document);
  if (!byOperation) analyses.set(args.document, (byOperation = new Map()));
  const operation = args.operationName ?? '';
  const known = byOperation.get(operation);
  const knownKey = known ? valuesKey(known, args) : null;
  if (known && knownKey !== null && known.byValues.has(knownKey)) return known.byValues.get(knownKey)!;
  // Walked once more; the first walk of an operation also learns which variables its cost reads.
  const variablesRead = new Set<string>();
  const facts = analyzeOperation(args.schema, args.document, args.operationName, args.variableValues, variablesRead);
  const remembered = known ?? { variablesRead: [...variablesRead], byValues: new Map() };
  byOperation.set(operation, remembered);
  const key = valuesKey(remembered, args);
  if (key === null) return facts;
  if (remembered.byValues.size >= VALUES_REMEMBERED) remembered.byValues.clear();
  remembered.byValues.set(key, facts);
  return facts;
}

const refusalFor = (args: PolicyArgs, limits: LimitsConfig, security: SecurityConfig) =>
  operationRefusal(factsOf(args), (args.contextValue as { viewer?: Viewer | null } | undefined)?.viewer, limits, security);

const isAsyncIterable = (value: unknown): value is AsyncIterable<unknown> => typeof value === 'object' && value !== null && Symbol.asyncIterator in value;

/**
 * `source`, calling `release` once when it ends for any reason: completed, returned (the client
 * stopped, the socket closed) or failed. envelop's onEnd misses the last: a stream whose next()
 * rejects (the hub ending an agent's subscriptions after a failed read) is never returned by
 * graphql-ws or Yoga, so its slot stayed taken for the life of the process.
 */
function releasingAtEnd<T>(source: AsyncIterable<T>, release: () => void): AsyncIterableIterator<T> {
  const iterator = source[Symbol.asyncIterator]();
  // Made once per stream, so an event costs one promise (`then`) here: with 10,000 subscribers of
  // an agent, each event's pending asks are what its burst leaves for the garbage collector.
  const passOn = (next: IteratorResult<T>) => {
    if (next.done) release();
    return next;
  };
  const fail = (error: unknown): never => {
    release();
    throw error;
  };
  const wrapped: AsyncIterableIterator<T> = {
    next() {
      try {
        return iterator.next().then(passOn, fail);
      } catch (error) {
        release();
        return Promise.reject(error);
      }
    },
    async return(value?: unknown) {
      release();
      return (await iterator.return?.(value)) ?? { done: true, value: undefined };
    },
    async throw(error?: unknown) {
      release();
      if (iterator.throw) return iterator.throw(error);
      throw error;
    },
    [Symbol.asyncIterator]: returnThis,
  };
  return wrapped;
}

/**
 * Cost, mutation fields and introspection for every operation, plus the open subscriptions of one
 * token on this instance (SSE and WebSocket together).
 */
export function useOperationPolicy(limits: LimitsConfig, security: SecurityConfig): Plugin {
  const openByToken = new Map<string, number>();
  return {
    onExecute({ args, setResultAndStopExecution }) {
      const refusal = refusalFor(args as PolicyArgs, limits, security);
      if (refusal) setResultAndStopExecution({ errors: [refusal] });
    },
    onSubscribe({ args, subscribeFn, setSubscribeFn, setResultAndStopExecution }) {
      const refusal = refusalFor(args as PolicyArgs, limits, security);
      if (refusal) return setResultAndStopExecution({ errors: [refusal] });
      const tokenId = (args.contextValue as { viewer?: Viewer | null } | undefined)?.viewer?.tokenId;
      if (!tokenId) return;
      const open = openByToken.get(tokenId) ?? 0;
      if (open >= limits.subscriptionsPerToken) {
        return setResultAndStopExecution({
          errors: [
            limitExceeded(
              'BURROW_SUBSCRIPTIONS_PER_TOKEN',
              `this token already has ${open} open subscriptions on this server (at most ${limits.subscriptionsPerToken})`,
              limits.subscriptionsPerToken,
              429,
            ),
          ],
        });
      }
      // Reserve before subscribing so concurrent requests cannot overshoot; release exactly once.
      openByToken.set(tokenId, open + 1);
      let released = false;
      const release = () => {
        if (released) return;
        released = true;
        const left = (openByToken.get(tokenId) ?? 1) - 1;
        if (left > 0) openByToken.set(tokenId, left);
        else openByToken.delete(tokenId);
      };
      setSubscribeFn(async (subscribeArgs) => {
        try {
          const result = await subscribeFn(subscribeArgs);
          if (!isAsyncIterable(result)) release();
          return result;
        } catch (error) {
          release();
          throw error;
        }
      });
      return {
        onSubscribeResult: ({ result, setResult }) => {
          if (!isAsyncIterable(result)) return release();
          setResult(releasingAtEnd(result, release) as typeof result);
        },
      };
    },
  };
}
