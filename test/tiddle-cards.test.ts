/**
 * Tiddle rolling cards through the real server: the persisted TTL in every read,
 * memory_rolling_search and ambient assembly, and the rolling card and status subscriptions.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DAY_MS } from '../src/lib/clock.js';
import type { ChatServer, Script } from './support/chat-server.js';
import { collect, take, type TestServer } from './support/harness.js';
import { append, expectRequestError, mine, startTiddleServer, tiddleHelpers } from './support/tiddle.js';

let server: TestServer;
let chat: ChatServer;
beforeAll(async () => {
  ({ server, chat } = await startTiddleServer());
});
afterAll(async () => {
  await server?.stop();
  await chat?.close();
});

const { tick, runtime, cards } = tiddleHelpers(() => server);

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
