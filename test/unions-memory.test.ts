/**
 * The result unions of the Brains, working-memory and handoff mutations list exactly the errors
 * their services can return: each union's members are pinned here, and every listed error is
 * produced through the real server at least once (a member that cannot happen fails this test).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { schema } from '../src/schema/index.js';
import { startServer, type TestServer } from './support/harness.js';
import { errorMembers, mutationUnionMembers, unionTally } from './support/unions.js';
import type { BurrowClient } from '../clients/typescript/sdk.js';

const EXPECTED: Record<string, string[]> = {
  brainSave: ['BrainSaveSuccess', 'NotFound', 'ValidationFailed'],
  brainUpdate: ['BrainUpdateSuccess', 'Forbidden', 'NotFound', 'RevisionConflict', 'ValidationFailed'],
  brainRemove: ['BrainRemoveSuccess', 'Forbidden', 'NotFound', 'RevisionConflict', 'ValidationFailed'],
  brainRemoveMany: ['BrainRemoveManySuccess', 'ValidationFailed'],
  memoryWorkingWrite: ['Forbidden', 'MemoryWorkingWriteSuccess', 'NotFound', 'RevisionConflict', 'ValidationFailed'],
  resolveWorkingRecord: ['Forbidden', 'NotFound', 'ResolveWorkingRecordSuccess', 'RevisionConflict', 'ValidationFailed'],
  supersedeWorkingRecord: ['Forbidden', 'NotFound', 'RevisionConflict', 'SupersedeWorkingRecordSuccess', 'ValidationFailed'],
  reactivateWorkingRecord: ['Forbidden', 'NotFound', 'ReactivateWorkingRecordSuccess', 'RevisionConflict', 'ValidationFailed'],
  sessionWriteHandoff: ['Forbidden', 'NotFound', 'SessionWriteHandoffSuccess', 'ValidationFailed'],
  recordAutomaticHandoff: ['RecordAutomaticHandoffSuccess', 'ValidationFailed'],
};

let server: TestServer;
let agent: BurrowClient;
let operator: BurrowClient;
beforeAll(async () => {
  server = await startServer();
  await server.operator.createAgent({ input: { agentId: 'unions', name: 'unions' } });
  agent = await server.agentClient('unions', { scope: 'u', session: 's1' });
  operator = await server.client({ scope: 'u', session: 's1' });
});
afterAll(async () => server?.stop());

/** Every error member each mutation produced in this file. */
const tally = unionTally();
const note = (field: string, result: { __typename: string }) => tally.note(field, result.__typename);

describe('memory mutation unions', () => {
  it('list exactly the expected members; importAlbdruck has none (a failed record is counted, not raised)', () => {
    const mutations = schema.getMutationType()!.getFields();
    for (const field of Object.keys(EXPECTED)) expect(mutationUnionMembers(field), field).toEqual(EXPECTED[field]);
    expect(String(mutations.importAlbdruck.type)).toBe('AlbdruckImportSummary!');
    expect(mutationUnionMembers('importAlbdruck')).toBeNull();
  });

  it('brains: every listed error happens', async () => {
    expect(note('brainSave', (await agent.brainSave({ input: { title: '', content: 'c' } })).brainSave)).toBe('ValidationFailed');
    expect(note('brainSave', (await server.operator.brainSave({ input: { agentId: 'nobody-here', title: 't', content: 'c' } })).brainSave)).toBe('NotFound');
    const saved = (await agent.brainSave({ input: { title: 't', content: 'c' } })).brainSave;
    if (saved.__typename !== 'BrainSaveSuccess') throw new Error(JSON.stringify(saved));
    const memoryId = saved.memory.memoryId;
    for (const field of ['brainUpdate', 'brainRemove'] as const) {
      const call = (input: { memoryId: string; expectedRevision: number }) =>
        field === 'brainUpdate' ? agent.brainUpdate({ input: { ...input, title: 'changed' } }).then((r) => r.brainUpdate) : agent.brainRemove({ input }).then((r) => r.brainRemove);
      expect(note(field, await call({ memoryId, expectedRevision: 0 }))).toBe('ValidationFailed');
      expect(note(field, await call({ memoryId: 'no-such-memory', expectedRevision: 1 }))).toBe('NotFound');
      expect(note(field, await call({ memoryId, expectedRevision: 7 }))).toBe('RevisionConflict');
    }
    const owned = (await server.operator.brainSave({ input: { agentId: 'unions', title: 'operator', content: 'c' } })).brainSave;
    if (owned.__typename !== 'BrainSaveSuccess') throw new Error(JSON.stringify(owned));
    expect(note('brainUpdate', (await agent.brainUpdate({ input: { memoryId: owned.memory.memoryId, expectedRevision: 1, title: 'x' } })).brainUpdate)).toBe('Forbidden');
    expect(note('brainRemove', (await agent.brainRemove({ input: { memoryId: owned.memory.memoryId, expectedRevision: 1 } })).brainRemove)).toBe('Forbidden');
    expect(note('brainRemoveMany', (await agent.brainRemoveMany({ agentId: 'unions', items: [] })).brainRemoveMany)).toBe('ValidationFailed');
    // Per-item refusals are statuses, not union members: the call itself succeeds.
    const perItem = (await agent.brainRemoveMany({ agentId: 'unions', items: [{ memoryId: owned.memory.memoryId, expectedRevision: 1 }] })).brainRemoveMany;
    expect(perItem).toMatchObject({ __typename: 'BrainRemoveManySuccess', results: [{ memoryId: owned.memory.memoryId, status: 'FORBIDDEN' }] });
    expect((await agent.brainRead({ memoryId: owned.memory.memoryId })).brainRead?.revision).toBe(1);
  });

  it('working memory: every listed error happens', async () => {
    const write = (client: BurrowClient, input: Record<string, unknown>) =>
      client.memoryWorkingWrite({ input: { kind: 'FINDING', title: 't', content: 'c', ...input } as never }).then((r) => r.memoryWorkingWrite);
    const created = await write(agent, {});
    const other = await write(agent, { title: 'other' });
    const byOperator = await write(operator, { agentId: 'unions', title: 'operator' });
    if (created.__typename !== 'MemoryWorkingWriteSuccess' || other.__typename !== 'MemoryWorkingWriteSuccess' || byOperator.__typename !== 'MemoryWorkingWriteSuccess') {
      throw new Error('setup failed');
    }
    const recordId = created.record.recordId;
    const operatorRecord = byOperator.record.recordId;
    expect(note('memoryWorkingWrite', await write(agent, { title: '' }))).toBe('ValidationFailed');
    expect(note('memoryWorkingWrite', await write(agent, { recordId: 'no-such-record', expectedRevision: 1 }))).toBe('NotFound');
    expect(note('memoryWorkingWrite', await write(agent, { recordId, expectedRevision: 9, content: 'x' }))).toBe('RevisionConflict');
    expect(note('memoryWorkingWrite', await write(agent, { recordId: operatorRecord, expectedRevision: 1, content: 'x' }))).toBe('Forbidden');

    const resolve = (input: { recordId: string; expectedRevision: number }) => agent.resolveWorkingRecord({ input }).then((r) => r.resolveWorkingRecord);
    const supersede = (input: { recordId: string; expectedRevision: number; supersededById?: string }) =>
      agent.supersedeWorkingRecord({ input: { supersededById: other.record.recordId, ...input } }).then((r) => r.supersedeWorkingRecord);
    const reactivate = (input: { recordId: string; expectedRevision: number }) => agent.reactivateWorkingRecord({ input }).then((r) => r.reactivateWorkingRecord);
    for (const [field, call] of [
      ['resolveWorkingRecord', resolve],
      ['supersedeWorkingRecord', supersede],
      ['reactivateWorkingRecord', reactivate],
    ] as const) {
      expect(note(field, await call({ recordId, expectedRevision: 0 })), field).toBe('ValidationFailed');
      expect(note(field, await call({ recordId: 'no-such-record', expectedRevision: 1 })), field).toBe('NotFound');
      expect(note(field, await call({ recordId, expectedRevision: 9 })), field).toBe('RevisionConflict');
      expect(note(field, await call({ recordId: operatorRecord, expectedRevision: 1 })), field).toBe('Forbidden');
    }
    expect((await agent.workingRecord({ recordId })).workingRecord).toMatchObject({ revision: 1, state: 'ACTIVE' });
  });

  it('handoffs: every listed error happens', async () => {
    const input = { title: 't', goal: 'g', outcome: 'o', body: 'b' };
    expect(note('sessionWriteHandoff', (await agent.sessionWriteHandoff({ input: { ...input, title: '' } })).sessionWriteHandoff)).toBe('ValidationFailed');
    expect(note('sessionWriteHandoff', (await operator.sessionWriteHandoff({ input: { ...input, agentId: 'nobody-here' } })).sessionWriteHandoff)).toBe('NotFound');
    const owned = (await operator.sessionWriteHandoff({ input: { ...input, agentId: 'unions', title: 'operator' } })).sessionWriteHandoff;
    expect(owned.__typename).toBe('SessionWriteHandoffSuccess');
    expect(note('sessionWriteHandoff', (await agent.sessionWriteHandoff({ input })).sessionWriteHandoff)).toBe('Forbidden');
    expect(note('recordAutomaticHandoff', (await agent.recordAutomaticHandoff({ input: { ...input, title: '' } })).recordAutomaticHandoff)).toBe('ValidationFailed');
  });

  it('produced every error member listed', () => {
    for (const [field, members] of Object.entries(EXPECTED)) expect(tally.errorsProduced(field), field).toEqual(errorMembers(members));
  });
});
