/**
 * MCP tool calls and idempotency (docs/idempotency.md): a write tool called twice with one
 * idempotencyKey writes once and answers the same; a call without a key gets one of its own, so a
 * call that loses its database connection mid-write is run again with that key and writes once.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { FaultInjector } from '../src/lib/faults.js';
import { startServer, type TestServer } from './support/harness.js';
import { call, connectHttp, mcpAgentToken, ok, toolFailure } from './support/mcp.js';

let server: TestServer;
let a: Client;
/** Armed: the next working write loses its "connection" after its INSERT, inside its transaction, this many times. */
let connectionLosses = 0;
const faults: FaultInjector = (point) => {
  if (point === 'working.after_write' && connectionLosses > 0) {
    connectionLosses--;
    throw Object.assign(new Error('read ECONNRESET'), { code: 'ECONNRESET' });
  }
};

beforeAll(async () => {
  server = await startServer({ faults });
  const token = await mcpAgentToken(server, 'mcp-idem');
  a = await connectHttp(server.url, token, { scope: 'proj', session: 's-1' });
});
afterAll(async () => {
  await a?.close();
  await server?.stop();
});

const count = async (sql: string) => (await server.database.pool.query<{ n: number }>(sql)).rows[0].n;

describe('MCP write tools with an idempotency key', () => {
  it('brain_save twice with one key: one memory, the same answer', async () => {
    const args = { title: 'Via MCP', content: 'once', idempotencyKey: 'mcp-save-1' };
    const first = ok(await call(a, 'brain_save', args));
    const second = ok(await call(a, 'brain_save', args));
    expect(second).toEqual(first);
    expect(await count(`SELECT count(*)::int AS n FROM brain_memories WHERE agent_id = 'mcp-idem'`)).toBe(1);
    const reused = toolFailure(await call(a, 'brain_save', { ...args, content: 'other' }));
    expect(reused.code).toBe('IDEMPOTENCY_KEY_REUSED');
    expect(await count(`SELECT count(*)::int AS n FROM brain_memories WHERE agent_id = 'mcp-idem'`)).toBe(1);
  });

  it('a call without a key gets a fresh one per call: two calls are two writes', async () => {
    const args = { kind: 'FINDING', title: 'Unkeyed', content: 'twice' };
    ok(await call(a, 'memory_working_write', args));
    ok(await call(a, 'memory_working_write', args));
    expect(await count(`SELECT count(*)::int AS n FROM working_records WHERE agent_id = 'mcp-idem' AND title = 'Unkeyed'`)).toBe(2);
    expect(await count(`SELECT count(*)::int AS n FROM idempotency_keys WHERE agent_id = 'mcp-idem' AND key LIKE 'mcp-%' AND operation = 'memoryWorkingWrite'`)).toBe(2);
  });

  it('a write that loses its connection is run again with its key and writes once', async () => {
    connectionLosses = 2;
    const result = ok(await call(a, 'memory_working_write', { kind: 'FINDING', title: 'Survives', content: 'two losses' }));
    expect(connectionLosses).toBe(0);
    expect(result.record).toMatchObject({ title: 'Survives', revision: 1 });
    expect(await count(`SELECT count(*)::int AS n FROM working_records WHERE agent_id = 'mcp-idem' AND title = 'Survives'`)).toBe(1);
  });

  it('gives up after four attempts with DATABASE_UNAVAILABLE, having written nothing', async () => {
    connectionLosses = 4;
    const failure = toolFailure(await call(a, 'memory_working_write', { kind: 'FINDING', title: 'Never', content: 'four losses' }));
    expect(connectionLosses).toBe(0);
    expect(failure.code).toBe('DATABASE_UNAVAILABLE');
    expect(await count(`SELECT count(*)::int AS n FROM working_records WHERE agent_id = 'mcp-idem' AND title = 'Never'`)).toBe(0);
  });

  it('refuses a key over 200 characters, writing nothing', async () => {
    const failure = toolFailure(await call(a, 'brain_save', { title: 't', content: 'c', idempotencyKey: 'k'.repeat(201) }));
    expect(failure).toMatchObject({ code: 'VALIDATION_FAILED', field: 'idempotencyKey', limit: 200 });
  });
});
