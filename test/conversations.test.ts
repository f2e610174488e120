/** Conversation originals: byte-for-byte storage, bounds, resets and the union view, references, paging, concurrent appends and atomicity. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, hasRealServer, NEEDS_REAL_SERVER, take, type TestServer, faultSwitch, requestError } from './support/harness.js';
import { append, allOriginals } from './support/conversations.js';

let server: TestServer;
beforeAll(async () => {
  server = await startServer();
});
afterAll(async () => server?.stop());

// Key order, a duplicate key, a number beyond every float, escapes, unicode, emoji and odd spacing.
const LOSSLESS = '{"z":1,"a":{"b":[1.50,-0,1e400]},"a":2,"big":123456789012345678901234567890,"text":"ünïcödé 🦊 \\u00e9 \\"q\\"",  "empty":{} }';

describe('conversation originals', () => {
  it('stores payloads in json (not jsonb) and returns them byte for byte', async () => {
    const client = await server.agentClient('cv-bytes', { session: 'bytes' });
    const entry = await append(client, LOSSLESS, 'user');
    expect(entry).toMatchObject({ payload: LOSSLESS, position: 1, archiveGeneration: null, role: 'user', sessionId: 'bytes' });
    expect(entry.reference).toBe(`conversation:bytes/${entry.entryId}`);
    // json (unlike jsonb) keeps even a lone surrogate escape as written.
    const lone = '{"s":"\\ud800","n":1.000}';
    expect((await append(client, lone)).payload).toBe(lone);
    const [read, loneRead] = await allOriginals(client, 'bytes');
    expect(read.payload).toBe(LOSSLESS);
    expect(loneRead.payload).toBe(lone);
    expect(Buffer.from(read.payload, 'utf8').equals(Buffer.from(LOSSLESS, 'utf8'))).toBe(true);
    const stored = await server.database.pool.query<{ text: string }>('SELECT payload::text AS text FROM conversation_entries WHERE id = $1', [entry.entryId]);
    expect(stored.rows[0].text).toBe(LOSSLESS);
    const types = await server.database.pool.query<{ table_name: string; data_type: string }>(
      `SELECT table_name, data_type FROM information_schema.columns WHERE column_name = 'payload' AND table_name IN ('conversation_entries', 'conversation_archive_entries') ORDER BY table_name`,
    );
    expect(types.rows).toEqual([
      { table_name: 'conversation_archive_entries', data_type: 'json' },
      { table_name: 'conversation_entries', data_type: 'json' },
    ]);
  });

  it('rejects what is not JSON, and fails closed without a session, changing nothing', async () => {
    const client = await server.agentClient('cv-bad', { session: 'bad' });
    await append(client, '{"ok":true}');
    for (const payload of ['{"a":', 'not json', '', "{'single':1}"]) {
      const result = (await client.appendConversationEntry({ input: { payload } })).appendConversationEntry;
      expect(result).toMatchObject({ __typename: 'ValidationFailed', field: 'payload' });
    }
    expect((await client.appendConversationEntry({ input: { payload: '1', role: '' } })).appendConversationEntry).toMatchObject({ field: 'role' });
    const noSession = await server.client({ agentId: 'cv-bad' });
    expect((await requestError(noSession.appendConversationEntry({ input: { payload: '{}' } }))).code).toBe('SESSION_REQUIRED');
    expect((await requestError(noSession.resetConversation({ input: {} }))).code).toBe('SESSION_REQUIRED');
    expect((await requestError(client.appendConversationEntry({ input: { payload: '{}', agentId: 'someone-else' } }))).code).toBe('AGENT_MISMATCH');
    expect((await allOriginals(client, 'bad')).map((o) => o.payload)).toEqual(['{"ok":true}']);
  });

  it('bounds a payload at 1,000,000 characters of JSON text, in the API and in the database', async () => {
    const client = await server.agentClient('cv-size', { session: 'big' });
    const sized = (n: number) => `"${'x'.repeat(n - 2)}"`;
    expect((await append(client, sized(1_000_000))).payload).toHaveLength(1_000_000);
    const over = (await client.appendConversationEntry({ input: { payload: sized(1_000_001) } })).appendConversationEntry;
    expect(over).toMatchObject({ __typename: 'ValidationFailed', field: 'payload', limit: 1_000_000 });
    expect((await allOriginals(client, 'big')).length).toBe(1);
    const connection = await server.database.pool.connect();
    try {
      await connection.query('BEGIN');
      await expect(
        connection.query(`INSERT INTO conversation_entries (agent_id, session_id, id, position, payload, created_at) VALUES ('cv-size', 'big', 'x', 99, $1::json, now())`, [
          sized(1_000_001),
        ]),
      ).rejects.toMatchObject({ code: '23514', constraint: 'conversation_entries_payload_length' });
    } finally {
      await connection.query('ROLLBACK');
      connection.release();
    }
  });

  it('archives on reset into generations, keeps order across them, and reads the union view', async () => {
    const client = await server.agentClient('cv-reset', { session: 'main' });
    for (const n of [1, 2, 3]) await append(client, `{"n":${n}}`);
    const first = (await client.resetConversation({ input: { reason: 'context full' } })).resetConversation;
    expect(first).toMatchObject({
      __typename: 'ResetConversationSuccess',
      archive: { generation: 1, entryCount: 3, firstPosition: 1, lastPosition: 3, reason: 'context full', archivedBy: { kind: 'AGENT', principalId: 'cv-reset' } },
    });
    const active = await server.database.pool.query(`SELECT count(*)::int AS n FROM conversation_entries WHERE agent_id = 'cv-reset'`);
    expect(active.rows[0].n).toBe(0);
    for (const n of [4, 5]) await append(client, `{"n":${n}}`);
    expect((await client.resetConversation({ input: {} })).resetConversation).toMatchObject({ archive: { generation: 2, entryCount: 2, firstPosition: 4 } });
    await append(client, LOSSLESS);

    const rows = await allOriginals(client, 'main', 2);
    expect(rows.map((r) => [r.position, r.archiveGeneration])).toEqual([
      [1, 1],
      [2, 1],
      [3, 1],
      [4, 2],
      [5, 2],
      [6, null],
    ]);
    expect(rows.map((r) => r.payload)).toEqual(['{"n":1}', '{"n":2}', '{"n":3}', '{"n":4}', '{"n":5}', LOSSLESS]);
    expect(rows.slice(0, 5).every((r) => r.archivedAt !== null)).toBe(true);
    const archives = (await client.conversationArchives({ sessionId: 'main' })).conversationArchives;
    expect(archives.map((a) => [a.generation, a.entryCount])).toEqual([
      [1, 3],
      [2, 2],
    ]);
    // An operator reads the same union for the agent; another agent's token cannot.
    expect((await allOriginals(server.operator, 'main', 100, 'cv-reset')).map((r) => r.position)).toEqual([1, 2, 3, 4, 5, 6]);
    const stranger = await server.agentClient('cv-stranger', { session: 'main' });
    expect((await requestError(stranger.conversationOriginals({ sessionId: 'main', agentId: 'cv-reset' }))).code).toBe('AGENT_MISMATCH');
    expect(await allOriginals(stranger, 'main')).toEqual([]);
    // Paging is bound to the session.
    const page = (await client.conversationOriginals({ sessionId: 'main', first: 2 })).conversationOriginals;
    expect((await requestError(client.conversationOriginals({ sessionId: 'other', after: page.pageInfo.endCursor }))).code).toBe('CURSOR_MISMATCH');
    expect((await requestError(client.conversationOriginals({ sessionId: 'main', first: 101 }))).code).toBe('BAD_REQUEST');
  });

  it('keeps the union view read-only and reset scoped to the runtime session', async () => {
    const client = await server.agentClient('cv-rules', { session: 'mine' });
    await append(client, '{}');
    expect((await requestError(client.resetConversation({ input: { sessionId: 'not-mine' } }))).code).toBe('SESSION_MISMATCH');
    const operator = await server.client();
    expect((await operator.resetConversation({ input: { agentId: 'cv-rules', sessionId: 'never-used' } })).resetConversation).toMatchObject({
      __typename: 'NotFound',
    });
    expect((await operator.resetConversation({ input: { agentId: 'cv-rules', sessionId: 'mine' } })).resetConversation).toMatchObject({
      archive: { generation: 1, entryCount: 1, archivedBy: { kind: 'OPERATOR', principalId: 'test-operator' } },
    });
    const connection = await server.database.pool.connect();
    try {
      await connection.query('BEGIN');
      await expect(
        connection.query(`INSERT INTO conversation_original_rows (agent_id, session_id, entry_id, position, payload, created_at) VALUES ('cv-rules', 'mine', 'x', 9, '{}', now())`),
      ).rejects.toMatchObject({ code: expect.stringMatching(/^(55000|0A000)$/) });
    } finally {
      await connection.query('ROLLBACK');
      connection.release();
    }
  });

  it('resolves conversation source references of working records and handoffs, also after a reset', async () => {
    const client = await server.agentClient('cv-refs', { scope: 'p', session: 'talk' });
    const said = await append(client, '{"role":"assistant","content":"the build is green"}', 'assistant');
    const refs = [said.reference, 'doc:readme', 'conversation:talk/00000000-0000-0000-0000-000000000000'];
    const written = (await client.memoryWorkingWrite({ input: { kind: 'FINDING', title: 'build status', content: 'green', sourceRefs: refs } })).memoryWorkingWrite;
    if (written.__typename !== 'MemoryWorkingWriteSuccess') throw new Error('write failed');
    expect(written.record.sourceOriginals).toEqual([
      { ref: said.reference, original: expect.objectContaining({ entryId: said.entryId, payload: said.payload, archiveGeneration: null }) },
      { ref: 'conversation:talk/00000000-0000-0000-0000-000000000000', original: null },
    ]);
    const h = (
      await client.sessionWriteHandoff({
        input: { title: 'h', goal: 'g', outcome: 'o', body: 'b', sourceRefs: [{ ref: said.reference, evidence: 'ASSISTANT_ASSERTION' }] },
      })
    ).sessionWriteHandoff;
    if (h.__typename !== 'SessionWriteHandoffSuccess') throw new Error('handoff failed');
    expect(h.handoff.sourceOriginals[0].original?.payload).toBe(said.payload);
    await client.resetConversation({ input: {} });
    const reread = (await client.workingRecord({ recordId: written.record.recordId })).workingRecord!;
    expect(reread.sourceOriginals[0].original).toMatchObject({ entryId: said.entryId, archiveGeneration: 1, payload: said.payload });
    const handoffs = (await client.sessionReadHandoff({})).sessionReadHandoff;
    expect(handoffs[0].sourceOriginals[0].original).toMatchObject({ archiveGeneration: 1 });
  });

  it('publishes appends and resets in agentEvents', async () => {
    const client = await server.agentClient('cv-events', { session: 's' });
    const entry = await append(client, '[1,2]');
    await client.resetConversation({ input: {} });
    const events = (await take(client.agentEvents({ agentId: 'cv-events', after: 1 }), 2)).map((e) => e.agentEvents);
    expect(events.map((e) => [e.sequence, e.type, e.subjectId])).toEqual([
      [2, 'CONVERSATION_APPENDED', entry.reference],
      [3, 'CONVERSATION_RESET', 'conversation:s'],
    ]);
  });
});

describe('ConversationSession.originals', () => {
  const PAGE = `query ($originalsAfter: String) { conversationSessions { edges { node { sessionId
    originals(first: 2, after: $originalsAfter) { edges { node { position payload } } pageInfo { hasNextPage hasPreviousPage endCursor } }
  } } } }`;
  type Page = {
    conversationSessions: {
      edges: {
        node: {
          sessionId: string;
          originals: { edges: { node: { position: number; payload: string } }[]; pageInfo: { hasNextPage: boolean; hasPreviousPage: boolean; endCursor: string | null } };
        };
      }[];
    };
  };

  it('pages after a cursor: each page starts right after the last position seen, none repeated, none skipped', async () => {
    const client = await server.agentClient('cv-nested-pages', { session: 'paged' });
    for (let i = 1; i <= 5; i++) await append(client, `{"n":${i}}`);
    const pages: number[][] = [];
    const flags: [boolean, boolean][] = [];
    let originalsAfter: string | null = null;
    for (let i = 0; i < 4; i++) {
      const result: Page = await client.request<Page>(PAGE, { originalsAfter });
      const { originals } = result.conversationSessions.edges[0].node;
      pages.push(originals.edges.map((e) => e.node.position));
      flags.push([originals.pageInfo.hasPreviousPage, originals.pageInfo.hasNextPage]);
      if (!originals.pageInfo.hasNextPage) break;
      originalsAfter = originals.pageInfo.endCursor;
    }
    expect(pages).toEqual([[1, 2], [3, 4], [5]]);
    expect(flags).toEqual([
      [false, true],
      [true, true],
      [true, false],
    ]);
    // A cursor of the root field continues the nested one (they are interchangeable).
    const root = (await client.conversationOriginals({ sessionId: 'paged', first: 3 })).conversationOriginals.pageInfo.endCursor;
    const nested = await client.request<Page>(PAGE, { originalsAfter: root });
    expect(nested.conversationSessions.edges[0].node.originals.edges.map((e) => e.node.payload)).toEqual(['{"n":4}', '{"n":5}']);
  });
});

describe.skipIf(!hasRealServer)(`concurrent appends to one session (${NEEDS_REAL_SERVER})`, () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startServer({ realServer: true });
  });
  afterAll(async () => server?.stop());

  it('serializes appends from separate clients on separate connections: positions are gap-free and each writer keeps its order', async () => {
    await server.agentClient('cv-race');
    const writers = 8;
    const perWriter = 12;
    const clients = await Promise.all(Array.from({ length: writers }, () => server.client({ agentId: 'cv-race', session: 'race' })));
    await Promise.all(
      clients.map(async (client, w) => {
        for (let i = 0; i < perWriter; i++) await append(client, `{"writer":${w},"i":${i}}`);
      }),
    );
    const rows = await allOriginals(clients[0], 'race');
    expect(rows).toHaveLength(writers * perWriter);
    expect(rows.map((r) => r.position)).toEqual(Array.from({ length: writers * perWriter }, (_, i) => i + 1));
    expect(new Set(rows.map((r) => r.entryId)).size).toBe(rows.length);
    for (let w = 0; w < writers; w++) {
      const mine = rows.map((r) => JSON.parse(r.payload) as { writer: number; i: number }).filter((p) => p.writer === w);
      expect(mine.map((p) => p.i)).toEqual(Array.from({ length: perWriter }, (_, i) => i));
    }
    const session = await server.database.pool.query(`SELECT last_position FROM conversation_sessions WHERE agent_id = 'cv-race' AND session_id = 'race'`);
    expect(Number(session.rows[0].last_position)).toBe(writers * perWriter);
  });

  it('a reset racing appends loses nothing: every append lands once, before or after the archive', async () => {
    const client = await server.agentClient('cv-reset-race', { session: 'r' });
    const others = await Promise.all(Array.from({ length: 4 }, () => server.client({ agentId: 'cv-reset-race', session: 'r' })));
    await append(client, '{"seed":true}');
    await Promise.all([
      ...others.map(async (c, w) => {
        for (let i = 0; i < 10; i++) await append(c, `{"w":${w},"i":${i}}`);
      }),
      (async () => {
        for (let i = 0; i < 3; i++) await client.resetConversation({ input: {} });
      })(),
    ]);
    const rows = await allOriginals(client, 'r');
    expect(rows).toHaveLength(41);
    expect(rows.map((r) => r.position)).toEqual(Array.from({ length: 41 }, (_, i) => i + 1));
    const generations = rows.map((r) => r.archiveGeneration ?? Number.MAX_SAFE_INTEGER);
    expect(generations).toEqual([...generations].sort((a, b) => a - b));
    const archived = (await client.conversationArchives({ sessionId: 'r' })).conversationArchives;
    expect(archived.map((a) => a.generation)).toEqual([1, 2, 3]);
    expect(archived.reduce((sum, a) => sum + a.entryCount, 0)).toBe(rows.filter((r) => r.archiveGeneration !== null).length);
  });
});

describe('atomicity under injected faults', () => {
  it('a reset that fails part-way archives nothing and erases nothing; a failed write leaves no record and no event', async () => {
    const faults = faultSwitch();
    const own = await startServer({ faults: faults.inject });
    try {
      const client = await own.agentClient('ft-agent', { scope: 'p', session: 's' });
      await append(client, '{"keep":1}');
      await append(client, '{"keep":2}');
      for (const point of ['conversation.after_archive_header', 'conversation.after_archive_entries']) {
        faults.arm(point);
        await expect(client.resetConversation({ input: {} })).rejects.toMatchObject({ code: 'INTERNAL_SERVER_ERROR' });
        faults.arm(null);
        const rows = await allOriginals(client, 's');
        expect(rows.map((r) => [r.position, r.archiveGeneration, r.payload])).toEqual([
          [1, null, '{"keep":1}'],
          [2, null, '{"keep":2}'],
        ]);
        expect((await client.conversationArchives({ sessionId: 's' })).conversationArchives).toEqual([]);
      }
      faults.arm('conversation.after_lock');
      await expect(append(client, '{"lost":true}')).rejects.toMatchObject({ code: 'INTERNAL_SERVER_ERROR' });
      faults.arm(null);
      expect((await append(client, '{"next":3}')).position).toBe(3);

      const sequenceBefore = (await client.agent({ id: 'ft-agent' })).agent!.lastEventSequence;
      faults.arm('working.after_write');
      await expect(client.memoryWorkingWrite({ input: { kind: 'FINDING', title: 'doomed', content: 'x' } })).rejects.toMatchObject({ code: 'INTERNAL_SERVER_ERROR' });
      faults.arm('handoff.after_write');
      await expect(client.sessionWriteHandoff({ input: { title: 'doomed', goal: 'g', outcome: 'o', body: 'b' } })).rejects.toMatchObject({
        code: 'INTERNAL_SERVER_ERROR',
      });
      faults.arm(null);
      expect((await client.workingRecords({})).workingRecords.edges).toEqual([]);
      expect((await client.sessionReadHandoff({})).sessionReadHandoff).toEqual([]);
      expect((await client.agent({ id: 'ft-agent' })).agent!.lastEventSequence).toBe(sequenceBefore);
    } finally {
      await own.stop();
    }
  });
});
