/**
 * The MCP tools of the shipped build, over both transports, as a runtime uses them: Streamable
 * HTTP at /mcp of the running server, and stdio through the built CLI (`npm --silent run burrow --
 * mcp --stdio`, test/support/mcp.ts). Both list the same ten tools; a write is read back by the
 * other transport and by GraphQL. Embedded, a data directory belongs to one process, so the stdio
 * session runs while the server is stopped, on its data; on the real server both share a database.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { createTestDatabase, type TestDatabase } from '../support/harness.js';
import { call, connectHttp, connectStdio, ok, TOOL_NAMES, toolFailure } from '../support/mcp.js';
import { DEFAULT_LIFECYCLE, postGraphQL, startShipped, type ShippedServer } from '../support/shipped.js';

const AGENT = 'mcp-e2e';
const RUNTIME = { scope: 'proj-e2e', session: 'sess-e2e', conversation: 'conv-e2e' };

/** Where the server's data lives, kept across its two starts. */
let dataDir: string | null = null;
let database: TestDatabase | null = null;
let server: ShippedServer;
let agentToken: string;
let httpTools: unknown;

const start = (operatorToken?: string) => startShipped({ ...(database ? { database } : { dataDir: dataDir! }), operatorToken });

beforeAll(async () => {
  if (DEFAULT_LIFECYCLE === 'external') database = await createTestDatabase();
  else dataDir = mkdtempSync(join(tmpdir(), 'bw-'));
  server = await start();
  const created = await postGraphQL(server, server.operatorToken, { query: `mutation { createAgent(input: { agentId: "${AGENT}", name: "${AGENT}" }) { __typename } }` });
  expect(created.body).toEqual({ data: { createAgent: { __typename: 'CreateAgentSuccess' } } });
  const token = await postGraphQL(server, server.operatorToken, {
    query: `mutation { createApiToken(input: { kind: AGENT, agentId: "${AGENT}", name: "mcp-runtime" }) { __typename ... on CreateApiTokenSuccess { secret } } }`,
  });
  agentToken = token.body.data.createApiToken.secret;
});
afterAll(async () => {
  const { code } = await server.stop();
  expect(code).toBe(0);
  await database?.drop();
  if (dataDir) rmSync(dataDir, { recursive: true, force: true });
});

/** The agent's working records in the runtime scope, through GraphQL. */
async function workingTitles(): Promise<string[]> {
  const answer = await postGraphQL(server, agentToken, { query: '{ memoryWorkingSearch(first: 10) { title } }' }, { 'burrow-continuity-scope': RUNTIME.scope });
  expect(answer.body.errors).toBeUndefined();
  return answer.body.data.memoryWorkingSearch.map((r: { title: string }) => r.title).sort();
}

describe('MCP on the shipped build', () => {
  it('over Streamable HTTP (/mcp): lists the ten tools, writes a working record and reads it back; GraphQL sees it', async () => {
    const client: Client = await connectHttp(server.url, agentToken, RUNTIME);
    try {
      const { tools } = await client.listTools();
      httpTools = tools;
      expect(tools.map((tool) => tool.name).sort()).toEqual(TOOL_NAMES);

      const record = ok(await call(client, 'memory_working_write', { kind: 'FINDING', title: 'over http', content: 'written through /mcp' })).record;
      expect(record).toMatchObject({ agentId: AGENT, project: RUNTIME.scope, sessionId: RUNTIME.session, conversationId: RUNTIME.conversation, kind: 'FINDING', revision: 1 });
      const found = ok(await call(client, 'memory_working_search', { query: 'through' })).records;
      expect(found.map((r: { recordId: string; title: string }) => [r.recordId, r.title])).toEqual([[record.recordId, 'over http']]);
      // A refused write changes nothing.
      expect(
        toolFailure(await call(client, 'memory_working_write', { recordId: record.recordId, expectedRevision: 2, kind: 'FINDING', title: 'stale', content: 'x' })),
      ).toMatchObject({
        code: 'REVISION_CONFLICT',
        currentRevision: 1,
      });
      expect(await workingTitles()).toEqual(['over http']);
    } finally {
      await client.close();
    }
  });

  it('over stdio (npm run burrow -- mcp --stdio): the same tools; reads what HTTP wrote, writes what the server then serves', async () => {
    // Embedded: the server holds its data directory, so the runtime's process runs while it is stopped.
    if (server.lifecycle === 'embedded') expect((await server.stop()).code).toBe(0);
    const identity = {
      ...(database
        ? { BURROW_POSTGRES_LIFECYCLE: 'external', BURROW_POSTGRES_URL: database.url!, BURROW_POSTGRES_REQUIRED_MAJOR: server.env.BURROW_POSTGRES_REQUIRED_MAJOR }
        : { BURROW_DATA_DIR: dataDir! }),
      BURROW_TOKEN: agentToken,
      BURROW_CONTINUITY_SCOPE: RUNTIME.scope,
      BURROW_SESSION: RUNTIME.session,
      BURROW_CONVERSATION: RUNTIME.conversation,
    };
    const client = await connectStdio(identity);
    let saved: { id: string; memoryId: string };
    try {
      const { tools } = await client.listTools();
      expect(tools).toEqual(httpTools);
      expect(ok(await call(client, 'memory_working_search', { query: 'through' })).records.map((r: { title: string }) => r.title)).toEqual(['over http']);
      saved = ok(await call(client, 'brain_save', { title: 'over stdio', content: 'saved by the stdio process' })).memory;
      expect(saved).toMatchObject({ title: 'over stdio', revision: 1 });
      expect(ok(await call(client, 'brain_read', { memoryId: saved.memoryId })).memory).toMatchObject({
        id: saved.id,
        memoryId: saved.memoryId,
        content: 'saved by the stdio process',
        revision: 1,
      });
      expect(ok(await call(client, 'memory_working_write', { kind: 'BLOCKER', title: 'over stdio', content: 'written through stdio' })).record).toMatchObject({
        project: RUNTIME.scope,
        sessionId: RUNTIME.session,
      });
    } finally {
      await client.close();
    }

    if (server.lifecycle === 'embedded') server = await start(server.operatorToken);
    expect(await workingTitles()).toEqual(['over http', 'over stdio']);
    const http = await connectHttp(server.url, agentToken, RUNTIME);
    try {
      const hits = ok(await call(http, 'brain_search', { query: 'stdio' })).hits;
      expect(hits.map((h: { memory: { id: string; title: string } }) => [h.memory.id, h.memory.title])).toEqual([[saved.id, 'over stdio']]);
    } finally {
      await http.close();
    }
  });
});
