/**
 * Tiddle residue through the real server: bounded excerpts per runtime agent, scope and session,
 * the database bound, failing closed, and pruning.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HOUR_MS } from '../src/lib/clock.js';
import type { ChatServer } from './support/chat-server.js';
import { type TestServer } from './support/harness.js';
import { append, expectRequestError, startTiddleServer, tiddleHelpers } from './support/tiddle.js';

let server: TestServer;
let chat: ChatServer;
beforeAll(async () => {
  ({ server, chat } = await startTiddleServer());
});
afterAll(async () => {
  await server?.stop();
  await chat?.close();
});

const { runtime, cards } = tiddleHelpers(() => server);

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
