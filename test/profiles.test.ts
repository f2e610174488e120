import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type TestServer, faultSwitch } from './support/harness.js';
import type { BurrowClient } from '../clients/typescript/sdk.js';

const KINDS = ['SOUL', 'RULES', 'ORIENTATION', 'PREFERENCES', 'TOOLS', 'DREAM_MEMORY'] as const;

let server: TestServer;
const faults = faultSwitch();
beforeAll(async () => {
  server = await startServer({ faults: faults.inject });
});
afterAll(async () => server?.stop());

async function createAgent(id: string) {
  const result = await server.operator.createAgent({ input: { agentId: id, name: `Agent ${id}` } });
  if (result.createAgent.__typename !== 'CreateAgentSuccess') throw new Error(JSON.stringify(result));
  return result.createAgent.agent;
}

async function document(client: BurrowClient, agentId: string, kind: (typeof KINDS)[number]) {
  const { profileDocument } = await client.profileDocument({ agentId, kind, revisions: 100 });
  if (!profileDocument) throw new Error('missing document');
  return profileDocument;
}

describe('createAgent', () => {
  it('creates the six empty documents at revision 1 with virtual references', async () => {
    const agent = await createAgent('profile-basic');
    expect(agent.agentId).toBe('profile-basic');
    expect(agent.profile.map((d) => [d.kind, d.content, d.revision, d.reference])).toEqual(
      KINDS.map((kind) => [kind, '', 1, `postgres:agent_profile_documents/profile-basic/${kind}`]),
    );
    expect(agent.profile[0].updatedBy).toEqual({ kind: 'OPERATOR', principalId: 'test-operator' });
  });

  it('rejects a duplicate id and a malformed id, creating nothing', async () => {
    await createAgent('profile-dup');
    const again = await server.operator.createAgent({ input: { agentId: 'profile-dup', name: 'x' } });
    expect(again.createAgent).toMatchObject({ __typename: 'AlreadyExists', code: 'ALREADY_EXISTS', resource: 'Agent', resourceId: 'profile-dup' });
    const bad = await server.operator.createAgent({ input: { agentId: 'Not Valid!', name: 'x' } });
    expect(bad.createAgent).toMatchObject({ __typename: 'ValidationFailed', field: 'agentId', limit: 63 });
    expect((await server.operator.agent({ id: 'Not Valid!' })).agent).toBeNull();
  });

  it('is an operator verb', async () => {
    await createAgent('profile-self');
    const agentClient = await server.client({ agentId: 'profile-self' });
    await expect(agentClient.createAgent({ input: { agentId: 'sneaky', name: 'x' } })).rejects.toMatchObject({ code: 'FORBIDDEN' });
  });
});

describe('updateProfileDocument', () => {
  it('accepts 48,000 characters and rejects 48,001 naming the field and limit, changing nothing', async () => {
    await createAgent('profile-limit');
    const ok = await server.operator.updateProfileDocument({
      input: { agentId: 'profile-limit', kind: 'SOUL', content: 'a'.repeat(48_000), expectedRevision: 1 },
    });
    expect(ok.updateProfileDocument).toMatchObject({ __typename: 'UpdateProfileDocumentSuccess', document: { revision: 2 } });
    const tooLong = await server.operator.updateProfileDocument({
      input: { agentId: 'profile-limit', kind: 'SOUL', content: 'b'.repeat(48_001), expectedRevision: 2 },
    });
    expect(tooLong.updateProfileDocument).toMatchObject({ __typename: 'ValidationFailed', code: 'VALIDATION_FAILED', field: 'content', limit: 48_000 });
    const after = await document(server.operator, 'profile-limit', 'SOUL');
    expect(after.revision).toBe(2);
    expect(after.content).toBe('a'.repeat(48_000));
    expect(after.revisions.edges).toHaveLength(2);
  });

  it('counts characters, not UTF-16 units: 48,000 emoji fit', async () => {
    await createAgent('profile-emoji');
    const ok = await server.operator.updateProfileDocument({
      input: { agentId: 'profile-emoji', kind: 'TOOLS', content: '🦔'.repeat(48_000), expectedRevision: 1 },
    });
    expect(ok.updateProfileDocument.__typename).toBe('UpdateProfileDocumentSuccess');
  });

  it('refuses the NUL character as a typed error, changing nothing', async () => {
    await createAgent('profile-nul');
    const result = await server.operator.updateProfileDocument({ input: { agentId: 'profile-nul', kind: 'SOUL', content: 'a\u0000b', expectedRevision: 1 } });
    expect(result.updateProfileDocument).toMatchObject({ __typename: 'ValidationFailed', field: 'content' });
    expect((await document(server.operator, 'profile-nul', 'SOUL')).revision).toBe(1);
  });

  it('also holds the bound as a CHECK constraint in the database', async () => {
    await createAgent('profile-check');
    await expect(server.database.pool.query(`UPDATE agent_profile_documents SET content = repeat('x', 48001) WHERE agent_id = 'profile-check' AND kind = 'SOUL'`)).rejects.toThrow(
      /agent_profile_documents_content_limit/,
    );
  });

  it('returns RevisionConflict with the current revision and content for a stale revision and changes nothing', async () => {
    await createAgent('profile-conflict');
    await server.operator.updateProfileDocument({ input: { agentId: 'profile-conflict', kind: 'RULES', content: 'first', expectedRevision: 1 } });
    const stale = await server.operator.updateProfileDocument({
      input: { agentId: 'profile-conflict', kind: 'RULES', content: 'lost update', expectedRevision: 1 },
    });
    expect(stale.updateProfileDocument).toMatchObject({
      __typename: 'RevisionConflict',
      code: 'REVISION_CONFLICT',
      expectedRevision: 1,
      currentRevision: 2,
      currentContent: 'first',
    });
    const after = await document(server.operator, 'profile-conflict', 'RULES');
    expect([after.revision, after.content, after.revisions.edges.length, after.revisions.totalCount]).toEqual([2, 'first', 2, 2]);
  });

  it('returns NotFound for an unknown agent', async () => {
    const missing = await server.operator.updateProfileDocument({
      input: { agentId: 'nobody-here', kind: 'RULES', content: 'x', expectedRevision: 1 },
    });
    expect(missing.updateProfileDocument).toMatchObject({ __typename: 'NotFound', code: 'NOT_FOUND' });
  });

  it('rejects a non-positive expectedRevision', async () => {
    await createAgent('profile-rev0');
    const zero = await server.operator.updateProfileDocument({ input: { agentId: 'profile-rev0', kind: 'RULES', content: 'x', expectedRevision: 0 } });
    expect(zero.updateProfileDocument).toMatchObject({ __typename: 'ValidationFailed', field: 'expectedRevision' });
  });

  it('keeps a revision history with the actor of each change, newest first', async () => {
    await createAgent('profile-history');
    const agentClient = await server.client({ agentId: 'profile-history' });
    await server.operator.updateProfileDocument({ input: { agentId: 'profile-history', kind: 'ORIENTATION', content: 'by operator', expectedRevision: 1 } });
    await agentClient.updateProfileDocument({ input: { agentId: 'profile-history', kind: 'ORIENTATION', content: 'by agent', expectedRevision: 2 } });
    const doc = await document(server.operator, 'profile-history', 'ORIENTATION');
    expect(doc.updatedBy).toEqual({ kind: 'AGENT', principalId: 'profile-history' });
    expect(doc.revisions.edges.map(({ node: r }) => [r.revision, r.content, r.actor.kind, r.actor.principalId])).toEqual([
      [3, 'by agent', 'AGENT', 'profile-history'],
      [2, 'by operator', 'OPERATOR', 'test-operator'],
      [1, '', 'OPERATOR', 'test-operator'],
    ]);
    expect(doc.revisions.totalCount).toBe(3);
  });

  it('pages the revisions forward: first, after, the last page and a refused cursor', async () => {
    await createAgent('profile-pages');
    for (let revision = 1; revision <= 4; revision++) {
      await server.operator.updateProfileDocument({ input: { agentId: 'profile-pages', kind: 'TOOLS', content: `v${revision + 1}`, expectedRevision: revision } });
    }
    const page = (first: number, after?: string | null) =>
      server.operator.profileDocument({ agentId: 'profile-pages', kind: 'TOOLS', revisions: first, after }).then((r) => r.profileDocument!.revisions);
    const one = await page(2);
    expect(one.edges.map((e) => e.node.revision)).toEqual([5, 4]);
    expect([one.totalCount, one.pageInfo.hasNextPage, one.pageInfo.hasPreviousPage]).toEqual([5, true, false]);
    const two = await page(3, one.pageInfo.endCursor);
    expect(two.edges.map((e) => e.node.revision)).toEqual([3, 2, 1]);
    expect([two.pageInfo.hasNextPage, two.pageInfo.hasPreviousPage]).toEqual([false, true]);
    // The limit and one past it.
    expect((await page(500)).edges).toHaveLength(5);
    await expect(page(501)).rejects.toMatchObject({ code: 'BAD_REQUEST' });
    // A cursor of another document's history is refused, not reinterpreted.
    const other = server.operator.profileDocument({ agentId: 'profile-pages', kind: 'SOUL', revisions: 1, after: one.pageInfo.endCursor });
    await expect(other).rejects.toMatchObject({ code: 'CURSOR_MISMATCH' });
  });
});

describe('replaceProfile', () => {
  const six = (prefix: string) => KINDS.map((kind) => ({ kind, content: `${prefix} ${kind}` }));

  it('replaces all six documents atomically', async () => {
    await createAgent('replace-ok');
    const result = await server.operator.replaceProfile({ input: { agentId: 'replace-ok', documents: six('new') } });
    if (result.replaceProfile.__typename !== 'ReplaceProfileSuccess') throw new Error(JSON.stringify(result));
    expect(result.replaceProfile.documents.map((d) => [d.kind, d.content, d.revision])).toEqual(KINDS.map((k) => [k, `new ${k}`, 2]));
  });

  it.each([
    ['fewer than six', six('x').slice(0, 5)],
    ['more than six', [...six('x'), { kind: 'SOUL' as const, content: 'seventh' }]],
    ['a duplicate kind', [...six('x').slice(0, 5), { kind: 'SOUL' as const, content: 'again' }]],
  ])('rejects %s and changes nothing', async (_label, documents) => {
    const id = `replace-bad-${documents.length}-${documents.at(-1)!.content.length}`;
    await createAgent(id);
    const result = await server.operator.replaceProfile({ input: { agentId: id, documents } });
    expect(result.replaceProfile).toMatchObject({ __typename: 'ValidationFailed', field: 'documents', limit: 6 });
    const { agent } = await server.operator.agent({ id });
    expect(agent!.profile.every((d) => d.revision === 1 && d.content === '')).toBe(true);
  });

  it('rolls back every document when one expectedRevision is stale', async () => {
    await createAgent('replace-stale');
    await server.operator.updateProfileDocument({ input: { agentId: 'replace-stale', kind: 'TOOLS', content: 'moved on', expectedRevision: 1 } });
    const documents = KINDS.map((kind) => ({ kind, content: `new ${kind}`, expectedRevision: 1 }));
    const result = await server.operator.replaceProfile({ input: { agentId: 'replace-stale', documents } });
    expect(result.replaceProfile).toMatchObject({ __typename: 'RevisionConflict', currentRevision: 2, currentContent: 'moved on' });
    const { agent } = await server.operator.agent({ id: 'replace-stale' });
    expect(agent!.profile.map((d) => d.content)).toEqual(['', '', '', '', 'moved on', '']);
  });

  it('rejects an over-limit document and changes nothing', async () => {
    await createAgent('replace-long');
    const documents = six('ok').map((d) => (d.kind === 'DREAM_MEMORY' ? { ...d, content: 'z'.repeat(48_001) } : d));
    const result = await server.operator.replaceProfile({ input: { agentId: 'replace-long', documents } });
    expect(result.replaceProfile).toMatchObject({ __typename: 'ValidationFailed', field: 'documents.DREAM_MEMORY.content', limit: 48_000 });
    const { agent } = await server.operator.agent({ id: 'replace-long' });
    expect(agent!.profile.every((d) => d.revision === 1)).toBe(true);
  });
});

describe('applyPreferenceLearning', () => {
  it('commits the document, the learning state and the audit record together', async () => {
    await createAgent('learn-ok');
    const runtime = await server.client({ agentId: 'learn-ok' });
    const result = await runtime.applyPreferenceLearning({
      input: { agentId: 'learn-ok', content: '- prefers short answers', expectedRevision: 1, reason: 'user asked twice for brevity' },
    });
    expect(result.applyPreferenceLearning).toMatchObject({ __typename: 'ApplyPreferenceLearningSuccess', document: { kind: 'PREFERENCES', revision: 2 } });
    const { preferenceLearning } = await server.operator.preferenceLearning({ agentId: 'learn-ok' });
    expect(preferenceLearning.appliedCount).toBe(1);
    expect(preferenceLearning.lastAppliedRevision).toBe(2);
    expect(preferenceLearning.audit.totalCount).toBe(1);
    expect(preferenceLearning.audit.edges.map((e) => e.node)).toEqual([
      {
        kind: 'PREFERENCES',
        action: 'PREFERENCE_LEARNING',
        fromRevision: 1,
        toRevision: 2,
        actor: { kind: 'AGENT', principalId: 'learn-ok' },
        reason: 'user asked twice for brevity',
        signalIds: [],
        createdAt: expect.any(String),
      },
    ]);
  });

  it.each(['preferences.after_document', 'preferences.after_learning_state', 'preferences.after_audit'])(
    'leaves document, learning state and audit unchanged when it fails at %s',
    async (point) => {
      const id = `learn-${point.split('.')[1].replace(/_/g, '-')}`;
      await createAgent(id);
      const before = await server.operator.agent({ id });
      faults.arm(point);
      try {
        await expect(server.operator.applyPreferenceLearning({ input: { agentId: id, content: 'learned', expectedRevision: 1, reason: 'test' } })).rejects.toMatchObject({
          code: 'INTERNAL_SERVER_ERROR',
        });
      } finally {
        faults.arm(null);
      }
      const doc = await document(server.operator, id, 'PREFERENCES');
      expect([doc.revision, doc.content, doc.revisions.edges.length]).toEqual([1, '', 1]);
      const { preferenceLearning } = await server.operator.preferenceLearning({ agentId: id });
      expect(preferenceLearning).toMatchObject({ appliedCount: 0, lastAppliedRevision: null, audit: { totalCount: 0, edges: [] } });
      const after = await server.operator.agent({ id });
      expect(after.agent!.lastEventSequence).toBe(before.agent!.lastEventSequence);
    },
  );

  it('refuses signals that are not pending signals of this agent, changing nothing', async () => {
    await createAgent('learn-signals');
    const result = await server.operator.applyPreferenceLearning({
      input: { agentId: 'learn-signals', content: 'x', expectedRevision: 1, reason: 'r', signalIds: ['no-such-signal'] },
    });
    expect(result.applyPreferenceLearning).toMatchObject({ __typename: 'ValidationFailed', field: 'signalIds' });
    const doc = await document(server.operator, 'learn-signals', 'PREFERENCES');
    expect([doc.revision, doc.content]).toEqual([1, '']);
    expect((await server.operator.preferenceLearning({ agentId: 'learn-signals' })).preferenceLearning.appliedCount).toBe(0);
  });

  it('is revision-checked like any other write', async () => {
    await createAgent('learn-stale');
    const result = await server.operator.applyPreferenceLearning({ input: { agentId: 'learn-stale', content: 'x', expectedRevision: 5, reason: 'r' } });
    expect(result.applyPreferenceLearning).toMatchObject({ __typename: 'RevisionConflict', currentRevision: 1 });
    const { preferenceLearning } = await server.operator.preferenceLearning({ agentId: 'learn-stale' });
    expect(preferenceLearning.appliedCount).toBe(0);
  });
});
