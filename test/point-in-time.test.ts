/**
 * Point-in-time reads (`asOf:`) of memories and profile documents, from their revisions: absent
 * before creation, each revision from exactly its own time (and not 1 ms earlier), tombstones
 * after removal, lists with their text filter and bound cursors, batching, authorization and
 * bad input. The server's clock ticks 1 ms at every reading, so a write that read the clock twice
 * (the memory's updatedAt and its revision's time) would put its revision after the updatedAt the
 * API shows, and the reads at exactly that time would fail.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { BurrowClient } from '../clients/typescript/sdk.js';
import { ManualClock } from '../src/lib/clock.js';
import { requestError, startServer, type TestServer } from './support/harness.js';
import { call, connectHttp, mcpAgentToken, ok, toolFailure } from './support/mcp.js';

/** Every reading of the clock is 1 ms after the one before. */
class TickingClock extends ManualClock {
  override now(): Date {
    const at = super.now();
    this.advance(1);
    return at;
  }
}

let server: TestServer;
let agent: BurrowClient;
let mcp: Client;
const AGENT = 'pit';

const iso = (at: Date | string) => new Date(at).toISOString();
const before = (at: string) => iso(new Date(new Date(at).getTime() - 1));

beforeAll(async () => {
  server = await startServer({ clock: new TickingClock('2026-06-01T12:00:00.000Z') });
  agent = await server.agentClient(AGENT);
  mcp = await connectHttp(server.url, await mcpAgentToken(server, AGENT));
});
afterAll(async () => {
  await mcp?.close();
  await server?.stop();
});

/** The life of one memory: saved, edited twice, removed, a minute apart; the API's times of each. */
async function memoryLife(title: string) {
  const saved = await agent.brainSave({ input: { title, content: 'alpha: first words' } });
  if (saved.brainSave.__typename !== 'BrainSaveSuccess') throw new Error(JSON.stringify(saved));
  const { memoryId, createdAt } = saved.brainSave.memory;
  server.clock.advance(60_000);
  const first = await agent.brainUpdate({ input: { memoryId, expectedRevision: 1, content: 'beta: second words' } });
  server.clock.advance(60_000);
  const second = await agent.brainUpdate({ input: { memoryId, expectedRevision: 2, title: `${title} (renamed)` } });
  server.clock.advance(60_000);
  const removed = await agent.brainRemove({ input: { memoryId, expectedRevision: 3 } });
  server.clock.advance(60_000);
  if (first.brainUpdate.__typename !== 'BrainUpdateSuccess' || second.brainUpdate.__typename !== 'BrainUpdateSuccess' || removed.brainRemove.__typename !== 'BrainRemoveSuccess') {
    throw new Error('a write of the memory failed');
  }
  return { memoryId, created: createdAt, edited: first.brainUpdate.memory.updatedAt, renamed: second.brainUpdate.memory.updatedAt, removed: removed.brainRemove.memory.deletedAt! };
}

describe('a memory as of an instant', () => {
  let life: Awaited<ReturnType<typeof memoryLife>>;
  const readAt = async (asOf: string) => (await agent.brainRead({ memoryId: life.memoryId, asOf, revisions: 10 })).brainRead;

  beforeAll(async () => {
    life = await memoryLife('Kestrel');
  });

  it("records each revision at its memory's updatedAt, and the removal at its deletedAt", async () => {
    const { rows } = await server.database.pool.query('SELECT revision, action, created_at FROM brain_memory_revisions WHERE agent_id = $1 AND memory_id = $2 ORDER BY revision', [
      AGENT,
      life.memoryId,
    ]);
    expect(rows.map((r) => [r.revision, r.action, iso(r.created_at)])).toEqual([
      [1, 'created', life.created],
      [2, 'updated', life.edited],
      [3, 'updated', life.renamed],
      [4, 'removed', life.removed],
    ]);
  });

  it('is absent before its creation, each revision from exactly its own time, and a tombstone once removed', async () => {
    expect(await readAt(before(life.created))).toBeNull();
    expect(await readAt('2000-01-01T00:00:00Z')).toBeNull();
    const shape = (m: Awaited<ReturnType<typeof readAt>>) =>
      m && {
        revision: m.revision,
        title: m.title,
        content: m.content,
        deleted: m.deleted,
        deletedAt: m.deletedAt,
        updatedAt: m.updatedAt,
        revisions: m.revisions.map((r) => r.revision),
      };
    const v1 = { revision: 1, title: 'Kestrel', content: 'alpha: first words', deleted: false, deletedAt: null, updatedAt: life.created, revisions: [1] };
    const v2 = { ...v1, revision: 2, content: 'beta: second words', updatedAt: life.edited, revisions: [2, 1] };
    const v3 = { ...v2, revision: 3, title: 'Kestrel (renamed)', updatedAt: life.renamed, revisions: [3, 2, 1] };
    const tombstone = { ...v3, revision: 4, deleted: true, deletedAt: life.removed, updatedAt: life.removed, revisions: [4, 3, 2, 1] };
    expect(shape(await readAt(life.created))).toEqual(v1);
    expect(shape(await readAt(before(life.edited)))).toEqual(v1);
    expect(shape(await readAt(life.edited))).toEqual(v2);
    expect(shape(await readAt(before(life.renamed)))).toEqual(v2);
    expect(shape(await readAt(life.renamed))).toEqual(v3);
    expect(shape(await readAt(before(life.removed)))).toEqual(v3);
    expect(shape(await readAt(life.removed))).toEqual(tombstone);
    expect(shape(await readAt('2999-01-01T00:00:00Z'))).toEqual(tombstone);
    // An instant in another zone is the same instant.
    expect((await readAt(new Date(life.edited).toISOString().replace('Z', '+00:00')))?.revision).toBe(2);
    // Without asOf the removed memory stays hidden, as before.
    expect((await agent.brainRead({ memoryId: life.memoryId })).brainRead).toBeNull();
    // The creation and who created it are the memory's; the writer is the revision's.
    const past = await readAt(life.edited);
    expect([past?.createdAt, past?.createdBy, past?.updatedBy]).toEqual([life.created, { kind: 'AGENT', principalId: AGENT }, { kind: 'AGENT', principalId: AGENT }]);
  });

  it('lists what existed then, tombstones included, with the text of that time and cursors bound to asOf', async () => {
    const later = await agent.brainSave({ input: { title: 'Later', content: 'beta: saved after the removal' } });
    if (later.brainSave.__typename !== 'BrainSaveSuccess') throw new Error('save failed');
    const laterAt = later.brainSave.memory.createdAt;
    const list = async (asOf: string, query?: string) =>
      (await server.operator.brainMemories({ agentId: AGENT, asOf, query })).brainMemories.edges.map((e) => [e.node.title, e.node.revision, e.node.deleted, e.node.deletedAt]);
    expect(await list(before(life.created))).toEqual([]);
    expect(await list(life.created)).toEqual([['Kestrel', 1, false, null]]);
    expect(await list(life.removed)).toEqual([['Kestrel (renamed)', 4, true, life.removed]]);
    expect(await list(laterAt)).toEqual([
      ['Later', 1, false, null],
      ['Kestrel (renamed)', 4, true, life.removed],
    ]);
    // The text filter reads the title and content as they were.
    expect(await list(life.created, 'alpha')).toEqual([['Kestrel', 1, false, null]]);
    expect(await list(life.edited, 'alpha')).toEqual([]);
    expect(await list(life.edited, 'BETA')).toEqual([['Kestrel', 2, false, null]]);
    expect(await list(laterAt, 'beta')).toEqual([
      ['Later', 1, false, null],
      ['Kestrel (renamed)', 4, true, life.removed],
    ]);
    expect(await list(laterAt, 'renamed')).toEqual([['Kestrel (renamed)', 4, true, life.removed]]);
    // Without asOf: live memories only.
    expect((await server.operator.brainMemories({ agentId: AGENT })).brainMemories.edges.map((e) => e.node.title)).toEqual(['Later']);

    const page = (await server.operator.brainMemories({ agentId: AGENT, asOf: laterAt, first: 1 })).brainMemories;
    expect([page.edges.map((e) => e.node.title), page.pageInfo.hasNextPage]).toEqual([['Later'], true]);
    const next = (await server.operator.brainMemories({ agentId: AGENT, asOf: laterAt, first: 1, after: page.pageInfo.endCursor })).brainMemories;
    expect([next.edges.map((e) => e.node.title), next.pageInfo.hasNextPage]).toEqual([['Kestrel (renamed)'], false]);
    for (const asOf of [life.removed, undefined]) {
      expect((await requestError(server.operator.brainMemories({ agentId: AGENT, asOf, first: 1, after: page.pageInfo.endCursor }))).code).toBe('CURSOR_MISMATCH');
    }

    // Agent.brainMemories answers the same from the same statement for every agent of a page.
    const nested = (await agent.agentBrainMemories({ agentId: AGENT, asOf: life.edited, query: 'beta' })).agent!.brainMemories.edges.map((e) => e.node);
    expect(nested).toEqual([{ memoryId: life.memoryId, title: 'Kestrel', revision: 2, deleted: false, deletedAt: null }]);
  });

  it('brain_read takes asOf: the revision of that time, NOT_FOUND before it existed, the tombstone after; a bad asOf is VALIDATION_FAILED', async () => {
    expect(ok(await call(mcp, 'brain_read', { memoryId: life.memoryId, asOf: life.edited })).memory).toMatchObject({
      memoryId: life.memoryId,
      revision: 2,
      content: 'beta: second words',
      deleted: false,
      deletedAt: null,
      updatedAt: life.edited,
    });
    expect(ok(await call(mcp, 'brain_read', { memoryId: life.memoryId, asOf: before(life.edited) })).memory.revision).toBe(1);
    expect(ok(await call(mcp, 'brain_read', { memoryId: life.memoryId, asOf: life.removed })).memory).toMatchObject({ revision: 4, deleted: true, deletedAt: life.removed });
    expect(toolFailure(await call(mcp, 'brain_read', { memoryId: life.memoryId, asOf: before(life.created) }))).toMatchObject({ code: 'NOT_FOUND', resourceId: life.memoryId });
    expect(toolFailure(await call(mcp, 'brain_read', { memoryId: life.memoryId }))).toMatchObject({ code: 'NOT_FOUND' });
    for (const asOf of ['yesterday', '2026-06-01', '2026-13-45T00:00:00Z', '2026-06-01T12:00:00', '']) {
      expect(toolFailure(await call(mcp, 'brain_read', { memoryId: life.memoryId, asOf })), asOf).toMatchObject({
        type: 'ValidationFailed',
        code: 'VALIDATION_FAILED',
        field: 'asOf',
      });
    }
    expect(toolFailure(await call(mcp, 'brain_read', { memoryId: life.memoryId, asOf: 1_780_000_000_000 }))).toMatchObject({ code: 'VALIDATION_FAILED', field: 'asOf' });
    const { tools } = await mcp.listTools();
    expect((tools.find((t) => t.name === 'brain_read')!.inputSchema.properties as Record<string, unknown>).asOf).toMatchObject({ type: 'string', format: 'date-time' });
  });
});

describe('profile documents as of an instant', () => {
  let createdAt: string;
  const writes: string[] = [];

  beforeAll(async () => {
    const made = await server.operator.createAgent({ input: { agentId: 'pit-profile', name: 'Profile in time' } });
    if (made.createAgent.__typename !== 'CreateAgentSuccess') throw new Error(JSON.stringify(made));
    createdAt = made.createAgent.agent.createdAt;
    for (const [revision, content] of [
      [1, 'I am the first soul'],
      [2, 'I am the second soul'],
    ] as const) {
      server.clock.advance(60_000);
      const written = await server.operator.updateProfileDocument({ input: { agentId: 'pit-profile', kind: 'SOUL', content, expectedRevision: revision } });
      if (written.updateProfileDocument.__typename !== 'UpdateProfileDocumentSuccess') throw new Error(JSON.stringify(written));
      writes.push(written.updateProfileDocument.document.updatedAt);
    }
  });

  const soulAt = async (asOf: string) => {
    const doc = (await server.operator.profileDocument({ agentId: 'pit-profile', kind: 'SOUL', asOf, revisions: 10 })).profileDocument;
    return (
      doc && { revision: doc.revision, content: doc.content, updatedAt: doc.updatedAt, revisions: doc.revisions.edges.map((e) => e.node.revision), total: doc.revisions.totalCount }
    );
  };

  it('is absent before the agent existed and each revision from exactly its own time', async () => {
    expect(await soulAt(before(createdAt))).toBeNull();
    expect(await soulAt(createdAt)).toEqual({ revision: 1, content: '', updatedAt: createdAt, revisions: [1], total: 1 });
    expect(await soulAt(before(writes[0]))).toEqual({ revision: 1, content: '', updatedAt: createdAt, revisions: [1], total: 1 });
    expect(await soulAt(writes[0])).toEqual({ revision: 2, content: 'I am the first soul', updatedAt: writes[0], revisions: [2, 1], total: 2 });
    expect(await soulAt(before(writes[1]))).toMatchObject({ revision: 2 });
    expect(await soulAt(writes[1])).toEqual({ revision: 3, content: 'I am the second soul', updatedAt: writes[1], revisions: [3, 2, 1], total: 3 });
    // The current document (no asOf) is unchanged.
    expect((await server.operator.profileDocument({ agentId: 'pit-profile', kind: 'SOUL' })).profileDocument).toMatchObject({ revision: 3, content: 'I am the second soul' });
  });

  it('finds a revision stored with microseconds at the millisecond time the API shows for it', async () => {
    await server.database.pool.query(
      `UPDATE agent_profile_revisions SET created_at = created_at + interval '456 microseconds' WHERE agent_id = 'pit-profile' AND kind = 'SOUL' AND revision = 3`,
    );
    const shown = (await server.operator.profileDocument({ agentId: 'pit-profile', kind: 'SOUL', revisions: 1 })).profileDocument!.revisions.edges[0].node;
    expect([shown.revision, shown.createdAt]).toEqual([3, writes[1]]);
    expect((await soulAt(shown.createdAt))?.revision).toBe(3);
  });

  it('Agent.profile(asOf:) gives all six of that time; it and Agent.brainMemories(asOf:) take one statement each for a page of agents', async () => {
    const profileAt = async (asOf: string) => (await server.operator.agentProfile({ agentId: 'pit-profile', asOf })).agent!.profile.map((d) => [d.kind, d.revision]);
    expect(await profileAt(before(createdAt))).toEqual([]);
    expect(await profileAt(writes[0])).toEqual([
      ['SOUL', 2],
      ['RULES', 1],
      ['ORIENTATION', 1],
      ['PREFERENCES', 1],
      ['TOOLS', 1],
      ['DREAM_MEMORY', 1],
    ]);
    const query =
      'query ($asOf: DateTime, $first: Int) { agents(first: $first) { edges { node { agentId profile(asOf: $asOf) { kind revision } brainMemories(asOf: $asOf, first: 5) { edges { node { memoryId } } } } } } }';
    const statements = async (first: number) => {
      const start = server.database.statements.count;
      const answer = await server.operator.request<{ agents: { edges: { node: { agentId: string; profile: unknown[]; brainMemories: { edges: unknown[] } } }[] } }>(query, {
        asOf: writes[1],
        first,
      });
      expect(answer.agents.edges).toHaveLength(first);
      // Each agent gets its own page: pit's two memories (the tombstone and the later one), none for the others.
      for (const { node } of answer.agents.edges)
        expect([node.agentId, node.profile.length, node.brainMemories.edges.length]).toEqual([node.agentId, 6, node.agentId === AGENT ? 2 : 0]);
      return server.database.statements.count - start;
    };
    expect(await statements(2)).toBe(await statements(1));
  });
});

describe('asOf keeps the rules of the reads it extends', () => {
  it('an agent token naming another agent is still AGENT_MISMATCH, and nothing is read', async () => {
    await server.agentClient('pit-other');
    const asOf = '2999-01-01T00:00:00Z';
    expect((await requestError(agent.brainRead({ memoryId: 'anything', agentId: 'pit-other', asOf }))).code).toBe('AGENT_MISMATCH');
    expect((await requestError(agent.brainMemories({ agentId: 'pit-other', asOf }))).code).toBe('AGENT_MISMATCH');
    expect((await requestError(agent.agentBrainMemories({ agentId: 'pit-other', asOf }))).code).toBe('AGENT_MISMATCH');
    expect((await requestError(agent.profileDocument({ agentId: 'pit-other', kind: 'SOUL', asOf }))).code).toBe('AGENT_MISMATCH');
    expect((await requestError(agent.agentProfile({ agentId: 'pit-other', asOf }))).code).toBe('AGENT_MISMATCH');
  });

  it('a bad asOf is BAD_REQUEST naming the type DateTime, never an internal error', async () => {
    for (const asOf of ['yesterday', '2026-13-45T00:00:00Z', 12]) {
      for (const query of [
        'query ($asOf: DateTime) { brainRead(memoryId: "x", asOf: $asOf) { memoryId } }',
        `query ($asOf: DateTime) { brainMemories(agentId: "${AGENT}", asOf: $asOf) { edges { cursor } } }`,
        'query ($asOf: DateTime) { profileDocument(agentId: "pit", kind: SOUL, asOf: $asOf) { revision } }',
      ]) {
        const error = await requestError(agent.request(query, { asOf }));
        expect([error.code, error.message], `${query} ${asOf}`).toEqual(['BAD_REQUEST', expect.stringContaining('"DateTime"')]);
      }
    }
    // Written into the document, it fails validation before anything runs.
    const literal = await requestError(agent.request('{ brainRead(memoryId: "x", asOf: "not a date") { memoryId } }'));
    expect([literal.code, literal.status, literal.message]).toEqual(['GRAPHQL_VALIDATION_FAILED', 400, expect.stringContaining('DateTime')]);
  });
});
