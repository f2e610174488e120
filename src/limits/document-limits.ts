/**
 * Limits on the document itself, checked while parsing (tokens, graphql-armor's plugin) and
 * validating (depth, aliases, directives: graphql-armor's rules, added by one plugin of ours). Each
 * refusal is a LIMIT_EXCEEDED error naming its variable.
 */
import { maxAliasesRule } from '@escape.tech/graphql-armor-max-aliases';
import { maxDepthRule } from '@escape.tech/graphql-armor-max-depth';
import { maxDirectivesRule } from '@escape.tech/graphql-armor-max-directives';
import { maxTokensPlugin } from '@escape.tech/graphql-armor-max-tokens';
import type { GraphQLError } from 'graphql';
import type { Plugin } from 'graphql-yoga';
import type { LimitsConfig } from '../config.server.js';
import { limitExceeded } from './errors.js';

/** armor reports "Syntax Error: Query depth limit of 12 exceeded, found 13."; we rethrow it typed. */
const rethrowAs = (variable: string, max: number) => (_context: unknown, error: GraphQLError) => {
  throw limitExceeded(variable, error.message.replace(/^Syntax Error: /, ''), max);
};

export function documentLimitPlugins(limits: LimitsConfig): Plugin[] {
  // The three validation rules are made once and added to every request's list as they are
  // (armor's own plugins make a new rule per request): the validation cache recognises an
  // unchanged list by the identity of its rules (schema/validation-cache.ts).
  const rules = [
    maxDepthRule({ n: limits.maxDepth, onReject: [rethrowAs('BURROW_MAX_DEPTH', limits.maxDepth)] }),
    maxAliasesRule({ n: limits.maxAliases, onReject: [rethrowAs('BURROW_MAX_ALIASES', limits.maxAliases)] }),
    maxDirectivesRule({ n: limits.maxDirectives, onReject: [rethrowAs('BURROW_MAX_DIRECTIVES', limits.maxDirectives)] }),
  ];
  const validationLimits: Plugin = {
    onValidate({ addValidationRule }) {
      for (const rule of rules) addValidationRule(rule);
    },
  };
  return [maxTokensPlugin({ n: limits.maxTokens, onReject: [rethrowAs('BURROW_MAX_TOKENS', limits.maxTokens)] }) as Plugin, validationLimits];
}
