/**
 * Limits on the document itself, checked while parsing (tokens) and validating (depth, aliases,
 * directives) by graphql-armor's plugins. Each refusal is a LIMIT_EXCEEDED error naming its variable.
 */
import { maxAliasesPlugin } from '@escape.tech/graphql-armor-max-aliases';
import { maxDepthPlugin } from '@escape.tech/graphql-armor-max-depth';
import { maxDirectivesPlugin } from '@escape.tech/graphql-armor-max-directives';
import { maxTokensPlugin } from '@escape.tech/graphql-armor-max-tokens';
import type { GraphQLError } from 'graphql';
import type { Plugin } from 'graphql-yoga';
import type { LimitsConfig } from '../config.js';
import { limitExceeded } from './errors.js';

/** armor reports "Syntax Error: Query depth limit of 12 exceeded, found 13."; we rethrow it typed. */
const rethrowAs = (variable: string, max: number) => (_context: unknown, error: GraphQLError) => {
  throw limitExceeded(variable, error.message.replace(/^Syntax Error: /, ''), max);
};

export function documentLimitPlugins(limits: LimitsConfig): Plugin[] {
  return [
    maxTokensPlugin({ n: limits.maxTokens, onReject: [rethrowAs('BURROW_MAX_TOKENS', limits.maxTokens)] }),
    maxDepthPlugin({ n: limits.maxDepth, onReject: [rethrowAs('BURROW_MAX_DEPTH', limits.maxDepth)] }),
    maxAliasesPlugin({ n: limits.maxAliases, onReject: [rethrowAs('BURROW_MAX_ALIASES', limits.maxAliases)] }),
    maxDirectivesPlugin({ n: limits.maxDirectives, onReject: [rethrowAs('BURROW_MAX_DIRECTIVES', limits.maxDirectives)] }),
  ] as Plugin[];
}
