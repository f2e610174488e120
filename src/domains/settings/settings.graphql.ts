/**
 * Settings and configuration transfer, operators only (an agent token gets FORBIDDEN). Secret
 * inputs are write-only: answers carry `hasSecret`, never a value.
 */
import { builder } from '../../schema/builder.js';
import { agentScopedKey, GLOBAL_ID_DESCRIPTION, parseAgentScopedKey } from '../../schema/node-keys.js';
import { ErrorInterface } from '../../schema/errors.js';
import { NotFoundError, RevisionConflictError, ValidationError } from '../../lib/errors.js';
import { SecretUnreadableError, SettingsKeyRequiredError } from './settings.crypto.js';
import type { AgentSettingRow, McpConnectionRow, ModelConnectionRow } from './settings.service.js';
import { EXPORT_CATEGORIES, type CategoryCounts, type ExportCategory } from './settings.transfer.js';
import { MCP_TRANSPORTS, type ModelPurpose } from './settings.sql.js';

builder.objectType(SettingsKeyRequiredError, {
  name: 'SettingsKeyRequired',
  description: 'A secret was given but the server has no BURROW_SETTINGS_KEY to encrypt it with; nothing was changed',
  interfaces: [ErrorInterface],
  fields: (t) => ({ field: t.exposeString('field', { description: 'The input field that carried the secret' }) }),
});
builder.objectType(SecretUnreadableError, {
  name: 'SecretUnreadable',
  description: 'A stored secret cannot be opened with the configured key (another key, or a damaged value)',
  interfaces: [ErrorInterface],
});
/** A create-or-replace of a setting: bad input, a stale or missing `expectedRevision` row, a secret without a key. */
const SET_ERRORS = [ValidationError, NotFoundError, RevisionConflictError, SettingsKeyRequiredError];

const ModelPurposeEnum = builder.enumType('ModelPurpose', {
  description: 'What Burrow calls a model endpoint for',
  values: {
    BRAIN_EMBEDDINGS: { description: 'The embeddings endpoint of Brain search (BURROW_EMBEDDINGS_* override it)' },
    TIDDLE_PROPOSER: { description: "Tiddle's card proposer (BURROW_TIDDLE_PROPOSER=openai and BURROW_TIDDLE_* override it)" },
  } satisfies Record<ModelPurpose, object>,
});
const McpTransportEnum = builder.enumType('McpTransport', {
  description: 'How the agent platform talks to an MCP server',
  values: {
    STREAMABLE_HTTP: { description: 'MCP Streamable HTTP' },
    SSE: { description: 'The older HTTP + Server-Sent Events transport' },
  } satisfies Record<(typeof MCP_TRANSPORTS)[number], object>,
});
const CATEGORY_DESCRIPTIONS: Record<ExportCategory, string> = {
  agents: 'Agents with their six profile documents',
  settings: 'Per-agent settings',
  'model-connections': 'Model connections',
  'mcp-connections': 'MCP connections',
};
const ConfigurationCategoryEnum = builder.enumType('ConfigurationCategory', {
  description: 'The parts of the portable configuration',
  values: Object.fromEntries(EXPORT_CATEGORIES.map((c) => [c.toUpperCase().replace('-', '_'), { value: c, description: CATEGORY_DESCRIPTIONS[c] }])) as Record<
    string,
    { value: ExportCategory; description: string }
  >,
});

const hasSecretField = { description: 'Whether a secret is stored. The secret itself is write-only and never returned.' };

// Every settings node is operators only, as every settings field is: the service refuses an
// agent token (FORBIDDEN) before it reads anything.
const ModelConnectionRef = builder.objectRef<ModelConnectionRow>('ModelConnectionSetting');
builder.node(ModelConnectionRef, {
  description: 'A model endpoint Burrow calls. Changes apply at the next start; a set env variable overrides the stored row.',
  id: { description: GLOBAL_ID_DESCRIPTION, resolve: (m) => m.purpose },
  loadOne: (purpose, ctx) => ctx.services.settings.getModelConnection(ctx.viewer, purpose),
  fields: (t) => ({
    purpose: t.field({ type: ModelPurposeEnum, description: 'What it is used for (one connection per purpose)', resolve: (m) => m.purpose as ModelPurpose }),
    url: t.exposeString('url', { description: 'The http(s) base URL of an OpenAI-compatible API' }),
    model: t.exposeString('model', { description: 'The model name sent with each request' }),
    timeoutMs: t.exposeInt('timeoutMs', { description: 'Request timeout in milliseconds' }),
    hasSecret: t.boolean({ ...hasSecretField, resolve: (m) => m.apiKeySecret !== null }),
    revision: t.exposeInt('revision', { description: '1 at creation, +1 per write; what `expectedRevision` names' }),
    updatedAt: t.expose('updatedAt', { type: 'DateTime', description: 'When it was last written' }),
    updatedBy: t.exposeString('updatedBy', { description: 'The name of the operator token that last wrote it' }),
  }),
});

const McpConnectionRef = builder.objectRef<McpConnectionRow>('McpConnectionSetting');
builder.node(McpConnectionRef, {
  description: 'An MCP server the agent platform connects to',
  id: { description: GLOBAL_ID_DESCRIPTION, resolve: (m) => m.name },
  loadOne: (name, ctx) => ctx.services.settings.getMcpConnection(ctx.viewer, name),
  fields: (t) => ({
    name: t.exposeString('name', { description: 'Its unique name, 1 to 64 characters of a-z, 0-9, _ . -' }),
    url: t.exposeString('url', { description: 'The http(s) URL of the MCP server' }),
    transport: t.field({ type: McpTransportEnum, description: 'The MCP transport', resolve: (m) => m.transport as (typeof MCP_TRANSPORTS)[number] }),
    enabled: t.exposeBoolean('enabled', { description: 'Whether the platform should connect to it' }),
    description: t.exposeString('description', { description: 'Free text for operators, at most 1,000 characters' }),
    hasSecret: t.boolean({ ...hasSecretField, resolve: (m) => m.tokenSecret !== null }),
    revision: t.exposeInt('revision', { description: '1 at creation, +1 per write; what `expectedRevision` names' }),
    updatedAt: t.expose('updatedAt', { type: 'DateTime', description: 'When it was last written' }),
    updatedBy: t.exposeString('updatedBy', { description: 'The name of the operator token that last wrote it' }),
  }),
});

const AgentSettingRef = builder.objectRef<AgentSettingRow>('AgentSetting');
builder.node(AgentSettingRef, {
  description: 'A per-agent setting: a JSON value and/or a write-only secret. Operators only; never shown to the agent.',
  id: { description: GLOBAL_ID_DESCRIPTION, resolve: (s) => agentScopedKey(s.agentId, s.name) },
  loadOne: (key, ctx) => {
    const { agentId, recordId: name } = parseAgentScopedKey(key);
    return ctx.services.settings.getAgentSetting(ctx.viewer, agentId, name);
  },
  fields: (t) => ({
    agentId: t.exposeString('agentId', { description: 'The agent id (`Agent.agentId`)' }),
    name: t.exposeString('name', { description: 'The setting name, unique per agent' }),
    value: t.field({ type: 'JSON', nullable: true, description: 'The JSON value; null when only a secret is stored', resolve: (s) => s.value ?? null }),
    hasSecret: t.boolean({ ...hasSecretField, resolve: (s) => s.secret !== null }),
    revision: t.exposeInt('revision', { description: '1 at creation, +1 per write; what `expectedRevision` names' }),
    updatedAt: t.expose('updatedAt', { type: 'DateTime', description: 'When it was last written' }),
    updatedBy: t.exposeString('updatedBy', { description: 'The name of the operator token that last wrote it' }),
  }),
});

const SettingsStatusRef = builder.objectRef<{ keyConfigured: boolean; keyId: string | null }>('SettingsStatus').implement({
  description: 'Whether settings secrets can be written and read',
  fields: (t) => ({
    keyConfigured: t.exposeBoolean('keyConfigured', { description: 'Whether BURROW_SETTINGS_KEY is set: without it secrets cannot be written' }),
    keyId: t.exposeString('keyId', { nullable: true, description: 'The fingerprint of the key recorded in every ciphertext (not the key)' }),
  }),
});

builder.queryFields((t) => ({
  settingsStatus: t.field({ type: SettingsStatusRef, description: 'The settings key status (operators only)', resolve: (_, __, ctx) => ctx.services.settings.status(ctx.viewer) }),
  modelConnections: t.field({
    type: [ModelConnectionRef],
    description: 'The stored model connections, one per purpose at most (operators only)',
    resolve: (_, __, ctx) => ctx.services.settings.listModelConnections(ctx.viewer),
  }),
  mcpConnections: t.field({
    type: [McpConnectionRef],
    description: 'The MCP connections by name (operators only)',
    resolve: (_, __, ctx) => ctx.services.settings.listMcpConnections(ctx.viewer),
  }),
  agentSettings: t.field({
    type: [AgentSettingRef],
    description: 'The settings of one agent by name (operators only: an agent token gets FORBIDDEN, even for its own agent)',
    args: { agentId: t.arg.string({ required: true, description: 'The agent id (`Agent.agentId`)' }) },
    resolve: (_, args, ctx) => ctx.services.settings.listAgentSettings(ctx.viewer, args.agentId),
  }),
}));

const WRITE_ONLY = 'Write-only. Stored encrypted under BURROW_SETTINGS_KEY (SettingsKeyRequired without one). Omit to keep the stored one.';

const SetModelConnectionInput = builder.inputType('SetModelConnectionInput', {
  description: 'Creates or replaces the model connection of a purpose',
  fields: (t) => ({
    purpose: t.field({ type: ModelPurposeEnum, required: true, description: 'Which connection' }),
    url: t.string({ required: true, description: 'http(s) URL of an OpenAI-compatible API (…/v1), at most 2,000 characters, no credentials' }),
    model: t.string({ required: true, description: '1 to 200 characters' }),
    timeoutMs: t.int({ required: false, description: '50 to 600,000; default 5,000 (embeddings) or 30,000 (proposer)' }),
    apiKey: t.string({ required: false, description: WRITE_ONLY }),
    clearApiKey: t.boolean({ required: false, description: 'Remove the stored API key' }),
    expectedRevision: t.int({ required: false, description: 'Update only at this revision; omit to create or replace' }),
  }),
});
const SetMcpConnectionInput = builder.inputType('SetMcpConnectionInput', {
  description: 'Creates or replaces an MCP connection by name',
  fields: (t) => ({
    name: t.string({ required: true, description: '1 to 64 characters of a-z, 0-9, _ . -' }),
    url: t.string({ required: true, description: 'http(s) URL, at most 2,000 characters, no credentials' }),
    transport: t.field({ type: McpTransportEnum, required: false, description: 'Default STREAMABLE_HTTP' }),
    enabled: t.boolean({ required: false, description: 'Default true' }),
    description: t.string({ required: false, description: 'At most 1,000 characters' }),
    token: t.string({ required: false, description: `A bearer token. ${WRITE_ONLY}` }),
    clearToken: t.boolean({ required: false, description: 'Remove the stored token' }),
    expectedRevision: t.int({ required: false, description: 'Update only at this revision; omit to create or replace' }),
  }),
});
const SetAgentSettingInput = builder.inputType('SetAgentSettingInput', {
  description: 'Creates or replaces a per-agent setting',
  fields: (t) => ({
    agentId: t.string({ required: true, description: 'The agent id (`Agent.agentId`)' }),
    name: t.string({ required: true, description: '1 to 64 characters of a-z, 0-9, _ . -' }),
    value: t.field({ type: 'JSON', required: false, description: 'Any JSON, at most 16,000 bytes serialized; omit to keep, null to remove' }),
    secret: t.string({ required: false, description: WRITE_ONLY }),
    clearSecret: t.boolean({ required: false, description: 'Remove the stored secret' }),
    expectedRevision: t.int({ required: false, description: 'Update only at this revision; omit to create or replace' }),
  }),
});

const DeletedRef = builder.objectRef<{ deleted: boolean }>('SettingDeleted').implement({
  description: 'The answer of a delete',
  fields: (t) => ({ deleted: t.exposeBoolean('deleted', { description: 'false when there was nothing to delete' }) }),
});

const ImportCountsRef = builder.objectRef<CategoryCounts>('ConfigurationImportCounts').implement({
  description: 'What an import did in one category',
  fields: (t) => ({
    category: t.field({ type: ConfigurationCategoryEnum, description: 'The category', resolve: (c) => c.category }),
    created: t.exposeInt('created', { description: 'Items that did not exist before' }),
    updated: t.exposeInt('updated', { description: 'Items that existed and differed' }),
    unchanged: t.exposeInt('unchanged', { description: 'Items already equal to the file' }),
  }),
});

const ExportConfigurationInput = builder.inputType('ExportConfigurationInput', {
  description: 'What to export, and how to protect secrets',
  fields: (t) => ({
    categories: t.field({ type: [ConfigurationCategoryEnum], required: false, description: 'Default: all four' }),
    includeSecrets: t.boolean({ required: false, description: 'Put secrets in a separate envelope encrypted with `password` (scrypt + AES-256-GCM)' }),
    password: t.string({ required: false, description: 'At least 12 characters; required with includeSecrets' }),
  }),
});
const ImportConfigurationInput = builder.inputType('ImportConfigurationInput', {
  description: 'An export document to import',
  fields: (t) => ({
    document: t.field({ type: 'JSON', required: true, description: 'An export document (object or its JSON text)' }),
    password: t.string({ required: false, description: "The envelope's password, when the file carries secrets" }),
  }),
});

builder.mutationFields((t) => ({
  setModelConnection: t.field({
    type: ModelConnectionRef,
    description: 'Creates or replaces a model connection (operators only); applies at the next start',
    errors: { types: SET_ERRORS, dataField: { name: 'connection' } },
    args: { input: t.arg({ type: SetModelConnectionInput, required: true, description: 'The connection' }) },
    resolve: (_, { input }, ctx) => ctx.services.settings.setModelConnection(ctx.viewer, { ...input, apiKey: { value: input.apiKey, clear: input.clearApiKey } }),
  }),
  deleteModelConnection: t.field({
    type: DeletedRef,
    description: 'Deletes the model connection of a purpose (operators only)',
    args: { purpose: t.arg({ type: ModelPurposeEnum, required: true, description: 'Which connection' }) },
    resolve: async (_, args, ctx) => ({ deleted: await ctx.services.settings.deleteModelConnection(ctx.viewer, args.purpose) }),
  }),
  setMcpConnection: t.field({
    type: McpConnectionRef,
    description: 'Creates or replaces an MCP connection (operators only)',
    errors: { types: SET_ERRORS, dataField: { name: 'connection' } },
    args: { input: t.arg({ type: SetMcpConnectionInput, required: true, description: 'The connection' }) },
    resolve: (_, { input }, ctx) => ctx.services.settings.setMcpConnection(ctx.viewer, { ...input, token: { value: input.token, clear: input.clearToken } }),
  }),
  deleteMcpConnection: t.field({
    type: DeletedRef,
    description: 'Deletes an MCP connection by name (operators only)',
    args: { name: t.arg.string({ required: true, description: 'The connection name' }) },
    resolve: async (_, args, ctx) => ({ deleted: await ctx.services.settings.deleteMcpConnection(ctx.viewer, args.name) }),
  }),
  setAgentSetting: t.field({
    type: AgentSettingRef,
    description: 'Creates or replaces a per-agent setting (operators only: an agent token gets FORBIDDEN, even for its own agent)',
    errors: { types: SET_ERRORS, dataField: { name: 'setting' } },
    args: { input: t.arg({ type: SetAgentSettingInput, required: true, description: 'The setting' }) },
    resolve: (_, { input }, ctx) => ctx.services.settings.setAgentSetting(ctx.viewer, { ...input, secret: { value: input.secret, clear: input.clearSecret } }),
  }),
  deleteAgentSetting: t.field({
    type: DeletedRef,
    description: 'Deletes a per-agent setting (operators only)',
    args: {
      agentId: t.arg.string({ required: true, description: 'The agent id (`Agent.agentId`)' }),
      name: t.arg.string({ required: true, description: 'The setting name' }),
    },
    resolve: async (_, args, ctx) => ({ deleted: await ctx.services.settings.deleteAgentSetting(ctx.viewer, args.agentId, args.name) }),
  }),
  exportConfiguration: t.field({
    type: 'JSON',
    description:
      'Operators only. The portable configuration (agents with profiles, settings, model and MCP connections) as one JSON document. Not a backup. A mutation so that the password never travels in a GET URL.',
    errors: { types: [ValidationError, SecretUnreadableError], dataField: { name: 'document' } },
    args: { input: t.arg({ type: ExportConfigurationInput, required: false, description: 'Categories and secrets; everything without secrets when absent' }) },
    resolve: (_, { input }, ctx) => ctx.services.transfer.export(ctx.viewer, input ?? {}),
  }),
  importConfiguration: t.field({
    type: [ImportCountsRef],
    description: 'Operators only. Checks the whole file first, then writes what differs in one transaction; repeat-safe; never deletes.',
    // No NotFound or RevisionConflict: the file is checked whole first (every setting's agent is in
    // the file or the database) and the import writes without expected revisions.
    errors: { types: [ValidationError, SettingsKeyRequiredError, SecretUnreadableError], dataField: { name: 'counts' } },
    args: { input: t.arg({ type: ImportConfigurationInput, required: true, description: 'The document and its password' }) },
    resolve: (_, { input }, ctx) => ctx.services.transfer.import(ctx.viewer, { document: input.document, password: input.password }),
  }),
}));
