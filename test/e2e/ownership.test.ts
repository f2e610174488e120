/**
 * runtimeOwnership on the shipped server, opened over graphql-ws by runtimes holding agent tokens
 * (docs/continuity.md "Owners", docs/security.md "Ownership sessions"): the first event names a
 * live owner; HTTP and SSE are refused with OWNERSHIP_REQUIRES_WEBSOCKET; at most
 * BURROW_OWNERS_PER_AGENT live owners (OWNER_LIMIT_REACHED); only the run's owner passes the fence
 * (NOT_OWNER); when the owner's socket closes, the owner is gone, its writes are refused
 * (OWNER_NOT_LIVE) and its slot is free; reconciliation interrupts its run and another live owner
 * takes it over at generation 2, after which the old generation is fenced off (STALE_GENERATION).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createBurrowClient, type BurrowClient } from '../../clients/typescript/sdk.js';
import { ok, openOwner, waitUntilOwnerGone, type OwnerHandle } from '../support/continuity.js';
import { requestError } from '../support/harness.js';
import { postGraphQL, startShipped, type ShippedServer } from '../support/shipped.js';

const AGENT = 'own-e2e';
const PER_AGENT = 2;
const OWNERSHIP = 'subscription { runtimeOwnership { ownerId live ended } }';

let server: ShippedServer;
let agentToken: string;
const clients: BurrowClient[] = [];
/** A runtime: its own client, so its own WebSocket. */
const runtime = () => {
  const client = createBurrowClient({ url: server.url, token: agentToken });
  clients.push(client);
  return client;
};

beforeAll(async () => {
  server = await startShipped({ env: { BURROW_OWNERS_PER_AGENT: String(PER_AGENT) } });
  const created = await postGraphQL(server, server.operatorToken, { query: `mutation { createAgent(input: { agentId: "${AGENT}", name: "${AGENT}" }) { __typename } }` });
  expect(created.body).toEqual({ data: { createAgent: { __typename: 'CreateAgentSuccess' } } });
  const token = await postGraphQL(server, server.operatorToken, {
    query: `mutation { createApiToken(input: { kind: AGENT, agentId: "${AGENT}", name: "runtime" }) { __typename ... on CreateApiTokenSuccess { secret } } }`,
  });
  agentToken = token.body.data.createApiToken.secret;
});
afterAll(async () => {
  await Promise.all(clients.map((client) => client.close()));
  const { code } = await server.stop();
  expect(code).toBe(0);
});

const owners = async () =>
  (await postGraphQL(server, server.operatorToken, { query: `{ continuityOwners(agentId: "${AGENT}", includeClosed: true) { ownerId live } }` })).body.data.continuityOwners as {
    ownerId: string;
    live: boolean;
  }[];

describe('runtimeOwnership on the shipped server', () => {
  it('is refused over HTTP and SSE with OWNERSHIP_REQUIRES_WEBSOCKET, opening no owner', async () => {
    const post = await postGraphQL(server, agentToken, { query: OWNERSHIP });
    expect(post.body.errors.map((e: { extensions: { code: string } }) => e.extensions.code)).toEqual(['OWNERSHIP_REQUIRES_WEBSOCKET']);
    const sse = await fetch(server.url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'text/event-stream', authorization: `Bearer ${agentToken}` },
      body: JSON.stringify({ query: OWNERSHIP }),
    });
    // Keep-alive comments (":") aside, one `next` carrying the refusal, then the end of the stream.
    const frames = (await sse.text()).split('\n\n').filter((frame) => frame && !frame.startsWith(':'));
    expect(frames).toHaveLength(2);
    const refusal = JSON.parse(frames[0].replace(/^event: next\ndata: /, ''));
    expect(refusal.data ?? null).toBeNull();
    expect(refusal.errors.map((e: { extensions: { code: string } }) => e.extensions.code)).toEqual(['OWNERSHIP_REQUIRES_WEBSOCKET']);
    expect(frames[1]).toMatch(/^event: complete/);
    expect(await owners()).toEqual([]);
  });

  it('grants owners over graphql-ws up to the limit, fences the run to its owner, and hands it over when the owner is gone', async () => {
    const first = runtime();
    const second = runtime();
    const held: OwnerHandle[] = [];
    try {
      const a = await openOwner(first);
      const b = await openOwner(second);
      held.push(a, b);
      expect(a.ownerId).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/);
      expect(b.ownerId).not.toBe(a.ownerId);
      expect(new Map((await owners()).map((o) => [o.ownerId, o.live]))).toEqual(
        new Map([
          [a.ownerId, true],
          [b.ownerId, true],
        ]),
      );

      // One past the limit, on a third runtime's socket: refused, and no owner recorded.
      const refused = await requestError(openOwner(runtime()));
      expect([refused.code, refused.message]).toEqual(['OWNER_LIMIT_REACHED', expect.stringContaining(`${PER_AGENT} live ownership sessions`)]);
      expect(await owners()).toHaveLength(2);

      const started = ok((await first.startContinuityRun({ input: { runId: 'r1', ownerId: a.ownerId, head: '{"step":1}' } })).startContinuityRun, 'StartContinuityRunSuccess');
      expect(started.run).toMatchObject({ runId: 'r1', state: 'RUNNING', generation: 1, ownerId: a.ownerId, head: '{"step":1}', headRevision: 0 });

      // Another live owner does not pass the fence of a's run, and changes nothing.
      const notOwner = (await second.commitContinuityRun({ input: { runId: 'r1', generation: 1, ownerId: b.ownerId, head: '{"step":"b"}' } })).commitContinuityRun;
      expect(notOwner).toMatchObject({ __typename: 'ContinuityFenceRejected', code: 'NOT_OWNER', currentState: 'RUNNING', currentGeneration: 1 });

      // a's runtime goes away (its socket closes): a is no longer live, its write is refused and rolled back.
      await first.close();
      await waitUntilOwnerGone(second, AGENT, a.ownerId);
      const late = (await second.commitContinuityRun({ input: { runId: 'r1', generation: 1, ownerId: a.ownerId, head: '{"step":"late"}' } })).commitContinuityRun;
      expect(late).toMatchObject({ __typename: 'Forbidden', code: 'OWNER_NOT_LIVE' });
      expect((await second.continuityRun({ runId: 'r1' })).continuityRun).toMatchObject({
        state: 'RUNNING',
        generation: 1,
        ownerId: a.ownerId,
        head: '{"step":1}',
        headRevision: 0,
      });

      // Its slot is free: a new owner is admitted next to b.
      const c = await openOwner(runtime());
      held.push(c);

      // Reconciliation interrupts a's run and queues it; a live owner claims it at generation 2.
      const reconciled = (await second.reconcileContinuity({})).reconcileContinuity;
      expect(reconciled.failed).toEqual([]);
      expect(reconciled.recoveryPending.map((run) => [run.runId, run.state, run.generation])).toEqual([['r1', 'RECOVERY_PENDING', 1]]);
      const claimed = ok(
        (await second.claimContinuityRecovery({ input: { runId: 'r1', ownerId: b.ownerId, expectedGeneration: 1 } })).claimContinuityRecovery,
        'ClaimContinuityRecoverySuccess',
      );
      expect(claimed.run).toMatchObject({ runId: 'r1', state: 'RUNNING', generation: 2, ownerId: b.ownerId, head: '{"step":1}' });
      // The old generation is fenced off, even written by the new owner's id.
      const stale = (await second.commitContinuityRun({ input: { runId: 'r1', generation: 1, ownerId: b.ownerId, head: '{"step":"stale"}' } })).commitContinuityRun;
      expect(stale).toMatchObject({ __typename: 'ContinuityFenceRejected', code: 'STALE_GENERATION', currentState: 'RUNNING', currentGeneration: 2 });
      const committed = ok(
        (await second.commitContinuityRun({ input: { runId: 'r1', generation: 2, ownerId: b.ownerId, head: '{"step":2}' } })).commitContinuityRun,
        'CommitContinuityRunSuccess',
      );
      expect(committed.run).toMatchObject({ generation: 2, ownerId: b.ownerId, head: '{"step":2}', headRevision: 1 });
    } finally {
      await Promise.all(held.map((owner) => owner.close()));
    }
  });
});
