/**
 * Portable configuration export and import between two databases, through the real servers and
 * the generated client: secrets left out by default, a password-encrypted envelope on request,
 * the whole file checked before anything is written, and a repeated import changing nothing.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openEnvelope, type SecretEnvelope } from '../src/domains/settings/settings.crypto.js';
import { startServer, type TestServer } from './support/harness.js';
import { newKey } from './support/settings.js';

const API_KEY = 'sk-transfer-api-key-0c1d';
const MCP_TOKEN = 'transfer-mcp-token-77e0';
const AGENT_SECRET = 'transfer-agent-secret-a9b8';
const PASSWORD = 'correct horse battery';

type Doc = Record<string, unknown> & { secrets: SecretEnvelope | null; exportedAt: string };

let source: TestServer;
let target: TestServer;

beforeAll(async () => {
  source = await startServer({ config: { settings: { key: newKey(), newKey: null } } });
  // Another installation with its own key: exported secrets travel under the password, not a key.
  target = await startServer({ config: { settings: { key: newKey(), newKey: null } } });
  for (const id of ['alpha', 'beta']) await source.agentClient(id);
  const alphaSoul = (await source.operator.profileDocument({ agentId: 'alpha', kind: 'SOUL' })).profileDocument!;
  await source.operator.updateProfileDocument({ input: { agentId: 'alpha', kind: 'SOUL', content: '# Alpha\nCareful and brief.', expectedRevision: alphaSoul.revision } });
  await source.operator.updateProfileDocument({ input: { agentId: 'beta', kind: 'DREAM_MEMORY', content: 'compact dream memory', expectedRevision: 1 } });
  await source.operator.setModelConnection({ input: { purpose: 'BRAIN_EMBEDDINGS', url: 'http://127.0.0.1:9/v1', model: 'embed', apiKey: API_KEY } });
  await source.operator.setModelConnection({ input: { purpose: 'TIDDLE_PROPOSER', url: 'http://127.0.0.1:9/v1', model: 'chat', timeoutMs: 20_000 } });
  await source.operator.setMcpConnection({ input: { name: 'files', url: 'https://mcp.example/mcp', transport: 'SSE', enabled: false, description: 'files', token: MCP_TOKEN } });
  await source.operator.setAgentSetting({ input: { agentId: 'alpha', name: 'search', value: { depth: 2 }, secret: AGENT_SECRET } });
  await source.operator.setAgentSetting({ input: { agentId: 'beta', name: 'style', value: 'terse' } });
  await source.operator.appendDreamDiaryEntry({ input: { agentId: 'alpha', body: 'not part of a configuration export' } });
});

afterAll(async () => {
  await source?.stop();
  await target?.stop();
});

async function exported(server: TestServer, input: Parameters<TestServer['operator']['exportConfiguration']>[0] = {}): Promise<Doc> {
  const result = (await server.operator.exportConfiguration(input)).exportConfiguration;
  if (result.__typename !== 'ExportConfigurationSuccess') throw new Error(JSON.stringify(result));
  return result.document as Doc;
}
const importInto = async (server: TestServer, document: unknown, password?: string) =>
  (await server.operator.importConfiguration({ input: { document, password } })).importConfiguration;
const withoutTime = ({ exportedAt: _, ...rest }: Doc) => rest;

/** Everything an import may write, to prove a refused import wrote nothing. */
async function state(server: TestServer) {
  const agents = (await server.operator.agents({ first: 100 })).agents.edges.map((e) => e.node.agentId);
  return {
    agents,
    models: (await server.operator.modelConnections()).modelConnections,
    mcp: (await server.operator.mcpConnections()).mcpConnections,
    settings: await Promise.all(agents.map(async (id) => (await server.operator.agentSettings({ agentId: id })).agentSettings)),
  };
}

describe('export', () => {
  it('covers the four categories, lists ui-auth and task-board as not applicable, and leaves secrets out by default', async () => {
    const document = await exported(source);
    expect(document).toMatchObject({
      format: 'burrow-configuration',
      version: 1,
      categories: ['agents', 'settings', 'model-connections', 'mcp-connections'],
      notApplicable: { 'ui-auth': expect.any(String), 'task-board': expect.any(String) },
      secrets: null,
    });
    expect(document.agents).toEqual([
      { id: 'alpha', name: 'alpha', profile: expect.objectContaining({ SOUL: '# Alpha\nCareful and brief.', DREAM_MEMORY: '' }) },
      { id: 'beta', name: 'beta', profile: expect.objectContaining({ DREAM_MEMORY: 'compact dream memory', SOUL: '' }) },
    ]);
    expect(Object.keys((document.agents as { profile: object }[])[0].profile).sort()).toEqual(['DREAM_MEMORY', 'ORIENTATION', 'PREFERENCES', 'RULES', 'SOUL', 'TOOLS']);
    expect(document['model-connections']).toEqual([
      { purpose: 'BRAIN_EMBEDDINGS', url: 'http://127.0.0.1:9/v1', model: 'embed', timeoutMs: 5000, hasSecret: true },
      { purpose: 'TIDDLE_PROPOSER', url: 'http://127.0.0.1:9/v1', model: 'chat', timeoutMs: 20_000, hasSecret: false },
    ]);
    expect(document['mcp-connections']).toEqual([{ name: 'files', url: 'https://mcp.example/mcp', transport: 'SSE', enabled: false, description: 'files', hasSecret: true }]);
    expect(document.settings).toEqual([
      { agentId: 'alpha', name: 'search', value: { depth: 2 }, hasSecret: true },
      { agentId: 'beta', name: 'style', value: 'terse', hasSecret: false },
    ]);
    const text = JSON.stringify(document);
    for (const secret of [API_KEY, MCP_TOKEN, AGENT_SECRET]) expect(text).not.toContain(secret);
    // Not a backup: the Dream diary (like conversations and Brains) is outside it.
    expect(text).not.toContain('not part of a configuration export');
  });

  it('exports chosen categories only', async () => {
    const document = await exported(source, { input: { categories: ['MCP_CONNECTIONS'] } });
    expect(document.categories).toEqual(['mcp-connections']);
    expect(Object.keys(document).filter((k) => ['agents', 'settings', 'model-connections', 'mcp-connections'].includes(k))).toEqual(['mcp-connections']);
  });

  it('puts secrets in a separate envelope only with a password of at least 12 characters', async () => {
    const missing = (await source.operator.exportConfiguration({ input: { includeSecrets: true } })).exportConfiguration;
    expect(missing).toMatchObject({ __typename: 'ValidationFailed', field: 'password' });
    const short = (await source.operator.exportConfiguration({ input: { includeSecrets: true, password: 'x'.repeat(11) } })).exportConfiguration;
    expect(short).toMatchObject({ __typename: 'ValidationFailed', field: 'password', limit: 12 });
    const document = await exported(source, { input: { includeSecrets: true, password: 'x'.repeat(12) } });
    const text = JSON.stringify(document);
    for (const secret of [API_KEY, MCP_TOKEN, AGENT_SECRET]) expect(text).not.toContain(secret);
    expect(document.secrets).toMatchObject({ kdf: 'scrypt', cipher: 'aes-256-gcm', N: 32768, r: 8, p: 1 });
    expect(openEnvelope('x'.repeat(12), document.secrets!)).toEqual({
      'model-connections/BRAIN_EMBEDDINGS': API_KEY,
      'mcp-connections/files': MCP_TOKEN,
      'settings/alpha/search': AGENT_SECRET,
    });
    expect(openEnvelope('x'.repeat(13), document.secrets!)).toBeNull();
  });
});

describe('import', () => {
  it('checks the whole file before writing anything: one bad record at the end refuses it all', async () => {
    const before = await state(target);
    expect(before.agents).toEqual([]);
    const good = await exported(source);
    const cases: [string, (d: Record<string, unknown>) => void, string][] = [
      ['bad MCP url in the last record', (d) => ((d['mcp-connections'] as { url: string }[])[0].url = 'ftp://x'), 'document.mcp-connections[0].url'],
      ['profile over 48,000 characters', (d) => ((d.agents as { profile: Record<string, string> }[])[1].profile.SOUL = 's'.repeat(48_001)), 'document.agents[1].profile.SOUL'],
      ['unknown profile kind', (d) => ((d.agents as { profile: Record<string, string> }[])[0].profile.DIARY = 'x'), 'document.agents[0].profile'],
      ['a setting of an agent neither in the file nor the database', (d) => ((d.settings as { agentId: string }[])[1].agentId = 'gamma'), 'document.settings'],
      ['a duplicate agent', (d) => (d.agents as unknown[]).push((d.agents as unknown[])[0]), 'document.agents'],
      ['a category listed but missing', (d) => delete d.settings, 'document.settings'],
      ['another format', (d) => (d.format = 'something-else'), 'document.format'],
    ];
    for (const [name, spoil, field] of cases) {
      const document = structuredClone(good) as Record<string, unknown>;
      spoil(document);
      const result = await importInto(target, document);
      expect(result, name).toMatchObject({ __typename: 'ValidationFailed', field });
      expect(result.__typename === 'ValidationFailed' && result.message, name).toMatch(/nothing was imported/);
    }
    expect(await importInto(target, '{not json')).toMatchObject({ __typename: 'ValidationFailed', field: 'document' });
    expect(await state(target)).toEqual(before);
  });

  it('refuses an envelope without its password or with a wrong one, and a password without an envelope', async () => {
    const before = await state(target);
    const withSecrets = await exported(source, { input: { includeSecrets: true, password: PASSWORD } });
    expect(await importInto(target, withSecrets)).toMatchObject({ __typename: 'ValidationFailed', field: 'password' });
    expect(await importInto(target, withSecrets, 'wrong password!')).toMatchObject({ __typename: 'ValidationFailed', field: 'password' });
    const tampered = structuredClone(withSecrets);
    tampered.secrets!.ciphertext = tampered.secrets!.ciphertext.replace(/^./, (c) => (c === 'A' ? 'B' : 'A'));
    expect(await importInto(target, tampered, PASSWORD)).toMatchObject({ __typename: 'ValidationFailed', field: 'password' });
    expect(await importInto(target, await exported(source), PASSWORD)).toMatchObject({ __typename: 'ValidationFailed', field: 'password' });
    expect(await state(target)).toEqual(before);
  });

  it('round-trips into another database, secrets included, and a repeated import changes nothing', async () => {
    const withSecrets = await exported(source, { input: { includeSecrets: true, password: PASSWORD } });
    const first = await importInto(target, withSecrets, PASSWORD);
    expect(first).toEqual({
      __typename: 'ImportConfigurationSuccess',
      counts: [
        { category: 'AGENTS', created: 2, updated: 0, unchanged: 0 },
        { category: 'SETTINGS', created: 2, updated: 0, unchanged: 0 },
        { category: 'MODEL_CONNECTIONS', created: 2, updated: 0, unchanged: 0 },
        { category: 'MCP_CONNECTIONS', created: 1, updated: 0, unchanged: 0 },
      ],
    });
    expect(withoutTime(await exported(target))).toEqual(withoutTime(await exported(source)));
    // The secrets arrived, re-encrypted under the target's own key.
    const again = await exported(target, { input: { includeSecrets: true, password: PASSWORD } });
    expect(openEnvelope(PASSWORD, again.secrets!)).toEqual(openEnvelope(PASSWORD, withSecrets.secrets!));
    const [row] = (await target.database.pool.query('SELECT api_key_secret FROM model_connections WHERE api_key_secret IS NOT NULL')).rows;
    expect(row.api_key_secret.split('.')[1]).toBe(target.app.services.config.settings.key!.id);

    const before = await state(target);
    const soul = (await target.operator.profileDocument({ agentId: 'alpha', kind: 'SOUL' })).profileDocument!;
    const second = await importInto(target, withSecrets, PASSWORD);
    expect(second).toEqual({
      __typename: 'ImportConfigurationSuccess',
      counts: [
        { category: 'AGENTS', created: 0, updated: 0, unchanged: 2 },
        { category: 'SETTINGS', created: 0, updated: 0, unchanged: 2 },
        { category: 'MODEL_CONNECTIONS', created: 0, updated: 0, unchanged: 2 },
        { category: 'MCP_CONNECTIONS', created: 0, updated: 0, unchanged: 1 },
      ],
    });
    expect(await state(target)).toEqual(before);
    expect((await target.operator.profileDocument({ agentId: 'alpha', kind: 'SOUL' })).profileDocument).toEqual(soul);
    // The same file without secrets also changes nothing: a missing secret never removes a stored one.
    expect(await importInto(target, await exported(source))).toMatchObject({
      counts: expect.arrayContaining([{ category: 'MCP_CONNECTIONS', created: 0, updated: 0, unchanged: 1 }]),
    });
    expect(await state(target)).toEqual(before);
  });

  it('updates what differs, as a new revision', async () => {
    const document = await exported(target);
    (document.agents as { profile: Record<string, string> }[])[0].profile.RULES = 'Cite originals.';
    (document.settings as { value: unknown }[])[1].value = 'verbose';
    const result = await importInto(target, document);
    expect(result).toMatchObject({
      counts: [
        { category: 'AGENTS', created: 0, updated: 1, unchanged: 1 },
        { category: 'SETTINGS', created: 0, updated: 1, unchanged: 1 },
        { category: 'MODEL_CONNECTIONS', created: 0, updated: 0, unchanged: 2 },
        { category: 'MCP_CONNECTIONS', created: 0, updated: 0, unchanged: 1 },
      ],
    });
    expect((await target.operator.profileDocument({ agentId: 'alpha', kind: 'RULES' })).profileDocument).toMatchObject({ content: 'Cite originals.', revision: 2 });
    expect((await target.operator.agentSettings({ agentId: 'beta' })).agentSettings[0]).toMatchObject({ value: 'verbose', revision: 2 });
  });

  it('refuses secrets into an installation without a settings key, writing nothing', async () => {
    const keyless = await startServer();
    try {
      const result = await importInto(keyless, await exported(source, { input: { includeSecrets: true, password: PASSWORD } }), PASSWORD);
      expect(result).toMatchObject({ __typename: 'SettingsKeyRequired', code: 'SETTINGS_KEY_REQUIRED' });
      expect((await keyless.operator.agents({ first: 10 })).agents.edges).toEqual([]);
      // Without secrets it imports, and the records that had one say so no longer.
      expect((await importInto(keyless, await exported(source))).__typename).toBe('ImportConfigurationSuccess');
      expect((await keyless.operator.mcpConnections()).mcpConnections[0]).toMatchObject({ name: 'files', hasSecret: false });
    } finally {
      await keyless.stop();
    }
  });
});
