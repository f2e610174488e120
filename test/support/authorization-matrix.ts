/**
 * The authorization matrix's victim and its data, the variables each root field is called with,
 * and the call that classifies an answer (authorization-matrix.test.ts holds the expected outcomes).
 */
import { isObjectType } from 'graphql';
import { afterAll, beforeAll } from 'vitest';
import { BurrowRequestError, type BurrowClient } from '../../clients/typescript/sdk.js';
import { DEFAULT_LIMITS } from '../../src/config.server.js';
import { schema as executable } from '../../src/schema/index.js';
import { providerTimeoutMs } from './load.js';
import { startChatServer, type ChatServer } from './chat-server.js';
import { ok, openOwner, type OwnerHandle } from './continuity.js';
import { scaled, startServer, type TestServer } from './harness.js';
import { agentPaths, introspected, merge, minimalVariables, operationOf, rootFields, setAt, type NamedValues, type RootField } from './schema-operations.js';

export const VICTIM = 'matrix-victim';
export const AGENT = 'matrix-agent';
export const SCOPE = 'matrix-scope';
export const SESSION = 'matrix-session';
/** In every text the victim owns: it must never reach the other agent. */
export const SECRET = 'victim-secret';

export type Outcome = string;

/** A later event a subscription must deliver, made once it is open (see SELF_BARRIERS). */
export interface Barrier {
  variables: (v: Record<string, unknown>) => Record<string, unknown>;
  emit: () => Promise<void>;
  marker: string;
}

export let server: TestServer;
export let chat: ChatServer;
export let agent: BurrowClient;
export let operator: BurrowClient;
export let owner: OwnerHandle;
export const fixture = {
  brainId: '',
  workingId: '',
  runId: 'victim-run',
  effectId: 'victim-effect',
  /** Every id of a record the victim owns that a call may name. */
  records: new Set<string>([SESSION]),
};
export const recorded = (id: string) => (fixture.records.add(id), id);

export const schema = introspected(executable);
export const rootList = rootFields(schema);
export const keyOf = (root: RootField) => `${root.kind} ${root.name}`;
export const agentFields = rootList.filter((root) => agentPaths(root.field).length > 0);

/** Starts the server, the chat provider and the victim with data everywhere before the file's tests; stops them after. */
export function setupMatrix() {
  beforeAll(async () => {
    chat = await startChatServer();
    server = await startServer({
      config: {
        tiddle: { scheduler: false, proposer: { kind: 'openai', url: chat.url, model: 'matrix', apiKey: null, timeoutMs: providerTimeoutMs() } },
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

    // A purged memory, for a removal receipt (DataRemovalReceipt, dataRemovalReceipts).
    ok((await server.operator.brainPurge({ input: { agentId: VICTIM, memoryId: await freshTombstone() } })).brainPurge, 'BrainPurgeSuccess');

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
  });

  afterAll(async () => {
    await owner?.close();
    await server?.stop();
    await chat?.close();
  });
}

export let runs = 0;
export const fence = (runId: string) => ({ agentId: VICTIM, runId, generation: 1, ownerId: owner.ownerId });

export async function startRun(runId = `fresh-run-${++runs}`) {
  ok((await server.operator.startContinuityRun({ input: { agentId: VICTIM, ownerId: owner.ownerId, runId } })).startContinuityRun, 'StartContinuityRunSuccess');
  return recorded(runId);
}
export async function freshBrain() {
  return recorded(ok((await server.operator.brainSave({ input: { agentId: VICTIM, title: `${SECRET} fresh`, content: SECRET } })).brainSave, 'BrainSaveSuccess').memory.memoryId);
}
/** A removed memory of the victim: what brainPurge takes. */
export async function freshTombstone() {
  const memoryId = await freshBrain();
  ok((await server.operator.brainRemove({ input: { agentId: VICTIM, memoryId, expectedRevision: 1 } })).brainRemove, 'BrainRemoveSuccess');
  return memoryId;
}
export async function freshWorking() {
  const input = { agentId: VICTIM, kind: 'FINDING' as const, title: `${SECRET} fresh`, content: SECRET };
  return recorded(ok((await operator.memoryWorkingWrite({ input })).memoryWorkingWrite, 'MemoryWorkingWriteSuccess').record.recordId);
}
export async function revisionOf(kind: 'SOUL' | 'PREFERENCES') {
  return (await server.operator.profileDocument({ agentId: VICTIM, kind })).profileDocument!.revision;
}

/** Values the API's vocabulary gives a name wherever it occurs (the type alone cannot tell). */
export const named = (): NamedValues => ({
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
export const OVERRIDES: Record<string, () => Promise<Record<string, unknown>>> = {
  'query brainRead': async () => ({ memoryId: fixture.brainId }),
  // The first enum value is OPERATOR, which takes no agent.
  'mutation createApiToken': async () => ({ input: { kind: 'AGENT' } }),
  'query workingRecord': async () => ({ recordId: fixture.workingId }),
  'mutation brainUpdate': async () => ({ input: { memoryId: await freshBrain(), title: 'matrix' } }),
  'mutation brainRemove': async () => ({ input: { memoryId: await freshBrain() } }),
  'mutation brainPurge': async () => ({ input: { memoryId: await freshTombstone() } }),
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
export async function variablesFor(root: RootField): Promise<Record<string, unknown>> {
  let variables = minimalVariables(root.field, named(), keyOf(root));
  // Every subscription replays its log from the start, so an allowed one answers at once.
  if (root.kind === 'subscription' && root.field.args.some((a) => a.name === 'after')) variables.after = 0;
  const override = OVERRIDES[keyOf(root)];
  if (override) variables = merge(variables, await override());
  return withAgent(variables, root, VICTIM);
}

export const withAgent = (variables: Record<string, unknown>, root: RootField, agentId: string) => {
  const copy = structuredClone(variables);
  for (const path of agentPaths(root.field)) setAt(copy, path, agentId);
  return copy;
};

/** The outcome of a call: an error code, an Error member's type, null, empty, silent or ok. */
export function outcomeOf(value: unknown): Outcome {
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

export interface Called {
  outcome: Outcome;
  /** The whole answer, to check what it reveals. */
  text: string;
}

export async function call(client: BurrowClient, root: RootField, variables: Record<string, unknown>, waitMs: number, barrier?: Barrier): Promise<Called> {
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

export async function victimSequence() {
  return (await server.operator.agent({ id: VICTIM })).agent!.lastEventSequence;
}

/** Whether the variables name one of the victim's records (not the agent id itself). */
export function carriesVictimRecord(value: unknown): boolean {
  if (typeof value === 'string') return fixture.records.has(value);
  if (value && typeof value === 'object') return Object.values(value).some(carriesVictimRecord);
  return false;
}
