import { sql } from 'drizzle-orm';
import { check, index, pgTable, text } from 'drizzle-orm/pg-core';
import { timestamptz } from '../db/columns.js';
import { belongsToAgent } from '../domains/agents/agents.sql.js';

/** Bearer tokens, stored only as SHA-256 hashes. Operator tokens have no agent. */
export const apiTokens = pgTable(
  'api_tokens',
  {
    id: text('id').primaryKey(),
    name: text('name').notNull(),
    kind: text('kind').notNull(),
    agentId: text('agent_id'),
    tokenHash: text('token_hash').notNull().unique(),
    createdAt: timestamptz('created_at').notNull(),
    revokedAt: timestamptz('revoked_at'),
    /** Written at most once per BURROW_TOKEN_LAST_USED_INTERVAL_SECONDS per token. */
    lastUsedAt: timestamptz('last_used_at'),
    /** Optional: the token is refused from this instant on (null: no expiry). */
    expiresAt: timestamptz('expires_at'),
  },
  (t) => [
    belongsToAgent('api_tokens', t.agentId),
    check('api_tokens_kind', sql`${t.kind} IN ('operator', 'agent')`),
    check('api_tokens_agent_binding', sql`(${t.kind} = 'agent') = (${t.agentId} IS NOT NULL)`),
    check('api_tokens_name_length', sql`char_length(${t.name}) BETWEEN 1 AND 200`),
    index('api_tokens_agent_idx').on(t.agentId),
  ],
);
