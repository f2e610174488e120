/**
 * agentErase on a real server: two operators at once on their own connections get one receipt,
 * and the CLI (`burrow agent erase`, the built CLI in a process of its own) killed with SIGKILL
 * halfway leaves the agent absent to the running server, whose socket of the agent's token was
 * closed by the CLI's NOTIFY; a second run finishes the same receipt with every row counted.
 * docs/agent-erasure.md's two CLI commands (which its docs test cannot run: the CLI opens the
 * database itself) run here as written: refused while a runtime owner is live, then --force.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hasRealServer, startServer, waitUntil, type TestServer } from './support/harness.js';
import { spawnBurrow, userEnv } from './support/shipped.js';
import { openSocket, rowsPerStore, seedOriginals, seedOriginalsSql } from './support/agent-erase.js';
import { openOwner } from './support/continuity.js';

const ORIGINALS = 60_000;
let server: TestServer;
beforeAll(async () => {
  if (hasRealServer) server = await startServer({ realServer: true });
});
afterAll(async () => server?.stop());

describe.runIf(hasRealServer)('agentErase on a real server', () => {
  it('two operators erasing at once on their own connections get one receipt', async () => {
    const id = 'erase-race';
    await seedOriginals(await server.agentClient(id, { scope: 'race', session: 'race-session' }), 40);
    const [a, b] = await Promise.all([server.client(), server.client()]);
    const [ra, rb] = await Promise.all([a.agentErase({ input: { agentId: id } }, { transport: 'ws' }), b.agentErase({ input: { agentId: id } }, { transport: 'ws' })]);
    if (ra.agentErase.__typename !== 'AgentEraseSuccess' || rb.agentErase.__typename !== 'AgentEraseSuccess') throw new Error(JSON.stringify([ra, rb]));
    expect(ra.agentErase.receipt.receiptId).toBe(rb.agentErase.receipt.receiptId);
    expect([ra.agentErase.resumed, rb.agentErase.resumed].sort()).toEqual([false, true]);
    expect(ra.agentErase.receipt.counts).toEqual(rb.agentErase.receipt.counts);
    expect(ra.agentErase.receipt.counts.find((c) => c.store === 'conversation_entries')?.rows).toBe(40);
    expect((await server.operator.dataRemovalReceipts({ agentId: id })).dataRemovalReceipts.edges).toHaveLength(1);
    expect(Object.values(await rowsPerStore(server, id)).every((n) => n === 0)).toBe(true);
  });

  it('the CLI killed halfway leaves the agent absent; a second run finishes the same receipt', async () => {
    const id = 'erase-cli';
    const client = await server.agentClient(id, { scope: 'cli', session: 'api-session' });
    await seedOriginals(client, 3);
    await seedOriginalsSql((text, values) => server.database.pool.query(text, values), id, 'bulk-session', ORIGINALS);
    const seeded = await rowsPerStore(server, id);
    expect(seeded.conversation_entries).toBe(ORIGINALS + 3);
    const token = await server.app.services.tokens.create({ kind: 'agent', name: 'erase-cli-socket', agentId: id });
    const socket = await openSocket(server, token.token, id);
    const env = userEnv({ BURROW_POSTGRES_LIFECYCLE: 'external', BURROW_POSTGRES_URL: server.testDatabase.url!, BURROW_POSTGRES_REQUIRED_MAJOR: '13' });

    const first = spawnBurrow(['agent', 'erase', '--agent', id], env);
    await waitUntil(
      () => first.stderr().includes('conversation_entries 10000 rows removed') || first.child.exitCode !== null,
      'the CLI to remove two batches of originals',
      120_000,
    );
    const killed = await first.stop('SIGKILL');
    expect(killed.signal).toBe('SIGKILL');

    // Killed between or inside a batch: what committed is gone and counted, the rest waits.
    const halfway = await rowsPerStore(server, id);
    expect(halfway.agents).toBe(1);
    expect(halfway.conversation_entries).toBeGreaterThan(0);
    expect(halfway.conversation_entries).toBeLessThan(ORIGINALS);
    expect((await server.operator.agent({ id })).agent).toBeNull();
    // The server heard the CLI's first step: root reads naming the agent answer NOT_FOUND.
    await waitUntil(() => server.app.services.erasingAgents.has(id), "the server to hear the CLI's erasure");
    await expect(server.operator.conversationOriginals({ agentId: id, sessionId: 'bulk-session', first: 5 })).rejects.toMatchObject({ code: 'NOT_FOUND' });
    const [unfinished] = (await server.operator.dataRemovalReceipts({ agentId: id })).dataRemovalReceipts.edges.map((e) => e.node);
    expect(unfinished.completedAt).toBeNull();
    expect(unfinished.counts.find((c) => c.store === 'conversation_entries')?.rows).toBe(seeded.conversation_entries - halfway.conversation_entries);
    // The server heard the CLI's NOTIFY: the agent's socket is closed.
    await waitUntil(() => socket.state.closed !== null, 'the agent socket to close');
    expect(socket.state.closed?.code).toBe(4403);
    await socket.dispose();

    const second = await spawnBurrow(['agent', 'erase', '--agent', id], env).exited;
    expect(second.code).toBe(0);
    expect(second.stdout).toContain(`erased agent ${id} (finished an erasure that had started before)`);
    expect(second.stdout).toContain(`receipt:      ${unfinished.receiptId}`);
    expect(Object.values(await rowsPerStore(server, id)).every((n) => n === 0)).toBe(true);
    const [done] = (await server.operator.dataRemovalReceipts({ agentId: id })).dataRemovalReceipts.edges.map((e) => e.node);
    expect(done.receiptId).toBe(unfinished.receiptId);
    expect(done.completedAt).not.toBeNull();
    const counts = Object.fromEntries(done.counts.map((c) => [c.store, c.rows]));
    const expected = { ...seeded, api_tokens: seeded.api_tokens + 1, agent_events: seeded.agent_events + 1, agents: 1 };
    expect(counts).toEqual(Object.fromEntries(Object.entries(expected).filter(([, n]) => n > 0)));
    expect(second.stdout).toContain(`conversation_entries\t${ORIGINALS + 3}`);

    const third = await spawnBurrow(['agent', 'erase', '--agent', id], env).exited;
    expect(third.code).toBe(1);
    expect(third.stderr).toContain(`no agent "${id}" (and no unfinished erasure of it)`);
  });
  it("docs/agent-erasure.md's commands: refused while a runtime owner is live, erased with --force", async () => {
    const id = 'erase-cli-owned';
    await seedOriginals(await server.agentClient(id, { scope: 'owned', session: 'owned-session' }), 2);
    const owner = await openOwner(server.operator, id);
    try {
      const env = userEnv({ BURROW_POSTGRES_LIFECYCLE: 'external', BURROW_POSTGRES_URL: server.testDatabase.url!, BURROW_POSTGRES_REQUIRED_MAJOR: '13' });
      const seeded = await rowsPerStore(server, id);
      const refused = await spawnBurrow(['agent', 'erase', '--agent', id], env).exited;
      expect([refused.code, refused.stdout]).toEqual([1, '']);
      expect(refused.stderr).toContain(`agent ${id} has 1 live ownership session(s) (${owner.ownerId}); end them, or erase with force: true`);
      expect(await rowsPerStore(server, id)).toEqual(seeded);
      expect((await server.operator.dataRemovalReceipts({ agentId: id })).dataRemovalReceipts.edges).toEqual([]);

      const forced = await spawnBurrow(['agent', 'erase', '--agent', id, '--force'], env).exited;
      expect(forced.code, forced.stderr).toBe(0);
      expect(forced.stdout).toContain(`erased agent ${id}\n`);
      expect(forced.stdout).toContain('actor:        OPERATOR cli:agent-erase (forced past a live owner)');
      const [receipt] = (await server.operator.dataRemovalReceipts({ agentId: id })).dataRemovalReceipts.edges.map((e) => e.node);
      expect(receipt).toMatchObject({ kind: 'AGENT_ERASURE', forced: true, actor: { kind: 'OPERATOR', principalId: 'cli:agent-erase' } });
      expect(receipt.completedAt).not.toBeNull();
      expect(Object.values(await rowsPerStore(server, id)).every((n) => n === 0)).toBe(true);
    } finally {
      await owner.close();
    }
  });
});
