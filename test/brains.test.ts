import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BurrowRequestError, type BurrowClient } from '../clients/typescript/sdk.js';
import { hasRealServer, NEEDS_REAL_SERVER, startServer, take, type TestServer } from './support/harness.js';

let server: TestServer;
let ada: BurrowClient;
let bob: BurrowClient;

beforeAll(async () => {
  server = await startServer();
  ada = await server.agentClient('ada');
  bob = await server.agentClient('bob');
});
afterAll(async () => server?.stop());

async function requestError(promise: Promise<unknown>): Promise<BurrowRequestError> {
  try {
    await promise;
  } catch (error) {
    if (error instanceof BurrowRequestError) return error;
    throw error;
  }
  throw new Error('expected a request error');
}

async function save(client: BurrowClient, input: { title: string; content: string; sourceRefs?: string[]; agentId?: string }) {
  const result = await client.brainSave({ input });
  if (result.brainSave.__typename !== 'BrainSaveSuccess') throw new Error(`save failed: ${JSON.stringify(result.brainSave)}`);
  server.clock.advance(1000);
  return result.brainSave.memory;
}

async function liveCount(agentId: string) {
  const { rows } = await server.database.pool.query('SELECT count(*)::int AS n, coalesce(sum(revision), 0)::int AS revs FROM brain_memories WHERE agent_id = $1', [agentId]);
  return rows[0] as { n: number; revs: number };
}

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

describe('the operator list', () => {
  const agent = 'lister';
  let ids: string[] = [];
  beforeAll(async () => {
    await server.agentClient(agent);
    ids = [];
    for (let i = 0; i < 7; i++) {
      const m = await save(server.operator, { agentId: agent, title: `Note ${i}`, content: i % 2 === 0 ? `The KESTREL flies ${i}` : `plain ${i} 100%_done` });
      ids.push(m.id);
    }
  });

  it('lists live memories newest first and pages with bound cursors', async () => {
    const first = await server.operator.brainMemories({ agentId: agent, first: 3 });
    expect(first.brainMemories.edges.map((e) => e.node.title)).toEqual(['Note 6', 'Note 5', 'Note 4']);
    expect(first.brainMemories.pageInfo.hasNextPage).toBe(true);
    const second = await server.operator.brainMemories({ agentId: agent, first: 3, after: first.brainMemories.pageInfo.endCursor });
    expect(second.brainMemories.edges.map((e) => e.node.title)).toEqual(['Note 3', 'Note 2', 'Note 1']);
    const third = await server.operator.brainMemories({ agentId: agent, first: 3, after: second.brainMemories.pageInfo.endCursor });
    expect(third.brainMemories.edges.map((e) => e.node.title)).toEqual(['Note 0']);
    expect(third.brainMemories.pageInfo.hasNextPage).toBe(false);
  });

  it('matches case-insensitive substrings of title or content, treating % and _ literally', async () => {
    const kestrel = await server.operator.brainMemories({ agentId: agent, query: 'kestrel' });
    expect(kestrel.brainMemories.edges.map((e) => e.node.title)).toEqual(['Note 6', 'Note 4', 'Note 2', 'Note 0']);
    // A full page straight from the newest memories (the probe path) looks the same.
    const page = await server.operator.brainMemories({ agentId: agent, query: 'kestrel', first: 2 });
    expect(page.brainMemories.edges.map((e) => [e.node.title, e.node.agentId, e.node.revision, e.node.ownership])).toEqual([
      ['Note 6', agent, 1, 'OPERATOR'],
      ['Note 4', agent, 1, 'OPERATOR'],
    ]);
    const next = await server.operator.brainMemories({ agentId: agent, query: 'kestrel', first: 2, after: page.brainMemories.pageInfo.endCursor });
    expect(next.brainMemories.edges.map((e) => e.node.title)).toEqual(['Note 2', 'Note 0']);
    const title = await server.operator.brainMemories({ agentId: agent, query: 'OTE 5' });
    expect(title.brainMemories.edges.map((e) => e.node.title)).toEqual(['Note 5']);
    const literal = await server.operator.brainMemories({ agentId: agent, query: '0%_d' });
    expect(literal.brainMemories.edges.map((e) => e.node.title)).toEqual(['Note 5', 'Note 3', 'Note 1']);
    expect((await server.operator.brainMemories({ agentId: agent, query: 'n%e' })).brainMemories.edges).toEqual([]);
    // Blank query means no filter.
    expect((await server.operator.brainMemories({ agentId: agent, query: '   ', first: 100 })).brainMemories.edges).toHaveLength(7);
  });

  it('rejects a cursor reused with another agent or query, malformed cursors and bad page sizes', async () => {
    const page = await server.operator.brainMemories({ agentId: agent, query: 'kestrel', first: 1 });
    const cursor = page.brainMemories.pageInfo.endCursor!;
    expect((await requestError(server.operator.brainMemories({ agentId: 'ada', query: 'kestrel', after: cursor }))).code).toBe('CURSOR_MISMATCH');
    expect((await requestError(server.operator.brainMemories({ agentId: agent, query: 'plain', after: cursor }))).code).toBe('CURSOR_MISMATCH');
    expect((await requestError(server.operator.brainMemories({ agentId: agent, after: cursor }))).code).toBe('CURSOR_MISMATCH');
    expect((await requestError(server.operator.brainMemories({ agentId: agent, query: 'kestrel', after: 'not a cursor!' }))).code).toBe('BAD_CURSOR');
    for (const first of [0, -1, 101, 1_000_000]) {
      expect((await requestError(server.operator.brainMemories({ agentId: agent, first }))).code).toBe('BAD_REQUEST');
    }
    expect((await server.operator.brainMemories({ agentId: agent, first: 100 })).brainMemories.edges).toHaveLength(7);
    expect((await requestError(server.operator.brainMemories({ agentId: agent, query: 'k'.repeat(501) }))).code).toBe('QUERY_TOO_LONG');
  });

  it('lists 50 memories with their revisions in a constant number of SQL statements', async () => {
    const bulk = 'bulk-lister';
    await server.agentClient(bulk);
    const measure = async () => {
      const before = server.database.statements.count;
      const { brainMemories } = await server.operator.brainMemoriesWithRevisions({ agentId: bulk, first: 50 });
      return { statements: server.database.statements.count - before, rows: brainMemories.edges };
    };
    for (let i = 0; i < 10; i++) await save(server.operator, { agentId: bulk, title: `b${i}`, content: 'x' });
    const small = await measure();
    expect(small.rows).toHaveLength(10);
    for (let i = 10; i < 60; i++) {
      const m = await save(server.operator, { agentId: bulk, title: `b${i}`, content: 'x' });
      await server.operator.brainUpdate({ input: { agentId: bulk, memoryId: m.memoryId, expectedRevision: 1, content: 'y' } });
    }
    const large = await measure();
    expect(large.rows).toHaveLength(50);
    expect(large.rows[0].node.revisions.map((r) => r.revision)).toEqual([2, 1]);
    expect(large.statements).toBe(small.statements);
    // token lookup + list + one batched revisions query
    expect(large.statements).toBeLessThanOrEqual(3);
  });
});

describe('statements per write', () => {
  it('saves a memory, its first revision and its event in the same statements whatever the size of the memory', async () => {
    const agent = 'save-statements';
    await server.agentClient(agent);
    const sequence = async () => (await server.operator.agent({ id: agent })).agent!.lastEventSequence;
    const measure = async (input: { title: string; content: string; sourceRefs: string[] }) => {
      const before = server.database.statements.count;
      const memory = await save(server.operator, { agentId: agent, ...input });
      return { statements: server.database.statements.count - before, memory };
    };
    const sequenceBefore = await sequence();
    const small = await measure({ title: 's', content: 'x', sourceRefs: [] });
    const large = await measure({ title: 'l'.repeat(240), content: 'y'.repeat(24_000), sourceRefs: Array.from({ length: 12 }, (_, i) => `conv:${i}`) });
    // One statement (the memory, its revision, its event and wake-up), no BEGIN/COMMIT; the token is cached
    expect(small.statements).toBe(1);
    expect(large.statements).toBe(small.statements);
    expect(await sequence()).toBe(sequenceBefore + 2);
    const { brainMemories } = await server.operator.brainMemoriesWithRevisions({ agentId: agent, first: 10 });
    expect(brainMemories.edges.map((e) => [e.node.id, e.node.revision, e.node.revisions.map((r) => [r.revision, r.action, r.actor.kind])])).toEqual([
      [large.memory.id, 1, [[1, 'CREATED', 'OPERATOR']]],
      [small.memory.id, 1, [[1, 'CREATED', 'OPERATOR']]],
    ]);
    const read = await server.operator.brainRead({ agentId: agent, memoryId: large.memory.memoryId });
    expect(read.brainRead?.sourceRefs).toEqual(Array.from({ length: 12 }, (_, i) => `conv:${i}`));
    expect(read.brainRead?.content).toBe('y'.repeat(24_000));
  });

  it('refuses a save for an agent that does not exist and stores nothing', async () => {
    const before = await server.database.pool.query(
      `SELECT (SELECT count(*) FROM brain_memories)::int AS m, (SELECT count(*) FROM brain_memory_revisions)::int AS r, (SELECT count(*) FROM agent_events)::int AS e`,
    );
    const result = await server.operator.brainSave({ input: { agentId: 'no-such-agent', title: 't', content: 'c' } });
    expect(result.brainSave.__typename).toBe('NotFound');
    const after = await server.database.pool.query(
      `SELECT (SELECT count(*) FROM brain_memories)::int AS m, (SELECT count(*) FROM brain_memory_revisions)::int AS r, (SELECT count(*) FROM agent_events)::int AS e`,
    );
    expect(after.rows[0]).toEqual(before.rows[0]);
  });
});

describe('per-item bulk deletion', () => {
  it('deletes each item independently and reports one result per item', async () => {
    const agent = 'bulkdel';
    const agentClient = await server.agentClient(agent);
    const a = await save(agentClient, { title: 'A', content: 'a' });
    const b = await save(agentClient, { title: 'B', content: 'b' });
    const c = await save(server.operator, { agentId: agent, title: 'C', content: 'c' });
    const d = await save(agentClient, { title: 'D', content: 'd' });
    await agentClient.brainUpdate({ input: { memoryId: b.memoryId, expectedRevision: 1, content: 'b2' } });

    // Agent token: the operator-owned one is forbidden, the stale one conflicts, the rest go.
    const byAgent = await agentClient.brainRemoveMany({
      agentId: agent,
      items: [
        { memoryId: a.memoryId, expectedRevision: 1 },
        { memoryId: b.memoryId, expectedRevision: 1 },
        { memoryId: c.memoryId, expectedRevision: 1 },
        { memoryId: 'missing', expectedRevision: 1 },
        { memoryId: d.memoryId, expectedRevision: 0 },
      ],
    });
    if (byAgent.brainRemoveMany.__typename !== 'BrainRemoveManySuccess') throw new Error(JSON.stringify(byAgent));
    expect(byAgent.brainRemoveMany.results.map((r) => [r.memoryId, r.status, r.currentRevision])).toEqual([
      [a.memoryId, 'DELETED', 2],
      [b.memoryId, 'REVISION_CONFLICT', 2],
      [c.memoryId, 'FORBIDDEN', null],
      ['missing', 'NOT_FOUND', null],
      [d.memoryId, 'INVALID', null],
    ]);
    expect((await agentClient.brainRead({ memoryId: a.memoryId })).brainRead).toBeNull();
    expect((await agentClient.brainRead({ memoryId: b.memoryId })).brainRead?.revision).toBe(2);
    expect((await agentClient.brainRead({ memoryId: d.memoryId })).brainRead?.revision).toBe(1);

    const byOperator = await server.operator.brainRemoveMany({
      agentId: agent,
      items: [
        { memoryId: c.memoryId, expectedRevision: 1 },
        { memoryId: a.memoryId, expectedRevision: 2 },
      ],
    });
    if (byOperator.brainRemoveMany.__typename !== 'BrainRemoveManySuccess') throw new Error(JSON.stringify(byOperator));
    expect(byOperator.brainRemoveMany.results.map((r) => r.status)).toEqual(['DELETED', 'NOT_FOUND']);
    // Only the selected ids were touched.
    const left = await server.operator.brainMemories({ agentId: agent });
    expect(left.brainMemories.edges.map((e) => e.node.title).sort()).toEqual(['B', 'D']);
  });

  it('rejects an empty or oversized selection', async () => {
    const empty = await server.operator.brainRemoveMany({ agentId: 'ada', items: [] });
    expect(empty.brainRemoveMany).toMatchObject({ __typename: 'ValidationFailed', field: 'items' });
    const tooMany = await server.operator.brainRemoveMany({ agentId: 'ada', items: Array.from({ length: 101 }, (_, i) => ({ memoryId: `x${i}`, expectedRevision: 1 })) });
    expect(tooMany.brainRemoveMany).toMatchObject({ __typename: 'ValidationFailed', field: 'items', limit: 100 });
  });
});

describe('lexical search', () => {
  it('finds memories by words of the query and says what matched', async () => {
    const agent = 'searcher';
    const client = await server.agentClient(agent);
    await save(client, { title: 'Coffee order', content: 'Oat milk flat white, no sugar.' });
    await save(client, { title: 'Tea', content: 'Earl grey with MILK.' });
    await save(client, { title: 'Unrelated', content: 'Bicycle maintenance.' });
    const result = (await client.brainSearch({ query: 'milk coffee' })).brainSearch;
    expect(result.retrieval).toEqual({ mode: 'LEXICAL', fallback: null, reason: null });
    expect(result.hits.map((h) => [h.memory.title, h.matchedBy, h.matchedTerms])).toEqual([
      ['Coffee order', ['LEXICAL'], ['milk', 'coffee']],
      ['Tea', ['LEXICAL'], ['milk']],
    ]);
    expect((await client.brainSearch({ query: 'milk', first: 1 })).brainSearch.hits).toHaveLength(1);
    // Operators search an agent's memories by naming it.
    expect((await server.operator.brainSearch({ query: 'bicycle', agentId: agent })).brainSearch.hits.map((h) => h.memory.title)).toEqual(['Unrelated']);
  });

  it('rejects empty and too-short queries and bad limits with typed errors', async () => {
    expect((await requestError(ada.brainSearch({ query: '  ' }))).code).toBe('QUERY_REQUIRED');
    expect((await requestError(ada.brainSearch({ query: 'ab c' }))).code).toBe('QUERY_TOO_SHORT');
    expect((await requestError(ada.brainSearch({ query: 'x'.repeat(501) }))).code).toBe('QUERY_TOO_LONG');
    expect((await requestError(ada.brainSearch({ query: 'tabs\u0000' }))).code).toBe('VALIDATION_FAILED');
    expect((await requestError(server.operator.brainMemories({ agentId: 'ada', query: 'tabs\u0000' }))).code).toBe('VALIDATION_FAILED');
    // LIKE wildcards are literal: a query of only wildcards matches nothing rather than everything.
    expect((await ada.brainSearch({ query: '%%%' })).brainSearch.hits).toEqual([]);
    for (const first of [0, -5, 51]) expect((await requestError(ada.brainSearch({ query: 'tabs', first }))).code).toBe('BAD_REQUEST');
  });

  it('ranks exactly by score, then updatedAt newest first, then id, however many memories match', async () => {
    // More memories than brainSearch's probe of the 500 most recently updated, with a common
    // word in every other one: better-scoring memories far older than the probe, and equal
    // timestamps straddling the probe's last row, must rank exactly as if every match were scored.
    const agent = 'ranker';
    await server.agentClient(agent);
    const memories = Array.from({ length: 1_200 }, (_, i) => {
      const n = i + 1;
      let title = `Entry ${n}`;
      let content = n % 2 === 0 ? `seen a kestrel today (${n})` : `nothing here (${n})`;
      if (n === 3) title = 'Kestrel sighting'; // title only, very old: score 2
      if (n === 5) content = 'a kestrel over the garden'; // both words apart: 2 for "kestrel garden"
      if (n === 7) [title, content] = ['KESTREL', 'kestrel again']; // title and content: 3
      if (n === 9) content = 'the kestrel garden at dusk'; // the phrase: 1 + 1 + 3
      // Whole seconds, three memories per second, so ties on updatedAt are everywhere.
      return { id: `m${String(n).padStart(5, '0')}`, title, content, updatedAt: new Date(Date.UTC(2026, 0, 1) + Math.floor(n / 3) * 1000) };
    });
    await server.database.pool.query(
      `INSERT INTO brain_memories (agent_id, id, title, content, revision, ownership, created_by_kind, created_by_id, updated_by_kind, updated_by_id, created_at, updated_at)
       SELECT $1, m.id, m.title, m.content, 1, 'AGENT', 'AGENT', $1, 'AGENT', $1, m.at, m.at
       FROM unnest($2::text[], $3::text[], $4::text[], $5::timestamptz[]) AS m(id, title, content, at)`,
      [agent, memories.map((m) => m.id), memories.map((m) => m.title), memories.map((m) => m.content), memories.map((m) => m.updatedAt.toISOString())],
    );
    const expected = (query: string, first: number) => {
      const terms = [...new Set(query.split(/\s+/).map((w) => w.toLowerCase()))];
      return memories
        .map((m) => {
          const [title, content] = [m.title.toLowerCase(), m.content.toLowerCase()];
          let score = terms.reduce((sum, t) => sum + (title.includes(t) ? 2 : 0) + (content.includes(t) ? 1 : 0), 0);
          if (terms.length > 1 && (title.includes(query) || content.includes(query))) score += 3;
          return { ...m, score };
        })
        .filter((m) => m.score > 0)
        .sort((a, b) => b.score - a.score || b.updatedAt.getTime() - a.updatedAt.getTime() || (a.id < b.id ? -1 : 1))
        .slice(0, first)
        .map((m) => [m.id, m.score]);
    };
    const client = await server.client({ agentId: agent });
    for (const [query, limit] of [
      ['kestrel', 10],
      ['kestrel', 50],
      ['kestrel garden', 10],
      ['garden kestrel', 5],
      ['nothing', 3],
      ['sighting', 10],
      ['entry', 10],
    ] as const) {
      const hits = (await client.brainSearch({ query, first: limit })).brainSearch.hits;
      expect(
        hits.map((h) => [h.memory.memoryId, h.lexicalScore]),
        `${query}, first ${limit}`,
      ).toEqual(expected(query, limit));
      // Agent.brainSearch ranks every agent's matches in one statement: exactly the same order.
      const nested = await client.request<{ agent: { brainSearch: { hits: { lexicalScore: number; memory: { memoryId: string } }[] } } }>(
        'query ($agentId: String!, $query: String!, $first: Int) { agent(agentId: $agentId) { brainSearch(query: $query, first: $first) { hits { lexicalScore memory { memoryId } } } } }',
        { agentId: agent, query, first: limit },
      );
      expect(
        nested.agent.brainSearch.hits.map((h) => [h.memory.memoryId, h.lexicalScore]),
        `nested ${query}`,
      ).toEqual(expected(query, limit));
    }
    const top = (await client.brainSearch({ query: 'kestrel', first: 4 })).brainSearch.hits.map((h) => [h.memory.title, h.lexicalScore]);
    expect(top).toEqual([
      ['KESTREL', 3],
      ['Kestrel sighting', 2],
      ['Entry 1200', 1],
      ['Entry 1198', 1],
    ]);
    // The probe, its last row and the older memories that beat it are one statement, whatever
    // the floor: older rows above it (kestrel), every older match (sighting), none (an agent
    // with fewer memories than the probe).
    await ada.brainSearch({ query: 'tabs' }); // its token's first lookup is not what is measured
    for (const [searcher, query] of [
      [client, 'kestrel'],
      [client, 'kestrel garden'],
      [client, 'sighting'],
      [ada, 'tabs'],
    ] as const) {
      const before = server.database.statements.count;
      await searcher.brainSearch({ query, first: 10 });
      expect(server.database.statements.count - before, query).toBe(1);
    }
  });

  it('reports embeddings as disabled by default', async () => {
    const status = (await ada.brainEmbeddingStatus({ agentId: 'ada' })).brainEmbeddingStatus;
    expect(status).toMatchObject({ enabled: false, model: null, vectorSearch: false, indexed: 0, pending: 0, failed: 0 });
    expect(status.reason).toMatch(/BURROW_EMBEDDINGS_URL/);
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
