/**
 * The MCP server at /mcp: limits at the boundary, argument shapes and the text policy, and results
 * that carry GraphQL's names with GraphQL's values.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { startServer, type TestServer } from './support/harness.js';
import { call, connectHttp, mcpAgentToken, ok, selectionOf, toolFailure } from './support/mcp.js';

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
    // asOf is an ISO-8601 instant (a string), checked before the tool runs.
    expect(toolFailure(await call(a, 'brain_read', { memoryId: 'm', asOf: 1_780_000_000_000 }))).toMatchObject({
      code: 'VALIDATION_FAILED',
      field: 'asOf',
      message: 'asOf must be an ISO-8601 date and time (a string)',
    });
    expect(toolFailure(await call(a, 'brain_read', { memoryId: 'm', asOf: 'next week' }))).toMatchObject({ code: 'VALIDATION_FAILED', field: 'asOf' });
    expect(toolFailure(await call(a, 'brain_read', { id: 'm' })).message).toBe('unknown argument "id"; the accepted arguments are memoryId, agentId, asOf');
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
      'unknown argument "id"; the accepted arguments are recordId, expectedRevision, kind, state, title, content, sourceRefs, pinned, ttlDays, supersededById, project, agentId, idempotencyKey',
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
