/**
 * Token management in the API, for operators: create (the secret is returned once), list (never
 * secrets or hashes) and revoke, so no task needs the CLI and, embedded, a stopped server.
 * The rules live in TokensService, shared with `burrow token`: the same lifetime syntax as
 * `--expires-in`, and revocation that ends the token's open sockets and streams on every instance.
 */
import { builder } from '../schema/builder.js';
import { PrincipalKindEnum } from '../schema/actor.js';
import { NotFoundError, ValidationError } from '../lib/errors.js';
import { parseLifetime, type TokenRecord } from './tokens.service.js';
import { requireOperator } from './viewer.js';

const ApiTokenRef = builder.objectRef<TokenRecord>('ApiToken').implement({
  description: 'A bearer token as the operator manages it: never its secret, never its hash',
  fields: (t) => ({
    id: t.exposeID('id', { description: 'What revokeApiToken and `burrow token revoke` take' }),
    name: t.exposeString('name'),
    kind: t.field({ type: PrincipalKindEnum, resolve: (r) => (r.kind === 'operator' ? 'OPERATOR' : 'AGENT') }),
    agentId: t.exposeString('agentId', { nullable: true, description: 'The agent an agent token acts as; null for operator tokens' }),
    createdAt: t.expose('createdAt', { type: 'DateTime' }),
    expiresAt: t.expose('expiresAt', { type: 'DateTime', nullable: true, description: 'Refused from this instant on; null: no expiry' }),
    lastUsedAt: t.expose('lastUsedAt', { type: 'DateTime', nullable: true, description: 'Written at most once per BURROW_TOKEN_LAST_USED_INTERVAL_SECONDS' }),
    revokedAt: t.expose('revokedAt', { type: 'DateTime', nullable: true }),
    active: t.boolean({
      description: 'Neither revoked nor expired, by the server clock',
      resolve: (r, _, ctx) => !r.revokedAt && !(r.expiresAt && r.expiresAt <= ctx.services.clock.now()),
    }),
  }),
});

const CreatedApiTokenRef = builder.objectRef<{ record: TokenRecord; secret: string }>('CreateApiTokenSuccess').implement({
  fields: (t) => ({
    token: t.field({ type: ApiTokenRef, resolve: (c) => c.record }),
    secret: t.exposeString('secret', { description: 'The bearer secret, shown this once: only its SHA-256 hash is kept' }),
  }),
});

const CreateApiTokenInput = builder.inputType('CreateApiTokenInput', {
  fields: (t) => ({
    kind: t.field({ type: PrincipalKindEnum, required: true }),
    agentId: t.string({ required: false, description: 'Required for AGENT tokens (an agent that exists); refused for OPERATOR tokens' }),
    name: t.string({ required: true, description: '1 to 200 characters' }),
    expiresIn: t.string({ required: false, description: 'Optional lifetime: a positive whole number with a unit, 3600s, 90m, 12h or 30d' }),
  }),
});

builder.queryFields((t) => ({
  apiTokens: t.field({
    type: [ApiTokenRef],
    description: 'Every token, newest first, revoked and expired ones included (operators only)',
    resolve: (_, __, ctx) => {
      requireOperator(ctx.viewer);
      return ctx.services.tokens.list();
    },
  }),
}));

builder.mutationFields((t) => ({
  createApiToken: t.field({
    type: CreatedApiTokenRef,
    description: 'Creates a token (operators only) and returns its secret once',
    errors: { types: [ValidationError, NotFoundError], directResult: true },
    args: { input: t.arg({ type: CreateApiTokenInput, required: true }) },
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
      if (agentId && !(await ctx.services.agents.getAgent(viewer, agentId))) throw new NotFoundError('agent', agentId);
      const { token, record } = await ctx.services.tokens.create({ kind: input.kind === 'OPERATOR' ? 'operator' : 'agent', name: input.name, agentId, expiresInMs });
      return { record, secret: token };
    },
  }),
  revokeApiToken: t.field({
    type: ApiTokenRef,
    description: "Revokes a token (operators only): refused from now on, and its open WebSockets and SSE streams end on every instance",
    errors: { types: [NotFoundError], dataField: { name: 'token' } },
    args: { id: t.arg.id({ required: true }) },
    resolve: (_, args, ctx) => {
      requireOperator(ctx.viewer);
      return ctx.services.tokens.revoke(String(args.id));
    },
  }),
}));
