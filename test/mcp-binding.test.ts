/**
 * The MCP server at /mcp: runtime scope and agent binding (scope mismatch, missing scope, another
 * agent, missing, revoked and operator tokens).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { startServer, type TestServer } from './support/harness.js';
import { saveMemory } from './support/brains.js';
import { call, connectHttp, mcpAgentToken, ok, toolFailure } from './support/mcp.js';

let server: TestServer;
let mcpUrl: string;
/** Agent mcp-a in scope proj-1, session s-1, conversation c-1. */
let a: Client;
let aToken: string;
let bToken: string;

beforeAll(async () => {
  server = await startServer();
  mcpUrl = server.url.replace(/\/graphql$/, '/mcp');
  aToken = await mcpAgentToken(server, 'mcp-a');
  bToken = await mcpAgentToken(server, 'mcp-b');
  a = await connectHttp(server.url, aToken, { scope: 'proj-1', session: 's-1', conversation: 'c-1' });
  // An operator-owned memory of mcp-a (as mcp.test.ts's Brains tools leave one): unscoped Brains tools still find it.
  await saveMemory(server, server.operator, { agentId: 'mcp-a', title: 'operator fact', content: 'set by the operator' });
});
afterAll(async () => {
  await a?.close();
  await server?.stop();
});

describe('runtime scope and agent binding', () => {
  it('a project argument other than the runtime scope is continuity_scope_mismatch and writes nothing', async () => {
    const before = ok(await call(a, 'memory_working_search', { first: 10 })).records.length;
    const write = toolFailure(await call(a, 'memory_working_write', { kind: 'FINDING', title: 'elsewhere', content: 'x', project: 'proj-2' }));
    expect(write).toMatchObject({ code: 'continuity_scope_mismatch' });
    expect(write.message).toContain('proj-2');
    expect(toolFailure(await call(a, 'memory_working_search', { project: 'proj-2' })).code).toBe('continuity_scope_mismatch');
    expect(toolFailure(await call(a, 'memory_rolling_search', { query: 'mcp', project: 'proj-2' })).code).toBe('continuity_scope_mismatch');
    expect(toolFailure(await call(a, 'session_read_handoff', { project: 'proj-2' })).code).toBe('continuity_scope_mismatch');
    expect(toolFailure(await call(a, 'session_write_handoff', { title: 't', goal: 'g', outcome: 'o', body: 'b', project: 'proj-2' })).code).toBe('continuity_scope_mismatch');
    // Repeating the runtime scope is allowed.
    expect(ok(await call(a, 'memory_working_search', { project: 'proj-1', first: 10 })).records.length).toBe(before);
    const rows = await server.database.pool.query(`SELECT count(*)::int AS n FROM working_records WHERE agent_id = 'mcp-a' AND project = 'proj-2'`);
    expect(rows.rows[0].n).toBe(0);
  });

  it('without a runtime scope the scoped tools fail closed with continuity_scope_required; Brains (unscoped) still work', async () => {
    const unscoped = await connectHttp(server.url, aToken, { session: 's-9' });
    try {
      for (const [tool, args] of [
        ['memory_working_search', {}],
        ['memory_working_write', { kind: 'FINDING', title: 'no scope', content: 'x' }],
        ['memory_rolling_search', { query: 'mcp' }],
        ['session_read_handoff', {}],
        ['session_write_handoff', { title: 't', goal: 'g', outcome: 'o', body: 'b' }],
      ] as const) {
        expect(toolFailure(await call(unscoped, tool, args)).code, tool).toBe('continuity_scope_required');
        // A project argument cannot stand in for the runtime scope.
        expect(toolFailure(await call(unscoped, tool, { ...args, project: 'proj-1' })).code, tool).toBe('continuity_scope_required');
      }
      expect(ok(await call(unscoped, 'brain_search', { query: 'operator fact' })).hits.length).toBe(1);
      const rows = await server.database.pool.query(`SELECT count(*)::int AS n FROM working_records WHERE title = 'no scope'`);
      expect(rows.rows[0].n).toBe(0);
    } finally {
      await unscoped.close();
    }
  });

  it("another agent is refused: AGENT_MISMATCH for agentId, NOT_FOUND for the other agent's memories, nothing changed", async () => {
    const b = await connectHttp(server.url, bToken, { scope: 'proj-1', session: 's-b' });
    try {
      const theirs = ok(await call(b, 'brain_save', { title: 'b secret', content: 'only for b' })).memory;
      expect(theirs.agentId).toBe('mcp-b');
      for (const [tool, args] of [
        ['brain_read', { memoryId: theirs.memoryId, agentId: 'mcp-b' }],
        ['brain_search', { query: 'secret', agentId: 'mcp-b' }],
        ['brain_save', { title: 'x', content: 'x', agentId: 'mcp-b' }],
        ['brain_update', { memoryId: theirs.memoryId, expectedRevision: 1, content: 'x', agentId: 'mcp-b' }],
        ['brain_remove', { memoryId: theirs.memoryId, expectedRevision: 1, agentId: 'mcp-b' }],
        ['memory_working_search', { agentId: 'mcp-b' }],
        ['memory_working_write', { kind: 'FINDING', title: 'x', content: 'x', agentId: 'mcp-b' }],
        ['memory_rolling_search', { query: 'x', agentId: 'mcp-b' }],
        ['session_read_handoff', { agentId: 'mcp-b' }],
        ['session_write_handoff', { title: 't', goal: 'g', outcome: 'o', body: 'b', agentId: 'mcp-b' }],
      ] as const) {
        expect(toolFailure(await call(a, tool, args)).code, tool).toBe('AGENT_MISMATCH');
      }
      // Repeating one's own agent id is fine.
      expect(ok(await call(a, 'brain_search', { query: 'operator fact', agentId: 'mcp-a' })).hits.length).toBe(1);
      // Another agent's memory id does not exist for this agent.
      expect(toolFailure(await call(a, 'brain_read', { memoryId: theirs.memoryId })).code).toBe('NOT_FOUND');
      expect(toolFailure(await call(a, 'brain_update', { memoryId: theirs.memoryId, expectedRevision: 1, content: 'hijack' })).code).toBe('NOT_FOUND');
      expect(toolFailure(await call(a, 'brain_remove', { memoryId: theirs.memoryId, expectedRevision: 1 })).code).toBe('NOT_FOUND');
      expect(ok(await call(a, 'brain_search', { query: 'secret' })).hits).toEqual([]);
      expect(ok(await call(b, 'brain_read', { memoryId: theirs.memoryId })).memory).toMatchObject({ revision: 1, content: 'only for b', deleted: false });
      // Each agent sees only its own working records in the same scope.
      expect(ok(await call(b, 'memory_working_search', {})).records).toEqual([]);
    } finally {
      await b.close();
    }
  });

  it('refuses a missing or revoked token (401) and an operator token (403) before any tool runs', async () => {
    const initialize = {
      jsonrpc: '2.0',
      id: 1,
      method: 'initialize',
      params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'raw', version: '1' } },
    };
    const post = (token: string | null) =>
      fetch(mcpUrl, {
        method: 'POST',
        headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', ...(token ? { authorization: `Bearer ${token}` } : {}) },
        body: JSON.stringify(initialize),
      });
    const missing = await post(null);
    expect(missing.status).toBe(401);
    expect(missing.headers.get('www-authenticate')).toBe('Bearer');
    expect((await missing.json()).error.data.code).toBe('UNAUTHENTICATED');

    const { token, record } = await server.app.services.tokens.create({ kind: 'agent', name: 'to-revoke', agentId: 'mcp-a' });
    expect((await post(token)).status).toBe(200);
    await server.app.services.tokens.revoke(record.id);
    expect((await post(token)).status).toBe(401);

    const operator = await server.app.services.tokens.create({ kind: 'operator', name: 'mcp-operator' });
    const refused = await post(operator.token);
    expect(refused.status).toBe(403);
    expect((await refused.json()).error.data.code).toBe('FORBIDDEN');

    await expect(connectHttp(server.url, 'not-a-token', { scope: 'proj-1' })).rejects.toThrow(/UNAUTHENTICATED/);
    expect((await fetch(mcpUrl, { headers: { authorization: `Bearer ${aToken}` } })).status).toBe(405);

    // The body limit of every transport (BURROW_MAX_BODY_BYTES, 4 MiB by default), before the body is read.
    const body = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list', params: { pad: 'x'.repeat(4_194_304) } });
    const tooLarge = await fetch(mcpUrl, {
      method: 'POST',
      headers: { authorization: `Bearer ${aToken}`, 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
      body,
    });
    expect(tooLarge.status).toBe(413);
    expect((await tooLarge.json()).error.data.code).toBe('LIMIT_EXCEEDED');
  });
});
