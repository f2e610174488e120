/**
 * Errors never carry a secret (docs/operations-data.md). Every input that holds a secret or a
 * password is sent as a variable with the secret and one bad sibling (an unknown field, a value of
 * the wrong type, a missing required field, an enum value that does not exist) over HTTP (the
 * direct JSON path and Yoga's), SSE and graphql-ws; the whole answer is searched for the secret.
 * MCP's tools take no secret-bearing argument (checked here, so a new one cannot slip by), and
 * a tool called with a secret among bad arguments does not repeat it either.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildSchema, isInputObjectType, isScalarType, getNamedType } from 'graphql';
import { readFileSync } from 'node:fs';
import { startServer, type TestServer } from './support/harness.js';
import { newKey } from './support/settings.js';
import { bearer, RawSocket } from './support/wire.js';
import { call, connectHttp } from './support/mcp.js';

const SECRET_NAMES = /secret|password|apikey|token/i;
const SECRET = 'agent-SECRET-5b1f0c9e-do-not-echo';

/** Each secret-bearing input: the mutation, a valid input without the secret, and bad siblings. */
const CASES: { input: string; field: string; mutation: string; valid: Record<string, unknown>; bad: Record<string, Record<string, unknown>> }[] = [
  {
    input: 'SetAgentSettingInput',
    field: 'secret',
    mutation: 'mutation M($i: SetAgentSettingInput!) { setAgentSetting(input: $i) { __typename } }',
    valid: { agentId: 'sec-agent', name: 'github' },
    bad: { unknown: { bogus: 1 }, wrongType: { expectedRevision: 'x' }, missing: { name: undefined } },
  },
  {
    input: 'SetModelConnectionInput',
    field: 'apiKey',
    mutation: 'mutation M($i: SetModelConnectionInput!) { setModelConnection(input: $i) { __typename } }',
    valid: { purpose: 'BRAIN_EMBEDDINGS', url: 'https://models.example.com/v1', model: 'embed-1' },
    bad: { unknown: { bogus: 1 }, enum: { purpose: 'NO_SUCH_PURPOSE' }, wrongType: { timeoutMs: 'soon' }, missing: { url: undefined } },
  },
  {
    input: 'SetMcpConnectionInput',
    field: 'token',
    mutation: 'mutation M($i: SetMcpConnectionInput!) { setMcpConnection(input: $i) { __typename } }',
    valid: { name: 'tools', url: 'https://mcp.example.com/mcp' },
    bad: { unknown: { bogus: 1 }, enum: { transport: 'CARRIER_PIGEON' }, wrongType: { enabled: 'yes' }, missing: { name: undefined } },
  },
  {
    input: 'ExportConfigurationInput',
    field: 'password',
    mutation: 'mutation M($i: ExportConfigurationInput) { exportConfiguration(input: $i) { __typename } }',
    valid: { includeSecrets: true },
    bad: { unknown: { bogus: 1 }, enum: { categories: ['NO_SUCH_CATEGORY'] }, wrongType: { includeSecrets: 'yes' } },
  },
  {
    input: 'ImportConfigurationInput',
    field: 'password',
    mutation: 'mutation M($i: ImportConfigurationInput!) { importConfiguration(input: $i) { __typename } }',
    valid: { document: { format: 'burrow-configuration' } },
    bad: { unknown: { bogus: 1 }, missing: { document: undefined } },
  },
];

/** The variable sets of a case: each bad sibling with the secret, and the secret itself of the wrong type. */
function variantsOf(c: (typeof CASES)[number]) {
  const variants = Object.entries(c.bad).map(([name, change]) => {
    const value: Record<string, unknown> = { ...c.valid, [c.field]: SECRET, ...change };
    for (const [key, v] of Object.entries(change)) if (v === undefined) delete value[key];
    return { name, value };
  });
  variants.push({ name: 'secret not a string', value: { ...c.valid, [c.field]: { nested: SECRET } } });
  return variants;
}

let server: TestServer;
let token: string;
beforeAll(async () => {
  server = await startServer({ config: { settings: { key: newKey(), newKey: null } } });
  await server.operator.createAgent({ input: { agentId: 'sec-agent', name: 'sec-agent' } });
  token = (await server.app.services.tokens.create({ kind: 'operator', name: 'secret-errors' })).token;
});
afterAll(async () => {
  await server?.stop();
});

describe('errors about a secret-bearing input never repeat the secret', () => {
  it('covers every input field of the schema that holds a secret or a password', () => {
    const schema = buildSchema(readFileSync(new URL('../schema.graphql', import.meta.url), 'utf8'));
    const carriers = Object.values(schema.getTypeMap())
      .filter(isInputObjectType)
      .flatMap((type) =>
        Object.values(type.getFields())
          .filter((f) => SECRET_NAMES.test(f.name) && isScalarType(getNamedType(f.type)) && getNamedType(f.type).name === 'String')
          .map((f) => `${type.name}.${f.name}`),
      );
    expect(carriers.sort()).toEqual(CASES.map((c) => `${c.input}.${c.field}`).sort());
  });

  for (const c of CASES) {
    for (const variant of variantsOf(c)) {
      it(`${c.input}.${c.field} with ${variant.name}: HTTP (direct and Yoga), SSE and graphql-ws`, async () => {
        const body = JSON.stringify({ query: c.mutation, variables: { i: variant.value } });
        const answers: string[] = [];
        for (const accept of [undefined, '*/*;q=1', 'text/event-stream']) {
          const response = await fetch(server.url, { method: 'POST', headers: { 'content-type': 'application/json', ...bearer(token), ...(accept ? { accept } : {}) }, body });
          const text = await response.text();
          answers.push(text, JSON.stringify([...response.headers]));
          expect(text).toContain('Variable \\"$i\\" got invalid value');
        }
        const socket = await RawSocket.open(server.url);
        await socket.init(token);
        const message = await socket.operation('1', { query: c.mutation, variables: { i: variant.value } });
        socket.close();
        expect(JSON.stringify(message)).toContain('got invalid value');
        answers.push(JSON.stringify(socket.messages));

        for (const answer of answers) expect(answer).not.toContain('SECRET');
        // Nothing was written: the refused calls changed nothing.
        const { rows } = await server.database.pool.query(
          'SELECT (SELECT count(*) FROM agent_settings) + (SELECT count(*) FROM model_connections) + (SELECT count(*) FROM mcp_connections) AS n',
        );
        expect(Number(rows[0].n)).toBe(0);
      });
    }
  }

  it('names the variable, the path and the reason', async () => {
    const c = CASES[1];
    const response = await fetch(server.url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...bearer(token) },
      body: JSON.stringify({ query: c.mutation, variables: { i: { ...c.valid, apiKey: SECRET, purpose: 'NO_SUCH_PURPOSE', bogus: 1 } } }),
    });
    const answer = await response.json();
    expect(answer.errors.map((e: { message: string; extensions: { code: string } }) => [e.message, e.extensions.code])).toEqual([
      ['Variable "$i" got invalid value at "i.purpose"; expected a value of type "ModelPurpose!"', 'BAD_REQUEST'],
      ['Variable "$i" got invalid value; Field "bogus" is not defined by type "SetModelConnectionInput".', 'BAD_REQUEST'],
    ]);
  });

  it('MCP: no tool takes a secret-bearing argument, and a call with a secret among bad arguments does not repeat it', async () => {
    const client = await connectHttp(server.url, (await server.app.services.tokens.create({ kind: 'agent', name: 'sec-mcp', agentId: 'sec-agent' })).token, {
      scope: 'sec-scope',
      session: 's1',
    });
    const { tools } = await client.listTools();
    expect(tools.length).toBeGreaterThan(0);
    for (const tool of tools) {
      const names = Object.keys((tool.inputSchema as { properties?: Record<string, unknown> }).properties ?? {});
      expect(
        names.filter((n) => SECRET_NAMES.test(n)),
        tool.name,
      ).toEqual([]);
      const result = await call(client, tool.name, { secret: SECRET, password: SECRET, apiKey: SECRET, bogus: 1 });
      expect(result.isError, tool.name).toBe(true);
      expect(JSON.stringify(result), tool.name).not.toContain('SECRET');
    }
    await client.close();
  });
});
