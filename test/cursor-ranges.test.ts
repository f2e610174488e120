/**
 * A cursor whose binding is right but whose position was tampered with is BAD_CURSOR on every
 * field that takes one (docs/errors.md), also when the position holds a value JavaScript accepts
 * and PostgreSQL does not: dates at the ends of a Date's range (`-271821-04-20…`, `+275760-09-13…`),
 * microseconds past int64 or past PostgreSQL's timestamps, integer positions past an `integer`
 * column, transaction ids past xid8, a NUL in a string. Never BAD_REQUEST "a value is out of range".
 * Each field's real cursor (from a first page of one) is kept with its binding and its position
 * replaced; then a genuine cursor still pages, so the refusal is about the position alone.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { buildSchema, isObjectType } from 'graphql';
import type { BurrowClient } from '../clients/typescript/sdk.js';
import { collect, requestError, startServer, take, untilLive, type TestServer } from './support/harness.js';
import { openOwner, ok, type OwnerHandle } from './support/continuity.js';
import { startChatServer, type ChatServer } from './support/chat-server.js';
import { scaled, providerTimeoutMs } from './support/load.js';

const AGENT = 'cursor-a';
const SCOPE = 'cursor-scope';
const SESSION = 'cursor-session';
const TIME_MIN = '-271821-04-20T00:00:00.000Z';
const TIME_MAX = '+275760-09-13T00:00:00.000Z';

/** Positions of a (timestamp, id) cursor that must be BAD_CURSOR. */
const TIME_ID = [
  [TIME_MIN, 'x'],
  [TIME_MAX, 'x'],
  ['0000-12-31T23:59:59.999Z', 'x'],
  ['2026-06-01T12:00:00Z', 'x'], // a date the server never writes (not toISOString's form)
  ['2026-06-01T12:00:00.000Z', 'x\u0000y'],
];
/** Positions of a conversation cursor ([micros, sessionId] or [micros, sessionId, position]). */
const micros = (withPosition: boolean) =>
  [
    ['-8640000000000000000', SESSION],
    ['9223372036854775807', SESSION],
    ['9999999999999999999', SESSION],
    ['-62135596800000001', SESSION], // one microsecond before 0001-01-01
    ['1780315200000000', `${SESSION}\u0000`],
  ].map((p) => (withPosition ? [...p, 1] : p));

let server: TestServer;
let chat: ChatServer;
let op: BurrowClient;
let owner: OwnerHandle;
let runId: string;

beforeAll(async () => {
  chat = await startChatServer();
  server = await startServer({
    config: { tiddle: { scheduler: false, proposer: { kind: 'openai', url: chat.url, model: 't', apiKey: 'sk-test', timeoutMs: providerTimeoutMs() } } },
  });
  const agent = await server.agentClient(AGENT, { scope: SCOPE, session: SESSION });
  op = await server.client({ scope: SCOPE, session: SESSION });
  for (let i = 0; i < 2; i++) {
    await server.operator.createAgent({ input: { agentId: `${AGENT}-${i}`, name: `kestrel ${i}` } });
    await server.app.services.tokens.create({ kind: 'agent', name: `t${i}`, agentId: AGENT });
    ok((await op.brainSave({ input: { agentId: AGENT, title: `kestrel ${i}`, content: 'nest' } })).brainSave, 'BrainSaveSuccess');
    ok((await op.memoryWorkingWrite({ input: { agentId: AGENT, kind: 'FINDING', title: `finding ${i}`, content: 'c' } })).memoryWorkingWrite, 'MemoryWorkingWriteSuccess');
    ok((await op.appendDreamDiaryEntry({ input: { agentId: AGENT, body: `dream ${i}` } })).appendDreamDiaryEntry, 'AppendDreamDiaryEntrySuccess');
    ok(
      (await agent.appendConversationEntry({ input: { payload: JSON.stringify({ text: `kestrel talk ${i}` }), role: 'user' } })).appendConversationEntry,
      'AppendConversationEntrySuccess',
    );
    ok(
      (await agent.updateProfileDocument({ input: { agentId: AGENT, kind: 'TOOLS', content: `tools ${i}`, expectedRevision: i + 1 } })).updateProfileDocument,
      'UpdateProfileDocumentSuccess',
    );
    await server.app.services.agents.preferences.recordPreferenceSignal(server.database.db, {
      agentId: AGENT,
      source: 'tiddle',
      project: SCOPE,
      statement: `prefers ${i}`,
      evidence: [],
    });
    ok(
      (await agent.applyPreferenceLearning({ input: { agentId: AGENT, content: `learned ${i}`, expectedRevision: i + 1, reason: 'r' } })).applyPreferenceLearning,
      'ApplyPreferenceLearningSuccess',
    );
    ok((await agent.tiddleAppendResidue({ input: { turnRef: `t${i}`, excerpts: [{ role: 'USER', text: `turn ${i}` }] } })).tiddleAppendResidue, 'TiddleAppendResidueSuccess');
  }
  // A purged memory, so that dataRemovalReceipts has a receipt.
  const removed = ok((await op.brainSave({ input: { agentId: AGENT, title: 'purged', content: 'purged' } })).brainSave, 'BrainSaveSuccess').memory.memoryId;
  ok((await op.brainRemove({ input: { agentId: AGENT, memoryId: removed, expectedRevision: 1 } })).brainRemove, 'BrainRemoveSuccess');
  ok((await op.brainPurge({ input: { agentId: AGENT, memoryId: removed } })).brainPurge, 'BrainPurgeSuccess');
  // A second session, so that session lists have two entries.
  const other = await server.client({ agentId: AGENT, scope: SCOPE, session: `${SESSION}-2` });
  ok(
    (await other.appendConversationEntry({ input: { payload: JSON.stringify({ text: 'kestrel again' }), role: 'user' } })).appendConversationEntry,
    'AppendConversationEntrySuccess',
  );
  chat.script(AGENT, () => ({ proposals: [{ action: 'create', title: 'card one', body: 'b', evidence: ['t0', 't1'] }] }));
  const pass = ok((await server.operator.tiddleRunPass({ agentId: AGENT, project: SCOPE })).tiddleRunPass, 'TiddleRunPassSuccess');
  if (pass.outcomes[0]?.created.length !== 1) throw new Error(`no card created: ${JSON.stringify(pass)}`);
  owner = await openOwner(server.operator, AGENT);
  for (const id of ['run-1', 'run-2'])
    ok((await server.operator.startContinuityRun({ input: { agentId: AGENT, ownerId: owner.ownerId, runId: id } })).startContinuityRun, 'StartContinuityRunSuccess');
  runId = 'run-2';
  for (const effectId of ['e1', 'e2']) {
    const input = { agentId: AGENT, runId, generation: 1, ownerId: owner.ownerId, effectId, kind: 'k', request: '{}' };
    ok((await server.operator.recordContinuityEffect({ input })).recordContinuityEffect, 'RecordContinuityEffectSuccess');
  }
});

afterAll(async () => {
  await owner?.close();
  await server?.stop();
  await chat?.close();
});

const PAGE = 'pageInfo { endCursor hasNextPage }';
const run = `continuityRun(agentId: "${AGENT}", runId: "run-2")`;

/** Every field that takes a cursor: the document (with `$after`), where its connection is, and positions to forge. */
const FIELDS: { field: string; query: string; at: string[]; forged: unknown[][] }[] = [
  { field: 'Query.agents', query: `agents(first: 1, after: $after) { ${PAGE} }`, at: ['agents'], forged: TIME_ID },
  { field: 'Query.apiTokens', query: `apiTokens(first: 1, after: $after) { ${PAGE} }`, at: ['apiTokens'], forged: TIME_ID },
  { field: 'Agent.tokens', query: `agent(agentId: "${AGENT}") { tokens(first: 1, after: $after) { ${PAGE} } }`, at: ['agent', 'tokens'], forged: TIME_ID },
  { field: 'Query.brainMemories', query: `brainMemories(agentId: "${AGENT}", first: 1, after: $after) { ${PAGE} }`, at: ['brainMemories'], forged: TIME_ID },
  {
    field: 'Query.brainMemories(query)',
    query: `brainMemories(agentId: "${AGENT}", query: "kestrel", first: 1, after: $after) { ${PAGE} }`,
    at: ['brainMemories'],
    forged: TIME_ID,
  },
  {
    field: 'Query.brainMemories(sort: UPDATED_AT_DESC)',
    query: `brainMemories(agentId: "${AGENT}", sort: UPDATED_AT_DESC, first: 1, after: $after) { ${PAGE} }`,
    at: ['brainMemories'],
    forged: TIME_ID,
  },
  {
    field: 'Query.brainMemories(sort: TITLE_ASC)',
    query: `brainMemories(agentId: "${AGENT}", sort: TITLE_ASC, ownership: OPERATOR, first: 1, after: $after) { ${PAGE} }`,
    at: ['brainMemories'],
    // A (title, id) position: both strings, nothing else, no NUL.
    forged: [[1, 'x'], ['kestrel 0', 2], ['kestrel 0'], ['kestrel 0', 'x', 'y'], ['kestrel\u0000', 'x']],
  },
  { field: 'Agent.brainMemories', query: `agent(agentId: "${AGENT}") { brainMemories(first: 1, after: $after) { ${PAGE} } }`, at: ['agent', 'brainMemories'], forged: TIME_ID },
  { field: 'Query.workingRecords', query: `workingRecords(agentId: "${AGENT}", first: 1, after: $after) { ${PAGE} }`, at: ['workingRecords'], forged: TIME_ID },
  { field: 'Agent.workingRecords', query: `agent(agentId: "${AGENT}") { workingRecords(first: 1, after: $after) { ${PAGE} } }`, at: ['agent', 'workingRecords'], forged: TIME_ID },
  { field: 'Query.continuityRuns', query: `continuityRuns(agentId: "${AGENT}", first: 1, after: $after) { ${PAGE} }`, at: ['continuityRuns'], forged: TIME_ID },
  { field: 'Agent.continuityRuns', query: `agent(agentId: "${AGENT}") { continuityRuns(first: 1, after: $after) { ${PAGE} } }`, at: ['agent', 'continuityRuns'], forged: TIME_ID },
  { field: 'ContinuityRun.effects', query: `${run} { effects(first: 1, after: $after) { ${PAGE} } }`, at: ['continuityRun', 'effects'], forged: TIME_ID },
  {
    field: 'ContinuityRun.transitions',
    query: `${run} { transitions(first: 1, after: $after) { ${PAGE} } }`,
    at: ['continuityRun', 'transitions'],
    forged: [[2 ** 31], [2 ** 53], [-1], [1.5]],
  },
  { field: 'Query.rollingCards', query: `rollingCards(agentId: "${AGENT}", project: "${SCOPE}", first: 1, after: $after) { ${PAGE} }`, at: ['rollingCards'], forged: TIME_ID },
  {
    field: 'Agent.rollingCards',
    query: `agent(agentId: "${AGENT}") { rollingCards(project: "${SCOPE}", first: 1, after: $after) { ${PAGE} } }`,
    at: ['agent', 'rollingCards'],
    forged: TIME_ID,
  },
  { field: 'Query.tiddleHistory', query: `tiddleHistory(agentId: "${AGENT}", project: "${SCOPE}", first: 1, after: $after) { ${PAGE} }`, at: ['tiddleHistory'], forged: TIME_ID },
  {
    field: 'PreferenceLearning.audit',
    query: `preferenceLearning(agentId: "${AGENT}") { audit(first: 1, after: $after) { ${PAGE} } }`,
    at: ['preferenceLearning', 'audit'],
    forged: TIME_ID,
  },
  {
    field: 'PreferenceLearning.signals',
    query: `preferenceLearning(agentId: "${AGENT}") { signals(first: 1, after: $after) { ${PAGE} } }`,
    at: ['preferenceLearning', 'signals'],
    forged: TIME_ID,
  },
  {
    field: 'ProfileDocument.revisions',
    query: `profileDocument(agentId: "${AGENT}", kind: TOOLS) { revisions(first: 1, after: $after) { ${PAGE} } }`,
    at: ['profileDocument', 'revisions'],
    forged: [[2 ** 31], [2 ** 53], [-1]],
  },
  { field: 'Agent.events', query: `agent(agentId: "${AGENT}") { events(first: 1, after: $after) { ${PAGE} } }`, at: ['agent', 'events'], forged: [[2 ** 53], [-1], ['1']] },
  {
    field: 'Query.dreamDiary',
    query: `dreamDiary(agentId: "${AGENT}", first: 1, after: $after) { ${PAGE} }`,
    at: ['dreamDiary'],
    forged: [
      ['2026-06-01', TIME_MIN, 'x'],
      ['2026-06-01', TIME_MAX, 'x'],
      ['2026-02-30', '2026-06-01T12:00:00.000Z', 'x'],
      ['0000-01-01', '2026-06-01T12:00:00.000Z', 'x'],
    ],
  },
  { field: 'Query.dataRemovalReceipts', query: `dataRemovalReceipts(agentId: "${AGENT}", first: 1, after: $after) { ${PAGE} }`, at: ['dataRemovalReceipts'], forged: TIME_ID },
  {
    field: 'Query.conversationSessions',
    query: `conversationSessions(agentId: "${AGENT}", first: 1, after: $after) { ${PAGE} }`,
    at: ['conversationSessions'],
    forged: micros(false),
  },
  {
    field: 'Agent.conversationSessions',
    query: `agent(agentId: "${AGENT}") { conversationSessions(first: 1, after: $after) { ${PAGE} } }`,
    at: ['agent', 'conversationSessions'],
    forged: micros(false),
  },
  {
    field: 'Query.conversationSearch',
    query: `conversationSearch(agentId: "${AGENT}", query: "kestrel", first: 1, after: $after) { ${PAGE} }`,
    at: ['conversationSearch'],
    forged: micros(true),
  },
  {
    field: 'Query.conversationOriginals',
    query: `conversationOriginals(agentId: "${AGENT}", sessionId: "${SESSION}", first: 1, after: $after) { ${PAGE} }`,
    at: ['conversationOriginals'],
    forged: [[2 ** 53], [-1]],
  },
  {
    field: 'Query.conversationHistory',
    query: `conversationHistory(agentId: "${AGENT}", sessionId: "${SESSION}", first: 1, after: $after) { ${PAGE} }`,
    at: ['conversationHistory'],
    forged: [[2 ** 53], [-1]],
  },
  {
    field: 'ConversationSession.originals',
    query: `conversationSession(agentId: "${AGENT}", sessionId: "${SESSION}") { originals(first: 1, after: $after) { ${PAGE} } }`,
    at: ['conversationSession', 'originals'],
    forged: [[2 ** 53], [-1]],
  },
];

/** The same cursor with its binding kept and its position replaced. */
function forge(cursor: string, position: unknown[]): string {
  const parsed = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
  return Buffer.from(JSON.stringify({ ...parsed, p: position })).toString('base64url');
}

const connectionAt = (data: unknown, path: string[]) =>
  path.reduce((value, key) => (value as Record<string, unknown>)[key], data) as { pageInfo: { endCursor: string | null; hasNextPage: boolean } };

describe('a tampered cursor position is BAD_CURSOR on every cursor field', () => {
  it('lists every field of the schema that takes a String cursor', () => {
    const listed = new Set([...FIELDS.map((f) => f.field.replace(/\(.*\)$/, '')), 'Subscription.operatorEvents']);
    const schema = buildSchema(readFileSync(new URL('../schema.graphql', import.meta.url), 'utf8'));
    const taking = Object.values(schema.getTypeMap())
      .filter(isObjectType)
      .flatMap((type) =>
        Object.values(type.getFields())
          .filter((f) => f.args.some((a) => a.name === 'after' && String(a.type) === 'String'))
          .map((f) => `${type.name}.${f.name}`),
      );
    expect([...listed].sort()).toEqual(taking.sort());
  });

  for (const { field, query, at, forged } of FIELDS) {
    it(field, async () => {
      const document = `query ($after: String) { ${query} }`;
      const first = connectionAt(await op.request(document, { after: null }), at);
      expect(first.pageInfo.endCursor, `${field} needs an item for a cursor`).not.toBeNull();
      const cursor = first.pageInfo.endCursor!;
      for (const position of forged) {
        const error = await requestError(op.request(document, { after: forge(cursor, position) }));
        expect([error.code, error.message], `${field} ${JSON.stringify(position)}`).toEqual(['BAD_CURSOR', 'the cursor is malformed']);
      }
      // The genuine cursor still pages.
      expect(connectionAt(await op.request(document, { after: cursor }), at).pageInfo).toBeDefined();
    });
  }

  it('Subscription.operatorEvents', async () => {
    const events = (after: string | null) =>
      op.subscribe<{ operatorEvents: { cursor: string } }>('subscription ($after: String, $ids: [String!]) { operatorEvents(after: $after, agentIds: $ids) { cursor } }', {
        after,
        ids: [AGENT],
      });
    // A live subscription's first event (a brain save made once it is listening) gives a genuine cursor.
    const live = collect(events(null));
    await untilLive(live, async () => {
      ok((await op.brainSave({ input: { agentId: AGENT, title: 'poke', content: 'poke' } })).brainSave, 'BrainSaveSuccess');
      return () => true;
    });
    const cursor = live.items[0].operatorEvents.cursor;
    await live.stop();
    for (const position of [
      ['18446744073709551616', AGENT, 1],
      ['99999999999999999999999', AGENT, 1],
      ['1', AGENT, 2 ** 53],
      ['1', AGENT, -1],
      ['1', `${AGENT}\u0000`, 1],
    ]) {
      const error = await requestError(take(events(forge(cursor, position)), 1));
      expect([error.code, error.message], JSON.stringify(position)).toEqual(['BAD_CURSOR', 'the cursor is malformed']);
    }
  });
});
