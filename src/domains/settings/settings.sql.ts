import { sql } from 'drizzle-orm';
import { boolean, check, integer, jsonb, pgTable, primaryKey, text } from 'drizzle-orm/pg-core';
import { belongsToAgent } from '../agents/agents.sql.js';
import { timestamptz } from '../../db/columns.js';

/** The model endpoints Burrow itself calls. Their env variables, when set, override these rows. */
export const MODEL_PURPOSES = ['BRAIN_EMBEDDINGS', 'TIDDLE_PROPOSER'] as const;
export type ModelPurpose = (typeof MODEL_PURPOSES)[number];
export const MCP_TRANSPORTS = ['STREAMABLE_HTTP', 'SSE'] as const;

export const SETTINGS_LIMITS = {
  url: 2_000,
  model: 200,
  name: 64,
  description: 1_000,
  secret: 8_000,
  /** Serialized JSON of one agent setting's value. */
  value: 16_000,
  timeoutMinMs: 50,
  timeoutMaxMs: 600_000,
} as const;

// Every stored secret is ciphertext (see settings.crypto.ts): plaintext cannot be written.
const isCiphertext = (column: unknown) => sql`${column} IS NULL OR ${column} ~ '^v1\\.[0-9a-f]{16}\\.[A-Za-z0-9_-]{16}\\.[A-Za-z0-9_-]{22}\\.[A-Za-z0-9_-]*$'`;
const nameFormat = (column: unknown) => sql`${column} ~ '^[a-z0-9][a-z0-9_.-]{0,63}$'`;

/** One row per purpose; the API key is a secret. */
export const modelConnections = pgTable(
  'model_connections',
  {
    purpose: text('purpose').primaryKey(),
    url: text('url').notNull(),
    model: text('model').notNull(),
    timeoutMs: integer('timeout_ms').notNull(),
    apiKeySecret: text('api_key_secret'),
    revision: integer('revision').notNull(),
    updatedAt: timestamptz('updated_at').notNull(),
    updatedBy: text('updated_by').notNull(),
  },
  (t) => [
    check('model_connections_purpose', sql`${t.purpose} IN ('BRAIN_EMBEDDINGS', 'TIDDLE_PROPOSER')`),
    check('model_connections_url', sql`${t.url} ~ '^https?://' AND char_length(${t.url}) <= 2000`),
    check('model_connections_model', sql`char_length(${t.model}) BETWEEN 1 AND 200`),
    check('model_connections_timeout', sql`${t.timeoutMs} BETWEEN 50 AND 600000`),
    check('model_connections_secret_is_ciphertext', isCiphertext(t.apiKeySecret)),
  ],
);

/** MCP servers the agent platform connects to, by name; the bearer token is a secret. */
export const mcpConnections = pgTable(
  'mcp_connections',
  {
    name: text('name').primaryKey(),
    url: text('url').notNull(),
    transport: text('transport').notNull(),
    enabled: boolean('enabled').notNull(),
    description: text('description').notNull(),
    tokenSecret: text('token_secret'),
    revision: integer('revision').notNull(),
    updatedAt: timestamptz('updated_at').notNull(),
    updatedBy: text('updated_by').notNull(),
  },
  (t) => [
    check('mcp_connections_name', nameFormat(t.name)),
    check('mcp_connections_url', sql`${t.url} ~ '^https?://' AND char_length(${t.url}) <= 2000`),
    check('mcp_connections_transport', sql`${t.transport} IN ('STREAMABLE_HTTP', 'SSE')`),
    check('mcp_connections_description', sql`char_length(${t.description}) <= 1000`),
    check('mcp_connections_secret_is_ciphertext', isCiphertext(t.tokenSecret)),
  ],
);

/** Per-agent settings by name: a JSON value and/or a secret. */
export const agentSettings = pgTable(
  'agent_settings',
  {
    agentId: text('agent_id').notNull(),
    name: text('name').notNull(),
    value: jsonb('value'),
    secret: text('secret'),
    revision: integer('revision').notNull(),
    updatedAt: timestamptz('updated_at').notNull(),
    updatedBy: text('updated_by').notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.agentId, t.name] }),
    belongsToAgent('agent_settings', t.agentId),
    check('agent_settings_name', nameFormat(t.name)),
    check('agent_settings_value_size', sql`${t.value} IS NULL OR octet_length(${t.value}::text) <= 16000`),
    check('agent_settings_has_content', sql`${t.value} IS NOT NULL OR ${t.secret} IS NOT NULL`),
    check('agent_settings_secret_is_ciphertext', isCiphertext(t.secret)),
  ],
);
