/** Helpers of test/agent-erase.test.ts: rows per store of one agent, originals, a raw socket. */
import { createClient } from 'graphql-ws';
import WebSocket from 'ws';
import type { BurrowClient } from '../../clients/typescript/sdk.js';
import { ERASURE_ORDER } from '../../src/domains/data-rights/agent-erasure.stores.js';
import type { TestServer } from './harness.js';

/** Rows of the agent in every store an erasure removes, and its agents row. */
export async function rowsPerStore(server: TestServer, agentId: string): Promise<Record<string, number>> {
  const counts: Record<string, number> = {};
  for (const table of ERASURE_ORDER) {
    const { rows } = await server.database.pool.query<{ n: number }>(`SELECT count(*)::int AS n FROM "${table}" WHERE agent_id = $1`, [agentId]);
    counts[table] = rows[0].n;
  }
  const { rows } = await server.database.pool.query<{ n: number }>(`SELECT count(*)::int AS n FROM agents WHERE id = $1`, [agentId]);
  counts.agents = rows[0].n;
  return counts;
}

/** Appends `count` originals through the API (the client's runtime session). */
export async function seedOriginals(client: BurrowClient, count: number) {
  for (let i = 0; i < count; i++) {
    const { appendConversationEntry } = await client.appendConversationEntry({ input: { payload: JSON.stringify({ text: `original ${i}` }) } });
    if (appendConversationEntry.__typename !== 'AppendConversationEntrySuccess') throw new Error(JSON.stringify(appendConversationEntry));
  }
}

/** A raw graphql-ws socket with an agentEvents subscription of `agentId`; records how it closed. */
export async function openSocket(server: TestServer, token: string, agentId: string) {
  const state: { closed: { code: number; reason: string } | null } = { closed: null };
  const client = createClient({
    url: server.url.replace('http', 'ws'),
    webSocketImpl: WebSocket,
    connectionParams: { authorization: `Bearer ${token}` },
    retryAttempts: 0,
    lazy: false,
    // The close that ends it (4403) is what the tests wait for, not an error to print.
    onNonLazyError: () => {},
    on: { closed: (event) => (state.closed = { code: (event as CloseEvent).code, reason: (event as CloseEvent).reason }) },
  });
  const events = client.iterate({ query: `subscription { agentEvents(agentId: "${agentId}") { sequence type } }` });
  // The socket's close ends this subscription with the close event: expected here.
  events.next().catch(() => {});
  const viewer = await new Promise((resolve, reject) => client.subscribe({ query: '{ viewer { tokenName } }' }, { next: resolve, error: reject, complete: () => {} }));
  if (!viewer) throw new Error('no viewer');
  return { state, dispose: () => client.dispose() };
}

/**
 * `count` originals of one session of an existing agent, in one INSERT … generate_series (the
 * API would take minutes for a million). The session's counters match, as appends keep them.
 */
export async function seedOriginalsSql(query: (text: string, values: unknown[]) => Promise<unknown>, agentId: string, sessionId: string, count: number) {
  await query(
    `INSERT INTO conversation_sessions (agent_id, session_id, last_position, active_entry_count, created_at, updated_at)
     VALUES ($1, $2, $3::bigint, $3::int, now(), now())`,
    [agentId, sessionId, count],
  );
  await query(
    `INSERT INTO conversation_entries (agent_id, session_id, id, position, role, payload, created_at)
     SELECT $1, $2, 'seed-' || lpad(i::text, 8, '0'), i, 'user', json_build_object('text', 'seeded original ' || i), now()
       FROM generate_series(1, $3::int) AS i`,
    [agentId, sessionId, count],
  );
}
