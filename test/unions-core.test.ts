/**
 * The result unions of the agents, profile, token, Dream diary and settings mutations list only
 * what their services can return: (a) each union's members equal the list written here, and
 * (b) each listed error member is produced once through the real server, so a member that cannot
 * happen fails this test.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newKey } from './support/settings.js';
import { startServer, type TestServer } from './support/harness.js';
import { errorMembers, mutationUnionMembers, unionTally } from './support/unions.js';

const MEMBERS: Record<string, string[]> = {
  createAgent: ['CreateAgentSuccess', 'ValidationFailed', 'AlreadyExists'],
  updateProfileDocument: ['UpdateProfileDocumentSuccess', 'ValidationFailed', 'NotFound', 'RevisionConflict'],
  replaceProfile: ['ReplaceProfileSuccess', 'ValidationFailed', 'NotFound', 'RevisionConflict'],
  applyPreferenceLearning: ['ApplyPreferenceLearningSuccess', 'ValidationFailed', 'NotFound', 'RevisionConflict'],
  createApiToken: ['CreateApiTokenSuccess', 'ValidationFailed', 'NotFound'],
  revokeApiToken: ['RevokeApiTokenSuccess', 'NotFound'],
  appendDreamDiaryEntry: ['AppendDreamDiaryEntrySuccess', 'ValidationFailed', 'NotFound'],
  setModelConnection: ['SetModelConnectionSuccess', 'ValidationFailed', 'NotFound', 'RevisionConflict', 'SettingsKeyRequired'],
  setMcpConnection: ['SetMcpConnectionSuccess', 'ValidationFailed', 'NotFound', 'RevisionConflict', 'SettingsKeyRequired'],
  setAgentSetting: ['SetAgentSettingSuccess', 'ValidationFailed', 'NotFound', 'RevisionConflict', 'SettingsKeyRequired'],
  exportConfiguration: ['ExportConfigurationSuccess', 'ValidationFailed', 'SecretUnreadable'],
  importConfiguration: ['ImportConfigurationSuccess', 'ValidationFailed', 'SettingsKeyRequired', 'SecretUnreadable'],
};

describe('the unions list exactly these members', () => {
  for (const [field, members] of Object.entries(MEMBERS)) {
    it(field, () => {
      expect(mutationUnionMembers(field)).toEqual([...members].sort());
    });
  }
});

let server: TestServer;
let keyless: TestServer;
const tally = unionTally();

async function produce(field: string, query: string, variables: Record<string, unknown>, on: TestServer = server) {
  const data = await on.operator.request<Record<string, { __typename: string }>>(query, variables);
  return tally.note(field, data[field].__typename);
}
const mutation = (field: string, input = 'input: $input', variables = '$input: ' + field.charAt(0).toUpperCase() + field.slice(1) + 'Input!') =>
  `mutation(${variables}) { ${field}(${input}) { __typename } }`;

beforeAll(async () => {
  server = await startServer({ config: { settings: { key: newKey(), newKey: null } } });
  keyless = await startServer();
  await server.operator.createAgent({ input: { agentId: 'unions-a', name: 'unions' } });
});
afterAll(async () => {
  await server?.stop();
  await keyless?.stop();
});

describe('every listed error member happens', () => {
  it('agents and profiles', async () => {
    const create = mutation('createAgent');
    expect(await produce('createAgent', create, { input: { agentId: 'Not Valid!', name: 'x' } })).toBe('ValidationFailed');
    expect(await produce('createAgent', create, { input: { agentId: 'unions-a', name: 'x' } })).toBe('AlreadyExists');

    const update = mutation('updateProfileDocument');
    const doc = (agentId: string, expectedRevision: number) => ({ input: { agentId, kind: 'SOUL', content: 'x', expectedRevision } });
    expect(await produce('updateProfileDocument', update, doc('unions-a', 0))).toBe('ValidationFailed');
    expect(await produce('updateProfileDocument', update, doc('unions-nobody', 1))).toBe('NotFound');
    expect(await produce('updateProfileDocument', update, doc('unions-a', 7))).toBe('RevisionConflict');

    const replace = mutation('replaceProfile');
    const kinds = ['SOUL', 'RULES', 'ORIENTATION', 'PREFERENCES', 'TOOLS', 'DREAM_MEMORY'];
    const all = (agentId: string, expectedRevision?: number) => ({ input: { agentId, documents: kinds.map((kind) => ({ kind, content: 'x', expectedRevision })) } });
    expect(await produce('replaceProfile', replace, { input: { agentId: 'unions-a', documents: [] } })).toBe('ValidationFailed');
    expect(await produce('replaceProfile', replace, all('unions-nobody'))).toBe('NotFound');
    expect(await produce('replaceProfile', replace, all('unions-a', 9))).toBe('RevisionConflict');

    const apply = mutation('applyPreferenceLearning');
    const learn = (agentId: string, expectedRevision: number, reason = 'r') => ({ input: { agentId, content: 'x', expectedRevision, reason } });
    expect(await produce('applyPreferenceLearning', apply, learn('unions-a', 1, ''))).toBe('ValidationFailed');
    expect(await produce('applyPreferenceLearning', apply, learn('unions-nobody', 1))).toBe('NotFound');
    expect(await produce('applyPreferenceLearning', apply, learn('unions-a', 9))).toBe('RevisionConflict');
  });

  it('tokens and the Dream diary', async () => {
    const create = mutation('createApiToken');
    expect(await produce('createApiToken', create, { input: { kind: 'AGENT', name: 'x' } })).toBe('ValidationFailed');
    expect(await produce('createApiToken', create, { input: { kind: 'AGENT', agentId: 'unions-nobody', name: 'x' } })).toBe('NotFound');
    expect(await produce('revokeApiToken', mutation('revokeApiToken', 'tokenId: $tokenId', '$tokenId: String!'), { tokenId: 'unions-none' })).toBe('NotFound');
    const append = mutation('appendDreamDiaryEntry');
    expect(await produce('appendDreamDiaryEntry', append, { input: { agentId: 'unions-a', body: ' ' } })).toBe('ValidationFailed');
    expect(await produce('appendDreamDiaryEntry', append, { input: { agentId: 'unions-nobody', body: 'x' } })).toBe('NotFound');
  });

  it('settings', async () => {
    const cases: [string, Record<string, unknown>, Record<string, unknown>, string][] = [
      ['setModelConnection', { purpose: 'BRAIN_EMBEDDINGS', url: 'http://127.0.0.1:9/v1', model: 'm' }, { url: 'ftp://x' }, 'apiKey'],
      ['setMcpConnection', { name: 'unions-mcp', url: 'http://127.0.0.1:9/mcp' }, { url: 'ftp://x' }, 'token'],
      ['setAgentSetting', { agentId: 'unions-a', name: 'unions-setting', value: 1 }, { name: 'Bad Name' }, 'secret'],
    ];
    for (const [field, input, invalid, secretField] of cases) {
      const query = mutation(field);
      expect(await produce(field, query, { input: { ...input, ...invalid } })).toBe('ValidationFailed');
      expect(await produce(field, query, { input: { ...input, expectedRevision: 1 } })).toBe('NotFound');
      expect(await produce(field, query, { input })).toBe(`${field.charAt(0).toUpperCase()}${field.slice(1)}Success`);
      expect(await produce(field, query, { input: { ...input, expectedRevision: 5 } })).toBe('RevisionConflict');
      expect(await produce(field, query, { input: { ...input, [secretField]: 'a secret' } }, keyless)).toBe('SettingsKeyRequired');
    }

    const exporting = mutation('exportConfiguration', 'input: $input', '$input: ExportConfigurationInput');
    const importing = mutation('importConfiguration');
    expect(await produce('exportConfiguration', exporting, { input: { includeSecrets: true } })).toBe('ValidationFailed');
    expect(await produce('importConfiguration', importing, { input: { document: 'not json' } })).toBe('ValidationFailed');
    // A file with a secret, for a server without a key.
    ok(await server.operator.setModelConnection({ input: { purpose: 'BRAIN_EMBEDDINGS', url: 'http://127.0.0.1:9/v1', model: 'm', apiKey: 'sk-unions' } }));
    const password = 'unions password';
    const exported = await server.operator.request<{ exportConfiguration: { document: unknown } }>(
      'mutation($input: ExportConfigurationInput) { exportConfiguration(input: $input) { ... on ExportConfigurationSuccess { document } } }',
      { input: { includeSecrets: true, password, categories: ['MODEL_CONNECTIONS'] } },
    );
    const document = exported.exportConfiguration.document;
    expect(await produce('importConfiguration', importing, { input: { document, password } }, keyless)).toBe('SettingsKeyRequired');
    // A stored secret sealed under another key cannot be opened: export and import both say so.
    await server.database.pool.query(
      `UPDATE model_connections SET api_key_secret = 'v1.0000000000000000.AAAAAAAAAAAAAAAA.AAAAAAAAAAAAAAAAAAAAAA.AAAA' WHERE purpose = 'BRAIN_EMBEDDINGS'`,
    );
    expect(await produce('exportConfiguration', exporting, { input: { includeSecrets: true, password } })).toBe('SecretUnreadable');
    expect(await produce('importConfiguration', importing, { input: { document, password } })).toBe('SecretUnreadable');
  });

  it('produced every error member listed', () => {
    for (const [field, members] of Object.entries(MEMBERS)) {
      expect({ field, produced: tally.errorsProduced(field) }).toEqual({ field, produced: errorMembers(members) });
    }
  });
});

function ok(result: { setModelConnection: { __typename: string } }) {
  if (result.setModelConnection.__typename !== 'SetModelConnectionSuccess') throw new Error(JSON.stringify(result));
}
