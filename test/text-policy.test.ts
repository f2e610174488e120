/**
 * The one text policy (src/lib/text-policy.ts), applied to every argument by the schema plugin
 * and shared with the CLI and imports: NUL and lone surrogates refused with ValidationFailed
 * naming the field, bidi controls refused in identifiers and names, JSON documents bounded in
 * depth. Over HTTP and over the WebSocket; nothing is stored by a refused write.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BurrowClient, CallOptions } from '../clients/typescript/sdk.js';
import { IDENTIFIER_LIMIT, JSON_DEPTH_LIMIT } from '../src/lib/text-policy.js';
import { openOwner, ok } from './support/continuity.js';
import { recordingLogger, requestError, startServer, type TestServer } from './support/harness.js';

const recorded = recordingLogger();
let server: TestServer;
let agent: BurrowClient;
beforeAll(async () => {
  server = await startServer({ logger: recorded.logger });
  agent = await server.agentClient('text-a', { scope: 'proj', session: 'sess-1' });
});
afterAll(async () => server?.stop());

const LONE = 'before \ud800 after';
const nested = (depth: number) => `${'['.repeat(depth)}${']'.repeat(depth)}`;
const count = async (table: string, agentId: string) =>
  Number((await server.database.pool.query(`SELECT count(*)::int AS n FROM ${table} WHERE agent_id = $1`, [agentId])).rows[0].n);

describe.each([['http'], ['ws']] as const)('over %s', (transport) => {
  const call: CallOptions = { transport };

  it('refuses a lone surrogate in Brain titles, working records and conversation payloads, storing nothing', async () => {
    const before = await Promise.all([count('brain_memories', 'text-a'), count('working_records', 'text-a'), count('conversation_entries', 'text-a')]);
    const brain = (await agent.brainSave({ input: { title: LONE, content: 'c' } }, call)).brainSave;
    expect(brain).toMatchObject({ __typename: 'ValidationFailed', code: 'VALIDATION_FAILED', field: 'title' });
    expect((brain as { message: string }).message).toMatch(/lone UTF-16 surrogate/);
    const working = (await agent.memoryWorkingWrite({ input: { kind: 'FINDING', title: 't', content: LONE } }, call)).memoryWorkingWrite;
    expect(working).toMatchObject({ __typename: 'ValidationFailed', field: 'content' });
    const refs = (await agent.memoryWorkingWrite({ input: { kind: 'FINDING', title: 't', content: 'c', sourceRefs: ['ok', '\udc00'] } }, call)).memoryWorkingWrite;
    expect(refs).toMatchObject({ __typename: 'ValidationFailed', field: 'sourceRefs.1' });
    // The raw code unit inside the JSON text (JSON.stringify would have escaped it as \\ud800,
    // which the json column keeps as written).
    const payload = (await agent.appendConversationEntry({ input: { payload: `{"text":"${LONE}"}` } }, call)).appendConversationEntry;
    expect(payload).toMatchObject({ __typename: 'ValidationFailed', field: 'payload' });
    const after = await Promise.all([count('brain_memories', 'text-a'), count('working_records', 'text-a'), count('conversation_entries', 'text-a')]);
    expect(after).toEqual(before);
  });

  it('refuses NUL with ValidationFailed naming the field, in mutations and in query arguments', async () => {
    expect((await agent.brainSave({ input: { title: 't', content: 'a\u0000b' } }, call)).brainSave).toMatchObject({
      __typename: 'ValidationFailed',
      field: 'content',
      limit: null,
    });
    const query = await requestError(agent.request('query($q: String!) { brainSearch(query: $q) { hits { score } } }', { q: 'tabs\u0000x' }, call));
    expect(query.code).toBe('VALIDATION_FAILED');
    expect(query.errors[0].extensions).toMatchObject({ field: 'query' });
  });

  it('refuses bidi controls in identifiers and names, and keeps them in free text', async () => {
    const rlo = `evil\u202Egnp.exe`;
    const created = (await server.operator.createAgent({ input: { agentId: `text-${transport}-rlo`, name: rlo } }, call)).createAgent;
    expect(created).toMatchObject({ __typename: 'ValidationFailed', field: 'name' });
    const badId = (await server.operator.createAgent({ input: { agentId: `text-\u2066${transport}`, name: 'n' } }, call)).createAgent;
    expect(badId).toMatchObject({ __typename: 'ValidationFailed', field: 'agentId' });
    expect((await server.operator.agent({ id: `text-${transport}-rlo` })).agent).toBeNull();
    const record = (await agent.memoryWorkingWrite({ input: { recordId: `rec\u200F${transport}`, kind: 'TASK', title: 't', content: 'c' } }, call)).memoryWorkingWrite;
    expect(record).toMatchObject({ __typename: 'ValidationFailed', field: 'recordId' });
    // Identifiers and names are bounded (an index entry must fit a page), whatever the field.
    const longRef = (await server.operator.brainSave({ input: { agentId: 'a'.repeat(IDENTIFIER_LIMIT + 1), title: 't', content: 'c' } }, call)).brainSave;
    expect(longRef).toMatchObject({ __typename: 'ValidationFailed', field: 'agentId', limit: IDENTIFIER_LIMIT });
    const mbId = (await agent.memoryWorkingWrite({ input: { recordId: 'i'.repeat(1_000_000), kind: 'TASK', title: 't', content: 'c' } }, call)).memoryWorkingWrite;
    expect(mbId).toMatchObject({ __typename: 'ValidationFailed', field: 'recordId', limit: IDENTIFIER_LIMIT });
    // Right-to-left text is ordinary content.
    const arabic = `مرحبا \u202B embedded \u202C ${transport}`;
    const saved = ok((await agent.brainSave({ input: { title: arabic, content: arabic } }, call)).brainSave, 'BrainSaveSuccess');
    expect(saved.memory.title).toBe(arabic);
  });

  it(`bounds JSON documents at ${JSON_DEPTH_LIMIT} levels: the limit passes, one past it and 100,000 levels are ValidationFailed`, async () => {
    const atLimit = (await agent.appendConversationEntry({ input: { payload: nested(JSON_DEPTH_LIMIT) } }, call)).appendConversationEntry;
    expect(atLimit.__typename).toBe('AppendConversationEntrySuccess');
    const before = await count('conversation_entries', 'text-a');
    for (const depth of [JSON_DEPTH_LIMIT + 1, 100_000]) {
      const refused = (await agent.appendConversationEntry({ input: { payload: nested(depth) } }, call)).appendConversationEntry;
      expect(refused).toMatchObject({ __typename: 'ValidationFailed', field: 'payload', limit: JSON_DEPTH_LIMIT });
    }
    // Brackets inside strings are text, not nesting.
    const quoted = (await agent.appendConversationEntry({ input: { payload: JSON.stringify({ s: '['.repeat(1000) }) } }, call)).appendConversationEntry;
    expect(quoted.__typename).toBe('AppendConversationEntrySuccess');
    expect(await count('conversation_entries', 'text-a')).toBe(before + 1);

    const owner = await openOwner(agent);
    try {
      const runId = `deep-${transport}`;
      const deepHead = (await agent.startContinuityRun({ input: { runId, ownerId: owner.ownerId, head: nested(100_000) } }, call)).startContinuityRun;
      expect(deepHead).toMatchObject({ __typename: 'ValidationFailed', field: 'head', limit: JSON_DEPTH_LIMIT });
      ok((await agent.startContinuityRun({ input: { runId, ownerId: owner.ownerId, head: '{}' } }, call)).startContinuityRun, 'StartContinuityRunSuccess');
      const fence = { runId, generation: 1, ownerId: owner.ownerId };
      expect((await agent.commitContinuityRun({ input: { ...fence, head: nested(JSON_DEPTH_LIMIT + 1) } }, call)).commitContinuityRun).toMatchObject({ field: 'head' });
      expect((await agent.finalizeContinuityRun({ input: { ...fence, result: `{"a":${nested(100_000)}}` } }, call)).finalizeContinuityRun).toMatchObject({ field: 'result' });
      expect((await agent.recordContinuityEffect({ input: { ...fence, kind: 'k', request: nested(100_000) } }, call)).recordContinuityEffect).toMatchObject({ field: 'request' });
      const run = (await agent.continuityRun({ runId })).continuityRun;
      expect([run?.head, run?.headRevision, run?.state, run?.finalResult]).toEqual(['{}', 0, 'RUNNING', null]);
    } finally {
      await owner.close();
    }
  });
});

describe('requests that are not GraphQL-over-HTTP', () => {
  it('answers a GET with malformed variables with a typed refusal (401 before parsing without a token, 405 with one), never a 500, and logs no error', async () => {
    const errorsBefore = recorded.lines.filter((l) => l.level === 'error').length;
    const cases: [Record<string, string>, [number, string]][] = [
      // Authentication comes before anything of the request is parsed (docs/security.md).
      [{}, [401, 'UNAUTHENTICATED']],
      // Only JSON POSTs are GraphQL requests here (CSRF): a GET is refused before its parameters are read.
      [{ authorization: `Bearer ${agent.options.token}` }, [405, 'METHOD_NOT_ALLOWED']],
    ];
    for (const [headers, expected] of cases) {
      for (const params of ['variables=%7Bbad', 'extensions=%5B1,']) {
        const response = await fetch(`${server.url}?query=%7B__typename%7D&${params}`, { headers: { accept: 'application/graphql-response+json', ...headers } });
        const body = (await response.json()) as { errors: { extensions: { code: string } }[] };
        expect([response.status, body.errors[0].extensions.code]).toEqual(expected);
      }
    }
    expect(recorded.lines.filter((l) => l.level === 'error').length).toBe(errorsBefore);
  });
});

describe('outside GraphQL', () => {
  it('token names follow the same policy (the CLI creates tokens through this service)', async () => {
    await expect(server.app.services.tokens.create({ kind: 'operator', name: 'ops\u202Eadmin' })).rejects.toMatchObject({ code: 'VALIDATION_FAILED', field: 'name' });
    await expect(server.app.services.tokens.create({ kind: 'operator', name: 'nul\u0000' })).rejects.toMatchObject({ code: 'VALIDATION_FAILED', field: 'name' });
  });
});
