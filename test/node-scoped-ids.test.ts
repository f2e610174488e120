/**
 * Global ids of working records and handoffs carry their continuity scope, so `node(id:)` works
 * for an operator holding the id without a scope header (a dashboard), while an agent token still
 * reads only in its own runtime scope (and only its own agent).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BurrowClient } from '../clients/typescript/sdk.js';
import { requestError, startServer, type TestServer } from './support/harness.js';
import { ok } from './support/continuity.js';

const AGENT = 'node-scope';
const NODE = 'query ($id: ID!) { node(id: $id) { __typename ... on WorkingRecord { recordId project } ... on SessionHandoff { handoffId project } } }';
let server: TestServer;
let recordId: string;
let recordGlobal: string;
let handoffId: string;
let handoffGlobal: string;

beforeAll(async () => {
  server = await startServer();
  const writer = await server.agentClient(AGENT, { scope: 'alpha', session: 's1' });
  await server.operator.createAgent({ input: { agentId: `${AGENT}-other`, name: 'other' } });
  ok((await writer.memoryWorkingWrite({ input: { kind: 'FINDING', title: 'scoped', content: 'c' } })).memoryWorkingWrite, 'MemoryWorkingWriteSuccess');
  await writer.sessionWriteHandoff({ input: { title: 'h', goal: 'g', outcome: 'o', body: 'b' } });
  // The global ids as a client gets them from a list.
  const listed = await writer.request<{ workingRecords: { edges: { node: { id: string; recordId: string } }[] }; sessionReadHandoff: { id: string; handoffId: string }[] }>(
    '{ workingRecords(first: 1) { edges { node { id recordId } } } sessionReadHandoff { id handoffId } }',
  );
  [recordId, recordGlobal] = [listed.workingRecords.edges[0].node.recordId, listed.workingRecords.edges[0].node.id];
  [handoffId, handoffGlobal] = [listed.sessionReadHandoff[0].handoffId, listed.sessionReadHandoff[0].id];
});
afterAll(async () => server?.stop());

const read = (client: BurrowClient, id: string) => client.request<{ node: Record<string, string> | null }>(NODE, { id });

describe('node(id:) of scoped records', () => {
  it('an operator without a scope header reads a working record and a handoff by global id', async () => {
    const operator = await server.client({ scope: null });
    expect((await read(operator, recordGlobal)).node).toEqual({ __typename: 'WorkingRecord', recordId, project: 'alpha' });
    expect((await read(operator, handoffGlobal)).node).toEqual({ __typename: 'SessionHandoff', handoffId, project: 'alpha' });
  });

  it('an agent token reads them in its own runtime scope only, and only its own agent', async () => {
    const same = await server.client({ agentId: AGENT, scope: 'alpha' });
    expect((await read(same, recordGlobal)).node).toEqual({ __typename: 'WorkingRecord', recordId, project: 'alpha' });
    expect((await read(same, handoffGlobal)).node).toEqual({ __typename: 'SessionHandoff', handoffId, project: 'alpha' });
    const elsewhere = await server.client({ agentId: AGENT, scope: 'beta' });
    const unscoped = await server.client({ agentId: AGENT, scope: null });
    const stranger = await server.client({ agentId: `${AGENT}-other`, scope: 'alpha' });
    for (const id of [recordGlobal, handoffGlobal]) {
      expect((await requestError(read(elsewhere, id))).code).toBe('continuity_scope_mismatch');
      expect((await requestError(read(unscoped, id))).code).toBe('continuity_scope_required');
      expect((await requestError(read(stranger, id))).code).toBe('AGENT_MISMATCH');
    }
  });

  it('an operator with a scope header reads only that scope by id', async () => {
    const beta = await server.client({ scope: 'beta' });
    expect((await requestError(read(beta, recordGlobal))).code).toBe('continuity_scope_mismatch');
    const alpha = await server.client({ scope: 'alpha' });
    expect((await read(alpha, handoffGlobal)).node).toMatchObject({ handoffId });
  });

  it('an id made before the scope was in it still reads in the runtime scope', async () => {
    const legacy = Buffer.from(`WorkingRecord:${AGENT}/${recordId}`).toString('base64');
    const alpha = await server.client({ scope: 'alpha' });
    expect((await read(alpha, legacy)).node).toEqual({ __typename: 'WorkingRecord', recordId, project: 'alpha' });
    expect((await requestError(read(await server.client({ scope: null }), legacy))).code).toBe('continuity_scope_required');
  });
});
