/** Brains: saving and reading, revision-checked updates and tombstones, operator ownership, events, concurrent updates. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BurrowClient } from '../clients/typescript/sdk.js';
import { hasRealServer, NEEDS_REAL_SERVER, requestError, startServer, take, type TestServer } from './support/harness.js';
import { saveMemory, storedMemories } from './support/brains.js';

let server: TestServer;
let ada: BurrowClient;
let bob: BurrowClient;

beforeAll(async () => {
  server = await startServer();
  ada = await server.agentClient('ada');
  bob = await server.agentClient('bob');
});
afterAll(async () => server?.stop());

const save = (client: BurrowClient, input: Parameters<typeof saveMemory>[2]) => saveMemory(server, client, input);
const liveCount = (agentId: string) => storedMemories(server, agentId);

describe('saving and reading', () => {
  it('saves a memory owned by the calling agent with provenance and reads it back', async () => {
    const memory = await save(ada, { title: 'Prefers tabs', content: 'Ada formats code with tabs.', sourceRefs: ['conv:1', 'conv:2'] });
    expect(memory).toMatchObject({
      agentId: 'ada',
      title: 'Prefers tabs',
      content: 'Ada formats code with tabs.',
      sourceRefs: ['conv:1', 'conv:2'],
      revision: 1,
      ownership: 'AGENT',
      labels: [],
      deleted: false,
      createdBy: { kind: 'AGENT', principalId: 'ada' },
      updatedBy: { kind: 'AGENT', principalId: 'ada' },
      legacyMigration: null,
    });
    const { brainRead } = await ada.brainRead({ memoryId: memory.memoryId });
    expect(brainRead?.title).toBe('Prefers tabs');
    expect(brainRead?.revisions).toEqual([expect.objectContaining({ revision: 1, action: 'CREATED', actor: { kind: 'AGENT', principalId: 'ada' } })]);
  });

  it('enforces the title, content and sourceRefs limits at the boundary and one past it, changing nothing', async () => {
    const before = await liveCount('ada');
    const ok = await save(ada, { title: 't'.repeat(240), content: 'c'.repeat(24_000), sourceRefs: Array.from({ length: 12 }, (_, i) => `ref:${i}`) });
    expect(ok.title).toHaveLength(240);
    const after = await liveCount('ada');
    expect(after.n).toBe(before.n + 1);

    const cases = [
      [{ title: 't'.repeat(241), content: 'x' }, 'title', 240],
      [{ title: '   ', content: 'x' }, 'title', 240],
      [{ title: 'x', content: 'c'.repeat(24_001) }, 'content', 24_000],
      [{ title: 'x', content: 'x', sourceRefs: Array.from({ length: 13 }, (_, i) => `ref:${i}`) }, 'sourceRefs', 12],
      [{ title: 'x', content: 'x', sourceRefs: ['ok', ' '] }, 'sourceRefs.1', 2000],
      // The text policy's refusals name the field; no length bound was crossed.
      [{ title: 'nul\u0000', content: 'x' }, 'title', null],
      [{ title: 'x', content: 'nul\u0000' }, 'content', null],
      [{ title: 'lone \ud800 surrogate', content: 'x' }, 'title', null],
    ] as const;
    for (const [input, field, limit] of cases) {
      const result = await ada.brainSave({ input: input as { title: string; content: string } });
      expect(result.brainSave).toMatchObject({ __typename: 'ValidationFailed', code: 'VALIDATION_FAILED', field, limit });
    }
    // Code points, not UTF-16 units: 240 emoji fit.
    const emoji = await save(ada, { title: '🦡'.repeat(240), content: '' });
    expect(emoji.title).toBe('🦡'.repeat(240));
    expect((await liveCount('ada')).n).toBe(before.n + 2);
  });

  it('the database enforces the limits too', async () => {
    await expect(
      server.database.pool.query(
        `INSERT INTO brain_memories (agent_id, id, title, content, revision, ownership, created_by_kind, created_by_id, updated_by_kind, updated_by_id, created_at, updated_at)
         VALUES ('ada', 'x1', repeat('t', 241), '', 1, 'AGENT', 'AGENT', 'ada', 'AGENT', 'ada', now(), now())`,
      ),
    ).rejects.toThrow(/brain_memories_title_length/);
    await expect(
      server.database.pool.query(
        `INSERT INTO brain_memories (agent_id, id, title, content, revision, ownership, created_by_kind, created_by_id, updated_by_kind, updated_by_id, created_at, updated_at)
         VALUES ('ada', 'x2', 't', repeat('c', 24001), 1, 'AGENT', 'AGENT', 'ada', 'AGENT', 'ada', now(), now())`,
      ),
    ).rejects.toThrow(/brain_memories_content_length/);
    await expect(
      server.database.pool.query(
        `INSERT INTO brain_memories (agent_id, id, title, content, source_refs, revision, ownership, created_by_kind, created_by_id, updated_by_kind, updated_by_id, created_at, updated_at)
         VALUES ('ada', 'x3', 't', '', array_fill('r'::text, ARRAY[13]), 1, 'AGENT', 'AGENT', 'ada', 'AGENT', 'ada', now(), now())`,
      ),
    ).rejects.toThrow(/brain_memories_source_refs_count/);
  });

  it('binds the agent verbs to the calling agent; operators must name the agent', async () => {
    const memory = await save(ada, { title: 'Private to ada', content: 'secret' });
    expect((await requestError(ada.brainSave({ input: { agentId: 'bob', title: 'x', content: 'y' } }))).code).toBe('AGENT_MISMATCH');
    expect((await requestError(ada.brainRead({ memoryId: memory.memoryId, agentId: 'bob' }))).code).toBe('AGENT_MISMATCH');
    expect((await requestError(ada.brainSearch({ query: 'secret', agentId: 'bob' }))).code).toBe('AGENT_MISMATCH');
    expect((await requestError(ada.brainUpdate({ input: { memoryId: memory.memoryId, agentId: 'bob', expectedRevision: 1, title: 'x' } }))).code).toBe('AGENT_MISMATCH');
    expect((await requestError(ada.brainRemove({ input: { memoryId: memory.memoryId, agentId: 'bob', expectedRevision: 1 } }))).code).toBe('AGENT_MISMATCH');
    expect((await requestError(ada.brainMemories({ agentId: 'bob' }))).code).toBe('AGENT_MISMATCH');
    expect((await requestError(ada.brainEmbeddingStatus({ agentId: 'bob' }))).code).toBe('AGENT_MISMATCH');
    expect((await requestError(ada.brainRemoveMany({ agentId: 'bob', items: [{ memoryId: memory.memoryId, expectedRevision: 1 }] }))).code).toBe('AGENT_MISMATCH');
    // Another agent cannot see ada's memory through its own verbs either.
    expect((await bob.brainRead({ memoryId: memory.memoryId })).brainRead).toBeNull();
    expect((await bob.brainUpdate({ input: { memoryId: memory.memoryId, expectedRevision: 1, title: 'hijack' } })).brainUpdate.__typename).toBe('NotFound');
    // Operators choose the owning agent explicitly for every call.
    expect((await requestError(server.operator.brainSave({ input: { title: 'x', content: 'y' } }))).code).toBe('FORBIDDEN');
    expect((await requestError(server.operator.brainRead({ memoryId: memory.memoryId }))).code).toBe('FORBIDDEN');
    expect((await server.operator.brainRead({ memoryId: memory.memoryId, agentId: 'ada' })).brainRead?.content).toBe('secret');
    expect((await ada.brainRead({ memoryId: memory.memoryId })).brainRead?.content).toBe('secret');
  });

  it('an operator saving for an unknown agent gets NotFound and nothing is written', async () => {
    const result = await server.operator.brainSave({ input: { agentId: 'ghost', title: 'x', content: 'y' } });
    expect(result.brainSave).toMatchObject({ __typename: 'NotFound', resource: 'Agent', resourceId: 'ghost' });
    expect((await liveCount('ghost')).n).toBe(0);
  });

  it('unknown ids read as null and fail writes with NotFound', async () => {
    expect((await ada.brainRead({ memoryId: 'no-such-id' })).brainRead).toBeNull();
    expect((await ada.brainUpdate({ input: { memoryId: 'no-such-id', expectedRevision: 1, content: 'x' } })).brainUpdate).toMatchObject({
      __typename: 'NotFound',
      code: 'NOT_FOUND',
    });
    expect((await ada.brainRemove({ input: { memoryId: 'no-such-id', expectedRevision: 1 } })).brainRemove).toMatchObject({ __typename: 'NotFound' });
  });
});

describe('revision-checked updates and tombstones', () => {
  it('updates with the current revision and rejects a stale one with the current content, changing nothing', async () => {
    const memory = await save(ada, { title: 'Deploy day', content: 'Deploys happen on Tuesday.' });
    const updated = await ada.brainUpdate({ input: { memoryId: memory.memoryId, expectedRevision: 1, content: 'Deploys happen on Thursday.' } });
    expect(updated.brainUpdate).toMatchObject({ __typename: 'BrainUpdateSuccess', memory: { revision: 2, content: 'Deploys happen on Thursday.', title: 'Deploy day' } });

    const stale = await ada.brainUpdate({ input: { memoryId: memory.memoryId, expectedRevision: 1, content: 'Deploys happen on Monday.' } });
    expect(stale.brainUpdate).toMatchObject({
      __typename: 'RevisionConflict',
      code: 'REVISION_CONFLICT',
      expectedRevision: 1,
      currentRevision: 2,
      currentContent: 'Deploys happen on Thursday.',
    });
    const staleRemove = await ada.brainRemove({ input: { memoryId: memory.memoryId, expectedRevision: 1 } });
    expect(staleRemove.brainRemove).toMatchObject({ __typename: 'RevisionConflict', currentRevision: 2 });
    const read = (await ada.brainRead({ memoryId: memory.memoryId })).brainRead!;
    expect(read).toMatchObject({ revision: 2, content: 'Deploys happen on Thursday.', deleted: false });
    expect(read.revisions.map((r) => [r.revision, r.action, r.content])).toEqual([
      [2, 'UPDATED', 'Deploys happen on Thursday.'],
      [1, 'CREATED', 'Deploys happen on Tuesday.'],
    ]);
  });

  it('rejects bad update input without changing anything', async () => {
    const memory = await save(ada, { title: 'Stable', content: 'unchanged' });
    expect((await ada.brainUpdate({ input: { memoryId: memory.memoryId, expectedRevision: 1 } })).brainUpdate).toMatchObject({ __typename: 'ValidationFailed', field: 'input' });
    expect((await ada.brainUpdate({ input: { memoryId: memory.memoryId, expectedRevision: 0, title: 'x' } })).brainUpdate).toMatchObject({
      __typename: 'ValidationFailed',
      field: 'expectedRevision',
    });
    expect((await ada.brainUpdate({ input: { memoryId: memory.memoryId, expectedRevision: 1, title: 'x'.repeat(241) } })).brainUpdate).toMatchObject({
      __typename: 'ValidationFailed',
      field: 'title',
      limit: 240,
    });
    expect((await ada.brainUpdate({ input: { memoryId: memory.memoryId, expectedRevision: 1, content: 'x'.repeat(24_001) } })).brainUpdate).toMatchObject({
      __typename: 'ValidationFailed',
      field: 'content',
      limit: 24_000,
    });
    expect((await ada.brainRemove({ input: { memoryId: memory.memoryId, expectedRevision: -3 } })).brainRemove).toMatchObject({
      __typename: 'ValidationFailed',
      field: 'expectedRevision',
    });
    expect((await ada.brainRead({ memoryId: memory.memoryId })).brainRead).toMatchObject({ revision: 1, title: 'Stable', content: 'unchanged' });
  });

  it('removal writes a tombstone: hidden from reads, search and lists, not erased, and final', async () => {
    const memory = await save(ada, { title: 'Tombstone candidate zebra', content: 'zebra crossing notes' });
    const removed = await ada.brainRemove({ input: { memoryId: memory.memoryId, expectedRevision: 1 } });
    expect(removed.brainRemove).toMatchObject({ __typename: 'BrainRemoveSuccess', memory: { revision: 2, deleted: true } });

    expect((await ada.brainRead({ memoryId: memory.memoryId })).brainRead).toBeNull();
    expect((await ada.brainSearch({ query: 'zebra' })).brainSearch.hits).toEqual([]);
    expect((await server.operator.brainMemories({ agentId: 'ada', query: 'zebra' })).brainMemories.edges).toEqual([]);

    const again = await ada.brainRemove({ input: { memoryId: memory.memoryId, expectedRevision: 2 } });
    expect(again.brainRemove).toMatchObject({ __typename: 'NotFound', code: 'NOT_FOUND' });
    const update = await ada.brainUpdate({ input: { memoryId: memory.memoryId, expectedRevision: 2, title: 'back' } });
    expect(update.brainUpdate).toMatchObject({ __typename: 'NotFound' });

    const row = await server.database.pool.query('SELECT title, revision, deleted_at FROM brain_memories WHERE agent_id = $1 AND id = $2', ['ada', memory.memoryId]);
    expect(row.rows).toEqual([{ title: 'Tombstone candidate zebra', revision: 2, deleted_at: expect.any(Date) }]);
    const history = await server.database.pool.query('SELECT revision, action FROM brain_memory_revisions WHERE agent_id = $1 AND memory_id = $2 ORDER BY revision', [
      'ada',
      memory.memoryId,
    ]);
    expect(history.rows).toEqual([
      { revision: 1, action: 'created' },
      { revision: 2, action: 'removed' },
    ]);
  });
});

describe('operator ownership', () => {
  it('operator writes mark the memory operator-owned; the agent can then neither update nor remove it', async () => {
    const saved = await save(server.operator, { agentId: 'ada', title: 'House rule', content: 'Never deploy on Friday.' });
    expect(saved).toMatchObject({ ownership: 'OPERATOR', agentId: 'ada', createdBy: { kind: 'OPERATOR', principalId: 'test-operator' } });
    const update = await ada.brainUpdate({ input: { memoryId: saved.memoryId, expectedRevision: 1, content: 'Deploy whenever.' } });
    expect(update.brainUpdate).toMatchObject({ __typename: 'Forbidden', code: 'OPERATOR_OWNED' });
    const remove = await ada.brainRemove({ input: { memoryId: saved.memoryId, expectedRevision: 1 } });
    expect(remove.brainRemove).toMatchObject({ __typename: 'Forbidden', code: 'OPERATOR_OWNED' });
    // Even with a stale revision the ownership rule is what the agent hears.
    expect((await ada.brainUpdate({ input: { memoryId: saved.memoryId, expectedRevision: 7, content: 'x' } })).brainUpdate.__typename).toBe('Forbidden');
    expect((await ada.brainRead({ memoryId: saved.memoryId })).brainRead).toMatchObject({ revision: 1, content: 'Never deploy on Friday.' });

    // An agent-created memory becomes operator-owned when an operator edits it.
    const own = await save(ada, { title: 'Agent note', content: 'v1' });
    const edited = await server.operator.brainUpdate({ input: { agentId: 'ada', memoryId: own.memoryId, expectedRevision: 1, content: 'v2 by operator' } });
    expect(edited.brainUpdate).toMatchObject({ __typename: 'BrainUpdateSuccess', memory: { ownership: 'OPERATOR', revision: 2, updatedBy: { kind: 'OPERATOR' } } });
    expect((await ada.brainUpdate({ input: { memoryId: own.memoryId, expectedRevision: 2, content: 'v3' } })).brainUpdate.__typename).toBe('Forbidden');
    const revisions = (await server.operator.brainRead({ memoryId: own.memoryId, agentId: 'ada' })).brainRead!.revisions;
    expect(revisions.map((r) => [r.revision, r.ownership, r.actor.kind])).toEqual([
      [2, 'OPERATOR', 'OPERATOR'],
      [1, 'AGENT', 'AGENT'],
    ]);
    // The operator can still remove it.
    expect((await server.operator.brainRemove({ input: { agentId: 'ada', memoryId: own.memoryId, expectedRevision: 2 } })).brainRemove.__typename).toBe('BrainRemoveSuccess');
  });
});
describe('events', () => {
  it('every brain change appears in agentEvents with its sequence', async () => {
    const agent = 'evented';
    const client = await server.agentClient(agent);
    const { agent: info } = await server.operator.agent({ id: agent });
    const start = info!.lastEventSequence;
    const m = await save(client, { title: 'E', content: 'one' });
    await client.brainUpdate({ input: { memoryId: m.memoryId, expectedRevision: 1, content: 'two' } });
    await client.brainUpdate({ input: { memoryId: m.memoryId, expectedRevision: 1, content: 'stale' } });
    await client.brainRemove({ input: { memoryId: m.memoryId, expectedRevision: 2 } });
    // Replay from `start` delivers exactly what the live stream delivered, in sequence order.
    const items = await take(server.operator.brainEvents({ agentId: agent, after: start }), 3);
    expect(items.map(({ agentEvents: e }) => [e.sequence, e.stream, e.type, e.subjectId, (e.payload as { revision: number }).revision])).toEqual([
      [start + 1, 'BRAIN', 'BRAIN_CREATED', m.memoryId, 1],
      [start + 2, 'BRAIN', 'BRAIN_UPDATED', m.memoryId, 2],
      [start + 3, 'BRAIN', 'BRAIN_REMOVED', m.memoryId, 3],
    ]);
  });
});

describe.skipIf(!hasRealServer)(`concurrent updates (${NEEDS_REAL_SERVER})`, () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startServer({ realServer: true });
  });
  afterAll(async () => server?.stop());

  it('20 concurrent updates with the same expectedRevision: exactly one wins, history gains one entry', async () => {
    const agent = 'racer';
    await server.agentClient(agent);
    const clients = await Promise.all(Array.from({ length: 20 }, () => server.client({ agentId: agent })));
    const m = await save(clients[0], { title: 'Race', content: 'start' });
    const results = await Promise.all(clients.map((client, i) => client.brainUpdate({ input: { memoryId: m.memoryId, expectedRevision: 1, content: `writer ${i}` } })));
    const winners = results.filter((r) => r.brainUpdate.__typename === 'BrainUpdateSuccess');
    const conflicts = results.filter((r) => r.brainUpdate.__typename === 'RevisionConflict');
    expect(winners).toHaveLength(1);
    expect(conflicts).toHaveLength(19);
    const read = (await clients[0].brainRead({ memoryId: m.memoryId })).brainRead!;
    expect(read.revision).toBe(2);
    expect(read.revisions.map((r) => r.revision)).toEqual([2, 1]);
    const winner = winners[0].brainUpdate;
    if (winner.__typename !== 'BrainUpdateSuccess') throw new Error('unreachable');
    expect(read.content).toBe(winner.memory.content);
    for (const c of conflicts) expect(c.brainUpdate).toMatchObject({ currentRevision: 2, currentContent: winner.memory.content });
  });
});
