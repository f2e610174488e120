/**
 * Executes a subscription event once for every subscriber that would get the same answer.
 *
 * Yoga and graphql-ws run the subscription's selection against every event once per
 * subscription: 1,000 subscribers of one agent meant 1,000 executions of the same selection on
 * the same row. The hub hands every live subscriber of an agent the same row object
 * (isSharedEvent), so the result can be shared: this plugin replaces the subscribe step with
 * graphql's own source stream plus an execute memoized per shared event object, keyed by
 * (document, operation, variables, principal scope). The execution of an event depends on
 * nothing else: every subscription root field resolves to the event itself, and AgentEvent's
 * fields are properties of the row (no reads, no context). The key still carries the viewer's
 * principal, agent binding and continuity scope, so a field that one day reads with the viewer's
 * rights stays correct as long as those rights are what it depends on. Payloads that are not
 * shared (a replay's own rows, ownership events) are executed as before, one per subscriber,
 * without the memo; the memo lives as long as the event object does.
 *
 * Serialization is not shared: graphql-ws builds each `next` message with the subscription's own
 * id and stringifies the whole message per socket, and Node 20 has no way to splice pre-built
 * JSON into JSON.stringify (JSON.rawJSON arrives with V8 11.4 / Node 21).
 */
import { createRequire } from 'node:module';
import type { DocumentNode, ExecutionArgs, ExecutionResult } from 'graphql';
import type { Plugin } from 'graphql-yoga';
import type { Viewer } from '../auth/viewer.js';
import { isSharedEvent } from './hub.js';

// The copy of graphql the schema was built with: Pothos and Yoga load graphql's CommonJS build,
// and a bundler-style resolver (vitest) would hand this file the ESM build, whose execute
// refuses a schema "from another realm".
const { createSourceEventStream, execute } = createRequire(import.meta.url)('graphql') as typeof import('graphql');

type Executed = ExecutionResult | Promise<ExecutionResult>;

const documentIds = new WeakMap<DocumentNode, number>();
let nextDocumentId = 0;
const executions = new WeakMap<object, Map<string, Executed>>();

/** Executions served from the memo rather than run (observed by tests and the bench). */
export const sharedExecutions = { executed: 0, shared: 0 };

function executionKey(args: ExecutionArgs): string | null {
  const viewer = (args.contextValue as { viewer?: Viewer } | undefined)?.viewer;
  if (!viewer) return null;
  let id = documentIds.get(args.document);
  if (id === undefined) documentIds.set(args.document, (id = nextDocumentId++));
  return JSON.stringify([id, args.operationName ?? null, args.variableValues ?? null, viewer.principal, viewer.agentId, viewer.scope]);
}

function executeOnce(args: ExecutionArgs, key: string, payload: unknown): Executed {
  if (!isSharedEvent(payload)) return execute({ ...args, rootValue: payload });
  let byKey = executions.get(payload as object);
  if (!byKey) executions.set(payload as object, (byKey = new Map()));
  const known = byKey.get(key);
  if (known) {
    sharedExecutions.shared++;
    return known;
  }
  sharedExecutions.executed++;
  const result = execute({ ...args, rootValue: payload });
  byKey.set(key, result);
  return result;
}

function mapEvents<T, R>(source: AsyncIterable<T>, map: (value: T) => R | Promise<R>): AsyncIterableIterator<R> {
  const iterator = source[Symbol.asyncIterator]();
  const mapped: AsyncIterableIterator<R> = {
    async next() {
      const next = await iterator.next();
      return next.done ? { done: true, value: undefined } : { done: false, value: await map(next.value) };
    },
    async return() {
      await iterator.return?.();
      return { done: true, value: undefined };
    },
    async throw(error) {
      if (iterator.throw) await iterator.throw(error);
      throw error;
    },
    [Symbol.asyncIterator]: () => mapped,
  };
  return mapped;
}

export function useSharedEventExecution(): Plugin {
  return {
    onSubscribe({ args, setSubscribeFn }) {
      const key = executionKey(args as ExecutionArgs);
      if (key === null) return;
      setSubscribeFn(async (subscribeArgs) => {
        const executionArgs = subscribeArgs as ExecutionArgs;
        const source = await createSourceEventStream(executionArgs);
        if (!(Symbol.asyncIterator in source)) return source;
        return mapEvents(source as AsyncIterable<unknown>, (payload) => executeOnce(executionArgs, key, payload));
      });
    },
  };
}
