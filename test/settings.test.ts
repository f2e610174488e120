/**
 * Settings with encrypted secrets, through the real server and the generated client: write-only
 * secrets (hasSecret), ciphertext at rest, the typed refusal without a key, operators only.
 */
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BurrowRequestError, type BurrowClient } from '../clients/typescript/sdk.js';
import { loadConfig } from '../src/config.js';
import { ConfigError } from '../src/config.env.js';
import { decryptSecret, type SettingsKey } from '../src/domains/settings/settings.crypto.js';
import { withStoredModelConnections } from '../src/domains/settings/settings.effective.js';
import { createLogger } from '../src/lib/logger.js';
import { startServer, type TestServer } from './support/harness.js';
import { newKey } from './support/settings.js';

const API_KEY = 'sk-plaintext-model-api-key-7f3a';
const MCP_TOKEN = 'mcp-plaintext-bearer-token-91c2';
const AGENT_SECRET = 'agent-plaintext-secret-55aa';

const codeOf = (promise: Promise<unknown>) =>
  promise.then(
    () => 'answered',
    (e) => (e instanceof BurrowRequestError ? e.code : `unexpected: ${String(e)}`),
  );

describe('BURROW_SETTINGS_KEY', () => {
  const problems = (value: string) => {
    try {
      loadConfig({ BURROW_POSTGRES_LIFECYCLE: 'embedded', BURROW_SETTINGS_KEY: value });
      return [];
    } catch (error) {
      if (error instanceof ConfigError) return error.problems;
      throw error;
    }
  };

  it('accepts exactly 32 bytes as base64 or hex, and names the key by a fingerprint', () => {
    const bytes = randomBytes(32);
    const fromBase64 = loadConfig({ BURROW_POSTGRES_LIFECYCLE: 'embedded', BURROW_SETTINGS_KEY: bytes.toString('base64') }).settings.key!;
    const fromHex = loadConfig({ BURROW_POSTGRES_LIFECYCLE: 'embedded', BURROW_SETTINGS_KEY: bytes.toString('hex') }).settings.key!;
    expect(fromBase64.bytes.equals(bytes)).toBe(true);
    expect(fromHex.id).toBe(fromBase64.id);
    expect(fromHex.id).toMatch(/^[0-9a-f]{16}$/);
    expect(loadConfig({ BURROW_POSTGRES_LIFECYCLE: 'embedded' }).settings.key).toBeNull();
  });

  it('refuses 31 and 33 bytes and non-encodings, naming the variable and never the value', () => {
    for (const value of [randomBytes(31).toString('base64'), randomBytes(33).toString('base64'), randomBytes(31).toString('hex'), 'not a key!']) {
      const found = problems(value);
      expect(found).toHaveLength(1);
      expect(found[0]).toMatch(/^BURROW_SETTINGS_KEY must (decode \(base64 or hex\) to exactly 32 bytes|be base64 or hex)/);
      expect(found[0]).not.toContain(value);
    }
    expect(problems(randomBytes(31).toString('base64'))[0]).toMatch(/decodes to 31$|decodes to 31 /);
  });
});

describe('settings with a key', () => {
  let server: TestServer;
  let key: SettingsKey;
  let agent: BurrowClient;

  beforeAll(async () => {
    key = newKey();
    server = await startServer({ config: { settings: { key, newKey: null } } });
    agent = await server.agentClient('settings-agent');
  });
  afterAll(async () => server?.stop());

  const raw = async (sql: string) => (await server.database.pool.query(sql)).rows;

  it('stores a model connection API key encrypted, answers hasSecret, never the value', async () => {
    const result = await server.operator.setModelConnection({
      input: { purpose: 'BRAIN_EMBEDDINGS', url: 'http://127.0.0.1:9/v1', model: 'embed-small', apiKey: API_KEY },
    });
    expect(result.setModelConnection).toMatchObject({
      __typename: 'SetModelConnectionSuccess',
      connection: { purpose: 'BRAIN_EMBEDDINGS', url: 'http://127.0.0.1:9/v1', model: 'embed-small', timeoutMs: 5000, hasSecret: true, revision: 1 },
    });
    expect(JSON.stringify(result)).not.toContain(API_KEY);
    const listed = await server.operator.modelConnections();
    expect(JSON.stringify(listed)).not.toContain(API_KEY);
    expect(listed.modelConnections.map((m) => [m.purpose, m.hasSecret])).toEqual([['BRAIN_EMBEDDINGS', true]]);

    const [row] = await raw(`SELECT api_key_secret FROM model_connections WHERE purpose = 'BRAIN_EMBEDDINGS'`);
    expect(row.api_key_secret).not.toContain(API_KEY);
    expect(row.api_key_secret).not.toContain(Buffer.from(API_KEY).toString('base64').slice(0, 12));
    expect(row.api_key_secret.startsWith(`v1.${key.id}.`)).toBe(true);
    // Bound to its row: the same ciphertext does not open as another connection's key.
    expect(decryptSecret([key], 'model_connections/BRAIN_EMBEDDINGS/api_key', row.api_key_secret)).toBe(API_KEY);
    expect(() => decryptSecret([key], 'model_connections/TIDDLE_PROPOSER/api_key', row.api_key_secret)).toThrow(/cannot be decrypted/);
  });

  it('keeps the secret when a write omits it, removes it only when asked', async () => {
    const kept = await server.operator.setModelConnection({ input: { purpose: 'BRAIN_EMBEDDINGS', url: 'http://127.0.0.1:9/v1', model: 'embed-large' } });
    expect(kept.setModelConnection).toMatchObject({ connection: { model: 'embed-large', hasSecret: true, revision: 2 } });
    const both = await server.operator.setModelConnection({
      input: { purpose: 'BRAIN_EMBEDDINGS', url: 'http://127.0.0.1:9/v1', model: 'x', apiKey: 'new', clearApiKey: true },
    });
    expect(both.setModelConnection).toMatchObject({ __typename: 'ValidationFailed', field: 'apiKey' });
    const cleared = await server.operator.setModelConnection({ input: { purpose: 'BRAIN_EMBEDDINGS', url: 'http://127.0.0.1:9/v1', model: 'embed-large', clearApiKey: true } });
    expect(cleared.setModelConnection).toMatchObject({ connection: { hasSecret: false, revision: 3 } });
    expect((await raw(`SELECT api_key_secret FROM model_connections`))[0].api_key_secret).toBeNull();
    await server.operator.setModelConnection({ input: { purpose: 'BRAIN_EMBEDDINGS', url: 'http://127.0.0.1:9/v1', model: 'embed-small', apiKey: API_KEY } });
  });

  it('checks revisions in one statement and answers a conflict without the secret', async () => {
    const current = (await server.operator.modelConnections()).modelConnections[0];
    const stale = await server.operator.setModelConnection({
      input: { purpose: 'BRAIN_EMBEDDINGS', url: 'http://127.0.0.1:9/v1', model: 'stale', expectedRevision: current.revision - 1 },
    });
    expect(stale.setModelConnection).toMatchObject({ __typename: 'RevisionConflict', currentRevision: current.revision, expectedRevision: current.revision - 1 });
    expect(JSON.stringify(stale)).not.toContain(API_KEY);
    expect(JSON.stringify(stale)).toContain('"hasSecret":true');
    expect((await server.operator.modelConnections()).modelConnections[0]).toEqual(current);
    const missing = await server.operator.setModelConnection({ input: { purpose: 'TIDDLE_PROPOSER', url: 'http://127.0.0.1:9/v1', model: 'm', expectedRevision: 1 } });
    expect(missing.setModelConnection).toMatchObject({ __typename: 'NotFound' });
  });

  it('refuses bad input with a typed error naming the field, at the limit and one past it, and changes nothing', async () => {
    const before = await server.operator.modelConnections();
    const attempt = async (input: Record<string, unknown>) =>
      (await server.operator.setModelConnection({ input: { purpose: 'TIDDLE_PROPOSER', url: 'http://127.0.0.1:9/v1', model: 'm', apiKey: API_KEY, ...input } })).setModelConnection;
    for (const [input, field] of [
      [{ url: 'ftp://host/v1' }, 'url'],
      [{ url: 'http://user:pw@host/v1' }, 'url'],
      [{ model: '' }, 'model'],
      [{ model: 'm'.repeat(201) }, 'model'],
      [{ timeoutMs: 49 }, 'timeoutMs'],
      [{ timeoutMs: 600_001 }, 'timeoutMs'],
      [{ apiKey: 'k'.repeat(8_001) }, 'apiKey'],
    ] as const) {
      const result = await attempt(input);
      expect(result, JSON.stringify(input).slice(0, 60)).toMatchObject({ __typename: 'ValidationFailed', field });
      expect(JSON.stringify(result)).not.toContain(API_KEY);
    }
    expect(await server.operator.modelConnections()).toEqual(before);
    for (const input of [{ timeoutMs: 50 }, { timeoutMs: 600_000, model: 'm'.repeat(200), apiKey: 'k'.repeat(8_000) }]) {
      expect((await attempt(input)).__typename).toBe('SetModelConnectionSuccess');
    }
    await server.operator.deleteModelConnection({ purpose: 'TIDDLE_PROPOSER' });
  });

  it('stores MCP connection tokens and per-agent secrets encrypted; the database refuses plaintext', async () => {
    const mcp = await server.operator.setMcpConnection({ input: { name: 'files', url: 'https://mcp.example/mcp', description: 'file tools', token: MCP_TOKEN } });
    expect(mcp.setMcpConnection).toMatchObject({ connection: { name: 'files', transport: 'STREAMABLE_HTTP', enabled: true, hasSecret: true } });
    const setting = await server.operator.setAgentSetting({ input: { agentId: 'settings-agent', name: 'search.api', value: { region: 'eu' }, secret: AGENT_SECRET } });
    expect(setting.setAgentSetting).toMatchObject({ setting: { agentId: 'settings-agent', name: 'search.api', value: { region: 'eu' }, hasSecret: true } });
    const answers = JSON.stringify([mcp, setting, await server.operator.mcpConnections(), await server.operator.agentSettings({ agentId: 'settings-agent' })]);
    expect(answers).not.toContain(MCP_TOKEN);
    expect(answers).not.toContain(AGENT_SECRET);

    const dump = JSON.stringify([await raw('SELECT * FROM mcp_connections'), await raw('SELECT * FROM agent_settings'), await raw('SELECT * FROM model_connections')]);
    for (const secret of [API_KEY, MCP_TOKEN, AGENT_SECRET]) expect(dump).not.toContain(secret);
    await expect(server.database.pool.query(`UPDATE agent_settings SET secret = 'plaintext' WHERE agent_id = 'settings-agent'`)).rejects.toThrow(
      /agent_settings_secret_is_ciphertext/,
    );

    const unknownAgent = await server.operator.setAgentSetting({ input: { agentId: 'nobody', name: 'x', value: 1 } });
    expect(unknownAgent.setAgentSetting).toMatchObject({ __typename: 'NotFound' });
    const empty = await server.operator.setAgentSetting({ input: { agentId: 'settings-agent', name: 'empty' } });
    expect(empty.setAgentSetting).toMatchObject({ __typename: 'ValidationFailed', field: 'value' });
    const badName = await server.operator.setAgentSetting({ input: { agentId: 'settings-agent', name: 'Bad Name', value: 1 } });
    expect(badName.setAgentSetting).toMatchObject({ __typename: 'ValidationFailed', field: 'name' });
    const big = await server.operator.setAgentSetting({ input: { agentId: 'settings-agent', name: 'big', value: 'v'.repeat(16_001) } });
    expect(big.setAgentSetting).toMatchObject({ __typename: 'ValidationFailed', field: 'value', limit: 16_000 });
    expect((await server.operator.agentSettings({ agentId: 'settings-agent' })).agentSettings.map((s) => s.name)).toEqual(['search.api']);
  });

  it('encrypts every write with a fresh nonce: one secret stored six times repeats no nonce and no ciphertext, and neither do two exports', async () => {
    const names = Array.from({ length: 6 }, (_, i) => `nonce.${i}`);
    for (const name of names) await server.operator.setAgentSetting({ input: { agentId: 'settings-agent', name, value: 1, secret: AGENT_SECRET } });
    const secretOf = async (name: string) => (await raw(`SELECT secret FROM agent_settings WHERE name = '${name}'`))[0].secret as string;
    const firstWrite = await secretOf('nonce.0');
    // The same setting rewritten with the same secret.
    await server.operator.setAgentSetting({ input: { agentId: 'settings-agent', name: 'nonce.0', value: 2, secret: AGENT_SECRET } });
    const stored = [firstWrite, ...(await Promise.all(names.map(secretOf)))];
    const parts = stored.map((secret) => secret.split('.'));
    for (const [, , iv] of parts) expect(Buffer.from(iv, 'base64url')).toHaveLength(12);
    expect(new Set(parts.map(([, , iv]) => iv)).size).toBe(7);
    expect(new Set(parts.map(([, , , , ciphertext]) => ciphertext)).size).toBe(7);
    stored.shift();
    for (const [i, secret] of stored.entries()) expect(decryptSecret([key], `agent_settings/settings-agent/${names[i]}/secret`, secret)).toBe(AGENT_SECRET);

    const exports = [];
    for (let i = 0; i < 2; i++) {
      const exported = (await server.operator.exportConfiguration({ input: { includeSecrets: true, password: 'nonce check password' } })).exportConfiguration;
      if (exported.__typename !== 'ExportConfigurationSuccess') throw new Error(JSON.stringify(exported));
      exports.push((exported.document as { secrets: { iv: string; salt: string; ciphertext: string } }).secrets);
    }
    expect(exports[0].iv).not.toBe(exports[1].iv);
    expect(exports[0].salt).not.toBe(exports[1].salt);
    expect(exports[0].ciphertext).not.toBe(exports[1].ciphertext);
    for (const name of names) await server.operator.deleteAgentSetting({ agentId: 'settings-agent', name });
  });

  it('is for operators only: an agent token is FORBIDDEN, even for its own agent', async () => {
    expect(await codeOf(agent.settingsStatus())).toBe('FORBIDDEN');
    expect(await codeOf(agent.modelConnections())).toBe('FORBIDDEN');
    expect(await codeOf(agent.mcpConnections())).toBe('FORBIDDEN');
    expect(await codeOf(agent.agentSettings({ agentId: 'settings-agent' }))).toBe('FORBIDDEN');
    expect(await codeOf(agent.setAgentSetting({ input: { agentId: 'settings-agent', name: 'x', value: 1 } }))).toBe('FORBIDDEN');
    expect(await codeOf(agent.setModelConnection({ input: { purpose: 'TIDDLE_PROPOSER', url: 'http://x/v1', model: 'm' } }))).toBe('FORBIDDEN');
    expect(await codeOf(agent.deleteMcpConnection({ name: 'files' }))).toBe('FORBIDDEN');
    expect(await codeOf(agent.exportConfiguration({}))).toBe('FORBIDDEN');
    expect((await server.operator.mcpConnections()).mcpConnections).toHaveLength(1);
    expect(await server.operator.settingsStatus()).toEqual({ settingsStatus: { keyConfigured: true, keyId: key.id } });
  });

  it('node(id) reads each setting back for operators by its key, FORBIDDEN for an agent token; null when missing, BAD_REQUEST when malformed', async () => {
    const globalId = (type: string, key: string) => Buffer.from(`${type}:${key}`).toString('base64');
    const [model] = (await server.operator.modelConnections()).modelConnections;
    const [mcp] = (await server.operator.mcpConnections()).mcpConnections;
    const [setting] = (await server.operator.agentSettings({ agentId: 'settings-agent' })).agentSettings;
    // The keys: purpose, name, and agent plus name; they stay fields of their own.
    expect([model.id, mcp.id, setting.id]).toEqual([
      globalId('ModelConnectionSetting', 'BRAIN_EMBEDDINGS'),
      globalId('McpConnectionSetting', 'files'),
      globalId('AgentSetting', 'settings-agent/search.api'),
    ]);
    expect((await server.operator.settingsNode({ id: model.id })).node).toEqual({ __typename: 'ModelConnectionSetting', ...model });
    expect((await server.operator.settingsNode({ id: mcp.id })).node).toEqual({ __typename: 'McpConnectionSetting', ...mcp });
    expect((await server.operator.settingsNode({ id: setting.id })).node).toEqual({ __typename: 'AgentSetting', ...setting });
    expect(JSON.stringify([model, mcp, setting])).not.toMatch(new RegExp(`${API_KEY}|${MCP_TOKEN}|${AGENT_SECRET}`));

    // Operators only, like every settings field: the agent's own setting included.
    for (const id of [model.id, mcp.id, setting.id]) expect(await codeOf(agent.settingsNode({ id }))).toBe('FORBIDDEN');

    for (const id of [
      globalId('ModelConnectionSetting', 'TIDDLE_PROPOSER'),
      globalId('McpConnectionSetting', 'nothing'),
      globalId('AgentSetting', 'settings-agent/nothing'),
      globalId('AgentSetting', 'nobody/search.api'),
    ]) {
      expect((await server.operator.settingsNode({ id })).node, id).toBeNull();
    }
    for (const id of [globalId('AgentSetting', 'search.api'), 'garbage']) expect(await codeOf(server.operator.settingsNode({ id })), id).toBe('BAD_REQUEST');
  });

  it('a stored model connection is what a starting server uses, unless its env variable is set', async () => {
    const logger = createLogger('silent');
    const config = server.app.services.config;
    const stored = await withStoredModelConnections(config, server.database.db, logger);
    expect(stored.sources).toEqual({ BRAIN_EMBEDDINGS: 'stored', TIDDLE_PROPOSER: 'off' });
    expect(stored.config.embeddings).toEqual({ url: 'http://127.0.0.1:9/v1', model: 'embed-small', apiKey: API_KEY, timeoutMs: 5000, indexIntervalMs: 5000 });
    const env = { url: 'http://env/v1', model: 'env-model', apiKey: null, timeoutMs: 100, indexIntervalMs: 0 };
    const overridden = await withStoredModelConnections({ ...config, embeddings: env }, server.database.db, logger);
    expect(overridden.sources.BRAIN_EMBEDDINGS).toBe('env');
    expect(overridden.config.embeddings).toEqual(env);
    // Another key cannot open the stored API key: the connection stays off rather than half-configured.
    const otherKey = await withStoredModelConnections({ ...config, settings: { key: newKey(), newKey: null } }, server.database.db, logger);
    expect(otherKey.sources.BRAIN_EMBEDDINGS).toBe('off');
    expect(otherKey.config.embeddings).toBeNull();
  });
});

describe('settings without a key', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startServer();
    await server.agentClient('keyless-agent');
  });
  afterAll(async () => server?.stop());

  it('refuses a secret with SettingsKeyRequired and changes nothing; everything else works', async () => {
    expect(await server.operator.settingsStatus()).toEqual({ settingsStatus: { keyConfigured: false, keyId: null } });
    const refused = await server.operator.setModelConnection({ input: { purpose: 'TIDDLE_PROPOSER', url: 'http://127.0.0.1:9/v1', model: 'm', apiKey: API_KEY } });
    expect(refused.setModelConnection).toMatchObject({ __typename: 'SettingsKeyRequired', code: 'SETTINGS_KEY_REQUIRED', field: 'apiKey' });
    expect(refused.setModelConnection.__typename === 'SettingsKeyRequired' && refused.setModelConnection.message).toMatch(/BURROW_SETTINGS_KEY/);
    expect(JSON.stringify(refused)).not.toContain(API_KEY);
    expect((await server.operator.modelConnections()).modelConnections).toEqual([]);
    const token = await server.operator.setMcpConnection({ input: { name: 'files', url: 'https://mcp.example/mcp', token: MCP_TOKEN } });
    expect(token.setMcpConnection).toMatchObject({ __typename: 'SettingsKeyRequired', field: 'token' });
    const secret = await server.operator.setAgentSetting({ input: { agentId: 'keyless-agent', name: 'x', value: 1, secret: AGENT_SECRET } });
    expect(secret.setAgentSetting).toMatchObject({ __typename: 'SettingsKeyRequired', field: 'secret' });
    expect((await server.operator.agentSettings({ agentId: 'keyless-agent' })).agentSettings).toEqual([]);

    const plain = await server.operator.setModelConnection({ input: { purpose: 'TIDDLE_PROPOSER', url: 'http://127.0.0.1:9/v1', model: 'm' } });
    expect(plain.setModelConnection).toMatchObject({ connection: { hasSecret: false, revision: 1 } });
    const value = await server.operator.setAgentSetting({ input: { agentId: 'keyless-agent', name: 'x', value: [1, 2] } });
    expect(value.setAgentSetting).toMatchObject({ setting: { value: [1, 2], hasSecret: false } });
    const exported = await server.operator.exportConfiguration({});
    expect(exported.exportConfiguration.__typename).toBe('ExportConfigurationSuccess');
  });
});
