import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type BurrowClient, type MemoryWorkingWriteInput, type MemoryWorkingWriteMutation } from '../clients/typescript/sdk.js';
import { DAY_MS } from '../src/lib/clock.js';
import { hasRealServer, NEEDS_REAL_SERVER, startServer, take, type TestServer, requestError } from './support/harness.js';

let server: TestServer;
let agent: BurrowClient;

beforeAll(async () => {
  server = await startServer();
  agent = await server.agentClient('wm-agent', { scope: 'proj-a', session: 'sess-1', conversation: 'conv-1' });
});
afterAll(async () => server?.stop());

type WriteResult = MemoryWorkingWriteMutation['memoryWorkingWrite'];
const base = (overrides: Partial<MemoryWorkingWriteInput> = {}): MemoryWorkingWriteInput => ({
  kind: 'FINDING',
  title: 'a finding',
  content: 'the content',
  ...overrides,
});
async function write(client: BurrowClient, input: MemoryWorkingWriteInput): Promise<WriteResult> {
  return (await client.memoryWorkingWrite({ input })).memoryWorkingWrite;
}
function record(result: WriteResult) {
  if (result.__typename !== 'MemoryWorkingWriteSuccess') throw new Error(`expected success, got ${JSON.stringify(result)}`);
  return result.record;
}
function failure(result: WriteResult) {
  if (result.__typename === 'MemoryWorkingWriteSuccess') throw new Error('expected a failure');
  return result;
}
async function countAll(client: BurrowClient) {
  let total = 0;
  let after: string | null = null;
  for (;;) {
    const page: Awaited<ReturnType<BurrowClient['workingRecords']>> = await client.workingRecords({ first: 100, after });
    total += page.workingRecords.edges.length;
    if (!page.workingRecords.pageInfo.hasNextPage) return total;
    after = page.workingRecords.pageInfo.endCursor;
  }
}

describe('memoryWorkingWrite', () => {
  it('creates a record in the runtime-owned agent, scope, session and conversation with a 90-day default TTL', async () => {
    const now = server.clock.now();
    const r = record(await write(agent, base({ kind: 'DECISION', sourceRefs: ['doc:1', 'doc:2'] })));
    expect(r).toMatchObject({
      agentId: 'wm-agent',
      project: 'proj-a',
      sessionId: 'sess-1',
      conversationId: 'conv-1',
      kind: 'DECISION',
      state: 'ACTIVE',
      pinned: false,
      ttlDays: 90,
      revision: 1,
      sourceRefs: ['doc:1', 'doc:2'],
      supersededById: null,
      writtenBy: { kind: 'AGENT', principalId: 'wm-agent' },
    });
    expect(r.createdAt).toBe(now.toISOString());
    expect(r.updatedAt).toBe(now.toISOString());
    expect(r.expiresAt).toBe(new Date(now.getTime() + 90 * DAY_MS).toISOString());
  });

  it('takes the default TTL from the deployment config', async () => {
    const other = await startServer({ config: { workingMemory: { defaultTtlDays: 3 } } });
    try {
      const client = await other.agentClient('cfg-agent', { scope: 's' });
      const r = record(await write(client, base()));
      expect(r.ttlDays).toBe(3);
      expect(r.expiresAt).toBe(new Date(other.clock.now().getTime() + 3 * DAY_MS).toISOString());
    } finally {
      await other.stop();
    }
  });

  it('fails closed without a continuity scope and rejects a differing project', async () => {
    const unscoped = await server.client({ agentId: 'wm-agent', session: 'sess-1' });
    expect((await requestError(unscoped.memoryWorkingWrite({ input: base() }))).code).toBe('continuity_scope_required');
    expect((await requestError(unscoped.memoryWorkingSearch({ query: 'x' }))).code).toBe('continuity_scope_required');
    expect((await requestError(agent.memoryWorkingWrite({ input: base({ project: 'proj-b' }) }))).code).toBe('continuity_scope_mismatch');
    expect((await requestError(agent.memoryWorkingSearch({ project: 'proj-b' }))).code).toBe('continuity_scope_mismatch');
    expect((await requestError(agent.workingRecords({ project: 'proj-b' }))).code).toBe('continuity_scope_mismatch');
    expect(record(await write(agent, base({ project: 'proj-a', title: 'same project repeated' }))).project).toBe('proj-a');
  });

  it('binds agent tokens to their agent and makes operators name one', async () => {
    await server.agentClient('wm-other', { scope: 'proj-a' });
    expect((await requestError(agent.memoryWorkingWrite({ input: base({ agentId: 'wm-other' }) }))).code).toBe('AGENT_MISMATCH');
    const operator = await server.client({ scope: 'proj-a' });
    expect((await requestError(operator.memoryWorkingWrite({ input: base() }))).code).toBe('FORBIDDEN');
    const written = record(await write(operator, base({ agentId: 'wm-other', title: 'by operator' })));
    expect(written).toMatchObject({ agentId: 'wm-other', writtenBy: { kind: 'OPERATOR', principalId: 'test-operator' } });
  });

  it('enforces every limit at the boundary and one past it, changing nothing on rejection', async () => {
    const client = await server.agentClient('wm-limits', { scope: 'limits' });
    const before = await countAll(client);
    const accepted: [string, Partial<MemoryWorkingWriteInput>][] = [
      ['title 240', { title: 't'.repeat(240) }],
      ['title 240 emoji code points', { title: '🦊'.repeat(240) }],
      ['content 6000', { content: 'c'.repeat(6000) }],
      ['12 refs', { sourceRefs: Array.from({ length: 12 }, (_, i) => `ref:${i}`) }],
      ['ttl 1', { ttlDays: 1 }],
      ['ttl 36500', { ttlDays: 36_500 }],
    ];
    for (const [, input] of accepted) record(await write(client, base(input)));
    const rejected: [Partial<MemoryWorkingWriteInput>, string, number | null][] = [
      [{ title: 't'.repeat(241) }, 'title', 240],
      [{ title: '🦊'.repeat(241) }, 'title', 240],
      [{ title: '   ' }, 'title', 240],
      [{ content: 'c'.repeat(6001) }, 'content', 6000],
      [{ sourceRefs: Array.from({ length: 13 }, (_, i) => `ref:${i}`) }, 'sourceRefs', 12],
      [{ sourceRefs: ['x'.repeat(1001)] }, 'sourceRefs.0', 1000],
      [{ ttlDays: 0 }, 'ttlDays', 36_500],
      [{ ttlDays: 36_501 }, 'ttlDays', 36_500],
      [{ ttlDays: -5 }, 'ttlDays', 36_500],
    ];
    for (const [input, field, limit] of rejected) {
      const error = failure(await write(client, base(input)));
      expect(error).toMatchObject({ __typename: 'ValidationFailed', code: 'VALIDATION_FAILED', field, limit });
    }
    expect(await countAll(client)).toBe(before + accepted.length);
  });

  it('enforces the limits as database constraints too', async () => {
    // One checked-out connection, each attempt in a savepoint: a failed statement must not cost
    // the embedded database its only connection.
    const connection = await server.database.pool.connect();
    const insert = async (overrides: Record<string, unknown>) => {
      const row = {
        agent_id: 'wm-agent',
        id: `db-${Math.random()}`,
        project: 'p',
        kind: 'FINDING',
        state: 'ACTIVE',
        title: 't',
        content: 'c',
        source_refs: [],
        pinned: false,
        ttl_days: 90,
        expires_at: new Date(),
        revision: 1,
        created_at: new Date(),
        updated_at: new Date(),
        written_by_kind: 'AGENT',
        written_by_id: 'x',
        superseded_by: null,
        ...overrides,
      };
      const columns = Object.keys(row);
      await connection.query('SAVEPOINT attempt');
      try {
        await connection.query(`INSERT INTO working_records (${columns.join(', ')}) VALUES (${columns.map((_, i) => `$${i + 1}`).join(', ')})`, Object.values(row));
        return null;
      } catch (error) {
        return error as { code?: string; constraint?: string };
      } finally {
        await connection.query('ROLLBACK TO SAVEPOINT attempt');
      }
    };
    try {
      await connection.query('BEGIN');
      expect(await insert({ title: 't'.repeat(240), content: 'c'.repeat(6000), ttl_days: 36_500 })).toBeNull();
      const violations: [Record<string, unknown>, string][] = [
        [{ title: 't'.repeat(241) }, 'working_records_title_length'],
        [{ content: 'c'.repeat(6001) }, 'working_records_content_length'],
        [{ source_refs: Array.from({ length: 13 }, (_, i) => `r${i}`) }, 'working_records_source_refs_count'],
        [{ source_refs: ['x'.repeat(1001)] }, 'working_records_source_ref_length'],
        [{ ttl_days: 0 }, 'working_records_ttl_days'],
        [{ ttl_days: 36_501 }, 'working_records_ttl_days'],
        [{ kind: 'CHORE' }, 'working_records_kind'],
        [{ state: 'SUPERSEDED' }, 'working_records_superseded_link'],
      ];
      for (const [overrides, constraint] of violations) {
        expect(await insert(overrides)).toMatchObject({ code: '23514', constraint });
      }
    } finally {
      await connection.query('ROLLBACK');
      connection.release();
    }
  });

  it('keeps operator-written records operator-owned: the agent cannot rewrite or resolve them', async () => {
    const client = await server.agentClient('wm-owned', { scope: 'own' });
    const operator = await server.client({ scope: 'own' });
    const r = record(await write(operator, base({ agentId: 'wm-owned', title: 'operator note' })));
    expect(r.operatorOwned).toBe(true);
    expect(failure(await write(client, base({ recordId: r.recordId, expectedRevision: 1, title: 'agent edit' })))).toMatchObject({
      __typename: 'Forbidden',
      code: 'OPERATOR_OWNED',
    });
    expect((await client.resolveWorkingRecord({ input: { recordId: r.recordId, expectedRevision: 1 } })).resolveWorkingRecord).toMatchObject({ code: 'OPERATOR_OWNED' });
    expect((await client.workingRecord({ recordId: r.recordId })).workingRecord).toMatchObject({ title: 'operator note', revision: 1, state: 'ACTIVE' });
    const edited = record(await write(operator, base({ agentId: 'wm-owned', recordId: r.recordId, expectedRevision: 1, title: 'operator edit' })));
    expect(edited).toMatchObject({ revision: 2, operatorOwned: true });
    const own = record(await write(client, base({ title: 'agent note' })));
    expect(own.operatorOwned).toBe(false);
  });

  it('takes the runtime scope and session from connectionParams over WebSocket', async () => {
    const client = await server.agentClient('wm-ws', { scope: 'ws-scope', session: 'ws-session' });
    const written = (await client.memoryWorkingWrite({ input: base({ title: 'over the socket' }) }, { transport: 'ws' })).memoryWorkingWrite;
    expect(record(written)).toMatchObject({ agentId: 'wm-ws', project: 'ws-scope', sessionId: 'ws-session' });
    const found = (await client.memoryWorkingSearch({ query: 'socket' }, { transport: 'ws' })).memoryWorkingSearch;
    expect(found.map((r) => r.title)).toEqual(['over the socket']);
    await expect(client.memoryWorkingSearch({ project: 'other' }, { transport: 'ws' })).rejects.toMatchObject({ code: 'continuity_scope_mismatch' });
  });

  it('accepts TASK as operational evidence only', async () => {
    const r = record(await write(agent, base({ kind: 'TASK', title: 'follow up on the migration' })));
    expect(r.kind).toBe('TASK');
    const { __schema } = await agent.request<{ __schema: { types: { name: string; enumValues: { name: string; description: string | null }[] | null }[] } }>(
      '{ __schema { types { name enumValues { name description } } } }',
    );
    const task = __schema.types.find((t) => t.name === 'WorkingRecordKind')!.enumValues!.find((v) => v.name === 'TASK')!;
    expect(task.description).toMatch(/not a board task/);
  });
});

describe('expiry, pinning and rewrites', () => {
  it('hides expired records from every read while pinned records bypass expiry', async () => {
    const client = await server.agentClient('wm-expiry', { scope: 'exp' });
    const start = server.clock.now();
    const plain = record(await write(client, base({ title: 'short lived zeta', ttlDays: 1 })));
    const pinned = record(await write(client, base({ title: 'pinned zeta', ttlDays: 1, pinned: true })));
    server.clock.set(new Date(start.getTime() + DAY_MS - 1));
    expect((await client.memoryWorkingSearch({ query: 'zeta' })).memoryWorkingSearch.map((r) => r.recordId).sort()).toEqual([plain.recordId, pinned.recordId].sort());
    server.clock.set(new Date(start.getTime() + DAY_MS));
    expect((await client.memoryWorkingSearch({ query: 'zeta' })).memoryWorkingSearch.map((r) => r.recordId)).toEqual([pinned.recordId]);
    expect((await client.workingRecords({})).workingRecords.edges.map((e) => e.node.recordId)).toEqual([pinned.recordId]);
    expect((await client.workingRecord({ recordId: plain.recordId })).workingRecord).toBeNull();
    expect((await client.workingRecord({ recordId: pinned.recordId })).workingRecord?.recordId).toBe(pinned.recordId);
    // An expired record cannot be rewritten or resolved: it is gone for every read.
    expect(failure(await write(client, base({ recordId: plain.recordId, expectedRevision: 1, title: 'revive' })))).toMatchObject({ __typename: 'NotFound' });
    expect((await client.resolveWorkingRecord({ input: { recordId: plain.recordId, expectedRevision: 1 } })).resolveWorkingRecord.__typename).toBe('NotFound');
    server.clock.set(start);
  });

  it('keeps the existing expiry when unchanged material is rewritten, and sets a new one on a real change', async () => {
    const client = await server.agentClient('wm-rewrite', { scope: 'rw' });
    const start = server.clock.now();
    const original = record(await write(client, base({ title: 'stable', content: 'same', ttlDays: 10, sourceRefs: ['a'] })));
    server.clock.advance(5 * DAY_MS);
    const same = record(await write(client, base({ recordId: original.recordId, expectedRevision: 1, title: 'stable', content: 'same', ttlDays: 10, sourceRefs: ['a'] })));
    expect(same).toMatchObject({ revision: 1, expiresAt: original.expiresAt, updatedAt: original.updatedAt });
    // Optional fields left out keep their values, so this is unchanged as well.
    const sameAgain = record(await write(client, base({ recordId: original.recordId, expectedRevision: 1, title: 'stable', content: 'same' })));
    expect(sameAgain).toMatchObject({ revision: 1, expiresAt: original.expiresAt, sourceRefs: ['a'] });
    const changed = record(await write(client, base({ recordId: original.recordId, expectedRevision: 1, title: 'stable', content: 'different' })));
    expect(changed.revision).toBe(2);
    expect(changed.expiresAt).toBe(new Date(start.getTime() + 15 * DAY_MS).toISOString());
    expect(changed.updatedAt).toBe(server.clock.now().toISOString());
    expect(changed.createdAt).toBe(original.createdAt);
    // A new TTL is a change, computed from now.
    const retimed = record(await write(client, base({ recordId: original.recordId, expectedRevision: 2, title: 'stable', content: 'different', ttlDays: 2 })));
    expect(retimed).toMatchObject({ revision: 3, ttlDays: 2, expiresAt: new Date(server.clock.now().getTime() + 2 * DAY_MS).toISOString() });
    server.clock.set(start);
  });

  it('revision-checks rewrites: a stale revision is a RevisionConflict that changes nothing', async () => {
    const client = await server.agentClient('wm-conflict', { scope: 'rc' });
    const r = record(await write(client, base({ content: 'v1' })));
    record(await write(client, base({ recordId: r.recordId, expectedRevision: 1, content: 'v2' })));
    const conflict = failure(await write(client, base({ recordId: r.recordId, expectedRevision: 1, content: 'v3' })));
    expect(conflict).toMatchObject({ __typename: 'RevisionConflict', expectedRevision: 1, currentRevision: 2, currentContent: 'v2' });
    expect((await client.workingRecord({ recordId: r.recordId })).workingRecord).toMatchObject({ content: 'v2', revision: 2 });
    expect(failure(await write(client, base({ recordId: r.recordId, content: 'v3' })))).toMatchObject({ __typename: 'ValidationFailed', field: 'expectedRevision' });
    expect(failure(await write(client, base({ recordId: 'nope', expectedRevision: 1 })))).toMatchObject({ __typename: 'NotFound' });
    // Another scope of the same agent does not see the record.
    const elsewhere = await server.client({ agentId: 'wm-conflict', scope: 'other-scope' });
    expect(failure(await write(elsewhere, base({ recordId: r.recordId, expectedRevision: 2, content: 'v3' })))).toMatchObject({ __typename: 'NotFound' });
  });

  it('changes state only through explicit, revision-checked mutations, with a supersede link', async () => {
    const client = await server.agentClient('wm-state', { scope: 'st' });
    const a = record(await write(client, base({ title: 'old decision', kind: 'DECISION' })));
    const b = record(await write(client, base({ title: 'new decision', kind: 'DECISION' })));
    const resolved = (await client.resolveWorkingRecord({ input: { recordId: a.recordId, expectedRevision: 1 } })).resolveWorkingRecord;
    expect(resolved).toMatchObject({ __typename: 'ResolveWorkingRecordSuccess', record: { state: 'RESOLVED', revision: 2, expiresAt: a.expiresAt } });
    const selfLink = (await client.supersedeWorkingRecord({ input: { recordId: a.recordId, expectedRevision: 2, supersededById: a.recordId } })).supersedeWorkingRecord;
    expect(selfLink).toMatchObject({ __typename: 'ValidationFailed', field: 'supersededById' });
    const missing = (await client.supersedeWorkingRecord({ input: { recordId: a.recordId, expectedRevision: 2, supersededById: 'missing' } })).supersedeWorkingRecord;
    expect(missing).toMatchObject({ __typename: 'ValidationFailed', field: 'supersededById' });
    const superseded = (await client.supersedeWorkingRecord({ input: { recordId: a.recordId, expectedRevision: 2, supersededById: b.recordId } })).supersedeWorkingRecord;
    expect(superseded).toMatchObject({ record: { state: 'SUPERSEDED', supersededById: b.recordId, revision: 3 } });
    const stale = (await client.reactivateWorkingRecord({ input: { recordId: a.recordId, expectedRevision: 2 } })).reactivateWorkingRecord;
    expect(stale).toMatchObject({ __typename: 'RevisionConflict', currentRevision: 3 });
    const active = (await client.reactivateWorkingRecord({ input: { recordId: a.recordId, expectedRevision: 3 } })).reactivateWorkingRecord;
    expect(active).toMatchObject({ record: { state: 'ACTIVE', supersededById: null, revision: 4 } });
    // Through the write verb, SUPERSEDED needs its link.
    expect(failure(await write(client, base({ state: 'SUPERSEDED' })))).toMatchObject({ __typename: 'ValidationFailed', field: 'supersededById' });
    expect(failure(await write(client, base({ supersededById: b.recordId })))).toMatchObject({ __typename: 'ValidationFailed', field: 'supersededById' });
  });
});

describe('bounded search and lists', () => {
  it('searches lexically over title and content, at most 10, with kind and state filters, in the current agent and scope', async () => {
    const client = await server.agentClient('wm-search', { scope: 'sr' });
    for (let i = 0; i < 12; i++) record(await write(client, base({ title: `Gamma note ${i}`, content: 'body', kind: i % 2 ? 'BLOCKER' : 'FINDING' })));
    server.clock.advance(1000);
    record(await write(client, base({ title: 'unrelated', content: 'mentions GAMMA in content only' })));
    server.clock.advance(1000);
    record(await write(client, base({ title: '100% literal_match', content: 'x' })));
    const other = await server.agentClient('wm-search-other', { scope: 'sr' });
    record(await write(other, base({ title: 'Gamma of another agent' })));
    const otherScope = await server.client({ agentId: 'wm-search', scope: 'sr-2' });
    record(await write(otherScope, base({ title: 'Gamma in another scope' })));

    const all = (await client.memoryWorkingSearch({ query: 'gamma' })).memoryWorkingSearch;
    expect(all).toHaveLength(10);
    expect(all.every((r) => r.agentId === 'wm-search' && r.project === 'sr' && r.title.startsWith('Gamma note'))).toBe(true);
    const contentHit = (await client.memoryWorkingSearch({ query: 'gamma content' })).memoryWorkingSearch;
    expect(contentHit.map((r) => r.title)).toEqual(['unrelated']);
    const blockers = (await client.memoryWorkingSearch({ query: 'gamma', kind: 'BLOCKER' })).memoryWorkingSearch;
    expect(blockers).toHaveLength(6);
    expect(blockers.every((r) => r.kind === 'BLOCKER')).toBe(true);
    expect((await client.memoryWorkingSearch({ query: 'gamma', state: 'RESOLVED' })).memoryWorkingSearch).toHaveLength(0);
    expect((await client.memoryWorkingSearch({ query: '%' })).memoryWorkingSearch.map((r) => r.title)).toEqual(['100% literal_match']);
    expect((await client.memoryWorkingSearch({ query: 'gamma', first: 3 })).memoryWorkingSearch).toHaveLength(3);
    const noQuery = (await client.memoryWorkingSearch({})).memoryWorkingSearch;
    expect(noQuery).toHaveLength(10);
    expect(noQuery[0].title).toBe('100% literal_match');
    expect((await requestError(client.memoryWorkingSearch({ query: 'gamma', first: 11 }))).code).toBe('VALIDATION_FAILED');
    expect((await requestError(client.memoryWorkingSearch({ query: 'gamma', first: 0 }))).code).toBe('VALIDATION_FAILED');
  });

  it('lists at most 100 per page with bound cursors', async () => {
    const client = await server.agentClient('wm-list', { scope: 'ls' });
    for (let i = 0; i < 105; i++) {
      record(await write(client, base({ title: `item ${i}`, kind: i < 100 ? 'FINDING' : 'BLOCKER' })));
      server.clock.advance(1000);
    }
    const first = (await client.workingRecords({ first: 100 })).workingRecords;
    expect(first.edges).toHaveLength(100);
    expect(first.pageInfo.hasNextPage).toBe(true);
    expect(first.edges[0].node.title).toBe('item 104');
    const second = (await client.workingRecords({ first: 100, after: first.pageInfo.endCursor })).workingRecords;
    expect(second.edges.map((e) => e.node.title)).toEqual(['item 4', 'item 3', 'item 2', 'item 1', 'item 0']);
    expect(second.pageInfo.hasNextPage).toBe(false);
    expect((await requestError(client.workingRecords({ first: 101 }))).code).toBe('BAD_REQUEST');
    expect((await requestError(client.workingRecords({ first: 10, after: first.pageInfo.endCursor, kinds: ['BLOCKER'] }))).code).toBe('CURSOR_MISMATCH');
    expect((await requestError(client.workingRecords({ first: 10, after: 'garbage' }))).code).toBe('BAD_CURSOR');
    expect((await client.workingRecords({ first: 100, kinds: ['BLOCKER'] })).workingRecords.edges).toHaveLength(5);
  });
});

describe('events', () => {
  it('publishes working-record changes in agentEvents with their sequence', async () => {
    const client = await server.agentClient('wm-events', { scope: 'ev' });
    const r = record(await write(client, base({ title: 'evented' })));
    record(await write(client, base({ recordId: r.recordId, expectedRevision: 1, title: 'evented', content: 'changed' })));
    record(await write(client, base({ recordId: r.recordId, expectedRevision: 2, title: 'evented', content: 'changed' }))); // unchanged: no event
    await client.resolveWorkingRecord({ input: { recordId: r.recordId, expectedRevision: 2 } });
    const events = (await take(client.agentEvents({ agentId: 'wm-events', after: 0 }), 4)).map((e) => e.agentEvents);
    const working = events.filter((e) => e.stream === 'WORKING');
    expect(working.map((e) => [e.type, e.subjectId, e.project, (e.payload as { revision: number }).revision])).toEqual([
      ['WORKING_CREATED', r.recordId, 'ev', 1],
      ['WORKING_UPDATED', r.recordId, 'ev', 2],
      ['WORKING_RESOLVED', r.recordId, 'ev', 3],
    ]);
    const sequences = events.map((e) => e.sequence);
    expect(sequences).toEqual([...sequences].sort((a, b) => a - b));
    expect(new Set(sequences).size).toBe(sequences.length);
  });
});

describe.skipIf(!hasRealServer)(`races on real connections (${NEEDS_REAL_SERVER})`, () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startServer({ realServer: true });
  });
  afterAll(async () => server?.stop());

  it('concurrent rewrites of one revision: exactly one wins, the others get RevisionConflict', async () => {
    await server.agentClient('wm-race');
    const clients = await Promise.all(Array.from({ length: 6 }, () => server.client({ agentId: 'wm-race', scope: 'race' })));
    const r = record(await write(clients[0], base({ content: 'v1' })));
    const results = await Promise.all(clients.map((c, i) => write(c, base({ recordId: r.recordId, expectedRevision: 1, content: `writer ${i}` }))));
    const winners = results.filter((x) => x.__typename === 'MemoryWorkingWriteSuccess');
    expect(winners).toHaveLength(1);
    expect(results.filter((x) => x.__typename === 'RevisionConflict')).toHaveLength(5);
    const stored = (await clients[0].workingRecord({ recordId: r.recordId })).workingRecord!;
    expect(stored).toMatchObject({ revision: 2, content: record(winners[0]).content });
  });
});
