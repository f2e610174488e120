/**
 * Conversation helpers for tests: an append and a compaction that expect success, readers that
 * follow every page of originals, the active history, a search and the session list, and the two
 * counts the tests compare before and after (rows in the database, the agent's last event).
 */
import type { BurrowClient, ConversationEntryFieldsFragment, ConversationOriginalFieldsFragment, ConversationSessionFieldsFragment } from '../../clients/typescript/sdk.js';
import type { TestServer } from './harness.js';

export async function append(client: BurrowClient, payload: string, role?: string) {
  const result = (await client.appendConversationEntry({ input: { payload, role } })).appendConversationEntry;
  if (result.__typename !== 'AppendConversationEntrySuccess') throw new Error(`expected success, got ${JSON.stringify(result)}`);
  return result.entry;
}

export async function compact(client: BurrowClient, input: Parameters<BurrowClient['compactConversation']>[0]['input']) {
  const result = (await client.compactConversation({ input })).compactConversation;
  if (result.__typename !== 'CompactConversationSuccess') throw new Error(`expected success, got ${JSON.stringify(result)}`);
  return result.compaction;
}

export async function allOriginals(client: BurrowClient, sessionId: string, first = 100, agentId?: string) {
  const rows: ConversationOriginalFieldsFragment[] = [];
  let after: string | null = null;
  for (;;) {
    const page: Awaited<ReturnType<BurrowClient['conversationOriginals']>> = await client.conversationOriginals({ sessionId, first, after, agentId });
    rows.push(...page.conversationOriginals.edges.map((e) => e.node));
    if (!page.conversationOriginals.pageInfo.hasNextPage) return rows;
    after = page.conversationOriginals.pageInfo.endCursor;
  }
}

export async function history(client: BurrowClient, sessionId: string, agentId?: string, first = 100) {
  const rows: ConversationEntryFieldsFragment[] = [];
  let after: string | null = null;
  for (;;) {
    const page: Awaited<ReturnType<BurrowClient['conversationHistory']>> = await client.conversationHistory({ sessionId, first, after, agentId });
    rows.push(...page.conversationHistory.edges.map((e) => e.node));
    if (!page.conversationHistory.pageInfo.hasNextPage) return rows;
    after = page.conversationHistory.pageInfo.endCursor;
  }
}

export type SearchArgs = Omit<Parameters<BurrowClient['conversationSearch']>[0], 'after'>;
export async function searchAll(client: BurrowClient, args: SearchArgs) {
  const rows: ConversationEntryFieldsFragment[] = [];
  let after: string | null = null;
  for (;;) {
    const page: Awaited<ReturnType<BurrowClient['conversationSearch']>> = await client.conversationSearch({ ...args, after });
    rows.push(...page.conversationSearch.edges.map((e) => e.node));
    if (!page.conversationSearch.pageInfo.hasNextPage) return rows;
    after = page.conversationSearch.pageInfo.endCursor;
  }
}

export async function sessionsOf(client: BurrowClient, args: Omit<Parameters<BurrowClient['conversationSessions']>[0], 'after'> = {}) {
  const rows: ConversationSessionFieldsFragment[] = [];
  let after: string | null = null;
  for (;;) {
    const page: Awaited<ReturnType<BurrowClient['conversationSessions']>> = await client.conversationSessions({ ...args, after });
    rows.push(...page.conversationSessions.edges.map((e) => e.node));
    if (!page.conversationSessions.pageInfo.hasNextPage) return rows;
    after = page.conversationSessions.pageInfo.endCursor;
  }
}

export const countRows = async (server: TestServer, sql: string, params: unknown[] = []) => (await server.database.pool.query(sql, params)).rows[0].n as number;
export const lastSequence = async (server: TestServer, agentId: string) => (await server.operator.agent({ id: agentId })).agent!.lastEventSequence;
