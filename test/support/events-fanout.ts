/**
 * What the event fan-out tests share (test/events-fanout.test.ts, test/events-catch-up.test.ts):
 * agents and writes that make events, a count of the event log's reads, and a graphql-ws client
 * written out by hand.
 */
import WebSocket from 'ws';
import { waitUntil, type TestServer } from './harness.js';

export const range = (from: number, to: number) => Array.from({ length: to - from + 1 }, (_, i) => from + i);

export async function newAgent(target: TestServer, id: string) {
  await target.operator.createAgent({ input: { agentId: id, name: id } });
}

/** `count` profile updates of one agent, one after the other (each waits for the previous commit). */
export async function updates(target: TestServer, agentId: string, count: number, startRevision = 1) {
  for (let n = 0; n < count; n++) {
    const result = await target.operator.updateProfileDocument({ input: { agentId, kind: 'SOUL', content: `v${startRevision + n}`, expectedRevision: startRevision + n } });
    if (result.updateProfileDocument.__typename !== 'UpdateProfileDocumentSuccess') throw new Error(JSON.stringify(result));
  }
}

/** Counts the reads of the event log (SELECTs on agent_events) issued while `during` runs. */
export async function eventLogReads(target: TestServer, during: () => Promise<void>): Promise<number> {
  let reads = 0;
  target.database.statements.onQuery = (query) => {
    if (/^select\b[\s\S]*\bfrom "agent_events"/i.test(query)) reads++;
  };
  try {
    await during();
  } finally {
    target.database.statements.onQuery = undefined;
  }
  return reads;
}

/** A graphql-ws client written out by hand, so the test can stop reading its socket and see the frames' bytes. */
export async function rawSocket(target: TestServer, token: string) {
  const socket = new WebSocket(target.url.replace(/^http/, 'ws'), 'graphql-transport-ws');
  const messages: { id?: string; type: string; payload?: { data?: { agentEvents?: { sequence: number } | null } | null; errors?: unknown[] } }[] = [];
  const frames: string[] = [];
  socket.on('message', (data) => {
    frames.push(String(data));
    messages.push(JSON.parse(String(data)));
  });
  await new Promise((resolve, reject) => socket.once('open', resolve).once('error', reject));
  socket.send(JSON.stringify({ type: 'connection_init', payload: { authorization: `Bearer ${token}` } }));
  await waitUntil(() => messages.some((m) => m.type === 'connection_ack'), 'connection_ack', 60_000);
  const subscribeTo = (id: string, query: string, variables?: Record<string, unknown>) => socket.send(JSON.stringify({ id, type: 'subscribe', payload: { query, variables } }));
  return {
    socket,
    subscribeTo,
    subscribe(id: string, agentId: string, after: number) {
      subscribeTo(id, `subscription { agentEvents(agentId: "${agentId}", after: ${after}) { sequence payload } }`);
    },
    of: (id: string) => messages.filter((m) => m.id === id),
    /** The `next` frames of a subscription as received, with the sequence they carry (null for an error). */
    nextFrames: (id: string) =>
      messages.flatMap((m, i) => (m.id === id && m.type === 'next' ? [{ sequence: m.payload?.data?.agentEvents?.sequence ?? null, frame: frames[i] }] : [])),
  };
}
