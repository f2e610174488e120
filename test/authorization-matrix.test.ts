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
import { isInterfaceType, isObjectType, type GraphQLObjectType } from 'graphql';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BurrowRequestError, type BurrowClient } from '../clients/typescript/sdk.js';
import { DEFAULT_LIMITS } from '../src/config.js';
import { schema as executable } from '../src/schema/index.js';
import { startChatServer, type ChatServer } from './support/chat-server.js';
import { ok, openOwner, type OwnerHandle } from './support/continuity.js';
import { scaled, startServer, type TestServer } from './support/harness.js';
import { agentPaths, introspected, merge, minimalVariables, operationOf, rootFields, setAt, type NamedValues, type RootField } from './support/schema-operations.js';

const VICTIM = 'matrix-victim';
const AGENT = 'matrix-agent';
const SCOPE = 'matrix-scope';
const SESSION = 'matrix-session';
/** In every text the victim owns: it must never reach the other agent. */
const SECRET = 'victim-secret';

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

type Outcome = string;
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
const SELF_BARRIERS: Record<string, { variables: (v: Record<string, unknown>) => Record<string, unknown>; emit: () => Promise<void>; marker: string }> = {
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

let server: TestServer;
let chat: ChatServer;
let agent: BurrowClient;
let operator: BurrowClient;
let owner: OwnerHandle;
const fixture = {
  brainId: '',
  workingId: '',
  runId: 'victim-run',
  effectId: 'victim-effect',
  /** Every id of a record the victim owns that a call may name. */
  records: new Set<string>([SESSION]),
};
const recorded = (id: string) => (fixture.records.add(id), id);

const schema = introspected(executable);
const rootList = rootFields(schema);
const keyOf = (root: RootField) => `${root.kind} ${root.name}`;
const agentFields = rootList.filter((root) => agentPaths(root.field).length > 0);

beforeAll(async () => {
  chat = await startChatServer();
  server = await startServer({
    config: {
      tiddle: { scheduler: false, proposer: { kind: 'openai', url: chat.url, model: 'matrix', apiKey: null, timeoutMs: 5_000 } },
      // Whole-result selections alias every union member's fields, far past the alias limit;
      // the limits themselves are tested in limits.test.ts.
      limits: { ...DEFAULT_LIMITS, maxAliases: 10_000 },
    },
  });
  const runtime = { scope: SCOPE, session: SESSION, conversation: 'matrix-conversation' };
  const victim = await server.agentClient(VICTIM, runtime);
  // Same scope, session and conversation names as the victim: only the agent differs.
  agent = await server.agentClient(AGENT, runtime);
  operator = await server.client(runtime);

  fixture.brainId = recorded(ok((await victim.brainSave({ input: { title: `${SECRET} matrix`, content: `${SECRET} matrix` } })).brainSave, 'BrainSaveSuccess').memory.memoryId);
  fixture.workingId = recorded(
    ok((await victim.memoryWorkingWrite({ input: { kind: 'DECISION', title: `${SECRET} matrix`, content: `${SECRET} matrix` } })).memoryWorkingWrite, 'MemoryWorkingWriteSuccess')
      .record.recordId,
  );
  ok((await victim.sessionWriteHandoff({ input: { title: SECRET, goal: SECRET, outcome: SECRET, body: SECRET } })).sessionWriteHandoff, 'SessionWriteHandoffSuccess');
  ok((await victim.appendConversationEntry({ input: { payload: JSON.stringify({ text: SECRET }) } })).appendConversationEntry, 'AppendConversationEntrySuccess');
  ok((await victim.resetConversation({ input: { reason: SECRET } })).resetConversation, 'ResetConversationSuccess');
  ok((await victim.appendConversationEntry({ input: { payload: JSON.stringify({ text: SECRET }) } })).appendConversationEntry, 'AppendConversationEntrySuccess');

  // Operator-only stores: a per-agent setting and a Dream diary entry.
  ok((await server.operator.setAgentSetting({ input: { agentId: VICTIM, name: 'matrix-setting', value: SECRET } })).setAgentSetting, 'SetAgentSettingSuccess');
  ok((await server.operator.appendDreamDiaryEntry({ input: { agentId: VICTIM, body: SECRET } })).appendDreamDiaryEntry, 'AppendDreamDiaryEntrySuccess');
  // Installation-wide settings, for the ModelConnectionSetting and McpConnectionSetting nodes (a
  // stored model connection is read at start only, so it changes nothing this server does).
  ok(
    (await server.operator.setModelConnection({ input: { purpose: 'TIDDLE_PROPOSER', url: 'http://127.0.0.1:9/v1', model: 'matrix' } })).setModelConnection,
    'SetModelConnectionSuccess',
  );
  ok((await server.operator.setMcpConnection({ input: { name: 'matrix-mcp', url: 'http://127.0.0.1:9/mcp' } })).setMcpConnection, 'SetMcpConnectionSuccess');
  // A preference signal and an applied learning change, for the PreferenceSignal and ProfileAuditEntry nodes.
  const signalId = await server.app.services.agents.preferences.recordPreferenceSignal(server.database.db, {
    agentId: VICTIM,
    source: 'tiddle',
    project: SCOPE,
    statement: `${SECRET} prefers prose`,
    evidence: [],
  });
  ok(
    (await victim.applyPreferenceLearning({ input: { agentId: VICTIM, content: SECRET, expectedRevision: 1, reason: SECRET, signalIds: [signalId] } })).applyPreferenceLearning,
    'ApplyPreferenceLearningSuccess',
  );

  // A rolling card, its history and Tiddle status events, from a pass over two residue entries.
  for (const turnRef of ['t1', 't2']) {
    ok((await victim.tiddleAppendResidue({ input: { turnRef, excerpts: [{ role: 'USER', text: `${SECRET} ${turnRef}` }] } })).tiddleAppendResidue, 'TiddleAppendResidueSuccess');
  }
  chat.script(VICTIM, () => ({ proposals: [{ action: 'create', title: `${SECRET} matrix card`, body: `${SECRET} matrix`, evidence: ['t1', 't2'] }] }));
  const pass = ok((await server.operator.tiddleRunPass({ agentId: VICTIM, project: SCOPE })).tiddleRunPass, 'TiddleRunPassSuccess');
  if (pass.outcomes[0]?.created.length !== 1) throw new Error(`no card created: ${JSON.stringify(pass)}`);

  // A live ownership session and a running run with one effect.
  owner = await openOwner(server.operator, VICTIM);
  recorded(owner.ownerId);
  recorded(fixture.effectId);
  await startRun(fixture.runId);
  ok(
    (await server.operator.recordContinuityEffect({ input: { ...fence(fixture.runId), effectId: fixture.effectId, kind: 'matrix', request: '{}' } })).recordContinuityEffect,
    'RecordContinuityEffectSuccess',
  );
}, 120_000);

afterAll(async () => {
  await owner?.close();
  await server?.stop();
  await chat?.close();
});

let runs = 0;
const fence = (runId: string) => ({ agentId: VICTIM, runId, generation: 1, ownerId: owner.ownerId });

async function startRun(runId = `fresh-run-${++runs}`) {
  ok((await server.operator.startContinuityRun({ input: { agentId: VICTIM, ownerId: owner.ownerId, runId } })).startContinuityRun, 'StartContinuityRunSuccess');
  return recorded(runId);
}
async function freshBrain() {
  return recorded(ok((await server.operator.brainSave({ input: { agentId: VICTIM, title: `${SECRET} fresh`, content: SECRET } })).brainSave, 'BrainSaveSuccess').memory.memoryId);
}
async function freshWorking() {
  const input = { agentId: VICTIM, kind: 'FINDING' as const, title: `${SECRET} fresh`, content: SECRET };
  return recorded(ok((await operator.memoryWorkingWrite({ input })).memoryWorkingWrite, 'MemoryWorkingWriteSuccess').record.recordId);
}
async function revisionOf(kind: 'SOUL' | 'PREFERENCES') {
  return (await server.operator.profileDocument({ agentId: VICTIM, kind })).profileDocument!.revision;
}

/** Values the API's vocabulary gives a name wherever it occurs (the type alone cannot tell). */
const named = (): NamedValues => ({
  runId: fixture.runId,
  ownerId: owner.ownerId,
  effectId: fixture.effectId,
  sessionId: SESSION,
  project: SCOPE,
  // JSON text carried in a String.
  payload: '{"matrix":1}',
  head: '{"matrix":1}',
  request: '{"matrix":1}',
  summary: '{"matrix":1}',
  receipt: '{"matrix":1}',
  // The shipped rolling TTL: an operator call that changes nothing the other fields rely on.
  days: 90,
});

/** Per field, where a valid value cannot be derived: a fresh record for each write that consumes one. */
const OVERRIDES: Record<string, () => Promise<Record<string, unknown>>> = {
  'query brainRead': async () => ({ memoryId: fixture.brainId }),
  // The first enum value is OPERATOR, which takes no agent.
  'mutation createApiToken': async () => ({ input: { kind: 'AGENT' } }),
  'query workingRecord': async () => ({ recordId: fixture.workingId }),
  'mutation brainUpdate': async () => ({ input: { memoryId: await freshBrain(), title: 'matrix' } }),
  'mutation brainRemove': async () => ({ input: { memoryId: await freshBrain() } }),
  'mutation brainRemoveMany': async () => ({ items: [{ memoryId: await freshBrain(), expectedRevision: 1 }] }),
  'mutation resolveWorkingRecord': async () => ({ input: { recordId: await freshWorking() } }),
  'mutation supersedeWorkingRecord': async () => ({ input: { recordId: await freshWorking(), supersededById: await freshWorking() } }),
  'mutation reactivateWorkingRecord': async () => {
    const recordId = await freshWorking();
    ok((await operator.resolveWorkingRecord({ input: { agentId: VICTIM, recordId, expectedRevision: 1 } })).resolveWorkingRecord, 'ResolveWorkingRecordSuccess');
    return { input: { recordId, expectedRevision: 2 } };
  },
  'mutation setAgentSetting': async () => ({ input: { value: 1 } }),
  'mutation updateProfileDocument': async () => ({ input: { expectedRevision: await revisionOf('SOUL') } }),
  'mutation applyPreferenceLearning': async () => ({ input: { expectedRevision: await revisionOf('PREFERENCES') } }),
  'mutation replaceProfile': async () => ({
    input: { documents: (['SOUL', 'RULES', 'ORIENTATION', 'PREFERENCES', 'TOOLS', 'DREAM_MEMORY'] as const).map((kind) => ({ kind, content: 'matrix' })) },
  }),
  // The victim's originals hold {"text": …}; the search matches the JSON text as stored.
  'query conversationSearch': async () => ({ query: 'text' }),
  'mutation compactConversation': async () => {
    const { entry } = ok(
      (await operator.appendConversationEntry({ input: { agentId: VICTIM, payload: JSON.stringify({ text: SECRET }) } })).appendConversationEntry,
      'AppendConversationEntrySuccess',
    );
    return { input: { fromPosition: entry.position, toPosition: entry.position } };
  },
  'mutation finalizeContinuityRun': async () => ({ input: { runId: await startRun() } }),
  'mutation interruptContinuityRun': async () => ({ input: { runId: await startRun() } }),
  'mutation completeContinuityRun': async () => {
    const runId = await startRun();
    ok((await server.operator.finalizeContinuityRun({ input: fence(runId) })).finalizeContinuityRun, 'FinalizeContinuityRunSuccess');
    return { input: { runId } };
  },
  'mutation claimContinuityRecovery': async () => {
    const runId = await startRun();
    ok((await server.operator.interruptContinuityRun({ input: { ...fence(runId), reason: 'matrix' } })).interruptContinuityRun, 'InterruptContinuityRunSuccess');
    await server.operator.reconcileContinuity({ agentId: VICTIM });
    return { input: { runId } };
  },
};

/** Minimal variables naming the victim, from the schema, the vocabulary and the field's override. */
async function variablesFor(root: RootField): Promise<Record<string, unknown>> {
  let variables = minimalVariables(root.field, named(), keyOf(root));
  // Every subscription replays its log from the start, so an allowed one answers at once.
  if (root.kind === 'subscription' && root.field.args.some((a) => a.name === 'after')) variables.after = 0;
  const override = OVERRIDES[keyOf(root)];
  if (override) variables = merge(variables, await override());
  return withAgent(variables, root, VICTIM);
}

const withAgent = (variables: Record<string, unknown>, root: RootField, agentId: string) => {
  const copy = structuredClone(variables);
  for (const path of agentPaths(root.field)) setAt(copy, path, agentId);
  return copy;
};

/** The outcome of a call: an error code, an Error member's type, null, empty, silent or ok. */
function outcomeOf(value: unknown): Outcome {
  if (value === null || value === undefined) return 'null';
  if (Array.isArray(value)) return value.length === 0 ? 'empty' : 'ok';
  const object = value as { __typename?: string; edges?: unknown[] };
  const type = object.__typename ? schema.getType(object.__typename) : null;
  if (type && isObjectType(type) && type.getInterfaces().some((i) => i.name === 'Error')) return type.name;
  if (Array.isArray(object.edges) && object.edges.length === 0) return 'empty';
  // Per-item results (brainRemoveMany) carry their own status.
  const items = Object.values(object).find((v): v is { status: string }[] => Array.isArray(v) && v.length > 0 && v.every((i) => i && typeof i === 'object' && 'status' in i));
  if (items) return `ok: ${[...new Set(items.map((i) => i.status))].join(', ')}`;
  return 'ok';
}

interface Called {
  outcome: Outcome;
  /** The whole answer, to check what it reveals. */
  text: string;
}

async function call(client: BurrowClient, root: RootField, variables: Record<string, unknown>, waitMs: number, barrier?: (typeof SELF_BARRIERS)[string]): Promise<Called> {
  const query = operationOf(root, variables);
  try {
    if (root.kind !== 'subscription') {
      const data = await client.request<Record<string, unknown>>(query, variables);
      return { outcome: outcomeOf(data[root.name]), text: JSON.stringify(data) };
    }
    const iterator = client.subscribe<Record<string, unknown>>(query, variables);
    let timer: NodeJS.Timeout | undefined;
    try {
      if (barrier) {
        const next = iterator.next();
        await barrier.emit();
        const first = await Promise.race([next, new Promise<null>((resolve) => (timer = setTimeout(() => resolve(null), scaled(waitMs))))]);
        if (first === null) throw new Error(`${root.name}: the barrier's event never arrived`);
        const text = JSON.stringify(first.value ?? null);
        // The barrier's own event came first: nothing else arrived before it.
        return text.includes(barrier.marker) ? { outcome: 'silent', text: '' } : { outcome: first.done ? 'ended' : outcomeOf(first.value[root.name]), text };
      }
      const first = await Promise.race([iterator.next(), new Promise<null>((resolve) => (timer = setTimeout(() => resolve(null), waitMs)))]);
      if (first === null) return { outcome: 'silent', text: '' };
      return { outcome: first.done ? 'ended' : outcomeOf(first.value[root.name]), text: JSON.stringify(first.value ?? null) };
    } finally {
      clearTimeout(timer);
      await iterator.return?.();
    }
  } catch (error) {
    if (error instanceof BurrowRequestError) return { outcome: error.code, text: JSON.stringify(error.errors) };
    throw error;
  }
}

async function victimSequence() {
  return (await server.operator.agent({ id: VICTIM })).agent!.lastEventSequence;
}

/** Whether the variables name one of the victim's records (not the agent id itself). */
function carriesVictimRecord(value: unknown): boolean {
  if (typeof value === 'string') return fixture.records.has(value);
  if (value && typeof value === 'object') return Object.values(value).some(carriesVictimRecord);
  return false;
}

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
