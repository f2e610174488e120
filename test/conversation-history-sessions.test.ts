/** Conversation history: archiving a session, the session list, and the events of compactions and archive changes. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, take, type TestServer, requestError } from './support/harness.js';
import { append, compact, allOriginals, searchAll, sessionsOf, countRows, lastSequence } from './support/conversations.js';

let server: TestServer;
beforeAll(async () => {
  server = await startServer();
});
afterAll(async () => server?.stop());

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
    const seq = await lastSequence(server, 'ch-archive');

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
    expect(await lastSequence(server, 'ch-archive')).toBe(seq);
    // Still readable, still searchable; unchanged.
    expect((await allOriginals(client, 'a')).map((o) => [o.position, o.archiveGeneration, o.payload])).toEqual([
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
      const active = await countRows(server, `SELECT count(*)::int AS n FROM conversation_entries WHERE agent_id = $1 AND session_id = $2`, [agent, s.sessionId]);
      const archivedRows = await countRows(server, `SELECT count(*)::int AS n FROM conversation_archive_entries WHERE agent_id = $1 AND session_id = $2`, [agent, s.sessionId]);
      expect([s.activeCount, s.archivedCount]).toEqual([active, archivedRows]);
    }
  });
});

describe('events', () => {
  it('publishes compaction and archive changes in agentEvents; refused writes publish nothing', async () => {
    const client = await server.agentClient('ch-events', { session: 's' });
    await append(client, '1');
    await append(client, '2');
    const start = await lastSequence(server, 'ch-events');
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
    expect(await lastSequence(server, 'ch-events')).toBe(start + 3);
  });
});
