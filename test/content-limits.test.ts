/**
 * Every documented content limit can be reached at the default request limits, in UTF-8's worst
 * case: each content below is exactly at its limit in 4-byte characters (U+1F600, two UTF-16
 * units, one code point) and is accepted over HTTP with DEFAULT_LIMITS (BURROW_MAX_BODY_BYTES).
 * The largest is a conversation payload or compaction summary: 1,000,000 characters, 4,000,000
 * bytes. One character more is refused by the content rule, never by the body limit.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BurrowClient } from '../clients/typescript/sdk.js';
import { DEFAULT_LIMITS } from '../src/config.server.js';
import { CONTINUITY_LIMITS } from '../src/domains/continuity/continuity.sql.js';
import { CONVERSATION_LIMITS } from '../src/domains/conversations/conversations.sql.js';
import { PROFILE_CONTENT_LIMIT } from '../src/domains/agents/agents.sql.js';
import { BRAIN_CONTENT_LIMIT } from '../src/domains/brains/brains.sql.js';
import { DREAM_DIARY_LIMITS } from '../src/domains/dream-diary/dream-diary.sql.js';
import { startServer, type TestServer } from './support/harness.js';
import { ok, openOwner, type OwnerHandle } from './support/continuity.js';

const WIDE = '\u{1F600}';
/** `n` characters of 4-byte UTF-8. */
const wide = (n: number) => WIDE.repeat(n);
/** JSON text (a JSON string) of exactly `n` characters, all 4-byte but the quotes. */
const wideJson = (n: number) => `"${wide(n - 2)}"`;
const bytes = (text: string) => Buffer.byteLength(text);

const AGENT = 'limits-wide';
let server: TestServer;
let agent: BurrowClient;
let owner: OwnerHandle;

beforeAll(async () => {
  server = await startServer();
  agent = await server.agentClient(AGENT, { scope: 'wide', session: 'wide-session' });
  owner = await openOwner(server.operator, AGENT);
});
afterAll(async () => {
  await owner?.close();
  await server?.stop();
});

describe('content limits in 4-byte characters at the default body limit', () => {
  it('the body limit is the documented default', () => {
    expect(DEFAULT_LIMITS.bodyBytes).toBe(4_194_304);
    expect(DEFAULT_LIMITS.wsMaxPayloadBytes).toBe(4_194_304);
  });

  it(`a conversation payload of ${CONVERSATION_LIMITS.payload} characters, and a compaction summary as long`, async () => {
    const payload = wideJson(CONVERSATION_LIMITS.payload);
    expect(bytes(payload)).toBe(4 * CONVERSATION_LIMITS.payload - 6);
    for (let i = 0; i < 2; i++) {
      const appended = await agent.appendConversationEntry({ input: { payload, role: 'user' } });
      expect(appended.appendConversationEntry.__typename).toBe('AppendConversationEntrySuccess');
    }
    const compacted = await agent.compactConversation({ input: { fromPosition: 1, toPosition: 2, summary: payload } });
    expect(compacted.compactConversation.__typename).toBe('CompactConversationSuccess');
    const tooLong = await agent.appendConversationEntry({ input: { payload: wideJson(CONVERSATION_LIMITS.payload + 1), role: 'user' } });
    expect(tooLong.appendConversationEntry).toMatchObject({ __typename: 'ValidationFailed', field: 'payload' });
  });

  it(`a continuity head and result of ${CONTINUITY_LIMITS.head} characters, an effect request and receipt of ${CONTINUITY_LIMITS.effectPayload}`, async () => {
    const fence = { agentId: AGENT, runId: 'wide-run', generation: 1, ownerId: owner.ownerId };
    const head = wideJson(CONTINUITY_LIMITS.head);
    ok((await server.operator.startContinuityRun({ input: { agentId: AGENT, ownerId: owner.ownerId, runId: 'wide-run', head } })).startContinuityRun, 'StartContinuityRunSuccess');
    ok((await server.operator.commitContinuityRun({ input: { ...fence, head } })).commitContinuityRun, 'CommitContinuityRunSuccess');
    const request = wideJson(CONTINUITY_LIMITS.effectPayload);
    ok(
      (await server.operator.recordContinuityEffect({ input: { ...fence, effectId: 'wide-effect', kind: 'k', request } })).recordContinuityEffect,
      'RecordContinuityEffectSuccess',
    );
    ok(
      (await server.operator.recordContinuityReceipt({ input: { ...fence, effectId: 'wide-effect', outcome: 'SUCCEEDED', receipt: request } })).recordContinuityReceipt,
      'RecordContinuityReceiptSuccess',
    );
    const finalized = ok((await server.operator.finalizeContinuityRun({ input: { ...fence, result: head } })).finalizeContinuityRun, 'FinalizeContinuityRunSuccess');
    expect(finalized.run.finalResult).toBe(head);
  });

  it(`all six profile documents of ${PROFILE_CONTENT_LIMIT} characters in one replaceProfile`, async () => {
    const content = wide(PROFILE_CONTENT_LIMIT);
    const documents = ['SOUL', 'RULES', 'ORIENTATION', 'PREFERENCES', 'TOOLS', 'DREAM_MEMORY'].map((kind) => ({ kind, content, expectedRevision: 1 }));
    const replaced = await server.operator.request<{ replaceProfile: { __typename: string } }>(
      'mutation ($input: ReplaceProfileInput!) { replaceProfile(input: $input) { __typename } }',
      { input: { agentId: AGENT, documents } },
    );
    expect(replaced.replaceProfile.__typename).toBe('ReplaceProfileSuccess');
  });

  it(`a Brain memory and a Dream diary entry of ${BRAIN_CONTENT_LIMIT} characters`, async () => {
    const saved = await server.operator.brainSave({ input: { agentId: AGENT, title: wide(10), content: wide(BRAIN_CONTENT_LIMIT) } });
    expect(saved.brainSave.__typename).toBe('BrainSaveSuccess');
    const diary = await server.operator.appendDreamDiaryEntry({ input: { agentId: AGENT, body: wide(DREAM_DIARY_LIMITS.body) } });
    expect(diary.appendDreamDiaryEntry.__typename).toBe('AppendDreamDiaryEntrySuccess');
  });
});
