/**
 * Removes "Did you mean …" from errors, which otherwise let a caller map the schema without
 * introspection. graphql-armor's block-field-suggestions only rewrites validation errors and misses
 * the enum form ("Did you mean the enum value …"), which also appears when variables are coerced
 * at execution; this covers validation, execution and subscription results alike.
 */
import type { ExecutionResult, GraphQLError } from 'graphql';
import type { Plugin } from 'graphql-yoga';

const SUGGESTION = /\s*Did you mean [^?]*\?/g;

/** The error and the errors it wraps: masking may show a wrapped error's message instead. */
const scrub = <E extends Error>(error: E): E => {
  let current: unknown = error;
  for (let depth = 0; current instanceof Error && depth < 5; depth++) {
    current.message = current.message.replace(SUGGESTION, '');
    current = (current as GraphQLError).originalError ?? (current as { cause?: unknown }).cause;
  }
  return error;
};

const scrubResult = (result: unknown) => {
  const errors = (result as ExecutionResult | null)?.errors;
  if (Array.isArray(errors)) for (const error of errors) scrub(error as GraphQLError);
};

export function useNoSuggestions(): Plugin {
  return {
    onValidate: () => ({ result }) => {
      for (const error of result) scrub(error);
    },
    onExecute: () => ({ onExecuteDone: ({ result }) => scrubResult(result) }),
    onSubscribe: () => ({ onSubscribeResult: ({ result }) => scrubResult(result) }),
  };
}
