/**
 * One JSON log line and one metrics sample per GraphQL operation, on every transport (HTTP,
 * SSE, graphql-ws all run through the same envelop pipeline): request id, operation name, root
 * field, type, duration and outcome code. Variables, documents and results are never logged.
 * Requests refused before execution (unparsable, invalid, unauthenticated) are logged from the
 * HTTP result instead.
 */
import { getOperationAST, type DocumentNode, type GraphQLError } from 'graphql';
import type { Plugin } from 'graphql-yoga';
import { errorMasker, UNEXPECTED_ERROR_MESSAGE } from '../lib/error-masking.js';
import { newId } from '../lib/ids.js';
import type { Logger } from '../lib/logger.js';
import type { Metrics } from './metrics.js';

const silent: Logger = { debug() {}, info() {}, warn() {}, error() {}, child: () => silent };
// The code the masker will give an error that has none yet (the masker runs after this plugin).
const classify = errorMasker(silent);

export function outcomeOf(result: unknown): string {
  const errors = (result as { errors?: readonly GraphQLError[] } | null)?.errors;
  if (!errors || errors.length === 0) return 'OK';
  const first = errors[0];
  const code = first.extensions?.code ?? (classify(first, UNEXPECTED_ERROR_MESSAGE) as GraphQLError).extensions?.code;
  return typeof code === 'string' ? code : 'INTERNAL_SERVER_ERROR';
}

function describeOperation(document: DocumentNode, operationName: string | null | undefined) {
  const operation = getOperationAST(document, operationName ?? undefined);
  const field = operation?.selectionSet.selections.find((s) => s.kind === 'Field' && s.name.value !== '__typename');
  return {
    type: operation?.operation ?? 'unknown',
    field: field?.kind === 'Field' ? field.name.value : 'unknown',
    name: operationName ?? operation?.name?.value ?? null,
  };
}

const isAsyncIterable = (value: unknown): boolean => typeof (value as AsyncIterable<unknown>)?.[Symbol.asyncIterator] === 'function';

/**
 * What the plugin keeps for one HTTP request, on Yoga's server context (an operation's context
 * inherits from it): when it arrived, and whether its operation was recorded already.
 */
interface Observation {
  startedAt: number;
  recorded: boolean;
}
type Observed = { observation?: Observation };

/**
 * The observability plugin, and the two steps of it that the direct JSON path (ops/direct-graphql.ts)
 * runs itself because it skips Yoga's request and result hooks: `begin` is the plugin's onRequest,
 * `settle` its onResultProcess (an operation refused before execution is still counted once).
 */
export function createObservability(logger: Logger, metrics: Metrics) {
  const record = (observation: Observation | undefined, op: { type: string; field: string; name: string | null }, requestId: string, started: number, outcome: string) => {
    if (observation) observation.recorded = true;
    const seconds = (performance.now() - started) / 1000;
    metrics.recordOperation(op.field, op.type, outcome, seconds);
    logger.info('graphql operation', {
      requestId,
      operationName: op.name,
      operation: op.field,
      operationType: op.type,
      durationMs: Math.round(seconds * 1000),
      outcome,
    });
  };
  const begin = (serverContext: object) => {
    (serverContext as Observed).observation = { startedAt: performance.now(), recorded: false };
  };
  const settle = (serverContext: object | undefined, result: unknown) => {
    const observation = (serverContext as Observed | undefined)?.observation;
    if (observation?.recorded || Array.isArray(result)) return;
    record(observation, { type: 'unknown', field: 'unknown', name: null }, newId(), observation?.startedAt ?? performance.now(), outcomeOf(result));
  };

  const plugin: Plugin = {
    onRequest({ serverContext }) {
      begin(serverContext);
    },
    onExecute({ args }) {
      const ctx = args.contextValue as Observed & { requestId?: string };
      const started = ctx.observation?.startedAt ?? performance.now();
      const op = describeOperation(args.document, args.operationName);
      return {
        onExecuteDone({ result }) {
          record(ctx.observation, op, ctx.requestId ?? newId(), started, isAsyncIterable(result) ? 'OK' : outcomeOf(result));
        },
      };
    },
    onSubscribe({ args }) {
      const ctx = args.contextValue as Observed & { requestId?: string };
      const started = performance.now();
      const op = describeOperation(args.document, args.operationName);
      return {
        onSubscribeResult({ result }) {
          record(ctx.observation, op, ctx.requestId ?? newId(), started, isAsyncIterable(result) ? 'OK' : outcomeOf(result));
        },
      };
    },
    onResultProcess({ result, serverContext }) {
      settle(serverContext, result);
    },
  };
  return { plugin, begin, settle };
}

export type Observability = ReturnType<typeof createObservability>;
