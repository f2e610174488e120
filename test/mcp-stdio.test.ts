/**
 * `npm --silent run burrow -- mcp --stdio` (the built CLI) as a runtime on the same machine starts it: a child process driven by the
 * official MCP client SDK, identity from BURROW_TOKEN / BURROW_CONTINUITY_SCOPE / BURROW_SESSION /
 * BURROW_CONVERSATION. Embedded, the child gets a data directory this test created and seeded
 * (a data directory belongs to one process); on the real server it shares a test server's
 * database, so what it writes is checked through GraphQL too.
 */
import { existsSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { openDatabase } from '../src/db/database.open.js';
import { migrate } from '../src/db/migrator.js';
import { systemClock } from '../src/lib/clock.js';
import { createLogger } from '../src/lib/logger.js';
import { noFaults } from '../src/lib/faults.js';
import { createServices, type Services } from '../src/services.js';
import { toolList } from '../src/mcp/server.js';
import { hasRealServer, NEEDS_REAL_SERVER, onRealServer, startServer, testConfig, type TestServer } from './support/harness.js';
import { call, connectStdio, ok, selectionOf, toolFailure } from './support/mcp.js';
import { runNpm, type CommandResult } from './support/shipped.js';

let server: TestServer | null = null;
/** How the child reaches the database. */
let databaseEnv: Record<string, string>;
let aToken: string;
let operatorToken: string;

async function seed(services: Services, pool: { query: (sql: string, params?: unknown[]) => Promise<unknown> }) {
  const operator = await services.tokens.create({ kind: 'operator', name: 'stdio-operator' });
  const viewer = await services.tokens.lookup(operator.token, { scope: null, sessionId: null, conversationId: null });
  for (const id of ['st-a', 'st-b']) await services.agents.createAgent(viewer, { agentId: id, name: id });
  aToken = (await services.tokens.create({ kind: 'agent', name: 'stdio-a', agentId: 'st-a' })).token;
  operatorToken = operator.token;
  await services.brains.save(viewer, { agentId: 'st-b', title: 'b only', content: 'belongs to st-b' });
  await pool.query(
    `INSERT INTO tiddle_cards (agent_id, project, card_id, title, body, card, revision, created_at, updated_at, refreshed_at)
     VALUES ('st-a', 'proj-s', 'card-s', 'stdio transport', 'runtimes on this machine', '{"evidence": []}', 1, now(), now(), now())`,
  );
}

beforeAll(async () => {
  if (onRealServer) {
    server = await startServer();
    await seed(server.app.services, server.database.pool);
    databaseEnv = { BURROW_POSTGRES_LIFECYCLE: 'external', BURROW_POSTGRES_URL: server.testDatabase.url!, BURROW_POSTGRES_REQUIRED_MAJOR: '13' };
  } else {
    const dataDir = mkdtempSync(join(tmpdir(), 'burrow-mcp-stdio-'));
    const config = testConfig({ lifecycle: 'embedded', dataDir });
    const database = await openDatabase(config.database);
    try {
      await migrate(database.pool);
      await seed(createServices({ config, database, clock: systemClock, logger: createLogger('silent'), faults: noFaults }), database.pool);
    } finally {
      await database.close();
    }
    databaseEnv = { BURROW_POSTGRES_LIFECYCLE: 'embedded', BURROW_DATA_DIR: dataDir };
  }
});
afterAll(async () => server?.stop());

const identity = (overrides: Record<string, string> = {}) => ({
  ...databaseEnv,
  BURROW_TOKEN: aToken,
  BURROW_CONTINUITY_SCOPE: 'proj-s',
  BURROW_SESSION: 'sess-s',
  BURROW_CONVERSATION: 'conv-s',
  ...overrides,
});

/** One child at a time: embedded, the data directory belongs to one process. */
async function withStdio<T>(env: Record<string, string>, body: (client: Client) => Promise<T>): Promise<T> {
  const client = await connectStdio(env);
  try {
    return await body(client);
  } finally {
    await client.close();
  }
}

/** The built CLI as users run it (`npm run burrow -- mcp --stdio`, npm silent), stdin closed at once. */
function runCli(env: Record<string, string>): Promise<CommandResult> {
  const baseEnv = Object.fromEntries(Object.entries(process.env).filter(([k, v]) => !k.startsWith('BURROW_') && k !== 'DATABASE_URL' && v !== undefined)) as Record<string, string>;
  return runNpm(['run', 'burrow', '--', 'mcp', '--stdio'], { ...baseEnv, BURROW_LOG_LEVEL: 'error', ...env });
}

describe('burrow mcp --stdio', () => {
  it('serves the same ten tools with the same schemas as /mcp, and every tool works with the runtime identity from the environment', async () => {
    const written = await withStdio(identity(), async (client) => {
      const { tools } = await client.listTools();
      expect(tools).toEqual(toolList());
      expect(tools).toHaveLength(10);

      const record = ok(await call(client, 'memory_working_write', { kind: 'BLOCKER', title: 'stdio blocker', content: 'waiting on review' })).record;
      expect(record).toMatchObject({
        agentId: 'st-a',
        project: 'proj-s',
        sessionId: 'sess-s',
        conversationId: 'conv-s',
        revision: 1,
        writtenBy: { kind: 'AGENT', principalId: 'st-a' },
      });
      expect(ok(await call(client, 'memory_working_search', { query: 'review' })).records.map((r: { id: string; recordId: string }) => [r.id, r.recordId])).toEqual([
        [record.id, record.recordId],
      ]);
      const conflict = toolFailure(await call(client, 'memory_working_write', { recordId: record.recordId, expectedRevision: 7, kind: 'BLOCKER', title: 'x', content: 'y' }));
      expect(conflict).toMatchObject({ code: 'REVISION_CONFLICT', currentRevision: 1, currentValue: { id: record.id, recordId: record.recordId, title: 'stdio blocker' } });
      // GraphQL's name is the tool's: the seed's old `id` is refused, naming the accepted ones.
      expect(toolFailure(await call(client, 'memory_working_write', { id: record.recordId, expectedRevision: 1, kind: 'BLOCKER', title: 'x', content: 'y' }))).toMatchObject({
        code: 'VALIDATION_FAILED',
        field: 'id',
        message: expect.stringContaining('the accepted arguments are recordId, expectedRevision,'),
      });

      const rolling = ok(await call(client, 'memory_rolling_search', { query: 'stdio' }));
      expect(rolling).toMatchObject({ owner: 'rolling_continuity', entersPrompt: false, project: 'proj-s' });
      expect(rolling.cards.map((c: { cardId: string }) => c.cardId)).toEqual(['card-s']);

      const handoff = ok(
        await call(client, 'session_write_handoff', { title: 'stdio handoff', goal: 'g', outcome: 'o', body: 'b', sourceRefs: [{ ref: 'conversation:sess-s/e-1' }] }),
      ).handoff;
      expect(handoff).toMatchObject({ sessionId: 'sess-s', origin: 'EXPLICIT' });
      expect(ok(await call(client, 'session_read_handoff', {})).handoffs.map((h: { id: string; handoffId: string }) => [h.id, h.handoffId])).toEqual([
        [handoff.id, handoff.handoffId],
      ]);

      const memory = ok(await call(client, 'brain_save', { title: 'stdio memory', content: 'saved over stdio' })).memory;
      expect(ok(await call(client, 'brain_search', { query: 'stdio' })).hits.map((h: { memory: { id: string; memoryId: string } }) => [h.memory.id, h.memory.memoryId])).toEqual([
        [memory.id, memory.memoryId],
      ]);
      expect(ok(await call(client, 'brain_read', { memoryId: memory.memoryId })).memory.revision).toBe(1);
      expect(ok(await call(client, 'brain_update', { memoryId: memory.memoryId, expectedRevision: 1, title: 'stdio memory v2' })).memory.revision).toBe(2);
      expect(toolFailure(await call(client, 'brain_remove', { memoryId: memory.memoryId, expectedRevision: 1 }))).toMatchObject({
        code: 'REVISION_CONFLICT',
        currentRevision: 2,
      });
      expect(ok(await call(client, 'brain_remove', { memoryId: memory.memoryId, expectedRevision: 2 })).memory.deleted).toBe(true);

      // The model cannot choose another scope or another agent.
      expect(toolFailure(await call(client, 'memory_working_write', { kind: 'FINDING', title: 't', content: 'c', project: 'proj-other' })).code).toBe('continuity_scope_mismatch');
      expect(toolFailure(await call(client, 'brain_search', { query: 'only', agentId: 'st-b' })).code).toBe('AGENT_MISMATCH');
      expect(ok(await call(client, 'brain_search', { query: 'belongs' })).hits).toEqual([]);
      // Limits are the services': at the boundary and one past it.
      expect(ok(await call(client, 'memory_working_write', { kind: 'FINDING', title: 'x'.repeat(240), content: 'c' })).record.title).toHaveLength(240);
      expect(toolFailure(await call(client, 'memory_working_write', { kind: 'FINDING', title: 'x'.repeat(241), content: 'c' }))).toMatchObject({ field: 'title', limit: 240 });
      expect(ok(await call(client, 'memory_working_search', { project: 'proj-s', first: 10 })).records).toHaveLength(2);
      return { record, handoff };
    });
    if (server) {
      // Same database: the GraphQL API sees what the stdio process wrote, under the same names
      // and values: node(id:) reads each result's global id back with exactly its own fields.
      const graphql = await server.agentClient('st-a', { scope: 'proj-s' });
      expect((await graphql.memoryWorkingSearch({ query: 'review' })).memoryWorkingSearch.map((r) => r.title)).toEqual(['stdio blocker']);
      for (const [type, value] of [
        ['WorkingRecord', written.record],
        ['SessionHandoff', written.handoff],
      ] as const) {
        const read = await graphql.request<{ node: unknown }>(`query ($id: ID!) { node(id: $id) { ... on ${type} { ${selectionOf(value)} } } }`, { id: value.id });
        expect(read.node, type).toEqual(value);
      }
    }
  });

  it('without BURROW_CONTINUITY_SCOPE the scoped tools fail closed with continuity_scope_required; Brains still work', async () => {
    await withStdio(identity({ BURROW_CONTINUITY_SCOPE: '' }), async (client) => {
      expect(toolFailure(await call(client, 'memory_working_search', {})).code).toBe('continuity_scope_required');
      expect(toolFailure(await call(client, 'memory_working_write', { kind: 'FINDING', title: 't', content: 'c', project: 'proj-s' })).code).toBe('continuity_scope_required');
      expect(toolFailure(await call(client, 'memory_rolling_search', { query: 'stdio' })).code).toBe('continuity_scope_required');
      expect(toolFailure(await call(client, 'session_read_handoff', {})).code).toBe('continuity_scope_required');
      expect(ok(await call(client, 'brain_search', { query: 'nothing here' })).hits).toEqual([]);
    });
  });

  it('refuses to start without a token, with an unknown token or with an operator token, saying why', async () => {
    const missing = await runCli(identity({ BURROW_TOKEN: '' }));
    expect(missing.code).toBe(1);
    expect(missing.stderr).toMatch(/BURROW_TOKEN is unset: set it to the agent's token/);
    const unknown = await runCli(identity({ BURROW_TOKEN: 'brw_not_a_token' }));
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toMatch(/BURROW_TOKEN is not a valid token/);
    const operator = await runCli(identity({ BURROW_TOKEN: operatorToken }));
    expect(operator.code).toBe(1);
    expect(operator.stderr).toMatch(/BURROW_TOKEN must be a token bound to the agent/);
    for (const run of [missing, unknown, operator]) {
      expect(run.stdout).toBe('');
      expect(run.stderr).not.toMatch(/\n\s+at /);
    }
  });

  it('ends cleanly when the runtime closes stdin: exit code 0, the data directory released', async () => {
    const run = await runCli(identity());
    expect(run).toMatchObject({ code: 0, stdout: '' });
    if (databaseEnv.BURROW_DATA_DIR) expect(existsSync(join(databaseEnv.BURROW_DATA_DIR, 'burrow.pid'))).toBe(false);
  });

  // The revocation comes from another process while the child runs: both need the same database,
  // so this runs on a real server in either pass (a test server of its own, not the shared seed).
  it.skipIf(!hasRealServer)(
    `a token revoked while the process runs stops working at the next call${hasRealServer ? '' : ` (${NEEDS_REAL_SERVER})`}`,
    async () => {
      const own = await startServer({ realServer: true });
      try {
        await own.agentClient('st-a');
        const { token, record } = await own.app.services.tokens.create({ kind: 'agent', name: 'stdio-revoke', agentId: 'st-a' });
        const env = {
          BURROW_POSTGRES_LIFECYCLE: 'external',
          BURROW_POSTGRES_URL: own.testDatabase.url!,
          BURROW_POSTGRES_REQUIRED_MAJOR: '13',
          BURROW_TOKEN: token,
          BURROW_CONTINUITY_SCOPE: 'proj-s',
          BURROW_SESSION: 'sess-s',
        };
        await withStdio(env, async (client) => {
          const handoff = ok(await call(client, 'session_write_handoff', { title: 'before revocation', goal: 'g', outcome: 'o', body: 'b' })).handoff;
          expect(ok(await call(client, 'session_read_handoff', {})).handoffs.map((h: { id: string }) => h.id)).toEqual([handoff.id]);
          await own.app.services.tokens.revoke(record.id);
          expect(toolFailure(await call(client, 'session_read_handoff', {})).code).toBe('UNAUTHENTICATED');
          expect(toolFailure(await call(client, 'session_write_handoff', { title: 'after revocation', goal: 'g', outcome: 'o', body: 'b' })).code).toBe('UNAUTHENTICATED');
        });
        // The refused write changed nothing.
        const agent = await own.agentClient('st-a', { scope: 'proj-s' });
        expect((await agent.sessionReadHandoff({})).sessionReadHandoff.map((h) => h.title)).toEqual(['before revocation']);
      } finally {
        await own.stop();
      }
    },
    60_000,
  );
});
