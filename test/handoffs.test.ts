import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type BurrowClient, type RecordAutomaticHandoffInput, type SessionWriteHandoffInput, type SessionWriteHandoffMutation } from '../clients/typescript/sdk.js';
import { DAY_MS } from '../src/lib/clock.js';
import { hasRealServer, NEEDS_REAL_SERVER, startServer, take, type TestServer, requestError } from './support/harness.js';

let server: TestServer;
beforeAll(async () => {
  server = await startServer();
});
afterAll(async () => server?.stop());

const explicitInput = (overrides: Partial<SessionWriteHandoffInput> = {}): SessionWriteHandoffInput => ({
  title: 'explicit handoff',
  goal: 'ship the migration',
  outcome: 'schema generated, tests pending',
  body: 'Next: run the suite on the real server.',
  ...overrides,
});
const substantive = 'Planned the rollout in three steps: freeze writes, migrate the schema, then re-enable writes and verify counts.';
const automaticInput = (overrides: Partial<RecordAutomaticHandoffInput> = {}): RecordAutomaticHandoffInput => ({
  title: 'automatic handoff',
  goal: 'plan the rollout',
  outcome: '',
  body: substantive,
  ...overrides,
});
type WriteResult = SessionWriteHandoffMutation['sessionWriteHandoff'];
function handoff(result: WriteResult) {
  if (result.__typename !== 'SessionWriteHandoffSuccess') throw new Error(`expected success, got ${JSON.stringify(result)}`);
  return result.handoff;
}
async function writeExplicit(client: BurrowClient, input: SessionWriteHandoffInput) {
  return (await client.sessionWriteHandoff({ input })).sessionWriteHandoff;
}
async function writeAutomatic(client: BurrowClient, input: RecordAutomaticHandoffInput) {
  const result = (await client.recordAutomaticHandoff({ input })).recordAutomaticHandoff;
  if (result.__typename !== 'RecordAutomaticHandoffSuccess') throw new Error(`expected success, got ${JSON.stringify(result)}`);
  return result.outcome;
}

describe('sessionWriteHandoff', () => {
  it('writes an explicit handoff for the runtime agent and session with a 14-day lifetime', async () => {
    const client = await server.agentClient('ho-basic', { scope: 'p', session: 's1', conversation: 'c1' });
    const now = server.clock.now();
    const h = handoff(await writeExplicit(client, explicitInput({ sourceRefs: [{ ref: 'doc:a' }, { ref: 'tool:run/1', evidence: 'TOOL_EVIDENCE' }] })));
    expect(h).toMatchObject({
      agentId: 'ho-basic',
      project: 'p',
      sessionId: 's1',
      conversationId: 'c1',
      origin: 'EXPLICIT',
      ttlDays: 14,
      revision: 1,
      sourceRefs: [
        { ref: 'doc:a', evidence: 'ASSISTANT_ASSERTION' },
        { ref: 'tool:run/1', evidence: 'TOOL_EVIDENCE' },
      ],
    });
    expect(h.expiresAt).toBe(new Date(now.getTime() + 14 * DAY_MS).toISOString());
  });

  it('fails closed without a session or a scope, and on a differing project', async () => {
    await server.agentClient('ho-ctx');
    const noSession = await server.client({ agentId: 'ho-ctx', scope: 'p' });
    expect((await requestError(noSession.sessionWriteHandoff({ input: explicitInput() }))).code).toBe('SESSION_REQUIRED');
    expect((await requestError(noSession.recordAutomaticHandoff({ input: automaticInput() }))).code).toBe('SESSION_REQUIRED');
    const noScope = await server.client({ agentId: 'ho-ctx', session: 's' });
    expect((await requestError(noScope.sessionWriteHandoff({ input: explicitInput() }))).code).toBe('continuity_scope_required');
    expect((await requestError(noScope.sessionReadHandoff({}))).code).toBe('continuity_scope_required');
    const scoped = await server.client({ agentId: 'ho-ctx', scope: 'p', session: 's' });
    expect((await requestError(scoped.sessionWriteHandoff({ input: explicitInput({ project: 'q' }) }))).code).toBe('continuity_scope_mismatch');
    expect((await scoped.sessionReadHandoff({})).sessionReadHandoff).toEqual([]);
  });

  it('enforces the limits at the boundary and one past it, changing nothing on rejection', async () => {
    const client = await server.agentClient('ho-limits', { scope: 'p', session: 's' });
    const accepted: Partial<SessionWriteHandoffInput>[] = [
      { title: 't'.repeat(240) },
      { body: 'b'.repeat(24_000) },
      { goal: 'g'.repeat(4000), outcome: 'o'.repeat(4000) },
      { sourceRefs: Array.from({ length: 8 }, (_, i) => ({ ref: `r${i}` })) },
      { ttlDays: 1 },
      { ttlDays: 36_500 },
      { title: 'the last accepted' },
    ];
    let revision = 0;
    for (const input of accepted) revision = handoff(await writeExplicit(client, explicitInput(input))).revision;
    expect(revision).toBe(accepted.length);
    const rejected: [Partial<SessionWriteHandoffInput>, string, number | null][] = [
      [{ title: 't'.repeat(241) }, 'title', 240],
      [{ title: '' }, 'title', 240],
      [{ body: 'b'.repeat(24_001) }, 'body', 24_000],
      [{ goal: 'g'.repeat(4001) }, 'goal', 4000],
      [{ outcome: 'o'.repeat(4001) }, 'outcome', 4000],
      [{ sourceRefs: Array.from({ length: 9 }, (_, i) => ({ ref: `r${i}` })) }, 'sourceRefs', 8],
      [{ sourceRefs: [{ ref: ' ' }] }, 'sourceRefs.0.ref', 1000],
      [{ ttlDays: 0 }, 'ttlDays', 36_500],
      [{ ttlDays: 36_501 }, 'ttlDays', 36_500],
      [{ body: 'nul \u0000 byte' }, 'body', null],
    ];
    for (const [input, field, limit] of rejected) {
      expect(await writeExplicit(client, explicitInput(input))).toMatchObject({ __typename: 'ValidationFailed', field, limit });
    }
    const [current] = (await client.sessionReadHandoff({})).sessionReadHandoff;
    expect(current).toMatchObject({ title: 'the last accepted', revision: accepted.length });
  });

  it('enforces the limits as database constraints too', async () => {
    const connection = await server.database.pool.connect();
    const attempt = async (overrides: Record<string, unknown>) => {
      const row = {
        agent_id: 'ho-basic',
        id: `db-${Math.random()}`,
        project: 'p',
        session_id: `s-${Math.random()}`,
        origin: 'EXPLICIT',
        title: 't',
        goal: '',
        outcome: '',
        body: '',
        source_refs: JSON.stringify([]),
        ttl_days: 14,
        expires_at: new Date(),
        revision: 1,
        created_at: new Date(),
        updated_at: new Date(),
        written_by_kind: 'AGENT',
        written_by_id: 'x',
        ...overrides,
      };
      const columns = Object.keys(row);
      await connection.query('SAVEPOINT attempt');
      try {
        await connection.query(`INSERT INTO session_handoffs (${columns.join(', ')}) VALUES (${columns.map((_, i) => `$${i + 1}`).join(', ')})`, Object.values(row));
        return null;
      } catch (error) {
        return error as { code?: string; constraint?: string };
      } finally {
        await connection.query('ROLLBACK TO SAVEPOINT attempt');
      }
    };
    const refs = (n: number, evidence = 'TOOL_EVIDENCE') => JSON.stringify(Array.from({ length: n }, (_, i) => ({ ref: `r${i}`, evidence })));
    try {
      await connection.query('BEGIN');
      expect(await attempt({ title: 't'.repeat(240), body: 'b'.repeat(24_000), source_refs: refs(8) })).toBeNull();
      const violations: [Record<string, unknown>, string][] = [
        [{ title: 't'.repeat(241) }, 'session_handoffs_title_length'],
        [{ body: 'b'.repeat(24_001) }, 'session_handoffs_body_length'],
        [{ source_refs: refs(9) }, 'session_handoffs_source_refs_count'],
        [{ source_refs: refs(1, 'HEARSAY') }, 'session_handoffs_source_refs_shape'],
        [{ ttl_days: 0 }, 'session_handoffs_ttl_days'],
        [{ origin: 'GUESSED' }, 'session_handoffs_origin'],
      ];
      for (const [overrides, constraint] of violations) expect(await attempt(overrides)).toMatchObject({ code: '23514', constraint });
    } finally {
      await connection.query('ROLLBACK');
      connection.release();
    }
  });
});

describe('automatic handoffs', () => {
  it('are runtime-only: an operator token is refused', async () => {
    await server.agentClient('ho-runtime');
    const operator = await server.client({ scope: 'p', session: 's' });
    expect((await requestError(operator.recordAutomaticHandoff({ input: automaticInput({ agentId: 'ho-runtime' }) }))).code).toBe('FORBIDDEN');
  });

  it('skip trivial exchanges but keep substantive planning without tools, and short exchanges with tool evidence', async () => {
    const client = await server.agentClient('ho-trivial', { scope: 'p', session: 'trivial' });
    const trivial = await writeAutomatic(client, automaticInput({ goal: 'hi', outcome: 'said hello', body: '' }));
    expect(trivial).toEqual({ written: false, skippedReason: 'TRIVIAL', handoff: null });
    expect((await client.sessionReadHandoff({})).sessionReadHandoff).toEqual([]);
    const planning = await writeAutomatic(client, automaticInput());
    expect(planning).toMatchObject({ written: true, skippedReason: null, handoff: { origin: 'AUTOMATIC', body: substantive, sourceRefs: [] } });
    const tooled = await server.client({ agentId: 'ho-trivial', scope: 'p', session: 'tooled' });
    const withTool = await writeAutomatic(
      tooled,
      automaticInput({ goal: 'ls', outcome: 'ok', body: '', sourceRefs: [{ ref: 'tool:ls/1', evidence: 'TOOL_EVIDENCE' }, { ref: 'said:1' }] }),
    );
    expect(withTool).toMatchObject({
      written: true,
      handoff: {
        sessionId: 'tooled',
        sourceRefs: [
          { ref: 'tool:ls/1', evidence: 'TOOL_EVIDENCE' },
          { ref: 'said:1', evidence: 'ASSISTANT_ASSERTION' },
        ],
      },
    });
    // An assistant assertion alone is not tool evidence: a short exchange with it stays trivial.
    const asserted = await writeAutomatic(tooled, automaticInput({ goal: 'ls', outcome: 'ok', body: '', sourceRefs: [{ ref: 'said:2', evidence: 'ASSISTANT_ASSERTION' }] }));
    expect(asserted.skippedReason).toBe('TRIVIAL');
  });

  it('never overwrite an explicit handoff, which in turn replaces an automatic one', async () => {
    const client = await server.agentClient('ho-precedence', { scope: 'p', session: 's' });
    const auto1 = await writeAutomatic(client, automaticInput({ title: 'auto 1' }));
    expect(auto1.handoff).toMatchObject({ origin: 'AUTOMATIC', revision: 1 });
    const auto2 = await writeAutomatic(client, automaticInput({ title: 'auto 2' }));
    expect(auto2.handoff).toMatchObject({ origin: 'AUTOMATIC', title: 'auto 2', revision: 2 });
    const explicit = handoff(await writeExplicit(client, explicitInput({ title: 'mine' })));
    expect(explicit).toMatchObject({ origin: 'EXPLICIT', title: 'mine', revision: 3 });
    const refused = await writeAutomatic(client, automaticInput({ title: 'auto 3' }));
    expect(refused).toMatchObject({ written: false, skippedReason: 'EXPLICIT_PRESENT', handoff: { origin: 'EXPLICIT', title: 'mine', revision: 3 } });
    const read = (await client.sessionReadHandoff({})).sessionReadHandoff;
    expect(read).toHaveLength(1);
    expect(read[0]).toMatchObject({ origin: 'EXPLICIT', title: 'mine', revision: 3, updatedAt: explicit.updatedAt });
  });

  it('never overwrite an expired explicit handoff either: it keeps its slot until retention removes it (issue 11)', async () => {
    const client = await server.agentClient('ho-expired', { scope: 'p', session: 's' });
    const other = await server.client({ agentId: 'ho-expired', scope: 'p', session: 's-other' });
    const start = server.clock.now();
    const explicit = handoff(await writeExplicit(client, explicitInput({ title: 'mine', ttlDays: 1 })));
    server.clock.advance(1000);
    await writeAutomatic(other, automaticInput({ title: 'other session' }));
    const row = async () =>
      (await server.database.pool.query('SELECT origin, title, revision, expires_at FROM session_handoffs WHERE agent_id = $1 AND session_id = $2', ['ho-expired', 's'])).rows;
    const stored = await row();

    // At the instant it expires, and long after (but within retention's grace), the explicit row stays.
    for (const at of [DAY_MS, DAY_MS + 1000, 7 * DAY_MS]) {
      server.clock.set(new Date(start.getTime() + at));
      const refused = await writeAutomatic(client, automaticInput({ title: 'auto over expired' }));
      expect(refused).toMatchObject({
        written: false,
        skippedReason: 'EXPLICIT_EXPIRED',
        handoff: { handoffId: explicit.handoffId, origin: 'EXPLICIT', title: 'mine', revision: 1, expiresAt: explicit.expiresAt },
      });
      expect(await row()).toEqual(stored);
      // Reading shows unexpired handoffs only: the session's expired explicit one is not among them,
      // and the refused automatic one was never stored.
      expect((await client.sessionReadHandoff({})).sessionReadHandoff.map((h) => [h.sessionId, h.title])).toEqual([['s-other', 'other session']]);
    }
    // The agent itself may replace it with a new explicit handoff at any time; here it does not.
    // Retention removes the explicit row once its grace (7 days after expiry) has passed ...
    server.clock.set(new Date(start.getTime() + 8 * DAY_MS + 1));
    const report = (await server.operator.runRetention()).runRetention;
    expect(report.stores.find((s) => s.store === 'SESSION_HANDOFFS')!.removed).toBeGreaterThanOrEqual(1);
    expect(await row()).toEqual([]);
    // ... and only then does an automatic handoff take the session's slot.
    const after = await writeAutomatic(client, automaticInput({ title: 'auto after retention' }));
    expect(after).toMatchObject({ written: true, skippedReason: null, handoff: { origin: 'AUTOMATIC', title: 'auto after retention', revision: 1 } });
    server.clock.set(start);
  });
});

describe('operator-written handoffs', () => {
  it('cannot be replaced by the agent while they live', async () => {
    const client = await server.agentClient('ho-owned', { scope: 'p', session: 's' });
    const operator = await server.client({ scope: 'p', session: 's' });
    const written = handoff(await writeExplicit(operator, explicitInput({ agentId: 'ho-owned', title: 'from the operator', ttlDays: 2 })));
    expect(written).toMatchObject({ operatorOwned: true, writtenBy: { kind: 'OPERATOR', principalId: 'test-operator' }, origin: 'EXPLICIT' });
    expect(await writeExplicit(client, explicitInput({ title: 'agent' }))).toMatchObject({ __typename: 'Forbidden', code: 'OPERATOR_OWNED' });
    expect(await writeAutomatic(client, automaticInput())).toMatchObject({ written: false, skippedReason: 'EXPLICIT_PRESENT' });
    expect((await client.sessionReadHandoff({})).sessionReadHandoff.map((h) => [h.title, h.revision])).toEqual([['from the operator', 1]]);
    const start = server.clock.now();
    server.clock.advance(2 * 86_400_000);
    expect(handoff(await writeExplicit(client, explicitInput({ title: 'agent after expiry' })))).toMatchObject({ operatorOwned: false, revision: 2 });
    server.clock.set(start);
  });
});

describe('sessionReadHandoff', () => {
  it('returns explicit handoffs first, then the current session, then the newest, hiding expired ones', async () => {
    await server.agentClient('ho-read');
    const at = (session: string) => server.client({ agentId: 'ho-read', scope: 'p', session });
    const start = server.clock.now();
    handoff(await writeExplicit(await at('s-explicit'), explicitInput({ title: 'explicit oldest' })));
    server.clock.advance(1000);
    await writeAutomatic(await at('s-current'), automaticInput({ title: 'current session' }));
    server.clock.advance(1000);
    await writeAutomatic(await at('s-old'), automaticInput({ title: 'older other' }));
    server.clock.advance(1000);
    await writeAutomatic(await at('s-new'), automaticInput({ title: 'newest other' }));
    server.clock.advance(1000);
    handoff(await writeExplicit(await at('s-short'), explicitInput({ title: 'explicit short-lived', ttlDays: 1 })));
    const otherScope = await server.client({ agentId: 'ho-read', scope: 'elsewhere', session: 's-current' });
    await writeAutomatic(otherScope, automaticInput({ title: 'other scope' }));

    const current = await at('s-current');
    const titles = async (first?: number) => (await current.sessionReadHandoff({ first })).sessionReadHandoff.map((h) => h.title);
    expect(await titles()).toEqual(['explicit short-lived', 'explicit oldest', 'current session', 'newest other', 'older other']);
    expect(await titles(2)).toEqual(['explicit short-lived', 'explicit oldest']);
    expect((await requestError(current.sessionReadHandoff({ first: 11 }))).code).toBe('VALIDATION_FAILED');
    server.clock.set(new Date(start.getTime() + 4000 + DAY_MS));
    expect(await titles()).toEqual(['explicit oldest', 'current session', 'newest other', 'older other']);
    server.clock.set(new Date(start.getTime() + 14 * DAY_MS + 500));
    expect(await titles()).toEqual(['current session', 'newest other', 'older other']);
    server.clock.set(start);
  });

  it('publishes handoff changes in agentEvents', async () => {
    const client = await server.agentClient('ho-events', { scope: 'p', session: 's' });
    const h = handoff(await writeExplicit(client, explicitInput()));
    await writeAutomatic(client, automaticInput()); // refused: no event
    handoff(await writeExplicit(client, explicitInput({ title: 'second' })));
    const events = (await take(client.agentEvents({ agentId: 'ho-events', after: 0 }), 3)).map((e) => e.agentEvents);
    expect(events.map((e) => [e.stream, e.type, e.subjectId, (e.payload as { revision?: number }).revision ?? null])).toEqual([
      ['PROFILE', 'AGENT_CREATED', 'ho-events', null],
      ['HANDOFF', 'HANDOFF_WRITTEN', h.handoffId, 1],
      ['HANDOFF', 'HANDOFF_WRITTEN', h.handoffId, 2],
    ]);
    expect(events.map((e) => e.sequence)).toEqual([1, 2, 3]);
  });
});

describe('Agent.handoffs', () => {
  it('gives each agent of a page its own handoffs only, however many agents the one batched statement reads', async () => {
    const ids = ['ho-batch-a', 'ho-batch-b', 'ho-batch-c'];
    for (const [i, agentId] of ids.entries()) {
      await server.agentClient(agentId);
      const client = await server.client({ agentId, scope: 'batch', session: `s-${i}` });
      handoff(await writeExplicit(client, explicitInput({ title: `explicit of ${agentId}` })));
      if (i < 2) await writeAutomatic(await server.client({ agentId, scope: 'batch', session: `t-${i}` }), automaticInput({ title: `automatic of ${agentId}` }));
    }
    const operator = await server.client({ scope: 'batch' });
    const { agents } = await operator.request<{ agents: { edges: { node: { agentId: string; handoffs: { agentId: string; title: string }[] } }[] } }>(
      `{ agents(first: 100) { edges { node { agentId handoffs(first: 10) { agentId title } } } } }`,
    );
    const seen = Object.fromEntries(agents.edges.map((e) => [e.node.agentId, e.node.handoffs.map((h) => `${h.agentId}: ${h.title}`)]));
    expect(ids.map((id) => seen[id])).toEqual([
      ['ho-batch-a: explicit of ho-batch-a', 'ho-batch-a: automatic of ho-batch-a'],
      ['ho-batch-b: explicit of ho-batch-b', 'ho-batch-b: automatic of ho-batch-b'],
      ['ho-batch-c: explicit of ho-batch-c'],
    ]);
    for (const edge of agents.edges) expect(edge.node.handoffs.every((h) => h.agentId === edge.node.agentId)).toBe(true);
  });
});

describe.skipIf(!hasRealServer)(`races on real connections (${NEEDS_REAL_SERVER})`, () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startServer({ realServer: true });
  });
  afterAll(async () => server?.stop());

  it('an explicit handoff racing automatic ones always ends up in the slot', async () => {
    await server.agentClient('ho-race');
    for (let round = 0; round < 10; round++) {
      const session = `race-${round}`;
      const clients = await Promise.all(Array.from({ length: 4 }, () => server.client({ agentId: 'ho-race', scope: 'p', session })));
      await Promise.all([
        writeExplicit(clients[0], explicitInput({ title: `explicit ${round}` })),
        ...clients.slice(1).map((c, i) => writeAutomatic(c, automaticInput({ title: `auto ${round}.${i}` }))),
      ]);
      const [current] = (await clients[0].sessionReadHandoff({ first: 1 })).sessionReadHandoff;
      expect(current).toMatchObject({ sessionId: session, origin: 'EXPLICIT', title: `explicit ${round}` });
    }
  });
});
