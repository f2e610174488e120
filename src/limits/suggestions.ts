/**
 * Removes "Did you mean …" from errors, which otherwise let a caller map the schema without
 * introspection. graphql-armor's block-field-suggestions only rewrites validation errors and misses
 * the enum form ("Did you mean the enum value …"), which also appears when variables are coerced
 * at execution; this covers validation, execution and subscription results alike.
 */
import type { ExecutionResult, GraphQLError } from 'graphql';
import type { Plugin } from 'graphql-yoga';

const SUGGESTION = /\s*Did you mean [^?]*\?/g;

/**
 * The same error without suggestions. Some executors' errors (graphql-jit's) have a read-only
 * message: those are copied with every property kept and the new message.
 */
const withoutSuggestion = <E extends Error>(error: E): E => {
  const message = error.message.replace(SUGGESTION, '');
  if (message === error.message) return error;
  if (Object.getOwnPropertyDescriptor(error, 'message')?.writable !== false) {
    error.message = message;
    return error;
  }
  const properties = Object.getOwnPropertyDescriptors(error);
  return Object.create(Object.getPrototypeOf(error), { ...properties, message: { ...properties.message, value: message } }) as E;
};

/** The error and the errors it wraps: masking may show a wrapped error's message instead. */
const scrub = <E extends Error>(error: E): E => {
  let wrapped: unknown = (error as unknown as GraphQLError).originalError ?? error.cause;
  for (let depth = 1; wrapped instanceof Error && depth < 5; depth++) {
    withoutSuggestion(wrapped);
    wrapped = (wrapped as GraphQLError).originalError ?? wrapped.cause;
  }
  return withoutSuggestion(error);
};

const scrubResult = <R>(result: R): R => {
  const errors = (result as ExecutionResult | null)?.errors;
  if (!Array.isArray(errors) || errors.length === 0) return result;
  const scrubbed = errors.map((error) => scrub(error));
  return scrubbed.every((error, i) => error === errors[i]) ? result : { ...result, errors: scrubbed };
};

/** An execution's or subscription's result hook: hands on the result without suggestions, if it had any. */
const replaceScrubbed = <R>({ result, setResult }: { result: R; setResult(result: R): void }) => {
  const scrubbed = scrubResult(result);
  if (scrubbed !== result) setResult(scrubbed);
};

export function useNoSuggestions(): Plugin {
  return {
    onValidate:
      () =>
      ({ result, setResult }) => {
        if (result.length) setResult(result.map((error) => scrub(error)));
      },
    onExecute: () => ({ onExecuteDone: replaceScrubbed }),
    onSubscribe: () => ({ onSubscribeResult: replaceScrubbed }),
  };
}
