import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type BurrowClient, type ConversationEntryFieldsFragment, type ConversationSessionFieldsFragment } from '../clients/typescript/sdk.js';
import { startServer, hasRealServer, NEEDS_REAL_SERVER, take, type TestServer, faultSwitch, requestError } from './support/harness.js';

let server: TestServer;
beforeAll(async () => {
  server = await startServer();
});
afterAll(async () => server?.stop());

async function append(client: BurrowClient, payload: string, role?: string) {
  const result = (await client.appendConversationEntry({ input: { payload, role } })).appendConversationEntry;
  if (result.__typename !== 'AppendConversationEntrySuccess') throw new Error(`expected success, got ${JSON.stringify(result)}`);
  return result.entry;
}
async function compact(client: BurrowClient, input: Parameters<BurrowClient['compactConversation']>[0]['input']) {
  const result = (await client.compactConversation({ input })).compactConversation;
  if (result.__typename !== 'CompactConversationSuccess') throw new Error(`expected success, got ${JSON.stringify(result)}`);
  return result.compaction;
}
async function history(client: BurrowClient, sessionId: string, agentId?: string, first = 100) {
  const rows: ConversationEntryFieldsFragment[] = [];
  let after: string | null = null;
  for (;;) {
    const page: Awaited<ReturnType<BurrowClient['conversationHistory']>> = await client.conversationHistory({ sessionId, first, after, agentId });
    rows.push(...page.conversationHistory.edges.map((e) => e.node));
    if (!page.conversationHistory.pageInfo.hasNextPage) return rows;
    after = page.conversationHistory.pageInfo.endCursor;
  }
}
async function originals(client: BurrowClient, sessionId: string, agentId?: string) {
  const rows = [];
  let after: string | null = null;
  for (;;) {
    const page: Awaited<ReturnType<BurrowClient['conversationOriginals']>> = await client.conversationOriginals({ sessionId, first: 100, after, agentId });
    rows.push(...page.conversationOriginals.edges.map((e) => e.node));
    if (!page.conversationOriginals.pageInfo.hasNextPage) return rows;
    after = page.conversationOriginals.pageInfo.endCursor;
  }
}
type SearchArgs = Omit<Parameters<BurrowClient['conversationSearch']>[0], 'after'>;
async function searchAll(client: BurrowClient, args: SearchArgs) {
  const rows: ConversationEntryFieldsFragment[] = [];
  let after: string | null = null;
  for (;;) {
    const page: Awaited<ReturnType<BurrowClient['conversationSearch']>> = await client.conversationSearch({ ...args, after });
    rows.push(...page.conversationSearch.edges.map((e) => e.node));
    if (!page.conversationSearch.pageInfo.hasNextPage) return rows;
    after = page.conversationSearch.pageInfo.endCursor;
  }
}
async function sessionsOf(client: BurrowClient, args: Omit<Parameters<BurrowClient['conversationSessions']>[0], 'after'> = {}) {
  const rows: ConversationSessionFieldsFragment[] = [];
  let after: string | null = null;
  for (;;) {
    const page: Awaited<ReturnType<BurrowClient['conversationSessions']>> = await client.conversationSessions({ ...args, after });
    rows.push(...page.conversationSessions.edges.map((e) => e.node));
    if (!page.conversationSessions.pageInfo.hasNextPage) return rows;
    after = page.conversationSessions.pageInfo.endCursor;
  }
}
const count = async (sql: string, params: unknown[] = []) => (await server.database.pool.query(sql, params)).rows[0].n as number;
const lastSequence = async (agentId: string) => (await server.operator.agent({ id: agentId })).agent!.lastEventSequence;

describe('compaction', () => {
  it('moves a span into an archive generation as a reset does and puts the summary in its place', async () => {
    const client = await server.agentClient('ch-compact', { session: 'c' });
    const entries = [];
    for (let n = 1; n <= 6; n++) entries.push(await append(client, `{"n":${n}}`, n % 2 ? 'user' : 'assistant'));
    const summaryText = '{"summary":"n 2..4", "keep":[1.50,1e400],"a":1,"a":2}';
    const first = await compact(client, { fromPosition: 2, toPosition: 4, summary: summaryText, role: 'system' });
    expect(first.archive).toMatchObject({
      generation: 1,
      kind: 'COMPACTION',
      reason: 'compaction',
      entryCount: 3,
      firstPosition: 2,
      lastPosition: 4,
      summaryEntryId: first.summary.entryId,
      archivedBy: { kind: 'AGENT', principalId: 'ch-compact' },
    });
    expect(first.summary).toMatchObject({
      position: 7,
      historyPosition: 2,
      summarizesGeneration: 1,
      archiveGeneration: null,
      payload: summaryText,
      role: 'system',
      sessionId: 'c',
    });
    expect((await history(client, 'c')).map((e) => [e.position, e.historyPosition, e.summarizesGeneration])).toEqual([
      [1, 1, null],
      [7, 2, 1],
      [5, 5, null],
      [6, 6, null],
    ]);
    // The summary links to exactly the originals it stands for, byte for byte.
    const generation = (await client.conversationGeneration({ sessionId: 'c', generation: 1 })).conversationOriginals.edges.map((e) => e.node);
    expect(generation.map((o) => [o.entryId, o.position, o.payload, o.role, o.archiveGeneration])).toEqual(
      entries.slice(1, 4).map((e) => [e.entryId, e.position, e.payload, e.role, 1]),
    );
    // Nothing erased: every original is still in the union view, in position order.
    expect((await originals(client, 'c')).map((o) => [o.position, o.archiveGeneration])).toEqual([
      [1, null],
      [2, 1],
      [3, 1],
      [4, 1],
      [5, null],
      [6, null],
      [7, null],
    ]);

    // A second compaction may include an earlier summary: the new one takes the span's first place.
    const second = await compact(client, { fromPosition: 7, toPosition: 5, summary: '{"summary":"n 2..5"}' });
    expect(second.archive).toMatchObject({ generation: 2, kind: 'COMPACTION', entryCount: 2, firstPosition: 5, lastPosition: 7 });
    expect(second.summary).toMatchObject({ position: 8, historyPosition: 2, summarizesGeneration: 2, role: null });
    expect((await history(client, 'c')).map((e) => e.position)).toEqual([1, 8, 6]);
    // The archived summary keeps its link.
    const gen2 = (await client.conversationGeneration({ sessionId: 'c', generation: 2 })).conversationOriginals.edges.map((e) => e.node);
    expect(gen2.map((o) => [o.position, o.summarizesGeneration, o.historyPosition])).toEqual([
      [5, null, 5],
      [7, 1, 2],
    ]);

    // A reset archives the rest, summaries included; positions continue.
    const reset = (await client.resetConversation({ input: { reason: 'new day' } })).resetConversation;
    expect(reset).toMatchObject({ archive: { generation: 3, entryCount: 3, firstPosition: 1, lastPosition: 8 } });
    expect((await client.conversationArchives({ sessionId: 'c' })).conversationArchives.map((a) => a.reason)).toEqual(['compaction', 'compaction', 'new day']);
    expect((await append(client, '{"n":9}')).position).toBe(9);
    expect((await history(client, 'c')).map((e) => e.position)).toEqual([9]);
    const session = (await client.conversationSession({ sessionId: 'c' })).conversationSession!;
    expect(session).toMatchObject({ activeCount: 1, archivedCount: 8, originalCount: 9, lastPosition: 9, archiveGenerations: 3 });
    expect(session.archives.map((a) => [a.generation, a.kind, a.summaryEntryId])).toEqual([
      [1, 'COMPACTION', first.summary.entryId],
      [2, 'COMPACTION', second.summary.entryId],
      [3, 'RESET', null],
    ]);
    expect(await count(`SELECT count(*)::int AS n FROM conversation_original_rows WHERE agent_id = 'ch-compact'`)).toBe(9);
  });

  it('a single-entry span and a span of the whole history are both allowed', async () => {
    const client = await server.agentClient('ch-edges', { session: 'e' });
    for (let n = 1; n <= 3; n++) await append(client, `${n}`);
    expect((await compact(client, { fromPosition: 2, toPosition: 2, summary: '"two"' })).archive).toMatchObject({ entryCount: 1, firstPosition: 2, lastPosition: 2 });
    expect((await compact(client, { fromPosition: 1, toPosition: 3, summary: '"all"' })).archive).toMatchObject({
      generation: 2,
      entryCount: 3,
      firstPosition: 1,
      lastPosition: 4,
    });
    expect((await history(client, 'e')).map((e) => [e.position, e.historyPosition, e.payload])).toEqual([[5, 1, '"all"']]);
  });

  it('rejects a bad span or summary with a typed error and changes nothing', async () => {
    const client = await server.agentClient('ch-bad', { session: 'b' });
    for (let n = 1; n <= 4; n++) await append(client, `{"n":${n}}`);
    await compact(client, { fromPosition: 1, toPosition: 2, summary: '"s"' }); // summary at 5, history 5 3 4
    const before = {
      history: await history(client, 'b'),
      archives: (await client.conversationArchives({ sessionId: 'b' })).conversationArchives,
      seq: await lastSequence('ch-bad'),
    };
    const rejected = async (input: Parameters<BurrowClient['compactConversation']>[0]['input']) => (await client.compactConversation({ input })).compactConversation;
    expect(await rejected({ fromPosition: 1, toPosition: 3, summary: '"x"' })).toMatchObject({ __typename: 'ValidationFailed', field: 'fromPosition' }); // archived
    expect(await rejected({ fromPosition: 3, toPosition: 99, summary: '"x"' })).toMatchObject({ __typename: 'ValidationFailed', field: 'toPosition' });
    expect(await rejected({ fromPosition: 4, toPosition: 3, summary: '"x"' })).toMatchObject({ __typename: 'ValidationFailed', field: 'toPosition' });
    expect(await rejected({ fromPosition: 3, toPosition: 5, summary: '"x"' })).toMatchObject({ __typename: 'ValidationFailed', field: 'toPosition' }); // 5 sits before 3
    expect(await rejected({ fromPosition: 0, toPosition: 3, summary: '"x"' })).toMatchObject({ __typename: 'ValidationFailed', field: 'fromPosition' });
    expect(await rejected({ fromPosition: 3, toPosition: 4, summary: '{"open":' })).toMatchObject({ __typename: 'ValidationFailed', field: 'summary' });
    expect(await rejected({ fromPosition: 3, toPosition: 4, summary: `"${'x'.repeat(999_999)}"` })).toMatchObject({
      __typename: 'ValidationFailed',
      field: 'summary',
      limit: 1_000_000,
    });
    expect(await rejected({ fromPosition: 3, toPosition: 4, summary: '"x"', role: 'r'.repeat(65) })).toMatchObject({ field: 'role', limit: 64 });
    expect((await requestError(client.compactConversation({ input: { sessionId: 'other', fromPosition: 3, toPosition: 4, summary: '"x"' } }))).code).toBe('SESSION_MISMATCH');
    expect((await requestError(client.compactConversation({ input: { agentId: 'ch-edges', fromPosition: 3, toPosition: 4, summary: '"x"' } }))).code).toBe('AGENT_MISMATCH');
    const noSession = await server.client({ agentId: 'ch-bad' });
    expect((await requestError(noSession.compactConversation({ input: { fromPosition: 3, toPosition: 4, summary: '"x"' } }))).code).toBe('SESSION_REQUIRED');
    expect((await requestError(server.operator.compactConversation({ input: { sessionId: 'b', fromPosition: 3, toPosition: 4, summary: '"x"' } }))).code).toBe('FORBIDDEN');
    expect(
      (await server.operator.compactConversation({ input: { agentId: 'ch-bad', sessionId: 'never', fromPosition: 1, toPosition: 1, summary: '"x"' } })).compactConversation,
    ).toMatchObject({
      __typename: 'NotFound',
      resource: 'ConversationSession',
    });
    expect(await history(client, 'b')).toEqual(before.history);
    expect((await client.conversationArchives({ sessionId: 'b' })).conversationArchives).toEqual(before.archives);
    expect(await lastSequence('ch-bad')).toBe(before.seq);
    expect((await client.conversationSession({ sessionId: 'b' })).conversationSession).toMatchObject({ activeCount: 3, archivedCount: 2, lastPosition: 5 });
    // The full-size summary is accepted; an operator compacts any session of the agent.
    const big = `"${'x'.repeat(999_998)}"`;
    const done = (await server.operator.compactConversation({ input: { agentId: 'ch-bad', sessionId: 'b', fromPosition: 3, toPosition: 4, summary: big } })).compactConversation;
    expect(done).toMatchObject({
      __typename: 'CompactConversationSuccess',
      compaction: { archive: { archivedBy: { kind: 'OPERATOR', principalId: 'test-operator' }, entryCount: 2 } },
    });
  });

  it('a compaction that fails part-way archives nothing, erases nothing and publishes nothing', async () => {
    const faults = faultSwitch();
    const own = await startServer({ faults: faults.inject });
    try {
      const client = await own.agentClient('ch-fault', { session: 'f' });
      for (let n = 1; n <= 3; n++) await append(client, `{"n":${n}}`);
      const sequence = (await own.operator.agent({ id: 'ch-fault' })).agent!.lastEventSequence;
      for (const point of ['conversation.after_archive_header', 'conversation.after_archive_entries', 'conversation.after_summary']) {
        faults.arm(point);
        await expect(client.compactConversation({ input: { fromPosition: 1, toPosition: 2, summary: '"s"' } })).rejects.toMatchObject({ code: 'INTERNAL_SERVER_ERROR' });
        faults.arm(null);
        expect((await history(client, 'f')).map((e) => [e.position, e.archiveGeneration, e.payload])).toEqual([
          [1, null, '{"n":1}'],
          [2, null, '{"n":2}'],
          [3, null, '{"n":3}'],
        ]);
        expect((await client.conversationArchives({ sessionId: 'f' })).conversationArchives).toEqual([]);
        expect((await client.conversationSession({ sessionId: 'f' })).conversationSession).toMatchObject({
          activeCount: 3,
          archivedCount: 0,
          lastPosition: 3,
          archiveGenerations: 0,
        });
        expect((await own.operator.agent({ id: 'ch-fault' })).agent!.lastEventSequence).toBe(sequence);
      }
      expect((await compact(client, { fromPosition: 1, toPosition: 2, summary: '"s"' })).summary.position).toBe(4);
    } finally {
      await own.stop();
    }
  });
});

describe('archiving a session', () => {
  it('is a reversible metadata change: every original stays, writes are refused until unarchived', async () => {
    const client = await server.agentClient('ch-archive', { session: 'a' });
    await append(client, '{"n":1}');
    await append(client, '{"n":2}');
    const archived = (await client.archiveConversationSession({ input: { reason: 'done with it' } })).archiveConversationSession;
    expect(archived).toMatchObject({
      __typename: 'ArchiveConversationSessionSuccess',
      session: { sessionId: 'a', archived: true, archivedBy: { kind: 'AGENT', principalId: 'ch-archive' }, archiveReason: 'done with it', activeCount: 2, lastPosition: 2 },
    });
    const lastActivity = (await client.conversationSession({ sessionId: 'a' })).conversationSession!.lastActivityAt;
    const seq = await lastSequence('ch-archive');

    const refused = (await client.appendConversationEntry({ input: { payload: '{"n":3}' } })).appendConversationEntry;
    expect(refused).toMatchObject({ __typename: 'ConversationSessionArchived', code: 'SESSION_ARCHIVED' });
    const refusedCompaction = (await client.compactConversation({ input: { fromPosition: 1, toPosition: 2, summary: '"s"' } })).compactConversation;
    expect(refusedCompaction).toMatchObject({
      __typename: 'ConversationSessionArchived',
      sessionId: 'a',
      archivedBy: { kind: 'AGENT', principalId: 'ch-archive' },
      reason: 'done with it',
    });
    expect((await client.resetConversation({ input: {} })).resetConversation).toMatchObject({ __typename: 'ConversationSessionArchived' });
    expect((await client.archiveConversationSession({ input: {} })).archiveConversationSession).toMatchObject({ __typename: 'ConversationSessionArchived' });
    expect(await lastSequence('ch-archive')).toBe(seq);
    // Still readable, still searchable; unchanged.
    expect((await originals(client, 'a')).map((o) => [o.position, o.archiveGeneration, o.payload])).toEqual([
      [1, null, '{"n":1}'],
      [2, null, '{"n":2}'],
    ]);
    expect((await searchAll(client, { query: '"n":2' })).map((o) => o.position)).toEqual([2]);
    expect((await client.conversationSession({ sessionId: 'a' })).conversationSession).toMatchObject({ activeCount: 2, lastPosition: 2, lastActivityAt: lastActivity });

    const restored = (await client.unarchiveConversationSession({ input: {} })).unarchiveConversationSession;
    expect(restored).toMatchObject({ session: { archived: false, archivedAt: null, archivedBy: null, archiveReason: null } });
    expect((await client.unarchiveConversationSession({ input: {} })).unarchiveConversationSession).toMatchObject({
      __typename: 'ConversationSessionNotArchived',
      code: 'SESSION_NOT_ARCHIVED',
      sessionId: 'a',
    });
    expect((await append(client, '{"n":3}')).position).toBe(3);
  });

  it('follows the domain rules: runtime session for agents, any session for operators, bounded reason, NotFound', async () => {
    const client = await server.agentClient('ch-archive-rules', { session: 'mine' });
    await append(client, '{}');
    expect((await requestError(client.archiveConversationSession({ input: { sessionId: 'theirs' } }))).code).toBe('SESSION_MISMATCH');
    expect((await requestError(client.archiveConversationSession({ input: { agentId: 'ch-archive' } }))).code).toBe('AGENT_MISMATCH');
    expect((await requestError(server.operator.archiveConversationSession({ input: { sessionId: 'mine' } }))).code).toBe('FORBIDDEN');
    const tooLong = (await client.archiveConversationSession({ input: { reason: 'r'.repeat(2001) } })).archiveConversationSession;
    expect(tooLong).toMatchObject({ __typename: 'ValidationFailed', field: 'reason', limit: 2000 });
    expect((await client.conversationSession({ sessionId: 'mine' })).conversationSession!.archived).toBe(false);
    expect((await server.operator.archiveConversationSession({ input: { agentId: 'ch-archive-rules', sessionId: 'nope' } })).archiveConversationSession).toMatchObject({
      __typename: 'NotFound',
    });
    expect((await server.operator.unarchiveConversationSession({ input: { agentId: 'ch-archive-rules', sessionId: 'nope' } })).unarchiveConversationSession).toMatchObject({
      __typename: 'NotFound',
    });
    const byOperator = (await server.operator.archiveConversationSession({ input: { agentId: 'ch-archive-rules', sessionId: 'mine', reason: 'r'.repeat(2000) } }))
      .archiveConversationSession;
    expect(byOperator).toMatchObject({ session: { archived: true, archivedBy: { kind: 'OPERATOR', principalId: 'test-operator' } } });
    // The database holds the same rules.
    await expect(server.database.pool.query(`UPDATE conversation_sessions SET archived_by_id = NULL WHERE agent_id = 'ch-archive-rules'`)).rejects.toMatchObject({
      constraint: 'conversation_sessions_archived_by',
    });
    await expect(server.database.pool.query(`UPDATE conversation_sessions SET archive_reason = repeat('r', 2001) WHERE agent_id = 'ch-archive-rules'`)).rejects.toMatchObject({
      constraint: 'conversation_sessions_archive_reason_length',
    });
    expect((await client.unarchiveConversationSession({ input: {} })).unarchiveConversationSession).toMatchObject({ session: { archived: false } });
  });
});

describe('sessions as a list', () => {
  it("lists an agent's sessions newest first with counts, activity and generations; archived ones only when asked", async () => {
    const at = (iso: string) => server.clock.set(iso);
    const agent = 'ch-list';
    await server.agentClient(agent);
    const inSession = (session: string) => server.client({ agentId: agent, session });
    const s1 = await inSession('s1');
    const s2 = await inSession('s2');
    const s3 = await inSession('s3');
    at('2026-07-01T10:00:00.000Z');
    await append(s1, '1');
    at('2026-07-02T10:00:00.000Z');
    await append(s2, '1');
    await append(s1, '2');
    at('2026-07-03T10:00:00.000Z');
    await append(s3, '1');
    await append(s3, '2');
    await append(s3, '3');
    at('2026-07-04T10:00:00.000Z');
    await compact(s3, { fromPosition: 1, toPosition: 2, summary: '"s"' });
    at('2026-07-05T10:00:00.000Z');
    await s2.archiveConversationSession({ input: {} });

    const listed = await sessionsOf(s1);
    expect(listed.map((s) => s.sessionId)).toEqual(['s3', 's1']);
    expect(listed[0]).toMatchObject({
      activeCount: 2,
      archivedCount: 2,
      originalCount: 4,
      lastPosition: 4,
      archiveGenerations: 1,
      firstActivityAt: '2026-07-03T10:00:00.000Z',
      lastActivityAt: '2026-07-04T10:00:00.000Z',
      archived: false,
    });
    expect(listed[1]).toMatchObject({ activeCount: 2, archivedCount: 0, firstActivityAt: '2026-07-01T10:00:00.000Z', lastActivityAt: '2026-07-02T10:00:00.000Z' });
    expect((await sessionsOf(s1, { archived: 'INCLUDE' })).map((s) => s.sessionId)).toEqual(['s3', 's2', 's1']);
    expect((await sessionsOf(s1, { archived: 'ONLY' })).map((s) => [s.sessionId, s.archived, s.archivedAt])).toEqual([['s2', true, '2026-07-05T10:00:00.000Z']]);
    // Archiving does not count as activity.
    expect((await sessionsOf(s1, { archived: 'ONLY' }))[0].lastActivityAt).toBe('2026-07-02T10:00:00.000Z');
    // Pages of one: the same order, each session once; generations batched into the page.
    const paged = await sessionsOf(s1, { archived: 'INCLUDE', first: 1 });
    expect(paged.map((s) => s.sessionId)).toEqual(['s3', 's2', 's1']);
    const page = (await s1.conversationSessions({ first: 1 })).conversationSessions;
    expect(page.edges[0].node.archives.map((a) => [a.generation, a.kind, a.entryCount])).toEqual([[1, 'COMPACTION', 2]]);
    expect((await requestError(s1.conversationSessions({ first: 1, archived: 'INCLUDE', after: page.pageInfo.endCursor }))).code).toBe('CURSOR_MISMATCH');
    expect((await requestError(server.operator.conversationSessions({ agentId: 'ch-archive', first: 1, after: page.pageInfo.endCursor }))).code).toBe('CURSOR_MISMATCH');
    expect((await requestError(s1.conversationSessions({ after: 'not-a-cursor' }))).code).toBe('BAD_CURSOR');
    expect((await s1.conversationSessions({ first: 100 })).conversationSessions.edges).toHaveLength(2);
    expect((await requestError(s1.conversationSessions({ first: 101 }))).code).toBe('BAD_REQUEST');
    expect((await requestError(s1.conversationSessions({ first: 0 }))).code).toBe('BAD_REQUEST');
    // Agent binding: operators name the agent, an agent token cannot read another agent's list.
    expect((await sessionsOf(server.operator, { agentId: agent, archived: 'INCLUDE' })).map((s) => s.sessionId)).toEqual(['s3', 's2', 's1']);
    expect((await requestError(s1.conversationSessions({ agentId: 'ch-archive' }))).code).toBe('AGENT_MISMATCH');
    expect((await requestError(server.operator.conversationSessions({}))).code).toBe('FORBIDDEN');
    expect((await s1.conversationSession({ sessionId: 'nope' })).conversationSession).toBeNull();
    // The counters agree with the stores.
    for (const s of await sessionsOf(s1, { archived: 'INCLUDE' })) {
      const active = await count(`SELECT count(*)::int AS n FROM conversation_entries WHERE agent_id = $1 AND session_id = $2`, [agent, s.sessionId]);
      const archivedRows = await count(`SELECT count(*)::int AS n FROM conversation_archive_entries WHERE agent_id = $1 AND session_id = $2`, [agent, s.sessionId]);
      expect([s.activeCount, s.archivedCount]).toEqual([active, archivedRows]);
    }
  });
});

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

describe('events', () => {
  it('publishes compaction and archive changes in agentEvents; refused writes publish nothing', async () => {
    const client = await server.agentClient('ch-events', { session: 's' });
    await append(client, '1');
    await append(client, '2');
    const start = await lastSequence('ch-events');
    const compaction = await compact(client, { fromPosition: 1, toPosition: 2, summary: '"s"' });
    await client.archiveConversationSession({ input: { reason: 'why' } });
    await client.appendConversationEntry({ input: { payload: '3' } }); // refused
    await client.unarchiveConversationSession({ input: {} });
    const events = (await take(client.agentEvents({ agentId: 'ch-events', after: start }), 3)).map((e) => e.agentEvents);
    expect(events.map((e) => [e.sequence, e.stream, e.type, e.subjectId, e.payload])).toEqual([
      [
        start + 1,
        'CONVERSATION',
        'CONVERSATION_COMPACTED',
        'conversation:s',
        { sessionId: 's', generation: 1, entryCount: 2, firstPosition: 1, lastPosition: 2, summaryEntryId: compaction.summary.entryId, summaryPosition: 3 },
      ],
      [start + 2, 'CONVERSATION', 'CONVERSATION_ARCHIVED', 'conversation:s', { sessionId: 's', reason: 'why' }],
      [start + 3, 'CONVERSATION', 'CONVERSATION_UNARCHIVED', 'conversation:s', { sessionId: 's' }],
    ]);
    expect(await lastSequence('ch-events')).toBe(start + 3);
  });
});

describe.skipIf(!hasRealServer)(`compaction and archive racing appends (${NEEDS_REAL_SERVER})`, () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startServer({ realServer: true });
  });
  afterAll(async () => server?.stop());

  it('appends racing compactions lose nothing: every append lands exactly once, positions stay gap-free', async () => {
    const agent = 'ch-race';
    await server.agentClient(agent);
    const writers = await Promise.all(Array.from({ length: 6 }, () => server.client({ agentId: agent, session: 'r' })));
    const compactor = await server.client({ agentId: agent, session: 'r' });
    await append(writers[0], '{"seed":0}');
    await append(writers[0], '{"seed":1}');
    const perWriter = 15;
    let compactions = 0;
    let writing = writers.length;
    await Promise.all([
      ...writers.map(async (client, w) => {
        for (let i = 0; i < perWriter; i++) await append(client, `{"w":${w},"i":${i}}`);
        writing--;
      }),
      (async () => {
        // Compact the two oldest entries of the active history over and over while the writers run.
        while (writing > 0) {
          const active = (await compactor.conversationHistory({ sessionId: 'r', first: 2 })).conversationHistory.edges.map((e) => e.node);
          if (active.length >= 2) {
            const result = (await compactor.compactConversation({ input: { fromPosition: active[0].position, toPosition: active[1].position, summary: `{"c":${compactions}}` } }))
              .compactConversation;
            if (result.__typename === 'CompactConversationSuccess') compactions++;
            else expect(result).toMatchObject({ __typename: 'ValidationFailed' }); // the span moved under us: refused, nothing changed
          }
        }
      })(),
    ]);
    expect(compactions).toBeGreaterThan(0);
    const all = await originals(compactor, 'r');
    const appended = 2 + writers.length * perWriter;
    expect(all).toHaveLength(appended + compactions);
    expect(all.map((o) => o.position)).toEqual(Array.from({ length: appended + compactions }, (_, i) => i + 1));
    // Every writer's appends are there once each, in its own order.
    const payloads = all.map((o) => JSON.parse(o.payload) as { w?: number; i?: number; c?: number });
    for (let w = 0; w < writers.length; w++) {
      expect(payloads.filter((p) => p.w === w).map((p) => p.i)).toEqual(Array.from({ length: perWriter }, (_, i) => i));
    }
    expect(payloads.filter((p) => p.c !== undefined).map((p) => p.c)).toEqual(Array.from({ length: compactions }, (_, i) => i));
    // Exactly one summary is active and no original appended during the race was swallowed: every
    // archived original sits in a compaction generation, and each generation's count matches its header.
    const active = await history(compactor, 'r');
    const session = (await compactor.conversationSession({ sessionId: 'r' })).conversationSession!;
    expect(session).toMatchObject({ activeCount: active.length, archivedCount: appended + compactions - active.length, archiveGenerations: compactions });
    expect(session.archives.reduce((sum, a) => sum + a.entryCount, 0)).toBe(session.archivedCount);
    expect(session.archives.every((a) => a.kind === 'COMPACTION' && a.entryCount === 2)).toBe(true);
    expect(active.filter((e) => e.summarizesGeneration !== null).map((e) => e.summarizesGeneration)).toEqual([compactions]);
    expect(active.map((e) => e.historyPosition)).toEqual([...active.map((e) => e.historyPosition)].sort((x, y) => x - y));
  }, 60_000);

  it('an archive racing appends: each append either landed before it or was refused, nothing in between', async () => {
    const agent = 'ch-archive-race';
    await server.agentClient(agent);
    const writers = await Promise.all(Array.from({ length: 6 }, () => server.client({ agentId: agent, session: 'r' })));
    await append(writers[0], '{"seed":true}');
    let landed = 1;
    let refused = 0;
    await Promise.all([
      ...writers.map(async (client, w) => {
        for (let i = 0; i < 10; i++) {
          const r = (await client.appendConversationEntry({ input: { payload: `{"w":${w},"i":${i}}` } })).appendConversationEntry;
          if (r.__typename === 'AppendConversationEntrySuccess') landed++;
          else {
            expect(r).toMatchObject({ __typename: 'ConversationSessionArchived' });
            refused++;
          }
        }
      }),
      (async () => {
        while (landed < 15) await new Promise((resolve) => setTimeout(resolve, 2));
        expect((await writers[0].archiveConversationSession({ input: {} })).archiveConversationSession.__typename).toBe('ArchiveConversationSessionSuccess');
      })(),
    ]);
    expect(landed + refused).toBe(61);
    const all = await originals(writers[0], 'r');
    expect(all.map((o) => o.position)).toEqual(Array.from({ length: landed }, (_, i) => i + 1));
    expect((await writers[0].conversationSession({ sessionId: 'r' })).conversationSession).toMatchObject({ archived: true, activeCount: landed, lastPosition: landed });
  }, 60_000);
});
