/**
 * The result unions of the continuity, Tiddle and conversation mutations list exactly the errors
 * their services can return: each union's members are pinned here, and every listed error is
 * produced through the real server at least once, with its exact code (a member that cannot
 * happen fails this test).
 *
 * Where each comes from: Forbidden on continuity is a dead or foreign ownership session
 * (OWNER_NOT_LIVE) or a second receipt (RECEIPT_RECORDED) — a wrong token is a request error,
 * not a member; ContinuityFenceRejected is a stale generation, another owner or a transition the
 * run's state does not allow.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type TestServer } from './support/harness.js';
import { errorMembers, mutationUnionMembers, unionTally } from './support/unions.js';
import { ok, openOwner, waitUntilOwnerGone, type OwnerHandle } from './support/continuity.js';
import type { BurrowClient } from '../clients/typescript/sdk.js';

const FENCED = ['ContinuityFenceRejected', 'ValidationFailed', 'NotFound', 'Forbidden'];
const SESSION_WRITE = ['ValidationFailed', 'NotFound', 'ConversationSessionArchived'];

const EXPECTED: Record<string, string[]> = {
  startContinuityRun: ['ValidationFailed', 'Forbidden'],
  commitContinuityRun: FENCED,
  recordContinuityEffect: FENCED,
  recordContinuityReceipt: FENCED,
  finalizeContinuityRun: FENCED,
  completeContinuityRun: FENCED,
  interruptContinuityRun: FENCED,
  claimContinuityRecovery: ['ContinuityFenceRejected', 'NotFound', 'Forbidden'],
  tiddleAppendResidue: ['ValidationFailed'],
  tiddleRunPass: ['ValidationFailed', 'NotFound'],
  setTiddleCardTtl: ['ValidationFailed', 'NotFound'],
  appendConversationEntry: SESSION_WRITE,
  resetConversation: SESSION_WRITE,
  compactConversation: SESSION_WRITE,
  archiveConversationSession: SESSION_WRITE,
  unarchiveConversationSession: ['NotFound', 'ConversationSessionNotArchived'],
};

describe('result unions of continuity, Tiddle and conversations', () => {
  for (const [mutation, errors] of Object.entries(EXPECTED)) {
    it(`${mutation} lists exactly ${errors.join(', ')}`, () => {
      const members = mutationUnionMembers(mutation);
      expect(members).not.toBeNull();
      expect(errorMembers(members!)).toEqual([...errors].sort());
    });
  }
});

let server: TestServer;
beforeAll(async () => {
  server = await startServer();
});
afterAll(async () => server?.stop());

/** Every member each mutation produced in this file. */
const tally = unionTally();
type Result = { __typename: string; code?: string };
/** Records what `field` returned and checks it is the expected error, code included. */
function expectError(field: string, result: Result, expected: { __typename: string; code: string } & Record<string, unknown>) {
  tally.note(field, result.__typename);
  expect(result, field).toMatchObject(expected);
}

const VALIDATION = { __typename: 'ValidationFailed', code: 'VALIDATION_FAILED' } as const;
const NOT_FOUND = { __typename: 'NotFound', code: 'NOT_FOUND' } as const;
const fenceRejected = (code: 'STALE_GENERATION' | 'NOT_OWNER' | 'FORBIDDEN_TRANSITION') => ({ __typename: 'ContinuityFenceRejected', code });
const forbidden = (code: 'OWNER_NOT_LIVE' | 'RECEIPT_RECORDED') => ({ __typename: 'Forbidden', code });

describe('every listed error member happens', () => {
  it('continuity runs', async () => {
    const client = await server.agentClient('uc-runs', { scope: 'proj', session: 'sess-1' });
    const owner = await openOwner(client);
    const other = await openOwner(client);
    const stranger = await openOwner(await server.agentClient('uc-stranger', { scope: 'proj', session: 'sess-1' }));
    const start = async (runId: string, by: OwnerHandle = owner) =>
      ok((await client.startContinuityRun({ input: { runId, ownerId: by.ownerId } })).startContinuityRun, 'StartContinuityRunSuccess').run;

    // startContinuityRun: a malformed run id; an owner of another agent.
    const startRun = (input: { runId: string; ownerId: string }) => client.startContinuityRun({ input }).then((r) => r.startContinuityRun);
    expectError('startContinuityRun', await startRun({ runId: 'not a run id', ownerId: owner.ownerId }), { ...VALIDATION, field: 'runId' });
    expectError('startContinuityRun', await startRun({ runId: 'foreign', ownerId: stranger.ownerId }), forbidden('OWNER_NOT_LIVE'));

    // Fenced writes on a live RUNNING run at generation 1.
    await start('live');
    const fence = { runId: 'live', generation: 1, ownerId: owner.ownerId };
    const missing = { ...fence, runId: 'no-such-run' };
    ok((await client.recordContinuityEffect({ input: { ...fence, effectId: 'sent', kind: 'email', request: '{}' } })).recordContinuityEffect, 'RecordContinuityEffectSuccess');
    ok(
      (await client.recordContinuityReceipt({ input: { ...fence, effectId: 'sent', outcome: 'SUCCEEDED', receipt: '{}' } })).recordContinuityReceipt,
      'RecordContinuityReceiptSuccess',
    );

    const commit = (input: typeof fence & { head: string }) => client.commitContinuityRun({ input }).then((r) => r.commitContinuityRun);
    expectError('commitContinuityRun', await commit({ ...fence, head: '{not json' }), { ...VALIDATION, field: 'head' });
    expectError('commitContinuityRun', await commit({ ...missing, head: '{}' }), { ...NOT_FOUND, resource: 'ContinuityRun', resourceId: 'no-such-run' });
    expectError('commitContinuityRun', await commit({ ...fence, ownerId: other.ownerId, head: '{}' }), fenceRejected('NOT_OWNER'));

    const effect = (input: typeof fence & { effectId?: string; kind: string }) =>
      client.recordContinuityEffect({ input: { request: '{}', ...input } }).then((r) => r.recordContinuityEffect);
    expectError('recordContinuityEffect', await effect({ ...fence, effectId: 'sent', kind: 'email' }), { ...VALIDATION, field: 'effectId' });
    expectError('recordContinuityEffect', await effect({ ...missing, kind: 'email' }), { ...NOT_FOUND, resource: 'ContinuityRun' });
    expectError('recordContinuityEffect', await effect({ ...fence, generation: 2, kind: 'email' }), fenceRejected('STALE_GENERATION'));

    const receipt = (input: typeof fence & { effectId: string; receipt?: string }) =>
      client.recordContinuityReceipt({ input: { outcome: 'FAILED', receipt: '{}', ...input } }).then((r) => r.recordContinuityReceipt);
    expectError('recordContinuityReceipt', await receipt({ ...fence, effectId: 'sent', receipt: 'not json' }), { ...VALIDATION, field: 'receipt' });
    expectError('recordContinuityReceipt', await receipt({ ...fence, effectId: 'never-intended' }), {
      ...NOT_FOUND,
      resource: 'ContinuityEffect',
      resourceId: 'live/never-intended',
    });
    expectError('recordContinuityReceipt', await receipt({ ...fence, generation: 3, effectId: 'sent' }), fenceRejected('STALE_GENERATION'));
    expectError('recordContinuityReceipt', await receipt({ ...fence, effectId: 'sent' }), forbidden('RECEIPT_RECORDED'));

    const finalize = (input: typeof fence & { result?: string }) => client.finalizeContinuityRun({ input }).then((r) => r.finalizeContinuityRun);
    expectError('finalizeContinuityRun', await finalize({ ...fence, result: '{"open":' }), { ...VALIDATION, field: 'result' });
    expectError('finalizeContinuityRun', await finalize(missing), { ...NOT_FOUND, resource: 'ContinuityRun' });
    expectError('finalizeContinuityRun', await finalize({ ...fence, ownerId: other.ownerId }), fenceRejected('NOT_OWNER'));

    const complete = (input: typeof fence) => client.completeContinuityRun({ input }).then((r) => r.completeContinuityRun);
    expectError('completeContinuityRun', await complete({ ...fence, generation: 0 }), { ...VALIDATION, field: 'generation' });
    expectError('completeContinuityRun', await complete(missing), { ...NOT_FOUND, resource: 'ContinuityRun' });
    // RUNNING cannot complete before it finalizes.
    expectError('completeContinuityRun', await complete(fence), fenceRejected('FORBIDDEN_TRANSITION'));

    const interrupt = (input: typeof fence & { reason: string }) => client.interruptContinuityRun({ input }).then((r) => r.interruptContinuityRun);
    expectError('interruptContinuityRun', await interrupt({ ...fence, reason: ' ' }), { ...VALIDATION, field: 'reason' });
    expectError('interruptContinuityRun', await interrupt({ ...missing, reason: 'cancelled' }), { ...NOT_FOUND, resource: 'ContinuityRun' });
    expectError('interruptContinuityRun', await interrupt({ ...fence, generation: 2, reason: 'cancelled' }), fenceRejected('STALE_GENERATION'));

    const claim = (input: { runId: string; ownerId: string }) => client.claimContinuityRecovery({ input }).then((r) => r.claimContinuityRecovery);
    expectError('claimContinuityRecovery', await claim({ runId: 'no-such-run', ownerId: owner.ownerId }), { ...NOT_FOUND, resource: 'ContinuityRun' });
    // A RUNNING run is not waiting for recovery.
    expectError('claimContinuityRecovery', await claim({ runId: 'live', ownerId: owner.ownerId }), { ...fenceRejected('FORBIDDEN_TRANSITION'), currentState: 'RUNNING' });
    expectError('claimContinuityRecovery', await claim({ runId: 'live', ownerId: stranger.ownerId }), forbidden('OWNER_NOT_LIVE'));
    expect((await client.continuityRun({ runId: 'live' })).continuityRun).toMatchObject({ state: 'RUNNING', generation: 1, headRevision: 0, effectCount: 1 });

    // A runtime whose ownership session ended: the fence still matches, but it writes nothing more.
    const doomed = await openOwner(client);
    await start('orphan', doomed);
    await start('orphan-finalizing', doomed);
    ok(
      (await client.finalizeContinuityRun({ input: { runId: 'orphan-finalizing', generation: 1, ownerId: doomed.ownerId } })).finalizeContinuityRun,
      'FinalizeContinuityRunSuccess',
    );
    ok(
      (await client.recordContinuityEffect({ input: { runId: 'orphan', generation: 1, ownerId: doomed.ownerId, effectId: 'pending', kind: 'email', request: '{}' } }))
        .recordContinuityEffect,
      'RecordContinuityEffectSuccess',
    );
    await doomed.close();
    await waitUntilOwnerGone(client, 'uc-runs', doomed.ownerId);
    const dead = { runId: 'orphan', generation: 1, ownerId: doomed.ownerId };
    expectError('commitContinuityRun', await commit({ ...dead, head: '{}' }), forbidden('OWNER_NOT_LIVE'));
    expectError('recordContinuityEffect', await effect({ ...dead, kind: 'email' }), forbidden('OWNER_NOT_LIVE'));
    expectError('recordContinuityReceipt', await receipt({ ...dead, effectId: 'pending' }), forbidden('OWNER_NOT_LIVE'));
    expectError('finalizeContinuityRun', await finalize(dead), forbidden('OWNER_NOT_LIVE'));
    expectError('interruptContinuityRun', await interrupt({ ...dead, reason: 'late' }), forbidden('OWNER_NOT_LIVE'));
    expectError('completeContinuityRun', await complete({ ...dead, runId: 'orphan-finalizing' }), forbidden('OWNER_NOT_LIVE'));
    expectError('startContinuityRun', await startRun({ runId: 'after-death', ownerId: doomed.ownerId }), forbidden('OWNER_NOT_LIVE'));
    expect((await client.continuityRun({ runId: 'orphan' })).continuityRun).toMatchObject({ state: 'RUNNING', headRevision: 0, effectCount: 1 });
    expect((await client.continuityRun({ runId: 'orphan-finalizing' })).continuityRun?.state).toBe('FINALIZING');

    await stranger.close();
    await other.close();
    await owner.close();
  });

  it('Tiddle', async () => {
    const runtime = await server.agentClient('uc-tiddle', { scope: 'proj', session: 'sess-1' });
    const appendResidue = (turnRef: string, excerpts: { role: 'USER'; text: string }[]) =>
      runtime.tiddleAppendResidue({ input: { turnRef, excerpts } }).then((r) => r.tiddleAppendResidue);
    expectError('tiddleAppendResidue', await appendResidue('turn-1', []), { ...VALIDATION, field: 'excerpts', limit: 8 });
    expectError('tiddleAppendResidue', await appendResidue('t'.repeat(201), [{ role: 'USER', text: 'hi' }]), { ...VALIDATION, field: 'turnRef', limit: 200 });

    const runPass = (agentId: string, project?: string) => server.operator.tiddleRunPass({ agentId, project }).then((r) => r.tiddleRunPass);
    expectError('tiddleRunPass', await runPass('uc-tiddle', '*'), { ...VALIDATION, field: 'project' });
    expectError('tiddleRunPass', await runPass('uc-nobody'), { ...NOT_FOUND, resource: 'Agent', resourceId: 'uc-nobody' });
    // An agent with no residue in that scope has no scope to run.
    expectError('tiddleRunPass', await runPass('uc-tiddle', 'never-written'), { ...NOT_FOUND, resource: 'TiddleScope', resourceId: 'uc-tiddle/never-written' });

    const setTtl = (agentId: string, days: number) => server.operator.setTiddleCardTtl({ input: { agentId, days } }).then((r) => r.setTiddleCardTtl);
    expectError('setTiddleCardTtl', await setTtl('uc-tiddle', 0), { ...VALIDATION, field: 'days', limit: 36_500 });
    expectError('setTiddleCardTtl', await setTtl('uc-nobody', 30), { ...NOT_FOUND, resource: 'Agent', resourceId: 'uc-nobody' });
  });

  it('conversations', async () => {
    const client = await server.agentClient('uc-conv', { scope: 'proj', session: 'talk' });
    const operator = await server.client({ session: 'operator-session' });
    const append = (c: BurrowClient, input: { payload: string; agentId?: string }) => c.appendConversationEntry({ input }).then((r) => r.appendConversationEntry);
    for (const payload of ['{"n":1}', '{"n":2}']) ok(await append(client, { payload }), 'AppendConversationEntrySuccess');

    expectError('appendConversationEntry', await append(client, { payload: '{"open":' }), { ...VALIDATION, field: 'payload' });
    // The operator names an agent that does not exist.
    expectError('appendConversationEntry', await append(operator, { agentId: 'uc-nobody', payload: '{}' }), { ...NOT_FOUND, resource: 'Agent', resourceId: 'uc-nobody' });

    const reset = (c: BurrowClient, input: { agentId?: string; sessionId?: string; reason?: string }) => c.resetConversation({ input }).then((r) => r.resetConversation);
    expectError('resetConversation', await reset(client, { reason: 'r'.repeat(2001) }), { ...VALIDATION, field: 'reason', limit: 2000 });
    expectError('resetConversation', await reset(operator, { agentId: 'uc-conv', sessionId: 'never-used' }), {
      ...NOT_FOUND,
      resource: 'ConversationSession',
      resourceId: 'never-used',
    });

    const compact = (c: BurrowClient, input: { agentId?: string; sessionId?: string; fromPosition: number; toPosition: number }) =>
      c.compactConversation({ input: { summary: '"summary"', ...input } }).then((r) => r.compactConversation);
    expectError('compactConversation', await compact(client, { fromPosition: 0, toPosition: 2 }), { ...VALIDATION, field: 'fromPosition' });
    expectError('compactConversation', await compact(operator, { agentId: 'uc-conv', sessionId: 'never-used', fromPosition: 1, toPosition: 2 }), {
      ...NOT_FOUND,
      resource: 'ConversationSession',
      resourceId: 'never-used',
    });

    const archive = (c: BurrowClient, input: { agentId?: string; sessionId?: string; reason?: string }) =>
      c.archiveConversationSession({ input }).then((r) => r.archiveConversationSession);
    const unarchive = (c: BurrowClient, input: { agentId?: string; sessionId?: string }) => c.unarchiveConversationSession({ input }).then((r) => r.unarchiveConversationSession);
    expectError('archiveConversationSession', await archive(client, { reason: 'r'.repeat(2001) }), { ...VALIDATION, field: 'reason', limit: 2000 });
    expectError('archiveConversationSession', await archive(operator, { agentId: 'uc-conv', sessionId: 'never-used' }), { ...NOT_FOUND, resource: 'ConversationSession' });
    expectError('unarchiveConversationSession', await unarchive(operator, { agentId: 'uc-conv', sessionId: 'never-used' }), { ...NOT_FOUND, resource: 'ConversationSession' });
    expectError('unarchiveConversationSession', await unarchive(client, {}), { __typename: 'ConversationSessionNotArchived', code: 'SESSION_NOT_ARCHIVED', sessionId: 'talk' });

    // An archived session refuses every write until it is unarchived.
    ok(await archive(client, { reason: 'done' }), 'ArchiveConversationSessionSuccess');
    const archived = { __typename: 'ConversationSessionArchived', code: 'SESSION_ARCHIVED' } as const;
    expectError('appendConversationEntry', await append(client, { payload: '{"n":3}' }), archived);
    expectError('resetConversation', await reset(client, {}), archived);
    expectError('compactConversation', await compact(client, { fromPosition: 1, toPosition: 2 }), { ...archived, sessionId: 'talk', reason: 'done' });
    expectError('archiveConversationSession', await archive(client, {}), { ...archived, sessionId: 'talk', reason: 'done' });
    ok(await unarchive(client, {}), 'UnarchiveConversationSessionSuccess');
    expect((await client.conversationSession({ sessionId: 'talk' })).conversationSession).toMatchObject({ activeCount: 2, archived: false });
  });

  it('produced every error member listed', () => {
    for (const [field, members] of Object.entries(EXPECTED)) {
      expect({ field, produced: tally.errorsProduced(field) }).toEqual({ field, produced: [...members].sort() });
    }
  });
});
