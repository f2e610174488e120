/**
 * The writes bench replays brainSave's own statement through pgbench as the database's ceiling
 * for the same write (bench/scenarios/writes.ts). The script is built from the statement the
 * server prepares, so it follows the source; this checks that what it writes is what a save
 * writes: one memory at revision 1 with its values, one 'created' revision, one brain.created
 * event, the agent's sequence bumped by one. CI's bench smoke runs on the embedded database,
 * where pgbench has nothing to drive, so without this test a drifted script would go unseen. The
 * bench's bare save handler (bench/scenarios/baselines.ts saveWrite) runs the same statement with
 * the values the server gives it, and is checked the same way.
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import { saveWrite } from '../bench/scenarios/baselines.js';
import { saveStatementScript } from '../bench/scenarios/writes.js';
import { startServer, type TestServer } from './support/harness.js';

let server: TestServer;

beforeAll(async () => {
  server = await startServer();
  await server.agentClient('bench-00003');
});
afterAll(async () => server?.stop());

/** The script's statement with pgbench's variables given as the text parameters pgbench sends. */
function statementOf(script: string, variables: Record<string, string>) {
  const lines = script.trim().split('\n');
  expect(lines.slice(0, 2)).toEqual(['\\set agent random(1, 100)', '\\set note random(1, 9000000000000000000)']);
  expect(lines).toHaveLength(3);
  return lines[2].replace(/:(agent|note|client_id)\b/g, (_, name: string) => `'${variables[name]}'`);
}

it("writes what brainSave writes: the memory, its first revision, the event and the agent's sequence", async () => {
  const { operator } = server;
  const eventsBefore = (await operator.agentEventLog({ agentId: 'bench-00003', first: 100 })).agent!.events.edges;
  await server.database.pool.query(statementOf(saveStatementScript(server.database.db), { agent: '3', note: '42', client_id: '7' }));

  const memoryId = `0007-${'42'.padStart(31, '0')}`;
  const { brainRead } = await operator.brainRead({ memoryId, agentId: 'bench-00003' });
  expect(brainRead).toMatchObject({
    memoryId,
    agentId: 'bench-00003',
    title: 'Bench note 42',
    content: 'Something worth keeping, number 42.',
    sourceRefs: ['bench:42'],
    revision: 1,
    ownership: 'OPERATOR',
    deleted: false,
    createdBy: { kind: 'OPERATOR', principalId: 'e2e-operator' },
    updatedBy: { kind: 'OPERATOR', principalId: 'e2e-operator' },
  });
  expect(brainRead!.revisions).toEqual([
    expect.objectContaining({ revision: 1, action: 'CREATED', title: 'Bench note 42', content: 'Something worth keeping, number 42.', sourceRefs: ['bench:42'] }),
  ]);

  const eventsAfter = (await operator.agentEventLog({ agentId: 'bench-00003', first: 100 })).agent!.events.edges;
  expect(eventsAfter.map((e) => e.node)).toEqual([
    ...eventsBefore.map((e) => e.node),
    { sequence: (eventsBefore.at(-1)?.node.sequence ?? 0) + 1, type: 'BRAIN_CREATED', stream: 'BRAIN' },
  ]);
});

it('is refused for an agent that does not exist, writing nothing (as brainSave is)', async () => {
  const rows = async () => (await server.database.pool.query<{ n: number }>("SELECT count(*)::int AS n FROM brain_memories WHERE agent_id = 'bench-00099'")).rows[0].n;
  await expect(server.database.pool.query(statementOf(saveStatementScript(server.database.db), { agent: '99', note: '1', client_id: '1' }))).rejects.toThrow(/foreign key/);
  expect(await rows()).toBe(0);
});

it("the bare save handler (the bench's floor for a save over HTTP) writes what brainSave writes", async () => {
  const { operator } = server;
  const eventsBefore = (await operator.agentEventLog({ agentId: 'bench-00003', first: 100 })).agent!.events.edges;
  const input = { agentId: 'bench-00003', title: 'Bare note 5', content: 'Something worth keeping, number 5.', sourceRefs: ['bench:5'] };
  const answer = await saveWrite(server.database.pool, { variables: { input } });
  const memoryId = answer.brainSave.memory.id;
  expect(answer).toEqual({ brainSave: { __typename: 'BrainSaveSuccess', memory: { id: memoryId, revision: 1 } } });

  const { brainRead } = await operator.brainRead({ memoryId, agentId: 'bench-00003' });
  expect(brainRead).toMatchObject({ memoryId, ...input, revision: 1, ownership: 'OPERATOR', deleted: false, createdBy: { kind: 'OPERATOR', principalId: 'e2e-operator' } });
  expect(brainRead!.revisions).toEqual([expect.objectContaining({ revision: 1, action: 'CREATED', title: input.title, content: input.content, sourceRefs: input.sourceRefs })]);
  const eventsAfter = (await operator.agentEventLog({ agentId: 'bench-00003', first: 100 })).agent!.events.edges;
  expect(eventsAfter.map((e) => e.node)).toEqual([
    ...eventsBefore.map((e) => e.node),
    { sequence: (eventsBefore.at(-1)?.node.sequence ?? 0) + 1, type: 'BRAIN_CREATED', stream: 'BRAIN' },
  ]);
});
