/** Conversation history: compaction, its refusals and faults, and compactions and archives racing appends. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type BurrowClient } from '../clients/typescript/sdk.js';
import { startServer, hasRealServer, NEEDS_REAL_SERVER, type TestServer, faultSwitch, requestError } from './support/harness.js';
import { append, compact, history, allOriginals, countRows, lastSequence } from './support/conversations.js';

let server: TestServer;
beforeAll(async () => {
  server = await startServer();
});
afterAll(async () => server?.stop());

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
    expect((await allOriginals(client, 'c')).map((o) => [o.position, o.archiveGeneration])).toEqual([
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
    expect(await countRows(server, `SELECT count(*)::int AS n FROM conversation_original_rows WHERE agent_id = 'ch-compact'`)).toBe(9);
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
      seq: await lastSequence(server, 'ch-bad'),
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
    expect(await lastSequence(server, 'ch-bad')).toBe(before.seq);
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
    const all = await allOriginals(compactor, 'r');
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
  });

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
    const all = await allOriginals(writers[0], 'r');
    expect(all.map((o) => o.position)).toEqual(Array.from({ length: landed }, (_, i) => i + 1));
    expect((await writers[0].conversationSession({ sessionId: 'r' })).conversationSession).toMatchObject({ archived: true, activeCount: landed, lastPosition: landed });
  });
});
