/**
 * Tiddle rolling continuity through the real server: residue, scheduled passes with per-scope
 * success, gated proposals from a real chat-completions server on 127.0.0.1, atomic commits,
 * cross-scope synthesis at the UTC date boundary, the persisted TTL and the subscriptions.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BurrowRequestError, type BurrowClient } from '../clients/typescript/sdk.js';
import { DAY_MS, HOUR_MS } from '../src/lib/clock.js';
import type { PassOutcome } from '../src/domains/tiddle/tiddle.service.js';
import { startChatServer, type ChatServer, type Script } from './support/chat-server.js';
import { collect, startServer, take, waitUntil, type TestServer, faultSwitch } from './support/harness.js';

let server: TestServer;
let chat: ChatServer;
const faults = faultSwitch();

beforeAll(async () => {
  chat = await startChatServer();
  server = await startServer({
    faults: faults.inject,
    config: {
      tiddle: { scheduler: false, proposer: { kind: 'openai', url: chat.url, model: 'tiddle-test', apiKey: 'sk-test', timeoutMs: 5_000 } },
    },
  });
});
afterAll(async () => {
  await server?.stop();
  await chat?.close();
});

const tick = () => server.app.services.tiddle.scheduler.tick();
const mine = (outcomes: PassOutcome[], agentId: string) => outcomes.filter((o) => o.agentId === agentId);

async function runtime(agentId: string, scope: string, session = 'session-1'): Promise<BurrowClient> {
  const existing = await server.operator.agent({ id: agentId });
  if (!existing.agent) return server.agentClient(agentId, { scope, session });
  return server.client({ agentId, scope, session });
}

async function append(client: BurrowClient, turnRef: string, text = `we talked about ${turnRef}`) {
  const result = await client.tiddleAppendResidue({
    input: {
      turnRef,
      excerpts: [
        { role: 'USER', text },
        { role: 'ASSISTANT', text: 'noted' },
      ],
    },
  });
  if (result.tiddleAppendResidue.__typename !== 'TiddleAppendResidueSuccess') throw new Error(JSON.stringify(result));
  return result.tiddleAppendResidue.append;
}

async function cards(agentId: string, project: string) {
  const { rollingCards } = await server.operator.rollingCards({ agentId, project, first: 100 });
  return rollingCards.edges.map((e) => e.node);
}

async function scopeStatus(agentId: string, project: string) {
  const { tiddleStatus } = await server.operator.tiddleStatus({ agentId });
  return tiddleStatus.scopes.find((s) => s.project === project) ?? null;
}

async function expectRequestError(promise: Promise<unknown>, code: string) {
  const error = await promise.then(
    () => null,
    (e) => e,
  );
  expect(error).toBeInstanceOf(BurrowRequestError);
  expect((error as BurrowRequestError).code).toBe(code);
}

describe('residue', () => {
  it('stores bounded excerpts for the runtime agent, scope and session, without a model call or card change', async () => {
    const client = await runtime('res-a', 'alpha', 'sess-9');
    const before = chat.requests.length;
    const appended = await append(client, 'turn-1');
    expect(appended.entry).toMatchObject({ agentId: 'res-a', project: 'alpha', reference: 'turn-1', sessionId: 'sess-9' });
    expect(appended.entry.excerpts).toEqual([
      { role: 'USER', text: 'we talked about turn-1' },
      { role: 'ASSISTANT', text: 'noted' },
    ]);
    expect(chat.requests.length).toBe(before);
    expect(await cards('res-a', 'alpha')).toEqual([]);

    // Bound: 8 excerpts of 1,000 characters; one more of either is refused and nothing is stored.
    const eight = Array.from({ length: 8 }, (_, i) => ({ role: 'USER' as const, text: `${i}`.padEnd(1000, 'x') }));
    const ok = await client.tiddleAppendResidue({ input: { turnRef: 'turn-max', excerpts: eight } });
    expect(ok.tiddleAppendResidue.__typename).toBe('TiddleAppendResidueSuccess');
    const nine = await client.tiddleAppendResidue({ input: { turnRef: 'turn-9', excerpts: [...eight, { role: 'USER', text: 'x' }] } });
    expect(nine.tiddleAppendResidue).toMatchObject({ __typename: 'ValidationFailed', field: 'excerpts', limit: 8 });
    const long = await client.tiddleAppendResidue({ input: { turnRef: 'turn-long', excerpts: [{ role: 'USER', text: 'é'.repeat(1001) }] } });
    expect(long.tiddleAppendResidue).toMatchObject({ __typename: 'ValidationFailed', field: 'excerpts.0.text', limit: 1000 });
    // The role is an enum: a value outside it is refused before the service runs.
    await expectRequestError(client.tiddleAppendResidue({ input: { turnRef: 'turn-role', excerpts: [{ role: 'narrator' as never, text: 'x' }] } }), 'BAD_REQUEST');
    const nul = await client.tiddleAppendResidue({ input: { turnRef: 'turn-nul', excerpts: [{ role: 'USER', text: 'a\u0000b' }] } });
    expect(nul.tiddleAppendResidue).toMatchObject({ __typename: 'ValidationFailed', field: 'excerpts.0.text' });
    await expectRequestError(client.memoryRollingSearch({ query: 'a\u0000b' }), 'VALIDATION_FAILED');
    const ref = await client.tiddleAppendResidue({ input: { turnRef: 'r'.repeat(201), excerpts: [{ role: 'USER', text: 'x' }] } });
    expect(ref.tiddleAppendResidue).toMatchObject({ __typename: 'ValidationFailed', field: 'turnRef', limit: 200 });
    const { tiddleResidue } = await server.operator.tiddleResidue({ agentId: 'res-a', project: 'alpha' });
    expect(tiddleResidue.map((r) => r.reference).sort()).toEqual(['turn-1', 'turn-max']);
  });

  it('enforces the excerpt bound in the database as well (CHECK via tiddle_excerpts_within_bounds)', async () => {
    await runtime('res-a', 'alpha');
    const insert = (excerpts: unknown) =>
      server.database.pool
        .query(
          `INSERT INTO tiddle_entries (agent_id, id, project, kind, reference, excerpts, payload, created_at)
           VALUES ('res-a', gen_random_uuid()::text, 'alpha', 'residue', 'direct-' || gen_random_uuid()::text, $1::jsonb, '{}', '2026-01-01T00:00:00Z')`,
          [JSON.stringify(excerpts)],
        )
        .then(
          () => null,
          (error: { constraint?: string; message: string }) => error.constraint ?? error.message,
        );
    expect(await insert([{ role: 'user', text: 'x'.repeat(1001) }])).toBe('tiddle_entries_excerpts_each');
    expect(await insert([{ role: 'narrator', text: 'x' }])).toBe('tiddle_entries_excerpts_each');
    expect(await insert(Array.from({ length: 9 }, () => ({ role: 'user', text: 'x' })))).toMatch(/^tiddle_entries_excerpt/);
    expect(await insert([{ role: 'user', text: 'x'.repeat(1000) }])).toBeNull();
  });

  it('fails closed without scope or session, on another project, and for operators', async () => {
    await server.agentClient('res-b');
    const noScope = await server.client({ agentId: 'res-b', session: 's' });
    await expectRequestError(append(noScope, 't'), 'continuity_scope_required');
    const noSession = await server.client({ agentId: 'res-b', scope: 'alpha' });
    await expectRequestError(append(noSession, 't'), 'CONTINUITY_SESSION_REQUIRED');
    const scoped = await server.client({ agentId: 'res-b', scope: 'alpha', session: 's' });
    await expectRequestError(scoped.tiddleAppendResidue({ input: { turnRef: 't', project: 'beta', excerpts: [{ role: 'USER', text: 'x' }] } }), 'continuity_scope_mismatch');
    const operator = await server.client({ scope: 'alpha', session: 's' });
    await expectRequestError(append(operator, 't'), 'FORBIDDEN');
    const { tiddleResidue } = await server.operator.tiddleResidue({ agentId: 'res-b', project: 'alpha' });
    expect(tiddleResidue).toEqual([]);
  });

  it('prunes the scope residue older than 24 hours, replaces the same reference, and has no count cap', async () => {
    const client = await runtime('res-c', 'alpha');
    const other = await runtime('res-c', 'beta');
    const start = server.clock.now().getTime();
    await append(client, 'old');
    await append(other, 'other-scope-old');
    server.clock.advance(HOUR_MS);
    await append(client, 'kept');
    // Same reference: replaced in place (new excerpts, new time), not added.
    server.clock.advance(HOUR_MS);
    const replaced = await append(client, 'kept', 'second version');
    expect(replaced.replaced).toBe(true);
    let residue = (await server.operator.tiddleResidue({ agentId: 'res-c', project: 'alpha' })).tiddleResidue;
    expect(residue.map((r) => r.reference)).toEqual(['kept', 'old']);
    expect(residue[0].excerpts[0].text).toBe('second version');
    expect(residue[0].createdAt).toBe(new Date(start + 2 * HOUR_MS).toISOString());

    // Exactly 24 hours old is not older than the cutoff: kept.
    server.clock.set(new Date(start + 24 * HOUR_MS));
    const atCutoff = await append(client, 'at-cutoff');
    expect(atCutoff.pruned).toBe(0);
    // One millisecond later it is older: pruned by the next append of this scope only.
    server.clock.set(new Date(start + 24 * HOUR_MS + 1));
    const after = await append(client, 'after-cutoff');
    expect(after.pruned).toBe(1);
    residue = (await server.operator.tiddleResidue({ agentId: 'res-c', project: 'alpha' })).tiddleResidue;
    expect(residue.map((r) => r.reference).sort()).toEqual(['after-cutoff', 'at-cutoff', 'kept']);
    const beta = (await server.operator.tiddleResidue({ agentId: 'res-c', project: 'beta' })).tiddleResidue;
    expect(beta.map((r) => r.reference)).toEqual(['other-scope-old']);

    // No count cap: 300 entries (more than the old 240) are all kept.
    const bulk = await runtime('res-d', 'bulk');
    for (let batch = 0; batch < 15; batch++) {
      await Promise.all(Array.from({ length: 20 }, (_, i) => append(bulk, `bulk-${batch * 20 + i}`)));
    }
    const stored = (await server.operator.tiddleResidue({ agentId: 'res-d', project: 'bulk', first: 500 })).tiddleResidue;
    expect(stored.length).toBe(300);
  });
});

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
    server.clock.advance(5_000 + 60_000 + 1);
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

describe('cross-scope synthesis', () => {
  it('runs at the first due pass on a new UTC date and needs two existing source cards across two scopes', async () => {
    const agentId = 'syn-a';
    const old = await runtime(agentId, 'old');
    const a = await runtime(agentId, 'a');
    const b = await runtime(agentId, 'b');
    let failNextSynthesis = false;
    chat.script(agentId, (req) => {
      if (req.mode === 'synthesis' && failNextSynthesis) {
        failNextSynthesis = false;
        return { status: 503, body: 'synthesis model unavailable' };
      }
      if (req.mode === 'pass') {
        const refs = req.residue!.map((r) => r.reference).sort();
        if (req.project === 'a') {
          return {
            proposals: [
              { action: 'create', title: 'Topic A1', body: 'first a', evidence: refs.slice(0, 2) },
              { action: 'create', title: 'Topic A2', body: 'second a', evidence: refs.slice(0, 2) },
            ],
          };
        }
        return { proposals: [{ action: 'create', title: `Topic ${req.project}`, body: `from ${req.project}`, evidence: refs.slice(0, 2) }] };
      }
      const byTitle = new Map(req.cards.map((c) => [c.title, { agentId: c.agentId, project: c.project, cardId: c.cardId }]));
      const [a1, a2, b1] = ['Topic A1', 'Topic A2', 'Topic b'].map((t) => byTitle.get(t)!);
      return {
        proposals: [
          { action: 'create', title: 'Same scope only', body: 'x', sources: [a1, a2] },
          { action: 'create', title: 'One card', body: 'x', sources: [a1] },
          { action: 'create', title: 'Ghost source', body: 'x', sources: [a1, { ...b1, cardId: 'card-ghost' }] },
          { action: 'create', title: 'Old source', body: 'x', sources: [a1, oldIdentity] },
          { action: 'create', title: 'Staging everywhere', body: 'Both projects deploy with the staging flag.', sources: [a1, b1] },
        ],
      };
    });

    // A card 22 days before the synthesis: outside its 21-day window.
    await append(old, 'o1');
    await append(old, 'o2');
    const oldRun = await server.operator.tiddleRunPass({ agentId, project: 'old' });
    if (oldRun.tiddleRunPass.__typename !== 'TiddleRunPassSuccess') throw new Error('old pass');
    const [oldCard] = await cards(agentId, 'old');
    const oldIdentity = { agentId, project: 'old', cardId: oldCard.cardId };

    const day = new Date(server.clock.now().getTime() + 22 * DAY_MS).toISOString().slice(0, 10);
    const next = new Date(new Date(`${day}T00:00:00.000Z`).getTime() + DAY_MS).toISOString().slice(0, 10);
    server.clock.set(`${day}T19:00:00.000Z`);
    await append(a, 'a-1');
    await append(a, 'a-2');
    server.clock.set(`${day}T20:00:00.000Z`);
    await append(b, 'b-1');
    await append(b, 'b-2');

    // 23:00 UTC: scope a (and the overdue old scope) pass; the agent's first synthesis of this
    // date sees cards of one scope only, so no proposer call, but the date is taken.
    server.clock.set(`${day}T23:00:00.000Z`);
    const evening = mine(await tick(), agentId);
    expect(
      evening
        .filter((o) => o.kind === 'pass')
        .map((o) => o.project)
        .sort(),
    ).toEqual(['a', 'old']);
    expect(evening.filter((o) => o.kind === 'synthesis').map((o) => o.status)).toEqual(['SUCCEEDED']);
    expect(chat.requestsFor(agentId, 'synthesis')).toEqual([]);
    expect((await server.operator.tiddleStatus({ agentId })).tiddleStatus.lastSynthesisDate).toBe(day);

    server.clock.set(`${day}T23:59:59.999Z`);
    expect(mine(await tick(), agentId)).toEqual([]);

    // 00:00 UTC: scope b is due; this first due pass on the new UTC date runs the synthesis.
    server.clock.set(`${next}T00:00:00.000Z`);
    const midnight = mine(await tick(), agentId);
    expect(midnight.map((o) => [o.kind, o.project, o.status])).toEqual([
      ['pass', 'b', 'SUCCEEDED'],
      ['synthesis', '*', 'SUCCEEDED'],
    ]);
    const [request] = chat.requestsFor(agentId, 'synthesis');
    expect(request.date).toBe(next);
    expect(request.cards.map((c) => c.title).sort()).toEqual(['Topic A1', 'Topic A2', 'Topic b']);
    const synthesis = midnight[1];
    expect(synthesis.rejected.map((r) => r.reason)).toEqual([
      expect.stringContaining('at least two source cards across at least two scopes (got 2 cards in 1 scopes)'),
      expect.stringContaining('at least two source cards across at least two scopes (got 1 cards in 1 scopes)'),
      expect.stringContaining('card-ghost does not exist'),
      expect.stringContaining(`${oldCard.cardId} does not exist among this agent's live cards of the last 21 days`),
    ]);
    const crossCards = await cards(agentId, '*');
    expect(crossCards.map((c) => c.title)).toEqual(['Staging everywhere']);
    const sources = (crossCards[0].card as { sources: { project: string }[] }).sources.map((s) => s.project);
    expect(sources).toEqual(['a', 'b']);
    const status = (await server.operator.tiddleStatus({ agentId })).tiddleStatus;
    expect(status.lastSynthesisDate).toBe(next);
    expect(status.lastSynthesisAt).toBe(`${next}T00:00:00.000Z`);

    // Later due passes on the same UTC date do not synthesise again.
    server.clock.set(`${next}T04:00:00.000Z`);
    const later = mine(await tick(), agentId);
    expect(later.filter((o) => o.kind === 'synthesis')).toEqual([]);
    expect(
      later
        .filter((o) => o.kind === 'pass')
        .map((o) => o.project)
        .sort(),
    ).toEqual(['a', 'b', 'old']);
    expect(chat.requestsFor(agentId, 'synthesis').length).toBe(1);
    let history = (await server.operator.tiddleHistory({ agentId, project: '*' })).tiddleHistory.edges.map((e) => e.node);
    expect(history.length).toBe(2);

    // A failed synthesis leaves the date unclaimed; the next due pass of that date retries it.
    const third = new Date(new Date(`${next}T00:00:00.000Z`).getTime() + DAY_MS).toISOString().slice(0, 10);
    failNextSynthesis = true;
    server.clock.set(`${third}T08:00:00.000Z`);
    const retry = mine(await tick(), agentId);
    expect(retry.map((o) => [o.kind, o.status])).toEqual([
      ['pass', 'SUCCEEDED'],
      ['synthesis', 'FAILED'],
      ['pass', 'SUCCEEDED'],
      ['synthesis', 'SUCCEEDED'],
      ['pass', 'SUCCEEDED'],
    ]);
    expect(retry[1].error).toContain('synthesis model unavailable');
    const healed = (await server.operator.tiddleStatus({ agentId })).tiddleStatus;
    expect(healed.lastSynthesisDate).toBe(third);
    expect(healed.scopes.find((s) => s.project === '*')).toMatchObject({
      lastError: null,
      nextRunAt: new Date(new Date(`${third}T00:00:00.000Z`).getTime() + DAY_MS).toISOString(),
    });
    history = (await server.operator.tiddleHistory({ agentId, project: '*' })).tiddleHistory.edges.map((e) => e.node);
    expect(history.length).toBe(3);
  });
});

describe('cards: TTL, search and ambient assembly', () => {
  it('filters cards past the persisted TTL from every read and reports the same TTL in status', async () => {
    const agentId = 'ttl-a';
    const client = await runtime(agentId, 'alpha');
    const createCard: Script = (req) => ({
      proposals: [{ action: 'create', title: `Card ${req.residue![0].reference}`, body: 'staging flag', evidence: req.residue!.map((r) => r.reference) }],
    });
    chat.script(agentId, createCard);
    await append(client, 't1');
    await append(client, 't2');
    await server.operator.tiddleRunPass({ agentId, project: 'alpha' });
    const [card] = await cards(agentId, 'alpha');
    const created = new Date(card.refreshedAt).getTime();
    expect((await server.operator.tiddleStatus({ agentId })).tiddleStatus.cardTtlDays).toBe(90);
    expect(card.expiresAt).toBe(new Date(created + 90 * DAY_MS).toISOString());

    const changed = await server.operator.setTiddleCardTtl({ input: { agentId, days: 10 } });
    expect(changed.setTiddleCardTtl).toMatchObject({ __typename: 'SetTiddleCardTtlSuccess', setting: { cardTtlDays: 10, expiredCards: [] } });
    const stored = await server.database.pool.query('SELECT card_ttl_days FROM tiddle_settings WHERE agent_id = $1', [agentId]);
    expect(stored.rows).toEqual([{ card_ttl_days: 10 }]);
    expect((await server.operator.tiddleStatus({ agentId })).tiddleStatus.cardTtlDays).toBe(10);
    expect((await cards(agentId, 'alpha'))[0].expiresAt).toBe(new Date(created + 10 * DAY_MS).toISOString());

    // Every read of cards: the root page, an agent token's page, Agent.rollingCards, node(id), search.
    const everyRead = async () => {
      const nested = await server.operator.request<{ agent: { rollingCards: { edges: { node: { cardId: string } }[] } } }>(
        `query ($agentId: String!) { agent(agentId: $agentId) { rollingCards(project: "alpha", first: 10) { edges { node { cardId } } } } }`,
        { agentId },
      );
      const node = (await server.operator.tiddleNode({ id: card.id })).node;
      return {
        root: (await cards(agentId, 'alpha')).map((c) => c.cardId),
        own: (await client.rollingCards({ first: 10 })).rollingCards.edges.map((e) => e.node.cardId),
        nested: nested.agent.rollingCards.edges.map((e) => e.node.cardId),
        node: node?.__typename === 'RollingCard' ? node.cardId : null,
        search: (await client.memoryRollingSearch({ query: 'staging' })).memoryRollingSearch.cards.map((c) => c.cardId),
      };
    };
    server.clock.set(new Date(created + 10 * DAY_MS - 1));
    expect(await everyRead()).toEqual({ root: [card.cardId], own: [card.cardId], nested: [card.cardId], node: card.cardId, search: [card.cardId] });
    server.clock.set(new Date(created + 10 * DAY_MS));
    expect(await everyRead()).toEqual({ root: [], own: [], nested: [], node: null, search: [] });
    expect((await server.operator.tiddleStatus({ agentId })).tiddleStatus.cardTtlDays).toBe(10);
    // Filtered, not yet deleted: the row is still there until a pass marks it.
    const row = await server.database.pool.query('SELECT expired_at FROM tiddle_cards WHERE agent_id = $1', [agentId]);
    expect(row.rows).toEqual([{ expired_at: null }]);

    const seq = (await server.operator.agent({ id: agentId })).agent!.lastEventSequence;
    // The pass that notices the expiry proposes over live cards only: the model never sees it.
    chat.script(agentId, () => ({ proposals: [] }));
    await append(client, 't-late');
    const expiredOutcome = mine(await tick(), agentId).filter((o) => o.kind === 'pass');
    expect(expiredOutcome.map((o) => o.expired)).toEqual([[card.cardId]]);
    expect(chat.requestsFor(agentId, 'pass').at(-1)).toMatchObject({ residue: [expect.objectContaining({ reference: 't-late' })], cards: [] });
    chat.script(agentId, createCard);
    const events = await take(server.operator.rollingCardEvents({ agentId, project: 'alpha', after: seq }), 1);
    expect(events[0].rollingCardEvents).toMatchObject({ type: 'ROLLING_CARD_EXPIRED', project: 'alpha', subjectId: `alpha/${card.cardId}` });
    // A marked card stays filtered even if the TTL is raised again.
    await server.operator.setTiddleCardTtl({ input: { agentId, days: 365 } });
    expect(await cards(agentId, 'alpha')).toEqual([]);

    // A shorter TTL expires live cards at once, announced in the same transaction.
    await append(client, 't3');
    await append(client, 't4');
    await server.operator.tiddleRunPass({ agentId, project: 'alpha' });
    const [fresh] = await cards(agentId, 'alpha');
    server.clock.advance(2 * DAY_MS);
    const shorter = await server.operator.setTiddleCardTtl({ input: { agentId, days: 1 } });
    expect(shorter.setTiddleCardTtl).toMatchObject({ setting: { cardTtlDays: 1, expiredCards: [`alpha/${fresh.cardId}`] } });

    // Bounds and authority.
    for (const days of [0, 36_501]) {
      const bad = await server.operator.setTiddleCardTtl({ input: { agentId, days } });
      expect(bad.setTiddleCardTtl).toMatchObject({ __typename: 'ValidationFailed', field: 'days', limit: 36_500 });
    }
    const max = await server.operator.setTiddleCardTtl({ input: { agentId, days: 36_500 } });
    expect(max.setTiddleCardTtl.__typename).toBe('SetTiddleCardTtlSuccess');
    expect((await server.operator.setTiddleCardTtl({ input: { agentId: 'nobody', days: 5 } })).setTiddleCardTtl.__typename).toBe('NotFound');
    await expectRequestError(client.setTiddleCardTtl({ input: { agentId, days: 5 } }), 'FORBIDDEN');
    expect((await server.operator.tiddleStatus({ agentId })).tiddleStatus.cardTtlDays).toBe(36_500);
  });

  it('searches only the current agent and scope, as rolling_continuity that never enters the prompt', async () => {
    const agentId = 'search-a';
    const alpha = await runtime(agentId, 'alpha');
    const beta = await runtime(agentId, 'beta');
    chat.script(agentId, (req) => ({
      proposals: [
        { action: 'create', title: `Kubernetes rollout ${req.project}`, body: 'Rollouts need canaries.', evidence: req.residue!.map((r) => r.reference).slice(0, 2) },
        { action: 'create', title: `Coffee ${req.project}`, body: 'Unrelated.', evidence: req.residue!.map((r) => r.reference).slice(0, 2) },
      ],
    }));
    for (const client of [alpha, beta]) {
      await append(client, 's1');
      await append(client, 's2');
    }
    await server.operator.tiddleRunPass({ agentId });
    const result = (await alpha.memoryRollingSearch({ query: 'canaries rollout' })).memoryRollingSearch;
    expect(result).toMatchObject({ owner: 'rolling_continuity', entersPrompt: false, agentId, project: 'alpha' });
    expect(result.cards.map((c) => c.title)).toEqual(['Kubernetes rollout alpha']);
    const all = (await beta.memoryRollingSearch({ query: '' })).memoryRollingSearch;
    expect(all.cards.map((c) => c.project)).toEqual(['beta', 'beta']);
    await expectRequestError(alpha.memoryRollingSearch({ query: 'x', project: 'beta' }), 'continuity_scope_mismatch');
    await expectRequestError(alpha.memoryRollingSearch({ query: 'x', agentId: 'res-a' }), 'AGENT_MISMATCH');
    await expectRequestError(alpha.memoryRollingSearch({ query: 'x', limit: 11 }), 'VALIDATION_FAILED');
    expect((await alpha.memoryRollingSearch({ query: 'x', limit: 10 })).memoryRollingSearch.cards).toEqual([]);
    const noScope = await server.client({ agentId });
    await expectRequestError(noScope.memoryRollingSearch({ query: 'x' }), 'continuity_scope_required');
    await expectRequestError(alpha.rollingCards({ project: 'beta' }), 'continuity_scope_mismatch');

    // Ordinary continuity assembly carries no rolling cards and no working records.
    const ambient = (await alpha.ambientContinuity({})).ambientContinuity;
    expect(ambient).toEqual({ agentId, project: 'alpha' });
    const ambientType = (await alpha.request<{ __type: { fields: { name: string }[] } }>('{ __type(name: "AmbientContinuity") { fields { name } } }')).__type;
    expect(ambientType.fields.map((f) => f.name)).toEqual(['agentId', 'project']);
  });
});

describe('subscriptions', () => {
  it('rollingCardEvents and tiddleStatusEvents replay from after and continue live', async () => {
    const agentId = 'sub-a';
    const alpha = await runtime(agentId, 'alpha');
    const beta = await runtime(agentId, 'beta');
    chat.script(agentId, (req) => ({
      proposals: [{ action: 'create', title: `Card ${req.project} ${req.residue!.length}`, body: 'b', evidence: req.residue!.map((r) => r.reference).slice(0, 2) }],
    }));
    await append(alpha, 'x1');
    await append(alpha, 'x2');
    await append(beta, 'y1');
    await append(beta, 'y2');
    await server.operator.tiddleRunPass({ agentId });

    const replayed = await take(alpha.rollingCardEvents({ agentId, project: 'alpha', after: 0 }), 1);
    expect(replayed.map((e) => [e.rollingCardEvents.type, e.rollingCardEvents.project])).toEqual([['ROLLING_CARD_CREATED', 'alpha']]);
    const status = collect(server.operator.tiddleStatusEvents({ agentId, after: 0 }));
    const live = collect(alpha.rollingCardEvents({ agentId, project: 'alpha', after: replayed[0].rollingCardEvents.sequence }));
    const statusReplay = await status.waitFor(2);
    expect(statusReplay.map((e) => [e.tiddleStatusEvents.type, e.tiddleStatusEvents.project]).sort()).toEqual([
      ['TIDDLE_PASS_SUCCEEDED', 'alpha'],
      ['TIDDLE_PASS_SUCCEEDED', 'beta'],
    ]);

    await append(alpha, 'x3');
    await append(beta, 'y3');
    await server.operator.tiddleRunPass({ agentId });
    const [created] = await live.waitFor(1);
    expect(created.rollingCardEvents).toMatchObject({ type: 'ROLLING_CARD_CREATED', project: 'alpha', payload: { title: 'Card alpha 3', agentId, project: 'alpha' } });
    await status.waitFor(4);
    // (not stopped explicitly: the clients close with the server)
    expect(live.items.every((e) => e.rollingCardEvents.project === 'alpha')).toBe(true);
    expect(status.items.length).toBe(4);
    expect((status.items[3].tiddleStatusEvents.payload as { status: string }).status).toBe('SUCCEEDED');

    await expectRequestError(take(alpha.rollingCardEvents({ agentId, project: 'beta', after: 0 }), 1), 'continuity_scope_mismatch');
    await expectRequestError(take(alpha.tiddleStatusEvents({ agentId: 'res-a', after: 0 }), 1), 'AGENT_MISMATCH');
  });
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
