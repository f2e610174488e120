/**
 * The MCP server at /mcp (Streamable HTTP) driven by the official MCP client SDK against the real
 * test server: tool list and schemas (compared with the GraphQL inputs), every tool, runtime
 * scope and agent binding, revision conflicts and limits at the boundary.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { GraphQLArgument, GraphQLEnumType, GraphQLInputField, GraphQLInputObjectType, GraphQLInputType } from 'graphql';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { schema } from '../src/schema/index.js';
import { startServer, type TestServer } from './support/harness.js';
import { call, connectHttp, ok, selectionOf, TOOL_NAMES, toolFailure } from './support/mcp.js';

let server: TestServer;
let mcpUrl: string;
/** Agent mcp-a in scope proj-1, session s-1, conversation c-1. */
let a: Client;
let aToken: string;
let bToken: string;

async function agentToken(agentId: string) {
  await server.agentClient(agentId);
  return (await server.app.services.tokens.create({ kind: 'agent', name: `mcp-${agentId}`, agentId })).token;
}

beforeAll(async () => {
  server = await startServer();
  mcpUrl = server.url.replace(/\/graphql$/, '/mcp');
  aToken = await agentToken('mcp-a');
  bToken = await agentToken('mcp-b');
  a = await connectHttp(server.url, aToken, { scope: 'proj-1', session: 's-1', conversation: 'c-1' });
});
afterAll(async () => {
  await a?.close();
  await server?.stop();
});

/**
 * What the GraphQL schema says about one argument or input field. By shape rather than
 * instanceof: the schema may be built with another copy of graphql (ESM and CJS).
 */
function graphqlField(field: GraphQLArgument | GraphQLInputField) {
  type Wrapper = { ofType?: GraphQLInputType; constructor: { name: string } };
  const kind = (type: unknown) => (type as Wrapper).constructor.name;
  let type: GraphQLInputType = field.type;
  const required = kind(type) === 'GraphQLNonNull';
  if (required) type = (type as unknown as Wrapper).ofType!;
  const list = kind(type) === 'GraphQLList';
  if (list) type = (type as unknown as Wrapper).ofType!;
  if (kind(type) === 'GraphQLNonNull') type = (type as unknown as Wrapper).ofType!;
  return {
    description: field.description,
    required,
    list,
    enumValues: kind(type) === 'GraphQLEnumType' ? (type as GraphQLEnumType).getValues().map((v) => v.name) : null,
    inputObject: kind(type) === 'GraphQLInputObjectType' ? (type as GraphQLInputObjectType) : null,
    scalar: (type as { name: string }).name,
  };
}

const queryArgs = (field: string) =>
  Object.fromEntries(
    schema
      .getQueryType()!
      .getFields()
      [field].args.map((arg) => [arg.name, arg]),
  );
const inputFields = (type: string) => (schema.getType(type) as GraphQLInputObjectType).getFields();

/** The GraphQL counterpart of each tool's input. */
const GRAPHQL_INPUT: Record<string, () => Record<string, GraphQLArgument | GraphQLInputField>> = {
  memory_working_search: () => queryArgs('memoryWorkingSearch'),
  memory_working_write: () => inputFields('MemoryWorkingWriteInput'),
  memory_rolling_search: () => queryArgs('memoryRollingSearch'),
  session_read_handoff: () => queryArgs('sessionReadHandoff'),
  session_write_handoff: () => inputFields('SessionWriteHandoffInput'),
  brain_search: () => queryArgs('brainSearch'),
  brain_read: () => queryArgs('brainRead'),
  brain_save: () => inputFields('BrainSaveInput'),
  brain_update: () => inputFields('BrainUpdateInput'),
  brain_remove: () => inputFields('BrainRemoveInput'),
};

const SCALAR_JSON_TYPE: Record<string, string> = { String: 'string', ID: 'string', Int: 'integer', Boolean: 'boolean' };

/** Every tool takes GraphQL's argument names as they are (`recordId`, `memoryId`, `first`, ...). */
function expectSameAsGraphql(properties: Record<string, any>, required: string[], graphql: Record<string, GraphQLArgument | GraphQLInputField>) {
  expect(Object.keys(properties).sort()).toEqual(Object.keys(graphql).sort());
  for (const [name, property] of Object.entries(properties)) {
    const g = graphqlField(graphql[name]);
    expect(property.description, name).toBe(g.description);
    expect(required.includes(name), name).toBe(g.required);
    const item = g.list ? property.items : property;
    if (g.list) expect(property.type, name).toBe('array');
    if (g.enumValues) expect(item.enum, name).toEqual(g.enumValues);
    else if (g.inputObject) {
      expectSameAsGraphql(item.properties, item.required ?? [], g.inputObject.getFields());
      expect(item.additionalProperties).toBe(false);
    } else expect(item.type, name).toBe(SCALAR_JSON_TYPE[g.scalar]);
  }
}

describe('tool list', () => {
  it('lists exactly the seed tools, with input schemas matching the GraphQL inputs field by field', async () => {
    const { tools } = await a.listTools();
    expect(tools.map((t) => t.name).sort()).toEqual(TOOL_NAMES);
    for (const tool of tools) {
      expect(tool.description!.length, tool.name).toBeGreaterThan(80);
      expect(tool.inputSchema.type).toBe('object');
      expect((tool.inputSchema as { additionalProperties?: boolean }).additionalProperties, tool.name).toBe(false);
      expectSameAsGraphql(tool.inputSchema.properties as Record<string, any>, tool.inputSchema.required ?? [], GRAPHQL_INPUT[tool.name]());
    }
    const byName = Object.fromEntries(tools.map((t) => [t.name, t]));
    expect(byName.brain_remove.annotations).toMatchObject({ readOnlyHint: false, destructiveHint: true });
    expect(byName.memory_working_search.annotations).toMatchObject({ readOnlyHint: true, destructiveHint: false });
  });

  it('publishes the limits the services enforce, and the GraphQL descriptions state the same numbers', async () => {
    const { tools } = await a.listTools();
    const props = (name: string) => tools.find((t) => t.name === name)!.inputSchema.properties as Record<string, any>;
    expect(props('memory_working_write').title).toMatchObject({ minLength: 1, maxLength: 240 });
    expect(props('memory_working_write').content).toMatchObject({ maxLength: 6000 });
    expect(props('memory_working_write').sourceRefs).toMatchObject({ maxItems: 12, items: { type: 'string', minLength: 1, maxLength: 1000 } });
    expect(props('memory_working_write').ttlDays).toMatchObject({ minimum: 1, maximum: 36500 });
    expect(props('memory_working_write').kind.enum).toEqual(['DECISION', 'FINDING', 'BLOCKER', 'HANDOFF', 'TASK']);
    expect(props('memory_working_search').first).toMatchObject({ minimum: 1, maximum: 10, default: 10 });
    expect(props('memory_working_search').query).toMatchObject({ maxLength: 500 });
    expect(props('memory_rolling_search').limit).toMatchObject({ minimum: 1, maximum: 10, default: 10 });
    expect(props('memory_rolling_search').query).toMatchObject({ maxLength: 500 });
    expect(props('session_read_handoff').first).toMatchObject({ minimum: 1, maximum: 10, default: 5 });
    expect(props('session_write_handoff').body).toMatchObject({ maxLength: 24000 });
    expect(props('session_write_handoff').title).toMatchObject({ maxLength: 240 });
    expect(props('session_write_handoff').sourceRefs).toMatchObject({ maxItems: 8 });
    expect(props('session_write_handoff').sourceRefs.items.properties.evidence.enum).toEqual(['ASSISTANT_ASSERTION', 'TOOL_EVIDENCE']);
    expect(props('session_write_handoff').ttlDays).toMatchObject({ minimum: 1, maximum: 36500, default: 14 });
    expect(props('brain_save').title).toMatchObject({ maxLength: 240 });
    expect(props('brain_save').content).toMatchObject({ maxLength: 24000 });
    expect(props('brain_save').sourceRefs).toMatchObject({ maxItems: 12, items: { maxLength: 2000 } });
    expect(props('brain_search').first).toMatchObject({ minimum: 1, maximum: 50, default: 10 });
    expect(props('brain_search').query).toMatchObject({ minLength: 3, maxLength: 500 });
    expect(inputFields('MemoryWorkingWriteInput').content.description).toContain('6,000');
    expect(inputFields('BrainSaveInput').content.description).toContain('24,000');
    expect(queryArgs('memoryRollingSearch').limit.description).toContain('1 to 10');
  });
});

describe('the working-memory and handoff tools', () => {
  it('writes, searches and rewrites working records in the runtime scope, session and conversation', async () => {
    const written = ok(await call(a, 'memory_working_write', { kind: 'DECISION', title: 'use mcp', content: 'agents call tools over MCP', sourceRefs: ['issue:16'] })).record;
    expect(written).toMatchObject({
      agentId: 'mcp-a',
      project: 'proj-1',
      sessionId: 's-1',
      conversationId: 'c-1',
      kind: 'DECISION',
      state: 'ACTIVE',
      title: 'use mcp',
      sourceRefs: ['issue:16'],
      revision: 1,
      operatorOwned: false,
      writtenBy: { kind: 'AGENT', principalId: 'mcp-a' },
    });
    const found = ok(await call(a, 'memory_working_search', { query: 'agents MCP' })).records;
    expect(found.map((r: { recordId: string }) => r.recordId)).toEqual([written.recordId]);

    const rewritten = ok(await call(a, 'memory_working_write', { recordId: written.recordId, expectedRevision: 1, kind: 'DECISION', title: 'use mcp', content: 'changed' })).record;
    expect(rewritten).toMatchObject({ id: written.id, recordId: written.recordId, revision: 2, content: 'changed' });

    // The same record through GraphQL: one store, one rule set.
    const graphql = await server.agentClient('mcp-a', { scope: 'proj-1' });
    const viaGraphql = await graphql.memoryWorkingSearch({ query: 'use mcp' });
    expect(viaGraphql.memoryWorkingSearch.map((r) => [r.recordId, r.revision, r.content])).toEqual([[written.recordId, 2, 'changed']]);
  });

  it('a stale expectedRevision is a REVISION_CONFLICT tool error carrying the current value, and changes nothing', async () => {
    const record = ok(await call(a, 'memory_working_write', { kind: 'FINDING', title: 'conflict me', content: 'v1' })).record;
    ok(await call(a, 'memory_working_write', { recordId: record.recordId, expectedRevision: 1, kind: 'FINDING', title: 'conflict me', content: 'v2' }));
    const error = toolFailure(await call(a, 'memory_working_write', { recordId: record.recordId, expectedRevision: 1, kind: 'FINDING', title: 'conflict me', content: 'v3' }));
    expect(error).toMatchObject({ type: 'RevisionConflict', code: 'REVISION_CONFLICT', expectedRevision: 1, currentRevision: 2, currentContent: 'v2' });
    // The current record under WorkingRecord's names, as GraphQL's RevisionConflict.currentValue carries it.
    expect(error.currentValue).toMatchObject({ id: record.id, recordId: record.recordId, content: 'v2', revision: 2 });
    const after = ok(await call(a, 'memory_working_search', { query: 'conflict me' })).records;
    expect(after.map((r: { content: string; revision: number }) => [r.content, r.revision])).toEqual([['v2', 2]]);
  });

  it('writes the explicit session handoff and reads it back first', async () => {
    const handoff = ok(
      await call(a, 'session_write_handoff', {
        title: 'mcp handoff',
        goal: 'ship the MCP server',
        outcome: 'tools listed',
        body: 'next: docs',
        sourceRefs: [{ ref: 'conversation:s-1/e-1', evidence: 'TOOL_EVIDENCE' }, { ref: 'note' }],
      }),
    ).handoff;
    expect(handoff).toMatchObject({
      agentId: 'mcp-a',
      project: 'proj-1',
      sessionId: 's-1',
      conversationId: 'c-1',
      origin: 'EXPLICIT',
      ttlDays: 14,
      revision: 1,
      sourceRefs: [
        { ref: 'conversation:s-1/e-1', evidence: 'TOOL_EVIDENCE' },
        { ref: 'note', evidence: 'ASSISTANT_ASSERTION' },
      ],
    });
    const read = ok(await call(a, 'session_read_handoff', { first: 1 })).handoffs;
    expect(read.map((h: { handoffId: string }) => h.handoffId)).toEqual([handoff.handoffId]);
  });

  it('session_write_handoff without a runtime session fails closed with SESSION_REQUIRED', async () => {
    const noSession = await connectHttp(server.url, aToken, { scope: 'proj-1' });
    try {
      const error = toolFailure(await call(noSession, 'session_write_handoff', { title: 't', goal: 'g', outcome: 'o', body: 'b' }));
      expect(error.code).toBe('SESSION_REQUIRED');
    } finally {
      await noSession.close();
    }
  });

  it('memory_rolling_search returns owner rolling_continuity and entersPrompt false, with the cards of the scope', async () => {
    const now = server.clock.now();
    await server.database.pool.query(
      `INSERT INTO tiddle_cards (agent_id, project, card_id, title, body, card, revision, created_at, updated_at, refreshed_at)
       VALUES ('mcp-a', 'proj-1', 'card-1', 'MCP transport', 'Streamable HTTP at /mcp', '{"evidence": [{"reference": "turn-1"}]}', 1, $1, $1, $1),
              ('mcp-a', 'proj-2', 'card-2', 'MCP elsewhere', 'another scope', '{"evidence": []}', 1, $1, $1, $1)`,
      [now],
    );
    const result = ok(await call(a, 'memory_rolling_search', { query: 'mcp' }));
    expect(result).toMatchObject({ owner: 'rolling_continuity', entersPrompt: false, agentId: 'mcp-a', project: 'proj-1', query: 'mcp' });
    expect(result.cards.map((c: { cardId: string; evidence: string[] }) => [c.cardId, c.evidence])).toEqual([['card-1', ['turn-1']]]);
    expect(result.cards[0].expiresAt).toBe(new Date(now.getTime() + 90 * 86_400_000).toISOString());
  });
});

describe('the Brains tools', () => {
  it('save, search, read, update, remove; a removed memory is NOT_FOUND', async () => {
    const saved = ok(await call(a, 'brain_save', { title: 'Preferred editor', content: 'The operator prefers helix', sourceRefs: ['chat:1'] })).memory;
    expect(saved).toMatchObject({
      agentId: 'mcp-a',
      title: 'Preferred editor',
      revision: 1,
      ownership: 'AGENT',
      deleted: false,
      createdBy: { kind: 'AGENT', principalId: 'mcp-a' },
    });
    const search = ok(await call(a, 'brain_search', { query: 'helix editor' }));
    // The seed's spelling in MCP results (GraphQL's enum says LEXICAL).
    expect(search.retrieval).toEqual({ mode: 'lexical', fallback: null, reason: null });
    expect(search.hits.map((h: { memory: { id: string } }) => h.memory.id)).toEqual([saved.id]);
    expect(search.hits[0].matchedTerms).toEqual(['helix', 'editor']);
    expect(ok(await call(a, 'brain_read', { memoryId: saved.memoryId })).memory).toMatchObject({ memoryId: saved.memoryId, revision: 1 });
    // GraphQL's names: memoryId is what the verbs take, id the global id node(id:) reads.
    const graphql = (await server.operator.brainRead({ memoryId: saved.memoryId, agentId: 'mcp-a' })).brainRead!;
    expect([saved.memoryId, saved.id]).toEqual([graphql.memoryId, graphql.id]);
    // The seed's old short name is refused, naming the accepted ones.
    expect(toolFailure(await call(a, 'brain_read', { id: saved.memoryId }))).toMatchObject({ code: 'VALIDATION_FAILED', field: 'id' });
    const updated = ok(await call(a, 'brain_update', { memoryId: saved.memoryId, expectedRevision: 1, content: 'The operator prefers kakoune' })).memory;
    expect(updated).toMatchObject({ revision: 2, title: 'Preferred editor', content: 'The operator prefers kakoune' });

    const conflict = toolFailure(await call(a, 'brain_update', { memoryId: saved.memoryId, expectedRevision: 1, content: 'stale' }));
    expect(conflict).toMatchObject({ code: 'REVISION_CONFLICT', currentRevision: 2, currentContent: 'The operator prefers kakoune' });
    expect(conflict.currentValue).toMatchObject({ id: saved.id, memoryId: saved.memoryId, revision: 2, title: 'Preferred editor' });

    const removed = ok(await call(a, 'brain_remove', { memoryId: saved.memoryId, expectedRevision: 2 })).memory;
    expect(removed).toMatchObject({ memoryId: saved.memoryId, revision: 3, deleted: true });
    expect(toolFailure(await call(a, 'brain_read', { memoryId: saved.memoryId }))).toMatchObject({
      type: 'NotFound',
      code: 'NOT_FOUND',
      resource: 'BrainMemory',
      resourceId: saved.memoryId,
    });
    expect(toolFailure(await call(a, 'brain_remove', { memoryId: saved.memoryId, expectedRevision: 3 })).code).toBe('NOT_FOUND');
    expect(ok(await call(a, 'brain_search', { query: 'kakoune' })).hits).toEqual([]);
  });

  it('an operator-owned memory cannot be changed: OPERATOR_OWNED, nothing changed', async () => {
    const saved = await server.operator.brainSave({ input: { agentId: 'mcp-a', title: 'operator fact', content: 'set by the operator' } });
    if (saved.brainSave.__typename !== 'BrainSaveSuccess') throw new Error(JSON.stringify(saved));
    const id = saved.brainSave.memory.memoryId;
    const error = toolFailure(await call(a, 'brain_update', { memoryId: id, expectedRevision: 1, content: 'agent edit' }));
    expect(error).toMatchObject({ type: 'Forbidden', code: 'OPERATOR_OWNED' });
    expect(ok(await call(a, 'brain_read', { memoryId: id })).memory).toMatchObject({ revision: 1, content: 'set by the operator' });
  });
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

describe('limits and argument shapes', () => {
  const long = (n: number) => 'x'.repeat(n);

  it('working memory: title 240, content 6,000, 12 source references, ttlDays 36,500, first 10 pass; one more fails with the field and limit', async () => {
    const ok240 = ok(
      await call(a, 'memory_working_write', { kind: 'TASK', title: long(240), content: long(6000), sourceRefs: Array.from({ length: 12 }, (_, i) => `ref-${i}`), ttlDays: 36500 }),
    ).record;
    expect([ok240.title.length, ok240.content.length, ok240.sourceRefs.length, ok240.ttlDays]).toEqual([240, 6000, 12, 36500]);
    const count = async () => (await server.database.pool.query(`SELECT count(*)::int AS n FROM working_records WHERE agent_id = 'mcp-a'`)).rows[0].n;
    const before = await count();
    for (const [args, field, limit] of [
      [{ title: long(241), content: 'c' }, 'title', 240],
      [{ title: 't', content: long(6001) }, 'content', 6000],
      [{ title: 't', content: 'c', sourceRefs: Array.from({ length: 13 }, (_, i) => `ref-${i}`) }, 'sourceRefs', 12],
      [{ title: 't', content: 'c', sourceRefs: [long(1001)] }, 'sourceRefs.0', 1000],
      [{ title: 't', content: 'c', ttlDays: 36501 }, 'ttlDays', 36500],
      // The text policy, as over GraphQL (docs/security.md).
      [{ title: 'lone \ud800', content: 'c' }, 'title', null],
      [{ title: 't', content: 'c', sourceRefs: ['ok', 'a\u0000b'] }, 'sourceRefs.1', null],
    ] as const) {
      expect(toolFailure(await call(a, 'memory_working_write', { kind: 'TASK', ...args })), field).toMatchObject({
        type: 'ValidationFailed',
        code: 'VALIDATION_FAILED',
        field,
        limit,
      });
    }
    expect(await count()).toBe(before);
    expect(ok(await call(a, 'memory_working_search', { first: 10 })).records.length).toBeLessThanOrEqual(10);
    expect(toolFailure(await call(a, 'memory_working_search', { first: 11 }))).toMatchObject({ code: 'VALIDATION_FAILED', field: 'first', limit: 10 });
    expect(toolFailure(await call(a, 'memory_working_search', { query: long(501) }))).toMatchObject({ code: 'VALIDATION_FAILED', field: 'query', limit: 500 });
  });

  it('handoffs: body 24,000 and 8 source references pass; one more fails; first 10 / 11', async () => {
    const refs = (n: number) => Array.from({ length: n }, (_, i) => ({ ref: `r-${i}` }));
    const written = ok(await call(a, 'session_write_handoff', { title: long(240), goal: 'g', outcome: 'o', body: long(24000), sourceRefs: refs(8) })).handoff;
    expect([written.title.length, written.body.length, written.sourceRefs.length]).toEqual([240, 24000, 8]);
    expect(toolFailure(await call(a, 'session_write_handoff', { title: 't', goal: 'g', outcome: 'o', body: long(24001) }))).toMatchObject({ field: 'body', limit: 24000 });
    expect(toolFailure(await call(a, 'session_write_handoff', { title: long(241), goal: 'g', outcome: 'o', body: 'b' }))).toMatchObject({ field: 'title', limit: 240 });
    expect(toolFailure(await call(a, 'session_write_handoff', { title: 't', goal: 'g', outcome: 'o', body: 'b', sourceRefs: refs(9) }))).toMatchObject({
      field: 'sourceRefs',
      limit: 8,
    });
    // The rejected writes left the session's handoff as it was.
    expect(ok(await call(a, 'session_read_handoff', { first: 10 })).handoffs[0]).toMatchObject({
      id: written.id,
      handoffId: written.handoffId,
      revision: written.revision,
      body: long(24000),
    });
    expect(toolFailure(await call(a, 'session_read_handoff', { first: 11 }))).toMatchObject({ code: 'VALIDATION_FAILED', field: 'first', limit: 10 });
  });

  it('Brains: title 240, content 24,000, 12 references of 2,000 pass; one more fails; search limit 50 / 51', async () => {
    const saved = ok(await call(a, 'brain_save', { title: long(240), content: long(24000), sourceRefs: Array.from({ length: 12 }, () => long(2000)) })).memory;
    expect([saved.title.length, saved.content.length, saved.sourceRefs.length]).toEqual([240, 24000, 12]);
    expect(toolFailure(await call(a, 'brain_save', { title: long(241), content: 'c' }))).toMatchObject({ field: 'title', limit: 240 });
    expect(toolFailure(await call(a, 'brain_save', { title: 't', content: long(24001) }))).toMatchObject({ field: 'content', limit: 24000 });
    expect(toolFailure(await call(a, 'brain_save', { title: 't', content: 'c', sourceRefs: Array.from({ length: 13 }, () => 'r') }))).toMatchObject({
      field: 'sourceRefs',
      limit: 12,
    });
    expect(toolFailure(await call(a, 'brain_update', { memoryId: saved.memoryId, expectedRevision: 1, sourceRefs: [long(2001)] }))).toMatchObject({
      field: 'sourceRefs.0',
      limit: 2000,
    });
    expect(ok(await call(a, 'brain_read', { memoryId: saved.memoryId })).memory.revision).toBe(1);
    expect(ok(await call(a, 'brain_search', { query: 'xxx', first: 50 })).hits.length).toBeGreaterThan(0);
    expect(toolFailure(await call(a, 'brain_search', { query: 'xxx', first: 51 })).code).toBe('BAD_REQUEST');
  });

  it('rolling search: limit 10 passes, 11 fails; query 500 passes, 501 fails', async () => {
    expect(ok(await call(a, 'memory_rolling_search', { query: long(500), limit: 10 })).cards).toEqual([]);
    expect(toolFailure(await call(a, 'memory_rolling_search', { query: 'mcp', limit: 11 }))).toMatchObject({ field: 'limit', limit: 10 });
    expect(toolFailure(await call(a, 'memory_rolling_search', { query: long(501) }))).toMatchObject({ field: 'query', limit: 500 });
  });

  it('applies the text policy to every argument by its path before any tool runs, as GraphQL does: a search query and an id too', async () => {
    const refused = [
      ['brain_search', { query: 'lone \ud800' }, 'query', 'lone UTF-16 surrogate'],
      ['brain_search', { query: 'a\u0000b' }, 'query', 'NUL character'],
      ['brain_read', { memoryId: 'x\u202ey' }, 'memoryId', 'bidirectional control'],
      ['brain_read', { memoryId: 'x\u0000y' }, 'memoryId', 'NUL character'],
      ['brain_remove', { memoryId: 'x\u202ey', expectedRevision: 1 }, 'memoryId', 'bidirectional control'],
      ['memory_rolling_search', { query: 'lone \ud800' }, 'query', 'lone UTF-16 surrogate'],
    ] as const;
    for (const [tool, args, field, reason] of refused) {
      const failure = toolFailure(await call(a, tool, args));
      expect(failure, `${tool} ${field}`).toMatchObject({ type: 'ValidationFailed', code: 'VALIDATION_FAILED', field });
      expect(failure.message).toContain(reason);
    }
  });

  it('unknown arguments, wrong types, bad enum values and missing required arguments are VALIDATION_FAILED', async () => {
    expect(toolFailure(await call(a, 'memory_working_write', { kind: 'FINDING', title: 't', content: 'c', color: 'red' }))).toMatchObject({
      code: 'VALIDATION_FAILED',
      field: 'color',
    });
    expect(toolFailure(await call(a, 'memory_working_write', { kind: 'OPINION', title: 't', content: 'c' }))).toMatchObject({ code: 'VALIDATION_FAILED', field: 'kind' });
    expect(toolFailure(await call(a, 'memory_working_write', { kind: 'FINDING', content: 'c' }))).toMatchObject({ code: 'VALIDATION_FAILED', field: 'title' });
    expect(toolFailure(await call(a, 'memory_working_search', { first: '3' }))).toMatchObject({ code: 'VALIDATION_FAILED', field: 'first' });
    expect(toolFailure(await call(a, 'session_write_handoff', { title: 't', goal: 'g', outcome: 'o', body: 'b', sourceRefs: [{ ref: 'r', evidence: 'RUMOUR' }] }))).toMatchObject({
      field: 'sourceRefs.0.evidence',
    });
    expect(toolFailure(await call(a, 'brain_save', { title: 'nul', content: 'a\u0000b' })).code).toBe('VALIDATION_FAILED');
    await expect(call(a, 'brain_forget', {})).rejects.toThrow(/unknown tool "brain_forget"/);
  });
});

describe("results carry GraphQL's names, with GraphQL's values", () => {
  /**
   * Each MCP result is read back through GraphQL with exactly its own field names (selectionOf):
   * a name GraphQL lacks fails validation, a value with another meaning fails the comparison. The
   * global `id` is read back with node(id:), so it is GraphQL's id, not a look-alike.
   */
  const graphqlAs = async (query: string, variables: Record<string, unknown> = {}) =>
    (await server.agentClient('mcp-a', { scope: 'proj-1', session: 's-1' })).request<Record<string, any>>(query, variables);
  const node = async (id: string, type: string, value: Record<string, unknown>) =>
    (await graphqlAs(`query ($id: ID!) { node(id: $id) { ... on ${type} { ${selectionOf(value)} } } }`, { id })).node;

  it('working records: recordId is the short id the tool takes, id the global id; the old `id` argument is refused', async () => {
    const written = ok(await call(a, 'memory_working_write', { kind: 'FINDING', title: 'names match', content: 'graphql names', sourceRefs: ['issue:33'], ttlDays: 30 })).record;
    expect(await node(written.id, 'WorkingRecord', written)).toEqual(written);
    const rewritten = ok(await call(a, 'memory_working_write', { recordId: written.recordId, expectedRevision: 1, kind: 'FINDING', title: 'names match', content: 'v2' })).record;
    expect([rewritten.id, rewritten.recordId, rewritten.revision]).toEqual([written.id, written.recordId, 2]);
    const searched = ok(await call(a, 'memory_working_search', { query: 'names match' })).records;
    const viaGraphql = await graphqlAs(`{ memoryWorkingSearch(query: "names match") { ${selectionOf(searched[0])} } }`);
    expect(searched).toEqual(viaGraphql.memoryWorkingSearch);
    expect(searched.map((r: { recordId: string }) => r.recordId)).toEqual([written.recordId]);

    const refused = toolFailure(await call(a, 'memory_working_write', { id: written.recordId, expectedRevision: 2, kind: 'FINDING', title: 'names match', content: 'v3' }));
    expect(refused).toMatchObject({ type: 'ValidationFailed', code: 'VALIDATION_FAILED', field: 'id' });
    expect(refused.message).toBe(
      'unknown argument "id"; the accepted arguments are recordId, expectedRevision, kind, state, title, content, sourceRefs, pinned, ttlDays, supersededById, project, agentId',
    );
    expect(await node(written.id, 'WorkingRecord', { content: '', revision: 0 })).toEqual({ content: 'v2', revision: 2 });

    // A conflict's current record is the same JSON on both, under the same names.
    const stale = { recordId: written.recordId, expectedRevision: 1, kind: 'FINDING', title: 'names match', content: 'v3' };
    const mcpConflict = toolFailure(await call(a, 'memory_working_write', stale));
    const graphqlConflict = (
      await graphqlAs('mutation ($input: MemoryWorkingWriteInput!) { memoryWorkingWrite(input: $input) { ... on RevisionConflict { currentValue } } }', { input: stale })
    ).memoryWorkingWrite;
    expect(mcpConflict.currentValue).toEqual(graphqlConflict.currentValue);
    expect(mcpConflict.currentValue).toMatchObject({ id: written.id, recordId: written.recordId, revision: 2 });
  });

  it('handoffs: handoffId is the short id, id the global id', async () => {
    const written = ok(
      await call(a, 'session_write_handoff', {
        title: 'names handoff',
        goal: 'g',
        outcome: 'o',
        body: 'b',
        sourceRefs: [{ ref: 'conversation:s-1/e-2', evidence: 'TOOL_EVIDENCE' }],
      }),
    ).handoff;
    expect(await node(written.id, 'SessionHandoff', written)).toEqual(written);
    const read = ok(await call(a, 'session_read_handoff', { first: 10 })).handoffs;
    const viaGraphql = await graphqlAs(`{ sessionReadHandoff(first: 10) { ${selectionOf(read[0])} } }`);
    expect(read).toEqual(viaGraphql.sessionReadHandoff);
    expect(read[0]).toMatchObject({ id: written.id, handoffId: written.handoffId });
  });

  it('rolling cards: the whole result, cards with their global id', async () => {
    const now = server.clock.now();
    await server.database.pool.query(
      `INSERT INTO tiddle_cards (agent_id, project, card_id, title, body, card, revision, created_at, updated_at, refreshed_at)
       VALUES ('mcp-a', 'proj-1', 'card-names', 'Names card', 'graphql names', '{"evidence": [{"reference": "turn-9"}]}', 1, $1, $1, $1)`,
      [now],
    );
    const result = ok(await call(a, 'memory_rolling_search', { query: 'names' }));
    const viaGraphql = await graphqlAs(`{ memoryRollingSearch(query: "names") { ${selectionOf(result)} } }`);
    expect(result).toEqual(viaGraphql.memoryRollingSearch);
    expect(result.cards.map((c: { cardId: string }) => c.cardId)).toEqual(['card-names']);
    expect(await node(result.cards[0].id, 'RollingCard', { cardId: '' })).toEqual({ cardId: 'card-names' });
  });

  it('memories: brain_save, brain_update, brain_search and brain_read as GraphQL reads them; the seed spelling only in retrieval', async () => {
    const saved = ok(await call(a, 'brain_save', { title: 'Names memory', content: 'graphql names for memories', sourceRefs: ['issue:33'] })).memory;
    expect(await node(saved.id, 'BrainMemory', saved)).toEqual(saved);
    const updated = ok(await call(a, 'brain_update', { memoryId: saved.memoryId, expectedRevision: 1, content: 'graphql names for saved memories' })).memory;
    expect(await node(updated.id, 'BrainMemory', updated)).toEqual(updated);
    expect(ok(await call(a, 'brain_read', { memoryId: saved.memoryId })).memory).toEqual(updated);
    const { retrieval, ...search } = ok(await call(a, 'brain_search', { query: 'saved memories names' }));
    const { retrieval: graphqlRetrieval, ...viaGraphql } = (
      await graphqlAs(`{ brainSearch(query: "saved memories names") { retrieval { mode fallback reason } ${selectionOf(search)} } }`)
    ).brainSearch;
    expect(search).toEqual(viaGraphql);
    expect(search.hits.map((h: { memory: { memoryId: string } }) => h.memory.memoryId)).toEqual([saved.memoryId]);
    expect([retrieval, graphqlRetrieval]).toEqual([
      { mode: 'lexical', fallback: null, reason: null },
      { mode: 'LEXICAL', fallback: null, reason: null },
    ]);
  });
});
