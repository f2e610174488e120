/** Conversation history: search over originals, active and archived, through both access paths. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ConversationEntryFieldsFragment } from '../clients/typescript/sdk.js';
import { startServer, type TestServer, requestError } from './support/harness.js';
import { append, compact, searchAll } from './support/conversations.js';

let server: TestServer;
beforeAll(async () => {
  server = await startServer();
});
afterAll(async () => server?.stop());

describe('search over originals', () => {
  it('matches case-insensitive substrings in active and archived originals, newest first, with filters and bound cursors', async () => {
    const agent = 'ch-search';
    await server.agentClient(agent);
    const a = await server.client({ agentId: agent, session: 'alpha' });
    const b = await server.client({ agentId: agent, session: 'beta' });
    server.clock.set('2026-08-01T00:00:00.000Z');
    const a1 = await append(a, '{"text":"The Kestrel hovers"}', 'user'); // alpha 1
    const a2 = await append(a, '{"text":"no bird here"}', 'assistant'); // alpha 2
    server.clock.set('2026-08-02T00:00:00.000Z');
    const b1 = await append(b, '{"text":"a KESTREL again"}', 'assistant'); // beta 1
    const a3 = await append(a, '{"text":"kestrels, two"}', 'user'); // alpha 3, same instant as beta 1
    server.clock.set('2026-08-03T00:00:00.000Z');
    const b2 = await append(b, '{"text":"100% literal_kestrel"}', 'user'); // beta 2
    await a.resetConversation({ input: {} }); // alpha 1..3 archived (generation 1)
    const compacted = await compact(b, { fromPosition: 1, toPosition: 1, summary: '{"text":"summary of the kestrel talk"}' }); // beta 1 archived, summary beta 3
    const other = await server.agentClient('ch-search-other', { session: 'alpha' });
    await append(other, '{"text":"kestrel of another agent"}');

    const hits = await searchAll(a, { query: 'kEsTrEl' });
    expect(hits.map((h) => [h.sessionId, h.position, h.archiveGeneration])).toEqual([
      ['beta', 3, null], // the summary, 2026-08-03 (after beta 2 by position)
      ['beta', 2, null],
      ['beta', 1, 1], // 2026-08-02: beta before alpha (sessionId descending)
      ['alpha', 3, 1],
      ['alpha', 1, 1],
    ]);
    expect(hits[0].entryId).toBe(compacted.summary.entryId);
    expect(hits.find((h) => h.entryId === a3.entryId)?.payload).toBe(a3.payload);
    // Pages of one return the same hits once each.
    expect((await searchAll(a, { query: 'kestrel', first: 1 })).map((h) => h.entryId)).toEqual(hits.map((h) => h.entryId));
    // Filters: session, role, time range (from inclusive, before exclusive).
    expect((await searchAll(a, { query: 'kestrel', sessionId: 'alpha' })).map((h) => h.entryId)).toEqual([a3.entryId, a1.entryId]);
    expect((await searchAll(a, { query: 'kestrel', role: 'assistant' })).map((h) => h.entryId)).toEqual([b1.entryId]);
    expect((await searchAll(a, { query: 'kestrel', createdFrom: '2026-08-02T00:00:00.000Z', createdBefore: '2026-08-03T00:00:00.000Z' })).map((h) => h.entryId)).toEqual([
      b1.entryId,
      a3.entryId,
    ]);
    expect((await searchAll(a, { query: 'kestrel', createdFrom: '2026-08-02T00:00:00.001Z' })).map((h) => h.entryId)).toEqual([compacted.summary.entryId, b2.entryId]);
    expect((await searchAll(a, { query: 'kestrel', createdBefore: '2026-08-01T00:00:00.001Z' })).map((h) => h.entryId)).toEqual([a1.entryId]);
    // Literal matching: % and _ are characters, not wildcards.
    expect((await searchAll(a, { query: '100% literal_' })).map((h) => h.entryId)).toEqual([b2.entryId]);
    expect(await searchAll(a, { query: '1_0' })).toEqual([]);
    expect(await searchAll(a, { query: 'no%bird' })).toEqual([]);
    expect((await searchAll(a, { query: 'no bird' })).map((h) => h.entryId)).toEqual([a2.entryId]);
    // The other agent's originals are never hits.
    expect((await searchAll(other, { query: 'kestrel' })).map((h) => h.agentId)).toEqual(['ch-search-other']);
    expect((await searchAll(server.operator, { query: 'kestrel', agentId: agent })).length).toBe(5);

    // Bounds: 3..200 characters, 1..50 per page; cursors bound to the agent, query and filters.
    expect((await requestError(a.conversationSearch({ query: 'ke' }))).code).toBe('BAD_REQUEST');
    expect((await a.conversationSearch({ query: 'kes' })).conversationSearch.edges).toHaveLength(5);
    expect((await a.conversationSearch({ query: 'k'.repeat(200) })).conversationSearch.edges).toEqual([]);
    expect((await requestError(a.conversationSearch({ query: 'k'.repeat(201) }))).code).toBe('BAD_REQUEST');
    expect((await a.conversationSearch({ query: 'kestrel', first: 50 })).conversationSearch.edges).toHaveLength(5);
    expect((await requestError(a.conversationSearch({ query: 'kestrel', first: 51 }))).code).toBe('BAD_REQUEST');
    // NUL is refused by the text policy, naming the field (docs/security.md).
    expect((await requestError(a.conversationSearch({ query: 'kes\u0000trel' }))).errors[0].extensions).toMatchObject({ code: 'VALIDATION_FAILED', field: 'query' });
    expect((await requestError(a.conversationSearch({ query: 'kestrel', createdFrom: '2026-08-02T00:00:00.000Z', createdBefore: '2026-08-02T00:00:00.000Z' }))).code).toBe(
      'BAD_REQUEST',
    );
    const page = (await a.conversationSearch({ query: 'kestrel', first: 2 })).conversationSearch;
    expect(page.pageInfo.hasNextPage).toBe(true);
    for (const changed of [
      { query: 'KESTREL' },
      { query: 'kestrel', role: 'user' },
      { query: 'kestrel', sessionId: 'alpha' },
      { query: 'kestrel', createdFrom: '2026-01-01T00:00:00.000Z' },
    ]) {
      expect((await requestError(a.conversationSearch({ ...changed, first: 2, after: page.pageInfo.endCursor }))).code).toBe('CURSOR_MISMATCH');
    }
    expect((await requestError(server.operator.conversationSearch({ query: 'kestrel', agentId: 'ch-search-other', after: page.pageInfo.endCursor }))).code).toBe('CURSOR_MISMATCH');
    expect((await requestError(a.conversationSearch({ query: 'kestrel', agentId: 'ch-search-other' }))).code).toBe('AGENT_MISMATCH');
    expect((await requestError(server.operator.conversationSearch({ query: 'kestrel' }))).code).toBe('FORBIDDEN');
    const forged = Buffer.from(JSON.stringify({ b: JSON.parse(Buffer.from(page.pageInfo.endCursor!, 'base64url').toString()).b, p: ['1.5', 'x', 1] })).toString('base64url');
    expect((await requestError(a.conversationSearch({ query: 'kestrel', first: 2, after: forged }))).code).toBe('BAD_CURSOR');
  });

  it('finds hits older than the newest-first window through the trigram path, in the same order, page after page', async () => {
    const agent = 'ch-window';
    const client = await server.agentClient(agent);
    const { SEARCH_WINDOW } = await import('../src/domains/conversations/conversations.search.js');
    const total = SEARCH_WINDOW + 100; // originals 1..100 lie beyond the window of the newest SEARCH_WINDOW
    const half = total / 2;
    const pool = server.database.pool;
    // Seeded with SQL (like the bench) rather than thousands of API calls: original i is created i seconds after 2026-09-01.
    const text = `json_build_object('i', i, 'text', CASE WHEN i IN (1, 2, 3, ${total - 50}) THEN 'an ancient Heron' ELSE 'nothing' END)`;
    // The session first: archives and originals reference it (conversation_*_session_fk).
    await pool.query(
      `INSERT INTO conversation_sessions (agent_id, session_id, project, last_position, archive_generation, active_entry_count, archived_entry_count, created_at, updated_at)
       VALUES ($1, 'w', NULL, $3::int, 1, $3::int - $2::int, $2::int, '2026-09-01', '2026-09-02')`,
      [agent, half, total],
    );
    await pool.query(
      `INSERT INTO conversation_archives (agent_id, session_id, generation, entry_count, first_position, last_position, reason, archived_at, archived_by_kind, archived_by_id)
       VALUES ($1, 'w', 1, $2::int, 1, $2::int, 'seed', '2026-09-02', 'OPERATOR', 'seed')`,
      [agent, half],
    );
    await pool.query(
      `INSERT INTO conversation_archive_entries (agent_id, session_id, generation, id, position, role, payload, created_at, archived_at)
       SELECT $1, 'w', 1, 'e' || i, i, 'user', ${text}, timestamptz '2026-09-01' + make_interval(secs => i), '2026-09-02' FROM generate_series(1, $2::int) AS i`,
      [agent, half],
    );
    await pool.query(
      `INSERT INTO conversation_entries (agent_id, session_id, id, position, role, payload, created_at)
       SELECT $1, 'w', 'e' || i, i, 'user', ${text}, timestamptz '2026-09-01' + make_interval(secs => i) FROM generate_series($2::int, $3::int) AS i`,
      [agent, half + 1, total],
    );
    const positions = (rows: ConversationEntryFieldsFragment[]) => rows.map((r) => r.position);
    expect(positions(await searchAll(client, { query: 'HERON' }))).toEqual([total - 50, 3, 2, 1]);
    for (const first of [1, 2, 3]) expect(positions(await searchAll(client, { query: 'heron', first }))).toEqual([total - 50, 3, 2, 1]);
    expect(positions(await searchAll(client, { query: 'heron', sessionId: 'w', role: 'user', createdBefore: '2026-09-01T00:00:03.000Z' }))).toEqual([2, 1]);
    expect((await searchAll(client, { query: 'heron', first: 2 })).map((r) => r.archiveGeneration)).toEqual([null, 1, 1, 1]);
    expect(await searchAll(client, { query: 'heron', role: 'assistant' })).toEqual([]);
    // One statement when the window fills the page; one more (edge and older hits together) when it does not.
    for (const [query, first, hits, statements] of [
      ['nothing', 5, 5, 1],
      ['heron', 3, 3, 2],
      ['heron', 20, 4, 2],
    ] as const) {
      const before = server.database.statements.count;
      expect((await client.conversationSearch({ query, first })).conversationSearch.edges).toHaveLength(hits);
      expect(server.database.statements.count - before).toBe(statements);
    }
  });

  it('the search predicate over the union view matches the trigram index of each payload store', async () => {
    const { rows } = await server.database.pool.query<{ indexdef: string }>(
      `SELECT indexdef FROM pg_indexes WHERE indexname IN ('conversation_entries_payload_trgm_idx', 'conversation_archive_entries_payload_trgm_idx') ORDER BY indexname`,
    );
    expect(rows.map((r) => r.indexdef)).toEqual([
      expect.stringMatching(/ON public\.conversation_archive_entries USING gin \(\(\(?payload\)?::text\)? gin_trgm_ops\)/),
      expect.stringMatching(/ON public\.conversation_entries USING gin \(\(\(?payload\)?::text\)? gin_trgm_ops\)/),
    ]);
    // The search's predicate, written against the union view, matches each store's index expression
    // (which plan wins on real data is the bench's business: it prints the plans over 1,000,000 originals).
    const connection = await server.database.pool.connect();
    try {
      await connection.query('BEGIN');
      await connection.query('SET LOCAL enable_seqscan = off');
      const plan = await connection.query(`EXPLAIN SELECT entry_id FROM conversation_original_rows WHERE payload::text ILIKE '%kestrel%'`);
      const text = plan.rows.map((r) => r['QUERY PLAN'] as string).join('\n');
      expect(text).toContain('conversation_entries_payload_trgm_idx');
      expect(text).toContain('conversation_archive_entries_payload_trgm_idx');
    } finally {
      await connection.query('ROLLBACK');
      connection.release();
    }
  });
});
