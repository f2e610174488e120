import { sql } from 'drizzle-orm';
import { check, index, jsonb, pgTable, primaryKey, text } from 'drizzle-orm/pg-core';
import { timestamptz } from './columns.js';
import { belongsToAgent } from '../domains/agents/agents.sql.js';

/**
 * The longest idempotency key a client may send (a UUID is 36 characters). The column allows
 * more: a key from the Idempotency-Key header is stored with the field's response key appended.
 */
export const IDEMPOTENCY_KEY_LIMIT = 200;

/**
 * One row per create-type write made with an idempotency key (docs/idempotency.md): who made it
 * (the agent written to and the token that wrote), the key, what was asked (the operation and a
 * SHA-256 of its input) and what was answered. Written in the write's own transaction, so a
 * committed write always has its row and a rolled-back one never does. The primary key is what
 * makes concurrent duplicates safe: the second insert of a key waits for the first transaction
 * and then finds its row. Kept for IDEMPOTENCY_WINDOW_HOURS; the retention sweep removes older rows.
 */
export const idempotencyKeys = pgTable(
  'idempotency_keys',
  {
    agentId: text('agent_id').notNull(),
    tokenId: text('token_id').notNull(),
    key: text('key').notNull(),
    operation: text('operation').notNull(),
    requestHash: text('request_hash').notNull(),
    /** The first answer (docs/idempotency.md: the encoding); null only inside the writing transaction. */
    result: jsonb('result'),
    createdAt: timestamptz('created_at').notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.agentId, t.tokenId, t.key] }),
    belongsToAgent('idempotency_keys', t.agentId),
    check('idempotency_keys_key_length', sql`char_length(${t.key}) BETWEEN 1 AND 500`),
    index('idempotency_keys_created_idx').on(t.createdAt),
  ],
);
