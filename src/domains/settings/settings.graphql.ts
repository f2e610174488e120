/**
 * Settings and configuration transfer, operators only (an agent token gets FORBIDDEN). Secret
 * inputs are write-only: answers carry `hasSecret`, never a value.
 */
import { builder } from '../../schema/builder.js';
import { ErrorInterface, WRITE_ERRORS } from '../../schema/errors.js';
import { NotFoundError, RevisionConflictError, ValidationError } from '../../lib/errors.js';
import { SecretUnreadableError, SettingsKeyRequiredError } from './settings.crypto.js';
import type { AgentSettingRow, McpConnectionRow, ModelConnectionRow } from './settings.service.js';
import { EXPORT_CATEGORIES, type CategoryCounts, type ExportCategory } from './settings.transfer.js';
import { MCP_TRANSPORTS, type ModelPurpose } from './settings.sql.js';

builder.objectType(SettingsKeyRequiredError, {
  name: 'SettingsKeyRequired',
  description: 'A secret was given but the server has no BURROW_SETTINGS_KEY to encrypt it with; nothing was changed',
  interfaces: [ErrorInterface],
  fields: (t) => ({ field: t.exposeString('field') }),
});
builder.objectType(SecretUnreadableError, {
  name: 'SecretUnreadable',
  description: 'A stored secret cannot be opened with the configured key (another key, or a damaged value)',
  interfaces: [ErrorInterface],
});
const SETTINGS_ERRORS = [...WRITE_ERRORS, SettingsKeyRequiredError, SecretUnreadableError];

const ModelPurposeEnum = builder.enumType('ModelPurpose', {
  values: {
    BRAIN_EMBEDDINGS: { description: 'The embeddings endpoint of Brain search (BURROW_EMBEDDINGS_* override it)' },
    TIDDLE_PROPOSER: { description: "Tiddle's card proposer (BURROW_TIDDLE_PROPOSER=openai and BURROW_TIDDLE_* override it)" },
  } satisfies Record<ModelPurpose, object>,
});
const McpTransportEnum = builder.enumType('McpTransport', { values: MCP_TRANSPORTS });
const ConfigurationCategoryEnum = builder.enumType('ConfigurationCategory', {
  values: Object.fromEntries(EXPORT_CATEGORIES.map((c) => [c.toUpperCase().replace('-', '_'), { value: c }])) as Record<string, { value: ExportCategory }>,
});

const hasSecretField = { description: 'Whether a secret is stored. The secret itself is write-only and never returned.' };

const ModelConnectionRef = builder.objectRef<ModelConnectionRow>('ModelConnection').implement({
  description: 'A model endpoint Burrow calls. Changes apply at the next start; a set env variable overrides the stored row.',
  fields: (t) => ({
    purpose: t.field({ type: ModelPurposeEnum, resolve: (m) => m.purpose as ModelPurpose }),
    url: t.exposeString('url'),
    model: t.exposeString('model'),
    timeoutMs: t.exposeInt('timeoutMs'),
    hasSecret: t.boolean({ ...hasSecretField, resolve: (m) => m.apiKeySecret !== null }),
    revision: t.exposeInt('revision'),
    updatedAt: t.expose('updatedAt', { type: 'DateTime' }),
    updatedBy: t.exposeString('updatedBy'),
  }),
});

const McpConnectionRef = builder.objectRef<McpConnectionRow>('McpConnection').implement({
  description: 'An MCP server the agent platform connects to',
  fields: (t) => ({
    name: t.exposeString('name'),
    url: t.exposeString('url'),
    transport: t.field({ type: McpTransportEnum, resolve: (m) => m.transport as (typeof MCP_TRANSPORTS)[number] }),
    enabled: t.exposeBoolean('enabled'),
    description: t.exposeString('description'),
    hasSecret: t.boolean({ ...hasSecretField, resolve: (m) => m.tokenSecret !== null }),
    revision: t.exposeInt('revision'),
    updatedAt: t.expose('updatedAt', { type: 'DateTime' }),
    updatedBy: t.exposeString('updatedBy'),
  }),
});

const AgentSettingRef = builder.objectRef<AgentSettingRow>('AgentSetting').implement({
  description: 'A per-agent setting: a JSON value and/or a write-only secret. Operators only; never shown to the agent.',
  fields: (t) => ({
    agentId: t.exposeString('agentId'),
    name: t.exposeString('name'),
    value: t.field({ type: 'JSON', nullable: true, resolve: (s) => s.value ?? null }),
    hasSecret: t.boolean({ ...hasSecretField, resolve: (s) => s.secret !== null }),
    revision: t.exposeInt('revision'),
    updatedAt: t.expose('updatedAt', { type: 'DateTime' }),
    updatedBy: t.exposeString('updatedBy'),
  }),
});

const SettingsStatusRef = builder.objectRef<{ keyConfigured: boolean; keyId: string | null }>('SettingsStatus').implement({
  fields: (t) => ({
    keyConfigured: t.exposeBoolean('keyConfigured', { description: 'Whether BURROW_SETTINGS_KEY is set: without it secrets cannot be written' }),
    keyId: t.exposeString('keyId', { nullable: true, description: 'The fingerprint of the key recorded in every ciphertext (not the key)' }),
  }),
});

builder.queryFields((t) => ({
  settingsStatus: t.field({ type: SettingsStatusRef, description: 'Operators only', resolve: (_, __, ctx) => ctx.services.settings.status(ctx.viewer) }),
  modelConnections: t.field({ type: [ModelConnectionRef], description: 'Operators only', resolve: (_, __, ctx) => ctx.services.settings.listModelConnections(ctx.viewer) }),
  mcpConnections: t.field({ type: [McpConnectionRef], description: 'Operators only', resolve: (_, __, ctx) => ctx.services.settings.listMcpConnections(ctx.viewer) }),
  agentSettings: t.field({
    type: [AgentSettingRef],
    description: 'Operators only (an agent token gets FORBIDDEN, even for its own agent)',
    args: { agentId: t.arg.string({ required: true }) },
    resolve: (_, args, ctx) => ctx.services.settings.listAgentSettings(ctx.viewer, args.agentId),
  }),
}));

const WRITE_ONLY = 'Write-only. Stored encrypted under BURROW_SETTINGS_KEY (SettingsKeyRequired without one). Omit to keep the stored one.';

const SetModelConnectionInput = builder.inputType('SetModelConnectionInput', {
  fields: (t) => ({
    purpose: t.field({ type: ModelPurposeEnum, required: true }),
    url: t.string({ required: true, description: 'http(s) URL of an OpenAI-compatible API (…/v1), at most 2,000 characters, no credentials' }),
    model: t.string({ required: true, description: '1 to 200 characters' }),
    timeoutMs: t.int({ required: false, description: '50 to 600,000; default 5,000 (embeddings) or 30,000 (proposer)' }),
    apiKey: t.string({ required: false, description: WRITE_ONLY }),
    clearApiKey: t.boolean({ required: false, description: 'Remove the stored API key' }),
    expectedRevision: t.int({ required: false, description: 'Update only at this revision; omit to create or replace' }),
  }),
});
const SetMcpConnectionInput = builder.inputType('SetMcpConnectionInput', {
  fields: (t) => ({
    name: t.string({ required: true, description: '1 to 64 characters of a-z, 0-9, _ . -' }),
    url: t.string({ required: true, description: 'http(s) URL, at most 2,000 characters, no credentials' }),
    transport: t.field({ type: McpTransportEnum, required: false, description: 'Default STREAMABLE_HTTP' }),
    enabled: t.boolean({ required: false, description: 'Default true' }),
    description: t.string({ required: false, description: 'At most 1,000 characters' }),
    token: t.string({ required: false, description: `A bearer token. ${WRITE_ONLY}` }),
    clearToken: t.boolean({ required: false, description: 'Remove the stored token' }),
    expectedRevision: t.int({ required: false }),
  }),
});
const SetAgentSettingInput = builder.inputType('SetAgentSettingInput', {
  fields: (t) => ({
    agentId: t.string({ required: true }),
    name: t.string({ required: true, description: '1 to 64 characters of a-z, 0-9, _ . -' }),
    value: t.field({ type: 'JSON', required: false, description: 'Any JSON, at most 16,000 bytes serialized; omit to keep, null to remove' }),
    secret: t.string({ required: false, description: WRITE_ONLY }),
    clearSecret: t.boolean({ required: false, description: 'Remove the stored secret' }),
    expectedRevision: t.int({ required: false }),
  }),
});

const DeletedRef = builder.objectRef<{ deleted: boolean }>('SettingDeleted').implement({
  fields: (t) => ({ deleted: t.exposeBoolean('deleted', { description: 'false when there was nothing to delete' }) }),
});

const ImportCountsRef = builder.objectRef<CategoryCounts>('ConfigurationImportCounts').implement({
  fields: (t) => ({
    category: t.field({ type: ConfigurationCategoryEnum, resolve: (c) => c.category }),
    created: t.exposeInt('created'),
    updated: t.exposeInt('updated'),
    unchanged: t.exposeInt('unchanged'),
  }),
});

const ExportConfigurationInput = builder.inputType('ExportConfigurationInput', {
  fields: (t) => ({
    categories: t.field({ type: [ConfigurationCategoryEnum], required: false, description: 'Default: all four' }),
    includeSecrets: t.boolean({ required: false, description: 'Put secrets in a separate envelope encrypted with `password` (scrypt + AES-256-GCM)' }),
    password: t.string({ required: false, description: 'At least 12 characters; required with includeSecrets' }),
  }),
});
const ImportConfigurationInput = builder.inputType('ImportConfigurationInput', {
  fields: (t) => ({
    document: t.field({ type: 'JSON', required: true, description: 'An export document (object or its JSON text)' }),
    password: t.string({ required: false, description: "The envelope's password, when the file carries secrets" }),
  }),
});

builder.mutationFields((t) => ({
  setModelConnection: t.field({
    type: ModelConnectionRef,
    description: 'Operators only',
    errors: { types: SETTINGS_ERRORS, dataField: { name: 'connection' } },
    args: { input: t.arg({ type: SetModelConnectionInput, required: true }) },
    resolve: (_, { input }, ctx) =>
      ctx.services.settings.setModelConnection(ctx.viewer, { ...input, apiKey: { value: input.apiKey, clear: input.clearApiKey } }),
  }),
  deleteModelConnection: t.field({
    type: DeletedRef,
    description: 'Operators only',
    args: { purpose: t.arg({ type: ModelPurposeEnum, required: true }) },
    resolve: async (_, args, ctx) => ({ deleted: await ctx.services.settings.deleteModelConnection(ctx.viewer, args.purpose) }),
  }),
  setMcpConnection: t.field({
    type: McpConnectionRef,
    description: 'Operators only',
    errors: { types: SETTINGS_ERRORS, dataField: { name: 'connection' } },
    args: { input: t.arg({ type: SetMcpConnectionInput, required: true }) },
    resolve: (_, { input }, ctx) => ctx.services.settings.setMcpConnection(ctx.viewer, { ...input, token: { value: input.token, clear: input.clearToken } }),
  }),
  deleteMcpConnection: t.field({
    type: DeletedRef,
    description: 'Operators only',
    args: { name: t.arg.string({ required: true }) },
    resolve: async (_, args, ctx) => ({ deleted: await ctx.services.settings.deleteMcpConnection(ctx.viewer, args.name) }),
  }),
  setAgentSetting: t.field({
    type: AgentSettingRef,
    description: 'Operators only (an agent token gets FORBIDDEN, even for its own agent)',
    errors: { types: SETTINGS_ERRORS, dataField: { name: 'setting' } },
    args: { input: t.arg({ type: SetAgentSettingInput, required: true }) },
    resolve: (_, { input }, ctx) =>
      ctx.services.settings.setAgentSetting(ctx.viewer, { ...input, secret: { value: input.secret, clear: input.clearSecret } }),
  }),
  deleteAgentSetting: t.field({
    type: DeletedRef,
    description: 'Operators only',
    args: { agentId: t.arg.string({ required: true }), name: t.arg.string({ required: true }) },
    resolve: async (_, args, ctx) => ({ deleted: await ctx.services.settings.deleteAgentSetting(ctx.viewer, args.agentId, args.name) }),
  }),
  exportConfiguration: t.field({
    type: 'JSON',
    description:
      'Operators only. The portable configuration (agents with profiles, settings, model and MCP connections) as one JSON document. Not a backup. A mutation so that the password never travels in a GET URL.',
    errors: { types: [ValidationError, SecretUnreadableError], dataField: { name: 'document' } },
    args: { input: t.arg({ type: ExportConfigurationInput, required: false }) },
    resolve: (_, { input }, ctx) => ctx.services.transfer.export(ctx.viewer, input ?? {}),
  }),
  importConfiguration: t.field({
    type: [ImportCountsRef],
    description: 'Operators only. Checks the whole file first, then writes what differs in one transaction; repeat-safe; never deletes.',
    errors: { types: [ValidationError, NotFoundError, RevisionConflictError, SettingsKeyRequiredError, SecretUnreadableError], dataField: { name: 'counts' } },
    args: { input: t.arg({ type: ImportConfigurationInput, required: true }) },
    resolve: (_, { input }, ctx) => ctx.services.transfer.import(ctx.viewer, { document: input.document, password: input.password }),
  }),
}));

