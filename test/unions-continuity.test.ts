/**
 * The result unions of the continuity, Tiddle and conversation mutations list exactly the errors
 * their services can return. Each member listed here is triggered through the server in
 * continuity.test.ts, tiddle.test.ts, conversations.test.ts and conversation-history.test.ts.
 */
import { describe, expect, it } from 'vitest';
import { schema } from '../src/schema/index.js';

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
      const type = schema.getMutationType()!.getFields()[mutation].type;
      // Read by shape: the schema's graphql module instance may differ from the test's.
      const union = ('ofType' in type ? type.ofType : type) as unknown as { getTypes?: () => { name: string }[] };
      expect(typeof union.getTypes).toBe('function');
      const members = union.getTypes!().map((t) => t.name).filter((name) => !name.endsWith('Success'));
      expect(members.sort()).toEqual([...errors].sort());
    });
  }
});
