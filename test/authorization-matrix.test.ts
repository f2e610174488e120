/**
 * The authorization matrix, generated from the executable schema rather than listed by hand:
 * every query, mutation and subscription that takes an agent, and every entity reachable through
 * node(id), is called three ways against a victim agent that has data everywhere:
 *   - other:    an agent token naming the victim: refused (AGENT_MISMATCH unless pinned below),
 *               and nothing of the victim changes;
 *   - self:     the same token acting as itself with the victim's record ids, sessions and runs:
 *               nothing of the victim is revealed or changed;
 *   - operator: the operator naming the victim: allowed (a success, not an Error member).
 * A new field is exercised the day it is added; a root field that is neither found to take an
 * agent nor named in NO_AGENT fails, and so does a field whose variables cannot be derived.
 */
import { isInterfaceType, type GraphQLObjectType } from 'graphql';
import { BurrowRequestError } from '../clients/typescript/sdk.js';
import { describe, expect, it } from 'vitest';
import { ok, openOwner } from './support/continuity.js';
import { agentPaths, minimalVariables } from './support/schema-operations.js';
import {
  AGENT,
  SCOPE,
  SECRET,
  SESSION,
  agent,
  agentFields,
  call,
  carriesVictimRecord,
  fixture,
  keyOf,
  named,
  operator,
  OVERRIDES,
  rootList,
  schema,
  server,
  setupMatrix,
  variablesFor,
  VICTIM,
  victimSequence,
  withAgent,
  type Barrier,
  type Outcome,
} from './support/authorization-matrix.js';

/** Root fields that take no agent, each with the reason. Anything else must take one. */
const NO_AGENT: Record<string, string> = {
  'query viewer': 'the caller itself',
  'query agents': 'an agent token lists only itself (auth.test.ts)',
  'query node': 'covered per entity type below',
  'mutation importAlbdruck': 'operators only (OPERATORS_ONLY below)',
  'mutation runRetention': 'operators only (OPERATORS_ONLY below)',
  'mutation tiddleAppendResidue': "always the token's own agent: it takes no agent argument",
  'query apiTokens': 'operators only (OPERATORS_ONLY below): lists every token',
  'mutation revokeApiToken': 'operators only (OPERATORS_ONLY below): names a token, not an agent',
  'query settingsStatus': 'operators only: the installation settings key (OPERATORS_ONLY below)',
  'query modelConnections': 'operators only: installation-wide model endpoints (OPERATORS_ONLY below)',
  'query mcpConnections': 'operators only: installation-wide MCP connections (OPERATORS_ONLY below)',
  'mutation setModelConnection': 'operators only (OPERATORS_ONLY below)',
  'mutation deleteModelConnection': 'operators only (OPERATORS_ONLY below)',
  'mutation setMcpConnection': 'operators only (OPERATORS_ONLY below)',
  'mutation deleteMcpConnection': 'operators only (OPERATORS_ONLY below)',
  'mutation exportConfiguration': 'operators only: every agent and setting (OPERATORS_ONLY below)',
  'mutation importConfiguration': 'operators only: writes any agent and setting (OPERATORS_ONLY below)',
  'subscription operatorEvents': "operators only: every agent's events (FORBIDDEN for agent tokens in operator-events.test.ts)",
};
/** Root fields without an agent that act on every agent or none: an agent token is refused. */
const OPERATORS_ONLY: Record<string, Outcome> = {
  'mutation importAlbdruck': 'FORBIDDEN',
  'mutation runRetention': 'FORBIDDEN',
  'query apiTokens': 'FORBIDDEN',
  'mutation revokeApiToken': 'FORBIDDEN',
  'query settingsStatus': 'FORBIDDEN',
  'query modelConnections': 'FORBIDDEN',
  'query mcpConnections': 'FORBIDDEN',
  'mutation setModelConnection': 'FORBIDDEN',
  'mutation deleteModelConnection': 'FORBIDDEN',
  'mutation setMcpConnection': 'FORBIDDEN',
  'mutation deleteMcpConnection': 'FORBIDDEN',
  'mutation exportConfiguration': 'FORBIDDEN',
  'mutation importConfiguration': 'FORBIDDEN',
};

/** Where the design answers differently from AGENT_MISMATCH (other) or a success (operator). */
const PINNED: Record<string, { other?: Outcome; operator?: Outcome; why: string }> = {
  'mutation setTiddleCardTtl': { other: 'FORBIDDEN', why: 'operators only' },
  'mutation createAgent': { other: 'FORBIDDEN', operator: 'AlreadyExists', why: 'operators only; its input names the new agent, and the victim exists' },
  'mutation recordAutomaticHandoff': { operator: 'FORBIDDEN', why: 'written by the agent runtime only' },
  'mutation brainRemoveMany': { operator: 'ok: DELETED', why: 'reports a status per item' },
  'mutation tiddleRunPass': { other: 'FORBIDDEN', operator: 'ok: SUCCEEDED', why: 'operators only; reports a status per pass' },
  'mutation createApiToken': { other: 'FORBIDDEN', why: 'operators only: an agent token can never make a token, not even for itself' },
  'query agentSettings': { other: 'FORBIDDEN', why: 'operators only, even for the agent itself' },
  'mutation setAgentSetting': { other: 'FORBIDDEN', why: 'operators only, even for the agent itself' },
  'mutation deleteAgentSetting': { other: 'FORBIDDEN', why: 'operators only, even for the agent itself' },
  'query dreamDiary': { other: 'FORBIDDEN', why: 'operator-facing memory: never readable by an agent' },
  'mutation appendDreamDiaryEntry': { other: 'FORBIDDEN', why: 'operator-facing memory: never written by an agent' },
  'query dataRemovalReceipts': { other: 'FORBIDDEN', why: 'operators only: removal receipts are never read by an agent, not even its own' },
  'mutation brainPurge': { other: 'FORBIDDEN', why: 'operators only: an agent removes (tombstones), only an operator purges' },
  'mutation agentErase': { other: 'FORBIDDEN', operator: 'OwnerLive', why: 'operators only, even for the agent itself; the victim has a live owner, so nothing is erased' },
};

/**
 * What the other agent's token gets when it acts as itself but names the victim's record (the
 * design hides existence: nothing is found). Pinned for every field whose variables carry one.
 */
const HIDDEN: Record<string, Outcome> = {
  'query brainRead': 'null',
  'query workingRecord': 'null',
  'query continuityRun': 'null',
  'query conversationOriginals': 'empty',
  'query conversationArchives': 'empty',
  'query conversationHistory': 'empty',
  'query conversationSession': 'null',
  'mutation brainUpdate': 'NotFound',
  'mutation brainRemove': 'NotFound',
  'mutation brainRemoveMany': 'ok: NOT_FOUND',
  // Operators only: refused before the memory is looked at.
  'mutation brainPurge': 'FORBIDDEN',
  'mutation resolveWorkingRecord': 'NotFound',
  // The superseding record (also the victim's) is checked first, with the same answer as a missing one.
  'mutation supersedeWorkingRecord': 'ValidationFailed',
  'mutation reactivateWorkingRecord': 'NotFound',
  // OWNER_NOT_LIVE: the same answer for another agent's owner as for an unknown or dead one.
  'mutation startContinuityRun': 'Forbidden',
  'mutation claimContinuityRecovery': 'Forbidden',
  'mutation commitContinuityRun': 'NotFound',
  'mutation recordContinuityEffect': 'NotFound',
  'mutation recordContinuityReceipt': 'NotFound',
  'mutation finalizeContinuityRun': 'NotFound',
  'mutation completeContinuityRun': 'NotFound',
  'mutation interruptContinuityRun': 'NotFound',
  // Its own log has no event of that run: nothing arrives before the agent's own later event
  // of a run with that id (the barrier below).
  'subscription continuityEvents': 'silent',
};

/**
 * For a subscription whose answer as itself is "nothing arrives": a later event that this
 * subscription must deliver, made once it is open (and the arguments that replay it), so
 * "nothing of the victim arrived first" is proved by an arrival, not by waiting.
 */
const SELF_BARRIERS: Record<string, Barrier> = {
  'subscription continuityEvents': {
    variables: (v) => ({ ...v, after: 0 }),
    emit: async () => {
      const own = await openOwner(agent);
      try {
        ok((await agent.startContinuityRun({ input: { runId: fixture.runId, ownerId: own.ownerId } })).startContinuityRun, 'StartContinuityRunSuccess');
      } finally {
        await own.close();
      }
    },
    marker: `"agentId":"${AGENT}"`,
  },
};

setupMatrix();

describe('the matrix covers the schema', () => {
  it('finds the fields that take an agent, and every other root field is named with a reason', () => {
    const withoutAgent = rootList.filter((root) => agentPaths(root.field).length === 0).map(keyOf);
    expect(withoutAgent.sort()).toEqual(Object.keys(NO_AGENT).sort());
    // Pinned answers may only name fields that exist and take an agent.
    for (const key of [...Object.keys(PINNED), ...Object.keys(OVERRIDES), ...Object.keys(HIDDEN)]) {
      expect(agentFields.map(keyOf)).toContain(key);
    }
    for (const key of Object.keys(OPERATORS_ONLY)) expect(withoutAgent).toContain(key);
    expect(agentFields.length).toBeGreaterThan(40);
  });
});

describe('an agent token naming another agent is refused; the operator is allowed', () => {
  for (const root of agentFields) {
    const key = keyOf(root);
    it(key, async () => {
      const pinned = PINNED[key] ?? { why: '' };
      const variables = await variablesFor(root);

      const writes = root.kind === 'mutation';
      const before = writes ? await victimSequence() : null;
      const other = await call(agent, root, variables, 10_000);
      expect(other.outcome, `${key} for another agent`).toBe(pinned.other ?? 'AGENT_MISMATCH');
      expect(other.text).not.toContain(SECRET);

      const barrier = SELF_BARRIERS[key];
      const own = withAgent(variables, root, AGENT);
      // Without a barrier a subscription as itself only has to not be refused (a refusal comes at once).
      const self = await call(agent, root, barrier ? barrier.variables(own) : own, barrier ? 10_000 : 300, barrier);
      expect(self.text, `${key} as itself revealed the victim`).not.toContain(SECRET);
      expect(self.text, `${key} as itself revealed the victim`).not.toContain(VICTIM);
      expect(self.outcome, `${key} as itself`).not.toBe('AGENT_MISMATCH');
      // Every change a subscriber can see bumps the agent's sequence: neither call changed the victim.
      if (writes) expect(await victimSequence(), `${key}: a refused or hidden call changed the victim`).toBe(before);
      if (carriesVictimRecord(own)) expect({ [key]: self.outcome }).toEqual({ [key]: HIDDEN[key] });

      const allowed = await call(operator, root, variables, 10_000);
      expect(allowed.outcome, `${key} for the operator: ${allowed.text}`).toBe(pinned.operator ?? 'ok');
    });
  }
});

describe('operators-only fields without an agent refuse agent tokens', () => {
  for (const root of rootList.filter((r) => keyOf(r) in OPERATORS_ONLY)) {
    it(keyOf(root), async () => {
      const variables = minimalVariables(root.field, named(), keyOf(root));
      expect((await call(agent, root, variables, 0)).outcome).toBe(OPERATORS_ONLY[keyOf(root)]);
    });
  }
});

describe('node(id) of another agent is refused; the operator is allowed', () => {
  const nodeTypes = schema.getPossibleTypes(schema.getType('Node') as never) as readonly GraphQLObjectType[];
  const learning = () =>
    server.operator.request<{ preferenceLearning: { audit: { edges: { node: { id: string } }[] }; signals: { edges: { node: { id: string } }[] } } }>(
      'query($agentId: String!) { preferenceLearning(agentId: $agentId) { audit(first: 1) { edges { node { id } } } signals(first: 1) { edges { node { id } } } } }',
      { agentId: VICTIM },
    );
  /** The victim's instance of each entity type, as a global id. */
  const GLOBAL_IDS: Record<string, () => Promise<string>> = {
    Agent: async () => (await server.operator.agent({ id: VICTIM })).agent!.id,
    ProfileDocument: async () => (await server.operator.agent({ id: VICTIM })).agent!.profile[0].id,
    ProfileDocumentRevision: async () => (await server.operator.profileDocument({ agentId: VICTIM, kind: 'SOUL', revisions: 1 })).profileDocument!.revisions.edges[0].node.id,
    PreferenceSignal: async () => (await learning()).preferenceLearning.signals.edges[0].node.id,
    ProfileAuditEntry: async () => (await learning()).preferenceLearning.audit.edges[0].node.id,
    ApiToken: async () => (await server.operator.agentTokens({ agentId: VICTIM, first: 1 })).agent!.tokens.edges[0].node.id,
    DreamDiaryEntry: async () => (await server.operator.dreamDiary({ agentId: VICTIM, first: 1 })).dreamDiary.edges[0].node.id,
    ContinuityRun: async () => (await server.operator.continuityRun({ agentId: VICTIM, runId: fixture.runId })).continuityRun!.id,
    BrainMemory: async () => (await server.operator.brainRead({ agentId: VICTIM, memoryId: fixture.brainId })).brainRead!.id,
    BrainMemoryRevision: async () =>
      (
        await server.operator.request<{ brainRead: { revisions: { id: string }[] } }>(
          'query($a: String, $m: String!) { brainRead(agentId: $a, memoryId: $m) { revisions(first: 1) { id } } }',
          { a: VICTIM, m: fixture.brainId },
        )
      ).brainRead.revisions[0].id,
    // Read with the victim's scope (the operator client carries it), as workingRecord and sessionReadHandoff require.
    WorkingRecord: async () => (await operator.workingRecord({ agentId: VICTIM, recordId: fixture.workingId })).workingRecord!.id,
    SessionHandoff: async () => (await operator.sessionReadHandoff({ agentId: VICTIM })).sessionReadHandoff[0].id,
    ContinuityEffect: async () => (await server.operator.continuityRun({ agentId: VICTIM, runId: fixture.runId })).continuityRun!.effects.edges[0].node.id,
    ContinuityOwner: async () => (await server.operator.continuityOwners({ agentId: VICTIM, includeClosed: true })).continuityOwners[0].id,
    RollingCard: async () => (await operator.rollingCards({ agentId: VICTIM, project: SCOPE, first: 1 })).rollingCards.edges[0].node.id,
    ConversationOriginal: async () => (await server.operator.conversationOriginals({ agentId: VICTIM, sessionId: SESSION, first: 1 })).conversationOriginals.edges[0].node.id,
    ConversationSession: async () => (await server.operator.conversationSession({ agentId: VICTIM, sessionId: SESSION })).conversationSession!.id,
    ContinuityTransition: async () => (await server.operator.continuityRun({ agentId: VICTIM, runId: fixture.runId })).continuityRun!.transitions.edges[0].node.id,
    // The residue the pass read and the history entry it wrote.
    TiddleResidue: async () => (await server.operator.tiddleResidue({ agentId: VICTIM, project: SCOPE, first: 1 })).tiddleResidue[0].id,
    TiddleHistoryEntry: async () => (await server.operator.tiddleHistory({ agentId: VICTIM, project: SCOPE, first: 1 })).tiddleHistory.edges[0].node.id,
    AgentSetting: async () => (await server.operator.agentSettings({ agentId: VICTIM })).agentSettings.find((s) => s.name === 'matrix-setting')!.id,
    ModelConnectionSetting: async () => (await server.operator.modelConnections()).modelConnections[0].id,
    McpConnectionSetting: async () => (await server.operator.mcpConnections()).mcpConnections[0].id,
    // The receipt of the memory the fixture purged.
    DataRemovalReceipt: async () => (await server.operator.dataRemovalReceipts({ agentId: VICTIM, first: 1 })).dataRemovalReceipts.edges[0].node.id,
    ConversationArchive: async () =>
      (
        await server.operator.request<{ conversationArchives: { id: string }[] }>('query($a: String, $s: String!) { conversationArchives(agentId: $a, sessionId: $s) { id } }', {
          a: VICTIM,
          s: SESSION,
        })
      ).conversationArchives[0].id,
  };

  const NODE_REFUSAL: Record<string, Outcome> = {
    ApiToken: 'FORBIDDEN',
    DreamDiaryEntry: 'FORBIDDEN',
    // Settings are operators only, even for the agent itself.
    AgentSetting: 'FORBIDDEN',
    ModelConnectionSetting: 'FORBIDDEN',
    McpConnectionSetting: 'FORBIDDEN',
    // Removal receipts are operators only.
    DataRemovalReceipt: 'FORBIDDEN',
  };

  it('knows every type that implements Node', () => {
    expect(isInterfaceType(schema.getType('Node'))).toBe(true);
    expect(nodeTypes.map((t) => t.name).sort()).toEqual(Object.keys(GLOBAL_IDS).sort());
  });

  for (const type of nodeTypes) {
    it(type.name, async () => {
      const globalId = await GLOBAL_IDS[type.name]?.();
      if (!globalId) throw new Error(`no global id of the victim's ${type.name}: add one to GLOBAL_IDS`);
      const query = `query($id: ID!) { node(id: $id) { __typename id } }`;
      const refused = await agent.request(query, { id: globalId }).then(
        () => 'answered',
        (e) => (e as BurrowRequestError).code,
      );
      // Operator-only stores refuse every agent token, as their root fields do.
      expect(refused).toBe(NODE_REFUSAL[type.name] ?? 'AGENT_MISMATCH');
      expect(await operator.request(query, { id: globalId })).toEqual({ node: { __typename: type.name, id: globalId } });
    });
  }
});
