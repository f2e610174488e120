/**
 * brainPurge: an operator empties a tombstone's content and every revision's, with a removal
 * receipt (rows per store, a SHA-256 of what was removed), keeping the fact of the memory. A live
 * or unknown memory and an agent token are refused with nothing changed; a second purge answers
 * the first one's receipt; subscribers see brain.purged. Races and the CLI: brains-purge-cli.test.ts.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BurrowClient } from '../clients/typescript/sdk.js';
import { collect, faultSwitch, requestError, startServer, take, type TestServer } from './support/harness.js';
import { saveMemory } from './support/brains.js';
import { ok } from './support/continuity.js';
import { mutationUnionMembers } from './support/unions.js';
import { purgeState, tombstone } from './support/purge.js';
import { and, asc, eq } from 'drizzle-orm';
import { agentEvents } from '../src/events/events.sql.js';
import { brainEmbeddings, brainMemories, brainMemoryRevisions } from '../src/domains/brains/brains.sql.js';
import { foldBatch } from '../src/domains/data-rights/data-rights.receipts.js';
import { sha256Hex } from '../src/lib/ids.js';

let server: TestServer;
let ada: BurrowClient;
const AGENT = 'purge-ada';

beforeAll(async () => {
  server = await startServer();
  ada = await server.agentClient(AGENT);
});
afterAll(async () => server?.stop());

const purge = (client: BurrowClient, memoryId: string, agentId = AGENT) => client.brainPurge({ input: { agentId, memoryId } }).then((r) => r.brainPurge);
const state = (memoryId: string, needles: string[] = []) => purgeState(server, AGENT, memoryId, needles);
const readBack = (memoryId: string) => server.operator.brainRead({ agentId: AGENT, memoryId, revisions: 10 }).then((r) => r.brainRead);

/** A memory's rows as the purge reads them (Drizzle, the tables' column order), in removal order. */
async function rowsAsStored(memoryId: string): Promise<[string, unknown[]][]> {
  const db = server.database.db;
  const m = brainMemories;
  const r = brainMemoryRevisions;
  const e = brainEmbeddings;
  const v = agentEvents;
  return [
    [
      'brain_memories',
      await db
        .select()
        .from(m)
        .where(and(eq(m.agentId, AGENT), eq(m.id, memoryId))),
    ],
    [
      'brain_memory_revisions',
      await db
        .select()
        .from(r)
        .where(and(eq(r.agentId, AGENT), eq(r.memoryId, memoryId)))
        .orderBy(asc(r.revision)),
    ],
    [
      'brain_embeddings',
      await db
        .select()
        .from(e)
        .where(and(eq(e.agentId, AGENT), eq(e.memoryId, memoryId))),
    ],
    [
      'agent_events',
      await db
        .select()
        .from(v)
        .where(and(eq(v.agentId, AGENT), eq(v.stream, 'brain'), eq(v.subjectId, memoryId)))
        .orderBy(asc(v.sequence)),
    ],
  ];
}

describe('purging a tombstone', () => {
  it('empties the memory and every revision, deletes its embedding, scrubs its events and receipts each store exactly', async () => {
    const memoryId = await tombstone(server, ada, { title: 'Purge me', content: 'secret content', sourceRefs: ['conv:1'] });
    // The indexer's row for the memory (a failed attempt: no vector needed).
    await server.database.pool.query(
      `INSERT INTO brain_embeddings (agent_id, memory_id, revision, model, status, attempts, last_error, updated_at) VALUES ($1, $2, 2, 'm', 'failed', 1, 'x', now())`,
      [AGENT, memoryId],
    );
    const needles = ['Purge me', 'secret content', 'conv:1'];
    const before = await state(memoryId, needles);
    const removedRows = await rowsAsStored(memoryId);
    server.clock.advance(60_000);
    const purgedAt = server.clock.now().toISOString();
    const result = ok(await purge(server.operator, memoryId), 'BrainPurgeSuccess');

    expect(result.alreadyPurged).toBe(false);
    expect(result.memory).toMatchObject({
      memoryId,
      agentId: AGENT,
      title: '',
      content: '',
      sourceRefs: [],
      revision: 3,
      deleted: true,
      createdAt: before.memory.created_at,
      updatedAt: before.memory.updated_at,
      createdBy: { kind: 'AGENT', principalId: AGENT },
      updatedBy: { kind: 'AGENT', principalId: AGENT },
      purgedAt,
      purgedBy: { kind: 'OPERATOR', principalId: 'test-operator' },
    });
    expect(result.memory.revisions.map((r) => [r.revision, r.action, r.title, r.content, r.sourceRefs, r.actor])).toEqual([
      [3, 'REMOVED', '', '', [], { kind: 'AGENT', principalId: AGENT }],
      [2, 'UPDATED', '', '', [], { kind: 'AGENT', principalId: AGENT }],
      [1, 'CREATED', '', '', [], { kind: 'AGENT', principalId: AGENT }],
    ]);
    expect(result.receipt).toMatchObject({
      kind: 'MEMORY_PURGE',
      agentId: AGENT,
      memoryId,
      actor: { kind: 'OPERATOR', principalId: 'test-operator' },
      forced: false,
      startedAt: purgedAt,
      completedAt: purgedAt,
      counts: [
        { store: 'agent_events', rows: 3 },
        { store: 'brain_embeddings', rows: 1 },
        { store: 'brain_memories', rows: 1 },
        { store: 'brain_memory_revisions', rows: 3 },
      ],
    });
    expect(result.receipt.contentHash).toMatch(/^[0-9a-f]{64}$/);
    // The chain over the rows as they were before the purge, store by store in removal order: an
    // auditor holding a copy of them can recompute it.
    let expected = sha256Hex(JSON.stringify(['burrow-removal', 'MEMORY_PURGE', AGENT, memoryId, result.receipt.receiptId]));
    for (const [store, rows] of removedRows) expected = foldBatch(expected, store, rows);
    expect(result.receipt.contentHash).toBe(expected);
    const { dataRemovalReceipts } = await server.operator.dataRemovalReceipts({ agentId: AGENT });
    expect(dataRemovalReceipts.edges.map((e) => e.node)).toEqual([result.receipt]);

    // In the database: the fact of the memory and of its deletion stays, no text does.
    const after = await state(memoryId, needles);
    expect(after.memory).toEqual({
      ...before.memory,
      title: '',
      content: '',
      source_refs: [],
      purged_at: purgedAt,
      purged_by_kind: 'OPERATOR',
      purged_by_id: 'test-operator',
    });
    expect(after.memory.deleted_at).toBe(before.memory.deleted_at);
    expect(after.revisions).toEqual(before.revisions.map((r) => ({ ...r, title: '', content: '', source_refs: [] })));
    expect(before.embeddings).toBe(1);
    expect(after.embeddings).toBe(0);
    // The brain.* events stay, in place, without their title; brain.purged follows them.
    expect(before.events.map((e) => [e.type, Object.keys(e.payload).includes('title')])).toEqual([
      ['brain.created', true],
      ['brain.updated', true],
      ['brain.removed', true],
    ]);
    expect(after.events.slice(0, 3)).toEqual(
      before.events.map((e) => {
        const { title: _title, ...rest } = e.payload;
        return { ...e, payload: rest };
      }),
    );
    expect(after.events.slice(3).map((e) => [e.sequence, e.type, e.payload])).toEqual([
      [
        before.events[2].sequence + 1,
        'brain.purged',
        { id: memoryId, revision: 3, ownership: 'AGENT', actor: { kind: 'OPERATOR', id: 'test-operator' }, receiptId: result.receipt.receiptId },
      ],
    ]);
    expect(after.receipts).toBe(1);
    // Before: the title in the memory, its 3 revisions and its 3 events; the content and the
    // source reference in the memory and its 3 revisions. After: nowhere.
    expect([before.textAnywhere, after.textAnywhere]).toEqual([7 + 4 + 4, 0]);

    // Reads: a tombstone stays hidden, purged or not.
    expect(await readBack(memoryId)).toBeNull();
    expect((await ada.brainRead({ memoryId })).brainRead).toBeNull();
    expect((await server.operator.brainMemoryNode({ id: result.memory.id })).node).toBeNull();
    expect((await server.operator.brainMemories({ agentId: AGENT })).brainMemories.edges.map((e) => e.node.memoryId)).not.toContain(memoryId);
  });

  it('a second purge changes nothing and answers the first receipt with alreadyPurged', async () => {
    const memoryId = await tombstone(server, ada, { title: 'Twice', content: 'twice content' });
    const first = ok(await purge(server.operator, memoryId), 'BrainPurgeSuccess');
    const settled = await state(memoryId);
    server.clock.advance(60_000);
    const second = ok(await purge(await server.client(), memoryId), 'BrainPurgeSuccess');
    expect(second).toEqual({ ...first, alreadyPurged: true });
    expect(await state(memoryId)).toEqual(settled);
  });

  it('an imported memory also loses the text of its legacy details and of the Albdruck rows it came from', async () => {
    const q = (text: string, values: unknown[] = []) => server.database.pool.query(text, values);
    await q(
      `INSERT INTO albdruck_knowledge (id, owner_agent_id, title, body, status, operator_corrected, operator_deleted, created_by, created_at, updated_at)
       VALUES ('purge-k1', $1, 'Legacy title', 'legacy body', 'deleted', false, false, 'legacy-user', '2025-03-01T10:00:00Z', '2025-04-01T10:00:00Z')`,
      [AGENT],
    );
    await q(
      `INSERT INTO albdruck_evidence (id, knowledge_id, reference, excerpt, created_at) VALUES ('purge-e1', 'purge-k1', 'conv:legacy', 'legacy excerpt', '2025-03-01T10:00:00Z')`,
    );
    await q(
      `INSERT INTO albdruck_revisions (knowledge_id, revision, title, body, status, changed_by, changed_at) VALUES
       ('purge-k1', 1, 'Legacy title', 'legacy body v1', 'active', 'legacy-user', '2025-03-01T10:00:00Z'),
       ('purge-k1', 2, 'Legacy title', 'legacy body', 'deleted', 'legacy-user', '2025-04-01T10:00:00Z')`,
    );
    expect((await server.operator.importAlbdruck()).importAlbdruck).toMatchObject({ imported: 1, deletedOnImport: 1, failed: 0 });
    const { rows } = await q(`SELECT id FROM brain_memories WHERE agent_id = $1 AND legacy_knowledge_id = 'purge-k1'`, [AGENT]);
    const memoryId = rows[0].id as string;

    const result = ok(await purge(server.operator, memoryId), 'BrainPurgeSuccess');
    expect(result.receipt.counts).toEqual([
      { store: 'albdruck_evidence', rows: 1 },
      { store: 'albdruck_knowledge', rows: 1 },
      { store: 'albdruck_revisions', rows: 2 },
      { store: 'brain_memories', rows: 1 },
      { store: 'brain_memory_revisions', rows: 1 },
    ]);
    const legacy = result.memory.legacyMigration!;
    expect(legacy).toMatchObject({ legacyId: 'purge-k1', legacyStatus: 'deleted', evidenceCount: 1, snapshotCount: 2 });
    const details = legacy.details as { evidence: unknown[]; snapshots: unknown[] };
    expect(details.evidence).toEqual([{ id: 'purge-e1', reference: '', excerpt: null, createdAt: '2025-03-01T10:00:00.000Z' }]);
    expect(details.snapshots).toEqual([
      { revision: 1, title: '', body: '', status: 'active', changedBy: 'legacy-user', changedAt: '2025-03-01T10:00:00.000Z' },
      { revision: 2, title: '', body: '', status: 'deleted', changedBy: 'legacy-user', changedAt: '2025-04-01T10:00:00.000Z' },
    ]);
    const legacyRows = await q(
      `SELECT (SELECT row_to_json(k)::text FROM albdruck_knowledge k WHERE id = 'purge-k1') AS knowledge,
              (SELECT json_agg(r ORDER BY revision)::text FROM albdruck_revisions r WHERE knowledge_id = 'purge-k1') AS revisions,
              (SELECT json_agg(e)::text FROM albdruck_evidence e WHERE knowledge_id = 'purge-k1') AS evidence`,
    );
    const text = JSON.stringify(legacyRows.rows[0]);
    for (const gone of ['Legacy title', 'legacy body', 'legacy excerpt', 'conv:legacy']) expect(text).not.toContain(gone);
    expect(legacyRows.rows[0].knowledge).toContain('"status":"deleted"');
    // The import stays repeat-safe: the emptied legacy record is not imported again.
    expect((await server.operator.importAlbdruck()).importAlbdruck).toMatchObject({ imported: 0, skipped: 1 });
  });

  it('subscribers receive brain.purged, without a title, after the memory’s earlier events lost theirs', async () => {
    const memoryId = await tombstone(server, ada, { title: 'Watched', content: 'watched content' });
    const start = (await server.operator.agent({ id: AGENT })).agent!.lastEventSequence;
    const live = collect(server.operator.typedAgentEvents({ agentId: AGENT, after: start - 3 }));
    try {
      // The replay first (the titles are still there), then the purge arrives live.
      await live.waitFor(3);
      const result = ok(await purge(server.operator, memoryId), 'BrainPurgeSuccess');
      const received = (await live.waitFor(4)).map(({ agentEvents: e }) => e);
      const summary = (e: (typeof received)[number]) => [e.sequence, e.type, e.__typename === 'BrainMemoryEvent' ? [e.memoryId, e.title] : null];
      expect(received.map(summary)).toEqual([
        [start - 2, 'BRAIN_CREATED', [memoryId, 'Watched']],
        [start - 1, 'BRAIN_UPDATED', [memoryId, 'Watched']],
        [start, 'BRAIN_REMOVED', [memoryId, 'Watched']],
        [start + 1, 'BRAIN_PURGED', [memoryId, null]],
      ]);
      expect(received[3]).toMatchObject({ actor: { kind: 'OPERATOR', principalId: 'test-operator' }, revision: 3, payload: { receiptId: result.receipt.receiptId } });
      // Replayed now, the earlier events carry no title either.
      const replayed = (await take(server.operator.typedAgentEvents({ agentId: AGENT, after: start - 3 }), 4)).map(({ agentEvents: e }) => summary(e));
      expect(replayed).toEqual(received.map(summary).map(([sequence, type]) => [sequence, type, [memoryId, null]]));
    } finally {
      await live.stop();
    }
  });
});

describe('refusals change nothing', () => {
  it('a live memory is ValidationFailed on memoryId', async () => {
    const live = await saveMemory(server, ada, { title: 'Alive', content: 'still here', sourceRefs: ['conv:2'] });
    const before = [await state(live.memoryId), await readBack(live.memoryId)];
    expect(await purge(server.operator, live.memoryId)).toEqual({
      __typename: 'ValidationFailed',
      code: 'VALIDATION_FAILED',
      field: 'memoryId',
      limit: null,
      message: `BrainMemory ${live.memoryId} is live: only a removed memory (a tombstone, brainRemove) can be purged`,
    });
    expect([await state(live.memoryId), await readBack(live.memoryId)]).toEqual(before);
    expect((await readBack(live.memoryId))!.content).toBe('still here');
  });

  it('an unknown memory or agent is NotFound', async () => {
    const receipts = (await server.operator.dataRemovalReceipts({})).dataRemovalReceipts.edges.length;
    expect(await purge(server.operator, 'no-such-memory')).toMatchObject({ __typename: 'NotFound', resource: 'BrainMemory', resourceId: 'no-such-memory' });
    expect(await purge(server.operator, 'no-such-memory', 'no-such-agent')).toMatchObject({ __typename: 'NotFound', resource: 'BrainMemory', resourceId: 'no-such-memory' });
    expect((await server.operator.dataRemovalReceipts({})).dataRemovalReceipts.edges.length).toBe(receipts);
  });

  it('an agent token is FORBIDDEN, even on its own tombstone, and cannot read receipts', async () => {
    const memoryId = await tombstone(server, ada, { title: 'Mine', content: 'mine content' });
    const before = await state(memoryId);
    const refused = await requestError(purge(ada, memoryId));
    expect([refused.code, refused.message]).toEqual(['FORBIDDEN', 'this operation needs an operator token']);
    expect(await state(memoryId)).toEqual(before);
    expect(before.memory.title).toBe('Mine');
    expect((await requestError(ada.dataRemovalReceipts({ agentId: AGENT }))).code).toBe('FORBIDDEN');
  });

  it('a purge that fails before its end leaves no trace: no receipt, no event, the tombstone as it was', async () => {
    const faults = faultSwitch();
    const own = await startServer({ faults: faults.inject });
    try {
      const client = await own.agentClient(AGENT);
      const memoryId = await tombstone(own, client, { title: 'Doomed purge', content: 'kept content' });
      const before = await purgeState(own, AGENT, memoryId, ['Doomed purge']);
      faults.arm('brains.purge.before_complete');
      await expect(own.operator.brainPurge({ input: { agentId: AGENT, memoryId } })).rejects.toMatchObject({ code: 'INTERNAL_SERVER_ERROR' });
      faults.arm(null);
      const after = await purgeState(own, AGENT, memoryId, ['Doomed purge']);
      expect(after).toEqual(before);
      expect([after.receipts, after.textAnywhere]).toEqual([0, 7]);
      expect((await own.operator.dataRemovalReceipts({})).dataRemovalReceipts.edges).toEqual([]);
      // Run again, it purges.
      expect(ok((await own.operator.brainPurge({ input: { agentId: AGENT, memoryId } })).brainPurge, 'BrainPurgeSuccess').alreadyPurged).toBe(false);
    } finally {
      await own.stop();
    }
  });

  it('the result union lists exactly what can happen', () => {
    expect(mutationUnionMembers('brainPurge')).toEqual(['BrainPurgeSuccess', 'NotFound', 'ValidationFailed']);
  });
});
