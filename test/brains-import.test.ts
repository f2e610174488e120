import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BurrowClient } from '../clients/typescript/sdk.js';
import { hasRealServer, NEEDS_REAL_SERVER, startServer, take, type TestServer } from './support/harness.js';
import { runNpm, userEnv } from './support/shipped.js';

let server: TestServer;
let ada: BurrowClient;

interface Legacy {
  id: string;
  owner: string | null;
  title: string;
  body: string;
  status?: string;
  corrected?: boolean;
  deleted?: boolean;
}

async function insertLegacy(records: Legacy[], on = server) {
  for (const r of records) {
    await on.database.pool.query(
      `INSERT INTO albdruck_knowledge (id, owner_agent_id, title, body, status, operator_corrected, operator_deleted, created_by, created_at, updated_at)
       VALUES ($1, $2, $3, $4, $5, $6, $7, 'legacy-user', '2025-03-01T10:00:00Z', '2025-04-01T10:00:00Z')`,
      [r.id, r.owner, r.title, r.body, r.status ?? 'active', r.corrected ?? false, r.deleted ?? false],
    );
  }
}

async function memoryOf(legacyId: string, on = server) {
  const { rows } = await on.database.pool.query(
    'SELECT agent_id, id, title, content, revision, ownership, deleted_at, label, source_refs FROM brain_memories WHERE legacy_knowledge_id = $1',
    [legacyId],
  );
  return rows[0] as
    | { agent_id: string; id: string; title: string; content: string; revision: number; ownership: string; deleted_at: Date | null; label: string; source_refs: string[] }
    | undefined;
}

async function importNow() {
  const result = await server.operator.importAlbdruck();
  return result.importAlbdruck;
}

beforeAll(async () => {
  server = await startServer();
  ada = await server.agentClient('ada');
  await insertLegacy([
    { id: 'k1', owner: 'ada', title: 'Ada likes tea', body: 'Earl grey, no milk.' },
    { id: 'k2', owner: null, title: 'Global: office hours', body: 'The office opens at nine.' },
    { id: 'k3', owner: 'ada', title: 'Archived fact', body: 'Old and archived.', status: 'archived' },
    { id: 'k4', owner: 'ada', title: 'Corrected by operator', body: 'The operator fixed this.', corrected: true },
    { id: 'k5', owner: 'ada', title: 'Deleted by operator', body: 'The operator deleted this.', deleted: true },
    { id: 'k6', owner: 'newagent', title: 'Belongs to a new agent', body: 'Creates the agent.' },
    { id: 'k7', owner: 'Bad Owner!', title: 'Unusable owner', body: 'Cannot be an agent id.' },
    { id: 'k8', owner: 'ada', title: 'T'.repeat(300), body: 'B'.repeat(25_000) },
  ]);
  for (let i = 0; i < 14; i++) {
    await server.database.pool.query(`INSERT INTO albdruck_evidence (id, knowledge_id, reference, excerpt, created_at) VALUES ($1, 'k1', $2, 'said so', $3)`, [
      `e${i}`,
      `conv:${i}`,
      new Date(Date.UTC(2025, 2, 1, 10, i)),
    ]);
  }
  await server.database.pool.query(
    `INSERT INTO albdruck_revisions (knowledge_id, revision, title, body, status, changed_by, changed_at) VALUES
     ('k1', 1, 'Ada likes coffee', 'Black coffee.', 'active', 'legacy-user', '2025-03-01T10:00:00Z'),
     ('k1', 2, 'Ada likes tea', 'Earl grey, no milk.', 'active', 'operator', '2025-04-01T10:00:00Z')`,
  );
});
afterAll(async () => server?.stop());

describe('legacy Albdruck import', () => {
  it('imports every legacy record with its owner, label, ownership and migration details', async () => {
    const { agent: before } = await server.operator.agent({ id: 'ada' });
    const summary = await importNow();
    expect(summary).toMatchObject({ total: 8, imported: 7, skipped: 0, deletedOnImport: 2, failed: 1, createdAgents: ['hatchet', 'newagent'] });
    expect(summary.failures).toEqual([{ legacyId: 'k7', reason: expect.stringMatching(/^agent id "Bad Owner!" is not 1 to 63 characters/) }]);

    const k1 = (await memoryOf('k1'))!;
    expect(k1).toMatchObject({ agent_id: 'ada', ownership: 'AGENT', deleted_at: null, label: 'migrated_albdruck', title: 'Ada likes tea' });
    expect(k1.source_refs).toEqual(Array.from({ length: 12 }, (_, i) => `conv:${i}`));
    const read = (await ada.brainRead({ memoryId: k1.id })).brainRead!;
    expect(read.labels).toEqual(['migrated_albdruck']);
    expect(read.legacyMigration).toMatchObject({
      source: 'albdruck',
      legacyId: 'k1',
      legacyScope: 'AGENT',
      legacyOwnerAgentId: 'ada',
      legacyStatus: 'active',
      operatorCorrected: false,
      operatorDeleted: false,
      evidenceCount: 14,
      snapshotCount: 2,
      truncated: true,
      importedBy: { kind: 'OPERATOR', principalId: 'test-operator' },
    });
    expect((read.legacyMigration!.details as { snapshots: { title: string }[] }).snapshots.map((s) => s.title)).toEqual(['Ada likes coffee', 'Ada likes tea']);
    expect(read.revisions).toEqual([expect.objectContaining({ revision: 1, action: 'IMPORTED' })]);

    // Global records belong to hatchet, which was created with its profile.
    const k2 = (await memoryOf('k2'))!;
    expect(k2).toMatchObject({ agent_id: 'hatchet', ownership: 'AGENT', deleted_at: null });
    const { agent: hatchet } = await server.operator.agent({ id: 'hatchet' });
    expect(hatchet?.profile).toHaveLength(6);
    expect((await server.operator.brainRead({ memoryId: k2.id, agentId: 'hatchet' })).brainRead?.legacyMigration).toMatchObject({
      legacyScope: 'GLOBAL',
      legacyOwnerAgentId: null,
    });

    // Non-active legacy records are imported as deleted; operator-touched ones stay operator-owned.
    expect(await memoryOf('k3')).toMatchObject({ agent_id: 'ada', deleted_at: expect.any(Date), ownership: 'AGENT' });
    expect(await memoryOf('k4')).toMatchObject({ deleted_at: null, ownership: 'OPERATOR' });
    expect(await memoryOf('k5')).toMatchObject({ deleted_at: expect.any(Date), ownership: 'OPERATOR' });
    expect((await ada.brainRead({ memoryId: (await memoryOf('k3'))!.id })).brainRead).toBeNull();
    const k4 = (await memoryOf('k4'))!;
    expect((await ada.brainUpdate({ input: { memoryId: k4.id, expectedRevision: 1, content: 'agent edit' } })).brainUpdate).toMatchObject({
      __typename: 'Forbidden',
      code: 'OPERATOR_OWNED',
    });

    expect(await memoryOf('k6')).toMatchObject({ agent_id: 'newagent' });
    expect(await memoryOf('k7')).toBeUndefined();
    const k8 = (await memoryOf('k8'))!;
    expect([k8.title.length, k8.content.length]).toEqual([240, 24_000]);

    // Live imports are announced to dashboards; tombstone imports are not visible changes.
    const events = await take(server.operator.brainEvents({ agentId: 'ada', after: before!.lastEventSequence }), 3);
    expect(events.map((e) => [e.agentEvents.type, e.agentEvents.subjectId])).toEqual([
      ['BRAIN_CREATED', k1.id],
      ['BRAIN_CREATED', k4.id],
      ['BRAIN_CREATED', k8.id],
    ]);
  });

  it('running it again imports only what is new, never overwrites an edit and never resurrects a tombstone', async () => {
    const again = await importNow();
    expect(again).toMatchObject({ total: 8, imported: 0, skipped: 7, deletedOnImport: 0, failed: 1, createdAgents: [] });

    const k1 = (await memoryOf('k1'))!;
    const edited = await ada.brainUpdate({ input: { memoryId: k1.id, expectedRevision: 1, content: 'Now prefers green tea.' } });
    expect(edited.brainUpdate.__typename).toBe('BrainUpdateSuccess');
    const k2 = (await memoryOf('k2'))!;
    const removed = await server.operator.brainRemove({ input: { agentId: 'hatchet', memoryId: k2.id, expectedRevision: 1 } });
    expect(removed.brainRemove.__typename).toBe('BrainRemoveSuccess');
    // The legacy side changes too; the import must still leave the Brain memories alone.
    await server.database.pool.query(`UPDATE albdruck_knowledge SET body = 'Legacy rewrite', updated_at = '2025-05-01T00:00:00Z' WHERE id IN ('k1', 'k2')`);
    await insertLegacy([{ id: 'k9', owner: 'ada', title: 'Brand new legacy record', body: 'Arrived later.' }]);

    const third = await importNow();
    expect(third).toMatchObject({ total: 9, imported: 1, skipped: 7, deletedOnImport: 0, failed: 1 });
    expect(await memoryOf('k1')).toMatchObject({ content: 'Now prefers green tea.', revision: 2 });
    expect(await memoryOf('k2')).toMatchObject({ content: 'The office opens at nine.', revision: 2, deleted_at: expect.any(Date) });
    expect((await server.operator.brainRead({ memoryId: k2.id, agentId: 'hatchet' })).brainRead).toBeNull();
    expect(await memoryOf('k3')).toMatchObject({ deleted_at: expect.any(Date), revision: 1 });
    expect(await memoryOf('k9')).toMatchObject({ agent_id: 'ada', deleted_at: null, label: 'migrated_albdruck' });
    // Legacy tables stay for compatibility.
    const legacyCount = await server.database.pool.query('SELECT count(*)::int AS n FROM albdruck_knowledge');
    expect(legacyCount.rows[0].n).toBe(9);
  });

  it('is for operators only', async () => {
    const result = await ada.importAlbdruck().catch((error) => error);
    expect(result.code).toBe('FORBIDDEN');
  });
});

describe.skipIf(!hasRealServer)(`burrow import-albdruck (a second process on the same database: ${NEEDS_REAL_SERVER})`, () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startServer({ realServer: true });
    await server.agentClient('ada');
  });
  afterAll(async () => server?.stop());

  it('prints a summary (no progress lines when stderr is not a terminal)', async () => {
    await insertLegacy(
      [
        { id: 'k1', owner: 'ada', title: 'Imported by the API', body: 'First.' },
        { id: 'k7', owner: 'Bad Owner!', title: 'Unusable owner', body: 'Cannot be an agent id.' },
      ],
      server,
    );
    expect((await server.operator.importAlbdruck()).importAlbdruck).toMatchObject({ total: 2, imported: 1, failed: 1 });
    await insertLegacy([{ id: 'k10', owner: 'ada', title: 'From the CLI', body: 'Imported by the command.' }], server);
    const env = userEnv({
      BURROW_POSTGRES_LIFECYCLE: 'external',
      BURROW_POSTGRES_URL: server.testDatabase.url!,
      BURROW_POSTGRES_REQUIRED_MAJOR: '13',
      BURROW_LOG_LEVEL: 'silent',
    });
    const { stdout, stderr } = await runNpm(['run', 'burrow', '--', 'import-albdruck'], env);
    expect(stdout).toContain('Albdruck import: 3 legacy records');
    expect(stdout).toMatch(/imported:\s+1\n/);
    expect(stdout).toMatch(/skipped:\s+1 /);
    expect(stdout).toMatch(/deleted-on-import:\s+0 /);
    expect(stdout).toContain('failed k7:');
    expect(stderr).not.toContain('importing legacy Albdruck records');
    expect(await memoryOf('k10', server)).toMatchObject({ agent_id: 'ada', label: 'migrated_albdruck' });
  });
});
