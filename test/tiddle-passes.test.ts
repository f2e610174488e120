/**
 * Tiddle passes through the real server: the schedule with per-scope success and leases, gated
 * proposals from a real chat-completions server on 127.0.0.1, atomic commits under injected
 * faults, and history retention.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DAY_MS, HOUR_MS } from '../src/lib/clock.js';
import type { PassOutcome } from '../src/domains/tiddle/tiddle.service.js';
import type { ChatServer } from './support/chat-server.js';
import { take, waitUntil, type TestServer, faultSwitch } from './support/harness.js';
import { append, expectRequestError, mine, startTiddleServer, tiddleHelpers } from './support/tiddle.js';

let server: TestServer;
let chat: ChatServer;
let proposerTimeoutMs: number;
const faults = faultSwitch();
beforeAll(async () => {
  ({ server, chat, proposerTimeoutMs } = await startTiddleServer(faults.inject));
});
afterAll(async () => {
  await server?.stop();
  await chat?.close();
});

const { tick, runtime, cards, scopeStatus } = tiddleHelpers(() => server);

describe('scheduled passes', () => {
  it('runs a scope every 4 hours over its last 24 hours of residue', async () => {
    const client = await runtime('cad-a', 'alpha');
    const t0 = server.clock.now().getTime();
    await append(client, 'c1');
    await append(client, 'c2');
    expect(new Date((await scopeStatus('cad-a', 'alpha'))!.nextRunAt).getTime()).toBe(t0 + 4 * HOUR_MS);
    expect(mine(await tick(), 'cad-a')).toEqual([]);
    server.clock.set(new Date(t0 + 4 * HOUR_MS - 1));
    expect(mine(await tick(), 'cad-a')).toEqual([]);
    server.clock.set(new Date(t0 + 4 * HOUR_MS));
    const first = mine(await tick(), 'cad-a').filter((o) => o.kind === 'pass');
    expect(first.map((o) => [o.project, o.status, o.residueConsidered])).toEqual([['alpha', 'SUCCEEDED', 2]]);
    const requests = chat.requestsFor('cad-a', 'pass');
    expect(requests.length).toBe(1);
    expect(requests[0].project).toBe('alpha');
    expect(requests[0].residue!.map((r) => r.reference).sort()).toEqual(['c1', 'c2']);
    for (const raw of chat.raw) {
      expect(raw.body).toMatchObject({ model: 'tiddle-test', response_format: { type: 'json_object' } });
      expect(raw.authorization).toBe('Bearer sk-test');
    }
    const status = (await scopeStatus('cad-a', 'alpha'))!;
    expect(status.lastSuccessAt).toBe(new Date(t0 + 4 * HOUR_MS).toISOString());
    expect(status.nextRunAt).toBe(new Date(t0 + 8 * HOUR_MS).toISOString());

    // Not again until 4 hours later; then the window is the last 24 hours only.
    server.clock.set(new Date(t0 + 8 * HOUR_MS - 1));
    expect(mine(await tick(), 'cad-a')).toEqual([]);
    server.clock.set(new Date(t0 + 20 * HOUR_MS));
    await append(client, 'c3');
    server.clock.set(new Date(t0 + 24 * HOUR_MS + 1));
    const late = mine(await tick(), 'cad-a').filter((o) => o.kind === 'pass');
    expect(late.length).toBe(1);
    expect(
      chat
        .requestsFor('cad-a', 'pass')
        .at(-1)!
        .residue!.map((r) => r.reference),
    ).toEqual(['c3']);
  });

  it('tracks success per scope: a failed scope retries alone, successful scopes are not replayed', async () => {
    const a = await runtime('retry-a', 'good');
    const b = await runtime('retry-a', 'bad');
    let failing = true;
    chat.script('retry-a', (req) => (req.project === 'bad' && failing ? { status: 500, body: 'model overloaded' } : { proposals: [] }));
    await append(a, 'g1');
    await append(a, 'g2');
    await append(b, 'b1');
    await append(b, 'b2');
    server.clock.advance(4 * HOUR_MS);
    const first = mine(await tick(), 'retry-a').filter((o) => o.kind === 'pass');
    expect(first.map((o) => [o.project, o.status]).sort()).toEqual([
      ['bad', 'FAILED'],
      ['good', 'SUCCEEDED'],
    ]);
    const failedAt = server.clock.now().getTime();
    const bad = (await scopeStatus('retry-a', 'bad'))!;
    expect(bad.lastSuccessAt).toBeNull();
    expect(bad.lastError).toContain('HTTP 500');
    expect(bad.lastError).toContain('model overloaded');
    expect(bad.consecutiveFailures).toBe(1);
    expect(bad.nextRunAt).toBe(new Date(failedAt + 5 * 60_000).toISOString());
    const good = (await scopeStatus('retry-a', 'good'))!;
    expect(good.lastSuccessAt).toBe(new Date(failedAt).toISOString());
    expect(good.lastError).toBeNull();

    failing = false;
    const requestsBefore = chat.requestsFor('retry-a').length;
    server.clock.advance(5 * 60_000);
    const retry = mine(await tick(), 'retry-a').filter((o) => o.kind === 'pass');
    expect(retry.map((o) => [o.project, o.status])).toEqual([['bad', 'SUCCEEDED']]);
    const retried = chat.requestsFor('retry-a').slice(requestsBefore);
    expect(retried.map((r) => r.project)).toEqual(['bad']);
    const healed = (await scopeStatus('retry-a', 'bad'))!;
    expect(healed.lastError).toBeNull();
    expect(healed.consecutiveFailures).toBe(0);
    expect((await scopeStatus('retry-a', 'good'))!.lastSuccessAt).toBe(new Date(failedAt).toISOString());
    const history = (await server.operator.tiddleHistory({ agentId: 'retry-a' })).tiddleHistory.edges.map((e) => e.node).filter((h) => h.project !== '*');
    expect(history.map((h) => h.project).sort()).toEqual(['bad', 'good']);
  });

  it('leases a claimed scope: a second pass is skipped while it runs, and a pass that lost its lease commits nothing', async () => {
    const agentId = 'lease-a';
    const client = await runtime(agentId, 'alpha');
    await append(client, 'l1');
    await append(client, 'l2');
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    let calls = 0;
    chat.script(agentId, async () => {
      calls++;
      if (calls === 1) await gate;
      return { proposals: [{ action: 'create', title: `From call ${calls}`, body: 'b', evidence: ['l1', 'l2'] }] };
    });
    server.clock.advance(4 * HOUR_MS);
    const slow = tick();
    await waitUntil(() => chat.requestsFor(agentId).length > 0, 'the claimed pass calls the proposer');

    const busy = await server.operator.tiddleRunPass({ agentId, project: 'alpha' });
    if (busy.tiddleRunPass.__typename !== 'TiddleRunPassSuccess') throw new Error(JSON.stringify(busy));
    expect(busy.tiddleRunPass.outcomes.map((o) => [o.status, o.error])).toEqual([['SKIPPED', 'another pass of this scope is running']]);

    // The lease is the proposer timeout plus a minute of business time; past it, the scope is free.
    server.clock.advance(proposerTimeoutMs + 60_000 + 1);
    const takeover = await server.operator.tiddleRunPass({ agentId, project: 'alpha' });
    if (takeover.tiddleRunPass.__typename !== 'TiddleRunPassSuccess') throw new Error(JSON.stringify(takeover));
    expect(takeover.tiddleRunPass.outcomes.map((o) => o.status)).toEqual(['SUCCEEDED']);
    release();
    const late = mine(await slow, agentId).filter((o) => o.kind === 'pass');
    expect(late.map((o) => o.status)).toEqual(['SKIPPED']);
    expect((await cards(agentId, 'alpha')).map((c) => c.title)).toEqual(['From call 2']);
    expect((await server.operator.tiddleHistory({ agentId, project: 'alpha' })).tiddleHistory.edges.map((e) => e.node).length).toBe(1);
  });

  it('lets an operator run a pass now, and refuses agent tokens', async () => {
    const client = await runtime('now-a', 'alpha');
    await append(client, 'n1');
    const run = await server.operator.tiddleRunPass({ agentId: 'now-a', project: 'alpha' });
    expect(run.tiddleRunPass.__typename).toBe('TiddleRunPassSuccess');
    if (run.tiddleRunPass.__typename !== 'TiddleRunPassSuccess') return;
    expect(run.tiddleRunPass.outcomes.map((o) => [o.project, o.status, o.trigger, o.residueConsidered])).toEqual([['alpha', 'SUCCEEDED', 'OPERATOR', 1]]);
    const missing = await server.operator.tiddleRunPass({ agentId: 'now-a', project: 'nowhere' });
    expect(missing.tiddleRunPass.__typename).toBe('NotFound');
    const nobody = await server.operator.tiddleRunPass({ agentId: 'nobody-here' });
    expect(nobody.tiddleRunPass).toMatchObject({ __typename: 'NotFound', resource: 'Agent', resourceId: 'nobody-here' });
    await expect(server.operator.tiddleStatus({ agentId: 'nobody-here' })).rejects.toMatchObject({ code: 'NOT_FOUND' });
    const cross = await server.operator.tiddleRunPass({ agentId: 'now-a', project: '*' });
    expect(cross.tiddleRunPass).toMatchObject({ __typename: 'ValidationFailed', field: 'project' });
    // Agent tokens read their own scope's history only.
    expect((await client.tiddleHistory({ agentId: 'now-a' })).tiddleHistory.edges.map((e) => e.node).map((h) => h.project)).toEqual(['alpha']);
    await expectRequestError(client.tiddleHistory({ agentId: 'now-a', project: 'beta' }), 'continuity_scope_mismatch');
    await expectRequestError(client.tiddleRunPass({ agentId: 'now-a' }), 'FORBIDDEN');
  });
});

describe('proposals', () => {
  it('gates recurrence, preserves evidence, needs exact identities and turns corrections into preference signals', async () => {
    const client = await runtime('prop-a', 'alpha');
    await append(client, 'r1', 'the deploy script needs the staging flag');
    await append(client, 'r2', 'again the staging flag for deploys');
    await append(client, 'r3', 'please stop using bullet lists, I prefer prose');
    chat.script('prop-a', (req) => {
      if (req.mode !== 'pass') return { proposals: [] };
      return {
        proposals: [
          { action: 'create', title: 'Vivid', body: 'one exchange only', evidence: ['r1'] },
          { action: 'create', title: 'Repeated ref', body: 'same entry twice', evidence: ['r1', 'r1'] },
          { action: 'create', title: 'Ghost', body: 'cites nothing real', evidence: ['r1', 'ghost'] },
          {
            action: 'create',
            title: 'Deploys need the staging\u0000 flag',
            body: 'Deploy with --staging.',
            evidence: ['r1', 'r2'],
            metadata: { legacy: { format: 'v1', id: 'L-7' } },
          },
          { action: 'preference_signal', statement: 'Prefers prose over bullet lists', evidence: ['r3'] },
          { action: 'profile_update', kind: 'PREFERENCES', content: 'Always write prose.', evidence: ['r3'] },
          { action: 'noop', reason: 'nothing else' },
          { action: 'rewrite_everything' },
        ],
      };
    });
    const first = await server.operator.tiddleRunPass({ agentId: 'prop-a', project: 'alpha' });
    if (first.tiddleRunPass.__typename !== 'TiddleRunPassSuccess') throw new Error(JSON.stringify(first));
    const outcome = first.tiddleRunPass.outcomes[0];
    expect(outcome.status).toBe('SUCCEEDED');
    expect(outcome.created.length).toBe(1);
    expect(outcome.preferenceSignals.length).toBe(2);
    expect(outcome.noops).toBe(1);
    expect(outcome.rejected.map((r) => r.reason)).toEqual([
      expect.stringContaining('one vivid exchange alone is not recurrence'),
      expect.stringContaining('one vivid exchange alone is not recurrence'),
      expect.stringContaining("not in this pass's residue: ghost"),
      expect.stringContaining('unknown action'),
    ]);

    const [card] = await cards('prop-a', 'alpha');
    expect(card).toMatchObject({ agentId: 'prop-a', project: 'alpha', title: 'Deploys need the staging flag', revision: 1, evidence: ['r1', 'r2'] });
    expect((card.card as { metadata: unknown }).metadata).toEqual({ legacy: { format: 'v1', id: 'L-7' } });
    expect((card.card as { evidence: { sessionId: string }[] }).evidence.map((e) => e.sessionId)).toEqual(['session-1', 'session-1']);

    // Rejected proposals are in the pass's history with their reasons.
    const [history] = (await server.operator.tiddleHistory({ agentId: 'prop-a', project: 'alpha' })).tiddleHistory.edges.map((e) => e.node);
    const payload = history.payload as { rejected: { reason: string; proposal: { title?: string } }[]; created: string[] };
    expect(payload.rejected.map((r) => r.proposal.title ?? null)).toEqual(['Vivid', 'Repeated ref', 'Ghost', null]);
    expect(payload.created).toEqual([card.cardId]);

    // Behavioural corrections are preference signals; the PREFERENCES document is untouched.
    const learning = (await server.operator.preferenceLearning({ agentId: 'prop-a' })).preferenceLearning;
    // Recorded in one transaction: the same instant, so the order between the two is the id's.
    const signals = learning.signals.edges.map((e) => e.node).sort((a, b) => a.statement.localeCompare(b.statement));
    expect(signals.map((s) => [s.source, s.project, s.statement, s.status])).toEqual([
      ['TIDDLE', 'alpha', 'Always write prose.', 'PENDING'],
      ['TIDDLE', 'alpha', 'Prefers prose over bullet lists', 'PENDING'],
    ]);
    expect((signals[1].evidence as { reference: string }[]).map((e) => e.reference)).toEqual(['r3']);
    const preferences = (await server.operator.profileDocument({ agentId: 'prop-a', kind: 'PREFERENCES' })).profileDocument!;
    expect([preferences.revision, preferences.content]).toEqual([1, '']);

    // Updates: the exact identity only, two new distinct residue entries, evidence kept.
    await append(client, 'r4', 'staging flag again');
    await append(client, 'r5', 'and once more the staging flag');
    const identity = { agentId: 'prop-a', project: 'alpha', cardId: card.cardId };
    chat.script('prop-a', () => ({
      proposals: [
        { action: 'update', card: { ...identity, project: 'beta' }, body: 'wrong scope', evidence: ['r4', 'r5'] },
        { action: 'update', card: { ...identity, agentId: 'someone-else' }, body: 'wrong agent', evidence: ['r4', 'r5'] },
        { action: 'update', card: { ...identity, cardId: `${card.cardId}-x` }, body: 'no such card', evidence: ['r4', 'r5'] },
        { action: 'update', cardId: card.cardId, body: 'no identity object', evidence: ['r4', 'r5'] },
        { action: 'update', card: identity, body: 'one exchange', evidence: ['r4'] },
        { action: 'update', card: identity, body: 'Deploy with --staging; CI too.', evidence: ['r4', 'r5'], metadata: { reviewed: true } },
      ],
    }));
    server.clock.advance(HOUR_MS);
    const second = await server.operator.tiddleRunPass({ agentId: 'prop-a', project: 'alpha' });
    if (second.tiddleRunPass.__typename !== 'TiddleRunPassSuccess') throw new Error(JSON.stringify(second));
    const updated = second.tiddleRunPass.outcomes[0];
    expect(updated.updated).toEqual([card.cardId]);
    expect(updated.rejected.map((r) => r.reason)).toEqual([
      expect.stringContaining('must name a card of this agent and scope exactly'),
      expect.stringContaining('must name a card of this agent and scope exactly'),
      expect.stringContaining('no live card has the identity'),
      expect.stringContaining('must name the card identity exactly'),
      expect.stringContaining('one vivid exchange alone is not recurrence'),
    ]);
    const [after] = await cards('prop-a', 'alpha');
    expect(after).toMatchObject({ cardId: card.cardId, revision: 2, title: 'Deploys need the staging flag', body: 'Deploy with --staging; CI too.' });
    expect(after.evidence).toEqual(['r1', 'r2', 'r4', 'r5']);
    expect((after.card as { metadata: unknown }).metadata).toEqual({ legacy: { format: 'v1', id: 'L-7' }, reviewed: true });
  });

  it('records a malformed proposer answer as a failed pass that changes nothing', async () => {
    const client = await runtime('prop-b', 'alpha');
    await append(client, 'm1');
    await append(client, 'm2');
    chat.script('prop-b', () => ({ raw: 'this is not json' }));
    const run = await server.operator.tiddleRunPass({ agentId: 'prop-b', project: 'alpha' });
    if (run.tiddleRunPass.__typename !== 'TiddleRunPassSuccess') throw new Error(JSON.stringify(run));
    expect(run.tiddleRunPass.outcomes[0]).toMatchObject({ status: 'FAILED', error: expect.stringContaining('not JSON') });
    expect((await server.operator.tiddleHistory({ agentId: 'prop-b' })).tiddleHistory.edges.map((e) => e.node)).toEqual([]);
    expect((await scopeStatus('prop-b', 'alpha'))!.lastError).toContain('not JSON');
  });
});

describe('atomic commit', () => {
  for (const point of ['tiddle.pass.after_cards', 'tiddle.pass.after_history', 'tiddle.pass.before_commit']) {
    it(`leaves cards, history, signals and the success mark unchanged when ${point} fails`, async () => {
      const agentId = `atomic-${point.split('.').at(-1)!.replace('_', '-')}`;
      const client = await runtime(agentId, 'alpha');
      await append(client, 'a1');
      await append(client, 'a2');
      chat.script(agentId, () => ({
        proposals: [
          { action: 'create', title: 'Atomic', body: 'all or nothing', evidence: ['a1', 'a2'] },
          { action: 'preference_signal', statement: 'Likes atomicity', evidence: ['a1'] },
        ],
      }));
      const seqBefore = (await server.operator.agent({ id: agentId })).agent!.lastEventSequence;
      faults.arm(point);
      server.clock.advance(4 * HOUR_MS);
      let outcomes: PassOutcome[];
      try {
        outcomes = mine(await tick(), agentId).filter((o) => o.kind === 'pass');
      } finally {
        faults.arm(null);
      }
      expect(outcomes.map((o) => [o.status, o.error])).toEqual([['FAILED', `injected fault at ${point}`]]);
      expect(await cards(agentId, 'alpha')).toEqual([]);
      expect((await server.operator.tiddleHistory({ agentId, project: 'alpha' })).tiddleHistory.edges.map((e) => e.node)).toEqual([]);
      expect((await server.operator.preferenceLearning({ agentId })).preferenceLearning.signals.edges).toEqual([]);
      const status = (await scopeStatus(agentId, 'alpha'))!;
      expect(status.lastSuccessAt).toBeNull();
      expect(status.lastError).toBe(`injected fault at ${point}`);
      // Only the failure's status event was published: no card event of the rolled-back pass.
      // (the agent's first synthesis of the date runs after the failed pass, on its own)
      const events = await take(server.operator.agentEvents({ agentId, after: seqBefore }), 2);
      expect(events.map((e) => [e.agentEvents.stream, e.agentEvents.type])).toEqual([
        ['TIDDLE_STATUS', 'TIDDLE_PASS_FAILED'],
        ['TIDDLE_STATUS', 'TIDDLE_SYNTHESIS_SUCCEEDED'],
      ]);

      server.clock.advance(5 * 60_000);
      const retried = mine(await tick(), agentId).filter((o) => o.kind === 'pass');
      expect(retried.map((o) => o.status)).toEqual(['SUCCEEDED']);
      expect((await cards(agentId, 'alpha')).map((c) => c.title)).toEqual(['Atomic']);
      expect((await server.operator.preferenceLearning({ agentId })).preferenceLearning.signals.edges.length).toBe(1);
    });
  }
});

describe('history retention', () => {
  it('prunes history older than 180 days when history is appended', async () => {
    const agentId = 'hist-a';
    const client = await runtime(agentId, 'alpha');
    await append(client, 'h1');
    const run = async () => {
      const result = await server.operator.tiddleRunPass({ agentId, project: 'alpha' });
      if (result.tiddleRunPass.__typename !== 'TiddleRunPassSuccess') throw new Error(JSON.stringify(result));
      return result.tiddleRunPass.outcomes[0].passId;
    };
    const start = server.clock.now().getTime();
    const oldest = await run();
    server.clock.set(new Date(start + 180 * DAY_MS));
    await run();
    let history = (await server.operator.tiddleHistory({ agentId, project: 'alpha' })).tiddleHistory.edges.map((e) => e.node);
    expect(history.map((h) => h.passId)).toContain(oldest);
    expect(history.length).toBe(2);
    server.clock.set(new Date(start + 180 * DAY_MS + 1));
    await run();
    history = (await server.operator.tiddleHistory({ agentId, project: 'alpha' })).tiddleHistory.edges.map((e) => e.node);
    expect(history.length).toBe(2);
    expect(history.map((h) => h.passId)).not.toContain(oldest);
  });
});
