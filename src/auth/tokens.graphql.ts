/**
 * Token management in the API, for operators: create (the secret is returned once), list (never
 * secrets or hashes) and revoke, so no task needs the CLI and, embedded, a stopped server.
 * The rules live in TokensService, shared with `burrow token`: the same lifetime syntax as
 * `--expires-in`, and revocation that ends the token's open sockets and streams on every instance.
 * Every read is operators only: an agent token gets FORBIDDEN (root field, node(id) and
 * `Agent.tokens` alike), even for its own agent.
 */
import { builder } from '../schema/builder.js';
import { PrincipalKindEnum } from '../schema/actor.js';
import { connectionType, pageArgs } from '../schema/connections.js';
import { AgentRef } from '../domains/agents/agents.graphql.js';
import { bindingOf, decodeTimeIdCursor, encodeTimeIdCursor, pageSize, toConnection } from '../lib/cursor.js';
import { NotFoundError, ValidationError } from '../lib/errors.js';
import { parseLifetime, type TokenRecord } from './tokens.service.js';
import { requireOperator } from './viewer.js';

const TOKEN_PAGE_MAX = 200;
const TOKEN_PAGE_DEFAULT = 50;

export const ApiTokenRef = builder.objectRef<TokenRecord>('ApiToken');
builder.node(ApiTokenRef, {
  description: 'A bearer token as the operator manages it: never its secret, never its hash',
  id: { description: 'The global id (node(id:)); `tokenId` is what revokeApiToken takes', resolve: (r) => r.id },
  loadOne: (tokenId, ctx) => {
    requireOperator(ctx.viewer);
    return ctx.services.tokens.get(tokenId);
  },
  fields: (t) => ({
    tokenId: t.exposeString('id', { description: 'What revokeApiToken(tokenId:) and `burrow token revoke` take' }),
    name: t.exposeString('name', { description: 'The name given at creation, 1 to 200 characters' }),
    kind: t.field({ type: PrincipalKindEnum, description: 'Operator or agent token', resolve: (r) => (r.kind === 'operator' ? 'OPERATOR' : 'AGENT') }),
    agentId: t.exposeString('agentId', { nullable: true, description: 'The agent an agent token acts as; null for operator tokens' }),
    agent: t.loadable({
      type: AgentRef,
      nullable: true,
      description: 'The agent an agent token acts as; null for operator tokens',
      load: (ids: string[], ctx) => ctx.services.agents.agentsInOrder(ids),
      resolve: (r) => r.agentId,
    }),
    createdAt: t.expose('createdAt', { type: 'DateTime', description: 'When the token was created' }),
    expiresAt: t.expose('expiresAt', { type: 'DateTime', nullable: true, description: 'Refused from this instant on; null: no expiry' }),
    lastUsedAt: t.expose('lastUsedAt', {
      type: 'DateTime',
      nullable: true,
      description: 'Last authenticated use, written at most once per BURROW_TOKEN_LAST_USED_INTERVAL_SECONDS; null: never used',
    }),
    revokedAt: t.expose('revokedAt', { type: 'DateTime', nullable: true, description: 'When it was revoked; null while not revoked' }),
    active: t.boolean({
      description: 'Neither revoked nor expired, by the server clock',
      resolve: (r, _, ctx) => !r.revokedAt && !(r.expiresAt && r.expiresAt <= ctx.services.clock.now()),
    }),
  }),
});

const ApiTokenConnection = connectionType(ApiTokenRef, 'ApiToken', { totalCount: 'Every token of the list, revoked and expired ones included' });

const CreatedApiTokenRef = builder.objectRef<{ record: TokenRecord; secret: string }>('CreateApiTokenSuccess').implement({
  fields: (t) => ({
    token: t.field({ type: ApiTokenRef, description: 'The new token', resolve: (c) => c.record }),
    secret: t.exposeString('secret', { description: 'The bearer secret, shown this once: only its SHA-256 hash is kept' }),
  }),
});

const CreateApiTokenInput = builder.inputType('CreateApiTokenInput', {
  description: 'A new bearer token',
  fields: (t) => ({
    kind: t.field({ type: PrincipalKindEnum, required: true, description: 'OPERATOR acts on every agent; AGENT only as `agentId`' }),
    agentId: t.string({ required: false, description: 'Required for AGENT tokens (an agent that exists); refused for OPERATOR tokens' }),
    name: t.string({ required: true, description: '1 to 200 characters' }),
    expiresIn: t.string({ required: false, description: 'Optional lifetime: a positive whole number with a unit, 3600s, 90m, 12h or 30d; no expiry when absent' }),
  }),
});

builder.queryFields((t) => ({
  apiTokens: t.field({
    type: ApiTokenConnection,
    description: 'Every token, newest first, revoked and expired ones included (operators only)',
    args: pageArgs(t.arg, TOKEN_PAGE_MAX, TOKEN_PAGE_DEFAULT),
    resolve: async (_, args, ctx) => {
      requireOperator(ctx.viewer);
      const limit = pageSize(args.first, TOKEN_PAGE_MAX, TOKEN_PAGE_DEFAULT);
      const binding = bindingOf('api-tokens');
      const position = decodeTimeIdCursor(args.after, binding);
      const rows = await ctx.services.tokens.list({ limit: limit + 1, after: position && { createdAt: position.at, id: position.id } });
      return {
        ...toConnection(rows, limit, (r) => encodeTimeIdCursor(binding, r.createdAt, r.id), args.after),
        totalCount: () => ctx.services.tokens.count(),
      };
    },
  }),
}));

builder.objectFields(AgentRef, (t) => ({
  tokens: t.loadable({
    type: ApiTokenConnection,
    description:
      "The agent's tokens, newest first, revoked and expired ones included (operators only: an agent token gets FORBIDDEN). " +
      "One statement for every agent of a response; an `after` cursor belongs to one agent's list.",
    args: pageArgs(t.arg, TOKEN_PAGE_MAX, TOKEN_PAGE_DEFAULT),
    byPath: true,
    load: async (agentIds: string[], ctx, args) => {
      requireOperator(ctx.viewer);
      const limit = pageSize(args.first, TOKEN_PAGE_MAX, TOKEN_PAGE_DEFAULT);
      const after = new Map<string, { createdAt: Date; id: string }>();
      if (args.after != null) {
        // A cursor names its agent through its binding: it continues that agent's list only.
        const owner = agentIds.find((agentId) => {
          try {
            return decodeTimeIdCursor(args.after, bindingOf('agent-tokens', agentId)) !== null;
          } catch {
            return false;
          }
        });
        const position = decodeTimeIdCursor(args.after, bindingOf('agent-tokens', owner ?? agentIds[0]));
        if (owner && position) after.set(owner, { createdAt: position.at, id: position.id });
      }
      const pages = await ctx.services.tokens.forAgents(agentIds, limit + 1, after);
      return pages.map((rows, index) => {
        const binding = bindingOf('agent-tokens', agentIds[index]);
        return {
          ...toConnection(rows, limit, (r) => encodeTimeIdCursor(binding, r.createdAt, r.id), after.has(agentIds[index]) ? args.after : null),
          // One indexed count per agent, only when selected (api_tokens_agent_idx).
          totalCount: () => ctx.services.tokens.countForAgent(agentIds[index]),
        };
      });
    },
    resolve: (agent) => agent.id,
  }),
}));

builder.mutationFields((t) => ({
  createApiToken: t.field({
    type: CreatedApiTokenRef,
    description: 'Creates a token (operators only) and returns its secret once',
    errors: { types: [ValidationError, NotFoundError], directResult: true },
    args: { input: t.arg({ type: CreateApiTokenInput, required: true, description: 'Kind, agent, name and lifetime' }) },
    resolve: async (_, { input }, ctx) => {
      const viewer = requireOperator(ctx.viewer);
      const agentId = input.agentId?.trim() || null;
      if (input.kind === 'AGENT' && !agentId) throw new ValidationError('agentId', 'an AGENT token needs the agent it acts as');
      if (input.kind === 'OPERATOR' && agentId) throw new ValidationError('agentId', 'an OPERATOR token acts on every agent: leave agentId out');
      let expiresInMs: number | null = null;
      if (input.expiresIn != null) {
        expiresInMs = parseLifetime(input.expiresIn);
        if (expiresInMs === null) throw new ValidationError('expiresIn', `"${input.expiresIn}" is not a lifetime: a positive whole number with a unit, 3600s, 90m, 12h or 30d`);
      }
      if (agentId && !(await ctx.services.agents.getAgent(viewer, agentId))) throw new NotFoundError('Agent', agentId);
      const { token, record } = await ctx.services.tokens.create({ kind: input.kind === 'OPERATOR' ? 'operator' : 'agent', name: input.name, agentId, expiresInMs });
      return { record, secret: token };
    },
  }),
  revokeApiToken: t.field({
    type: ApiTokenRef,
    description: 'Revokes a token (operators only): refused from now on, and its open WebSockets and SSE streams end on every instance',
    errors: { types: [NotFoundError], dataField: { name: 'token' } },
    args: { tokenId: t.arg.string({ required: true, description: 'The token to revoke (`ApiToken.tokenId`); NotFound when unknown or already revoked' }) },
    resolve: (_, args, ctx) => {
      requireOperator(ctx.viewer);
      return ctx.services.tokens.revoke(args.tokenId);
    },
  }),
}));
