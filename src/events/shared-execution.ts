/**
 * Executes a subscription event once for every subscriber that would get the same answer, and
 * serializes that answer once.
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
 * shared (a replay's own rows, ownership events) are executed and serialized as before, one per
 * subscriber, without the memo; the memo lives as long as the event object does.
 *
 * A shared result without errors is also serialized once, by the first frame that carries it, as
 * the payload graphql-ws would build from it; graphql-ws's onNext (sharedNextPayload) hands that
 * SerializedPayload (serialized-payloads.ts) to every subscription's frame instead of the
 * result. Only the very object the memo produced qualifies: a result with errors (error masking
 * replaces it on its way anyway), a result another plugin replaced, and a payload that was not
 * shared go through graphql-ws's own serialization.
 */
import { createSourceEventStream, execute, type DocumentNode, type ExecutionArgs, type ExecutionResult } from 'graphql';
import type { Plugin } from 'graphql-yoga';
import type { Viewer } from '../auth/viewer.js';
import { isSharedEvent } from './hub.channels.js';
import { SerializedPayload } from './serialized-payloads.js';
import { returnThis } from '../lib/async-iterators.js';

type Executed = ExecutionResult | Promise<ExecutionResult>;

const documentIds = new WeakMap<DocumentNode, number>();
let nextDocumentId = 0;
const executions = new WeakMap<object, Map<string, Executed>>();
/** The results the memo produced, and their payload once a frame serialized it. */
const sharedResults = new WeakMap<ExecutionResult, SerializedPayload | null>();

/** Executions run, and served from the memo; shared payloads serialized (observed by tests and the bench). */
export const sharedExecutions = { executed: 0, shared: 0, serialized: 0 };

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
  const remember = (done: ExecutionResult) => (sharedResults.set(done, null), done);
  const shared = result instanceof Promise ? result.then(remember) : remember(result);
  byKey.set(key, shared);
  return shared;
}

/**
 * graphql-ws's onNext: for a result the memo produced and no plugin replaced, its payload
 * serialized once for all its subscribers; otherwise nothing, and graphql-ws serializes the
 * result itself. The payload is the one graphql-ws builds (the result without `errors`, which a
 * shared payload never has).
 */
export function sharedNextPayload(result: ExecutionResult): SerializedPayload | undefined {
  if (result.errors || !sharedResults.has(result)) return undefined;
  let payload = sharedResults.get(result);
  if (!payload) {
    const { errors: _none, ...withoutErrors } = result;
    sharedResults.set(result, (payload = new SerializedPayload(JSON.stringify(withoutErrors))));
    sharedExecutions.serialized++;
  }
  return payload;
}

function mapEvents<T, R>(source: AsyncIterable<T>, map: (value: T) => R | Promise<R>): AsyncIterableIterator<R> {
  const iterator = source[Symbol.asyncIterator]();
  // Made once per stream, so an event costs one promise here (two when the execution is async).
  const toResult = (value: R): IteratorResult<R> => ({ done: false, value });
  const step = (next: IteratorResult<T>): IteratorResult<R> | Promise<IteratorResult<R>> => {
    if (next.done) return { done: true, value: undefined };
    const value = map(next.value);
    return value instanceof Promise ? value.then(toResult) : toResult(value);
  };
  const mapped: AsyncIterableIterator<R> = {
    next: () => iterator.next().then(step),
    async return() {
      await iterator.return?.();
      return { done: true, value: undefined };
    },
    async throw(error) {
      if (iterator.throw) await iterator.throw(error);
      throw error;
    },
    [Symbol.asyncIterator]: returnThis,
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
