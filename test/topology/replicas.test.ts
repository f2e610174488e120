/**
 * Read replicas on a real streaming standby (scripts/topology/replica.sh: a PostgreSQL 15 primary
 * and a hot standby made by pg_basebackup -R, run as the user postgres). Replay is paused on the
 * standby to make it visibly stale: a token that did not write reads the stale copy, the writer
 * reads its write (on the primary once the wait bound passes; on the replica when it catches up in
 * time), a replica past the lag bound and a killed replica are skipped without an error, and
 * /metrics shows each replica's lag. Runs when BURROW_TEST_TOPOLOGY=1.
 */
import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { createClient } from 'graphql-ws';
import pg from 'pg';
import WebSocket from 'ws';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BurrowClient } from '../../clients/typescript/sdk.js';
import { SINGLE_SERVER, type TopologyConfig } from '../../src/config.topology.js';
import { append } from '../support/conversations.js';
import { connectHttp } from '../support/mcp.js';
import { createTestDatabase, startServer, waitUntil, type TestDatabase, type TestServer } from '../support/harness.js';

const ENABLED = process.env.BURROW_TEST_TOPOLOGY === '1';
const WHY = ENABLED
  ? 'on a PostgreSQL 15 primary and a streaming hot standby'
  : 'skipped: set BURROW_TEST_TOPOLOGY=1 to start a PostgreSQL 15 primary and standby (scripts/topology/replica.sh, Debian postgresql-15, as the user postgres)';
const SCRIPT = fileURLToPath(new URL('../../scripts/topology/replica.sh', import.meta.url));
const PORT = process.env.BURROW_TOPOLOGY_PORT ?? '6440';
const WAIT_MS = 400;

const topology = (action: string) =>
  execFileSync('bash', [SCRIPT, action], { env: { ...process.env, BURROW_TOPOLOGY_PORT: PORT }, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });

describe.skipIf(!ENABLED)(`read replicas (${WHY})`, () => {
  let database: TestDatabase;
  let replicaUrl: string;
  let replica: pg.Client;
  let server: TestServer;
  /** Same database, a 1 s lag bound: skips the paused standby once it is 1 s behind. */
  let strict: TestServer;
  let writer: BurrowClient;
  let reader: BurrowClient;
  let operatorToken: string;

  const titles = async (client: BurrowClient) => (await client.brainSearch({ query: 'kiwi', first: 50 })).brainSearch.hits.map((hit) => hit.memory.title).sort();
  const withTopology = (base: TestDatabase, overrides: Partial<TopologyConfig>): TestDatabase => ({
    ...base,
    config: {
      ...(base.config as Extract<TestDatabase['config'], { lifecycle: 'external' }>),
      topology: {
        ...SINGLE_SERVER,
        replicas: [{ connectionString: replicaUrl, display: `127.0.0.1:${Number(PORT) + 1}/${base.name}` }],
        replicaWaitMs: WAIT_MS,
        replicaProbeMs: 100,
        ...overrides,
      },
    },
  });
  const metric = async (name: string) => {
    const response = await fetch(server.url.replace('/graphql', '/metrics'), { headers: { authorization: `Bearer ${operatorToken}` } });
    const line = (await response.text()).split('\n').find((l) => l.startsWith(`${name}{replica="127.0.0.1:${Number(PORT) + 1}/${database.name}"}`));
    return line === undefined ? undefined : Number(line.split(' ').pop());
  };
  const replayed = async (title: string) => {
    const { rows } = await replica.query('SELECT 1 FROM brain_memories WHERE title = $1', [title]);
    return rows.length === 1;
  };

  beforeAll(async () => {
    const urls = Object.fromEntries(
      topology('start')
        .trim()
        .split('\n')
        .map((line) => line.split('=') as [string, string]),
    );
    database = await createTestDatabase({ server: { url: urls.BURROW_TOPOLOGY_PRIMARY_URL, requiredMajor: 15 } });
    const url = new URL(urls.BURROW_TOPOLOGY_REPLICA_URL);
    url.pathname = `/${database.name}`;
    replicaUrl = url.toString();
    // The standby has the new database once it replayed its creation.
    await waitUntil(async () => {
      const probe = new pg.Client({ connectionString: replicaUrl });
      try {
        await probe.connect();
        await probe.end();
        return true;
      } catch {
        return false;
      }
    }, 'the standby has the test database');
    replica = new pg.Client({ connectionString: replicaUrl });
    // The last test kills the standby under it.
    replica.on('error', () => {});
    await replica.connect();
    server = await startServer({ database: withTopology(database, {}) });
    strict = await startServer({ database: withTopology(database, { replicaMaxLagSeconds: 1 }) });
    writer = await server.agentClient('ada');
    reader = await server.client({ agentId: 'ada' });
    operatorToken = (await server.app.services.tokens.create({ kind: 'operator', name: 'metrics' })).token;
    await waitUntil(() => server.database.reads!.status()[0].up && strict.database.reads!.status()[0].up, 'both instances see the standby up');
  }, 120_000);
  afterAll(async () => {
    await replica?.query('SELECT pg_wal_replay_resume()').catch(() => {});
    await replica?.end().catch(() => {});
    await strict?.stop();
    await server?.stop();
    await database?.drop();
    if (ENABLED) topology('stop');
  });

  it('reads go to the standby: another token sees the stale copy, the writer its own write (from the primary after the bound, from the standby when it catches up)', async () => {
    expect((await writer.brainSave({ input: { title: 'kiwi one', content: 'first kiwi' } })).brainSave.__typename).toBe('BrainSaveSuccess');
    await waitUntil(() => replayed('kiwi one'), 'the standby replayed the first save');
    await replica.query('SELECT pg_wal_replay_pause()');
    await waitUntil(async () => (await replica.query('SELECT pg_get_wal_replay_pause_state() AS s')).rows[0].s === 'paused', 'replay paused');

    expect((await writer.brainSave({ input: { title: 'kiwi two', content: 'second kiwi' } })).brainSave.__typename).toBe('BrainSaveSuccess');
    const reads = server.database.reads!;
    const fallbacksBefore = reads.primaryFallbacks();
    const replicaReadsBefore = reads.status()[0].reads;

    // Another token of the same agent: no write of its own to wait for, so the standby answers, stale.
    expect(await titles(reader)).toEqual(['kiwi one']);
    expect((await server.operator.brainMemories({ agentId: 'ada' })).brainMemories.edges.map((e) => e.node.title)).toEqual(['kiwi one']);
    expect(reads.status()[0].reads).toBe(replicaReadsBefore + 2);

    // The writer: the standby cannot reach its commit while paused; after WAIT_MS the primary answers.
    const started = Date.now();
    expect(await titles(writer)).toEqual(['kiwi one', 'kiwi two']);
    expect(Date.now() - started).toBeGreaterThanOrEqual(WAIT_MS);
    expect(reads.primaryFallbacks()).toBe(fallbacksBefore + 1);

    // Replay resumes: the writer's next read waits the few milliseconds the standby needs and is served there.
    await replica.query('SELECT pg_wal_replay_resume()');
    expect((await writer.brainSave({ input: { title: 'kiwi three', content: 'third kiwi' } })).brainSave.__typename).toBe('BrainSaveSuccess');
    const beforeThird = reads.status()[0].reads;
    expect(await titles(writer)).toEqual(['kiwi one', 'kiwi three', 'kiwi two']);
    expect(reads.status()[0].reads).toBe(beforeThird + 1);
    expect(reads.primaryFallbacks()).toBe(fallbacksBefore + 1);
  });

  it('/metrics shows the standby behind while replay is paused, a lagging standby is skipped past its bound, and both recover', async () => {
    await replica.query('SELECT pg_wal_replay_pause()');
    expect((await writer.brainSave({ input: { title: 'kiwi four', content: 'fourth kiwi' } })).brainSave.__typename).toBe('BrainSaveSuccess');
    await waitUntil(async () => ((await metric('burrow_db_replica_lag_bytes')) ?? 0) > 0, 'the lag in bytes shows in /metrics');
    expect(await metric('burrow_db_replica_up')).toBe(1);
    await waitUntil(() => strict.database.reads!.status()[0].lagSeconds > 1, 'the standby is over 1 s behind', 15_000);
    await waitUntil(async () => ((await metric('burrow_db_replica_lag_seconds')) ?? 0) > 1, 'the lag in seconds shows in /metrics');

    // The 1 s-bound instance skips the standby: the reader (no write of its own) gets the primary's answer there...
    const readerOnStrict = await strict.client({ agentId: 'ada' });
    expect(await titles(readerOnStrict)).toEqual(['kiwi four', 'kiwi one', 'kiwi three', 'kiwi two']);
    // ...while the 30 s-bound instance still reads the standby, one save behind.
    expect(await titles(reader)).toEqual(['kiwi one', 'kiwi three', 'kiwi two']);

    await replica.query('SELECT pg_wal_replay_resume()');
    await waitUntil(async () => (await metric('burrow_db_replica_lag_bytes')) === 0, 'the standby caught up');
    expect(await metric('burrow_db_replica_lag_seconds')).toBe(0);
    expect(await titles(reader)).toEqual(['kiwi four', 'kiwi one', 'kiwi three', 'kiwi two']);
  });

  it('while the standby is paused each writer reads its own write, another token not: an MCP tool call, a graphql-ws operation, a conversation append, a new agent in the operator list', async () => {
    const { token } = await server.app.services.tokens.create({ kind: 'agent', name: 'mcp-writer', agentId: 'ada' });
    const mcp = await connectHttp(server.url, token);
    try {
      await replica.query('SELECT pg_wal_replay_pause()');
      await waitUntil(async () => (await replica.query('SELECT pg_get_wal_replay_pause_state() AS s')).rows[0].s === 'paused', 'replay paused');
      const saved = await mcp.callTool({ name: 'brain_save', arguments: { title: 'kiwi mcp', content: 'mcp kiwi' } });
      expect(saved.isError).toBeFalsy();
      const found = await mcp.callTool({ name: 'brain_search', arguments: { query: 'kiwi mcp' } });
      expect(found.isError).toBeFalsy();
      expect(JSON.stringify(found.structuredContent)).toContain('"title":"kiwi mcp"');
      // The GraphQL reader, another token, still reads the paused standby.
      expect(await titles(reader)).toEqual(['kiwi four', 'kiwi one', 'kiwi three', 'kiwi two']);
      // Over graphql-ws: each operation is its token's request.
      const { token: wsToken } = await server.app.services.tokens.create({ kind: 'agent', name: 'ws-writer', agentId: 'ada' });
      const ws = createClient({ url: server.url.replace('http', 'ws'), webSocketImpl: WebSocket, connectionParams: { authorization: `Bearer ${wsToken}` }, retryAttempts: 0 });
      const overWs = (query: string) =>
        new Promise<{ data?: Record<string, unknown> | null }>((resolve, reject) => {
          let result: { data?: Record<string, unknown> | null } = {};
          ws.subscribe({ query }, { next: (value) => (result = value), error: reject, complete: () => resolve(result) });
        });
      try {
        expect((await overWs('mutation { brainSave(input: { title: "kiwi ws", content: "ws kiwi" }) { __typename } }')).data).toEqual({
          brainSave: { __typename: 'BrainSaveSuccess' },
        });
        const found = (await overWs('{ brainSearch(query: "kiwi", first: 50) { hits { memory { title } } } }')).data as { brainSearch: { hits: { memory: { title: string } }[] } };
        expect(found.brainSearch.hits.map((hit) => hit.memory.title)).toContain('kiwi ws');
      } finally {
        await ws.dispose();
      }
      // Conversation search: the appending token finds its entry, another token not yet.
      const talker = await server.client({ agentId: 'ada', session: 'talk' });
      await append(talker, '{"text":"a kiwi conversation"}', 'user');
      expect((await talker.conversationSearch({ query: 'kiwi conversation' })).conversationSearch.edges).toHaveLength(1);
      expect((await reader.conversationSearch({ query: 'kiwi conversation' })).conversationSearch.edges).toHaveLength(0);
      // The session list too: the appending token lists its new session, another token not yet.
      const sessionIds = (page: { conversationSessions: { edges: { node: { sessionId: string } }[] } }) => page.conversationSessions.edges.map((e) => e.node.sessionId);
      expect(sessionIds(await talker.conversationSessions({}))).toContain('talk');
      expect(sessionIds(await reader.conversationSessions({}))).not.toContain('talk');
      // The operator's agent list: the operator that created an agent lists it, another operator token not yet.
      const otherOperator = await server.client();
      expect((await server.operator.createAgent({ input: { agentId: 'bea', name: 'bea' } })).createAgent.__typename).toBe('CreateAgentSuccess');
      expect((await server.operator.agents({ first: 10 })).agents.edges.map((e) => e.node.agentId)).toEqual(['bea', 'ada']);
      expect((await otherOperator.agents({ first: 10 })).agents.edges.map((e) => e.node.agentId)).toEqual(['ada']);
    } finally {
      await mcp.close();
      await replica.query('SELECT pg_wal_replay_resume()');
    }
    await waitUntil(async () => (await titles(reader)).includes('kiwi ws'), 'the standby replays the saves');
  });

  it('a killed standby is skipped: reads answer from the primary, no error, and /metrics shows it down', async () => {
    topology('kill-replica');
    expect((await writer.brainSave({ input: { title: 'kiwi five', content: 'fifth kiwi' } })).brainSave.__typename).toBe('BrainSaveSuccess');
    // At once, before any probe noticed: the read that meets the dead standby is run on the primary.
    expect(await titles(reader)).toEqual(['kiwi five', 'kiwi four', 'kiwi mcp', 'kiwi one', 'kiwi three', 'kiwi two', 'kiwi ws']);
    expect((await server.operator.brainMemories({ agentId: 'ada' })).brainMemories.edges).toHaveLength(7);
    await waitUntil(async () => (await metric('burrow_db_replica_up')) === 0, 'the standby shows down in /metrics');
    expect(await titles(writer)).toEqual(['kiwi five', 'kiwi four', 'kiwi mcp', 'kiwi one', 'kiwi three', 'kiwi two', 'kiwi ws']);
  });
});
