/**
 * The MCP server at /mcp (Streamable HTTP) driven by the official MCP client SDK against the real
 * test server: tool list and schemas (compared with the GraphQL inputs) and every tool. Runtime scope and
 * agent binding are in mcp-binding.test.ts, limits and result names in mcp-arguments.test.ts.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { GraphQLArgument, GraphQLEnumType, GraphQLInputField, GraphQLInputObjectType, GraphQLInputType } from 'graphql';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { schema } from '../src/schema/index.js';
import { startServer, type TestServer } from './support/harness.js';
import { call, connectHttp, mcpAgentToken, ok, TOOL_NAMES, toolFailure } from './support/mcp.js';

let server: TestServer;
/** Agent mcp-a in scope proj-1, session s-1, conversation c-1. */
let a: Client;
let aToken: string;

beforeAll(async () => {
  server = await startServer();
  aToken = await mcpAgentToken(server, 'mcp-a');
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

const SCALAR_JSON_TYPE: Record<string, string> = { String: 'string', ID: 'string', Int: 'integer', Boolean: 'boolean', DateTime: 'string' };

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
