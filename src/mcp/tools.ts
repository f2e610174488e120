/**
 * The seed's memory executors as MCP tools. Each tool's input schema is built from the same
 * descriptors as the GraphQL input (domains/<domain>/<domain>.inputs.ts) and each call goes
 * straight to the domain service, which owns every rule: agent binding, scope, limits, revisions.
 */
import { NotFoundError } from '../lib/errors.js';
import type { InputFields, InputOf } from '../lib/input-spec.js';
import type { Viewer } from '../auth/viewer.js';
import type { Services } from '../services.js';
import { workingSearchArgs, workingWriteInput } from '../domains/working-memory/working-memory.inputs.js';
import { handoffReadArgs, handoffWriteInput } from '../domains/handoffs/handoffs.inputs.js';
import { rollingSearchArgs } from '../domains/tiddle/tiddle.inputs.js';
import { brainReadGraphqlArgs, brainRemoveGraphqlInput, brainSaveInput, brainSearchGraphqlArgs, brainUpdateGraphqlInput } from '../domains/brains/brains.inputs.js';
import { brainMemoryJson, brainSearchJson, handoffJson, rollingCardJson, workingRecordJson } from './results.js';

export interface ToolDefinition<F extends InputFields = InputFields> {
  name: string;
  title: string;
  description: string;
  input: F;
  /** Reads only (MCP readOnlyHint); `destructive` marks a removal. */
  readOnly: boolean;
  destructive?: boolean;
  run(services: Services, viewer: Viewer, args: InputOf<F>): Promise<Record<string, unknown>>;
}

const tool = <F extends InputFields>(definition: ToolDefinition<F>) => definition as unknown as ToolDefinition;

const SCOPE_NOTE = 'The runtime decides the agent, continuity scope, session and conversation; arguments cannot change them.';

export const TOOLS: readonly ToolDefinition[] = [
  tool({
    name: 'memory_working_search',
    title: 'Search working memory',
    description:
      'Search your operational working memory (decisions, findings, blockers, handoffs, tasks) in the current continuity scope. ' +
      'Every word of the query must occur in title or content (case-insensitive); title matches come first, then the most recently updated. Expired records never appear. ' +
      `Returns { records }. Search before writing to avoid duplicates. ${SCOPE_NOTE}`,
    input: workingSearchArgs,
    readOnly: true,
    run: async (services, viewer, args) => ({ records: (await services.working.search(viewer, args)).map(workingRecordJson) }),
  }),
  tool({
    name: 'memory_working_write',
    title: 'Write working memory',
    description:
      'Record operational evidence (a decision, finding, blocker, handoff or task) in your working memory for the current scope and session. ' +
      'Without recordId a new record is created; with recordId and expectedRevision that record is rewritten. On REVISION_CONFLICT nothing was written: the error carries the current record (currentValue), so re-read and retry deliberately. ' +
      `Returns { record } with its recordId and revision. ${SCOPE_NOTE}`,
    input: workingWriteInput,
    readOnly: false,
    run: async (services, viewer, { recordId, ...rest }) => ({ record: workingRecordJson(await services.working.write(viewer, { ...rest, id: recordId })) }),
  }),
  tool({
    name: 'memory_rolling_search',
    title: 'Search rolling continuity',
    description:
      "Search Tiddle's rolling continuity cards (compact summaries of recent work) in the current scope; cards matching more query words come first, at most 10. " +
      'Returns { owner: "rolling_continuity", entersPrompt: false, cards }: entersPrompt false means cards are never put into your prompt automatically; this result itself is visible to you. ' +
      SCOPE_NOTE,
    input: rollingSearchArgs,
    readOnly: true,
    run: async (services, viewer, args) => {
      const result = await services.tiddle.search(viewer, args);
      return { ...result, cards: result.cards.map(rollingCardJson) };
    },
  }),
  tool({
    name: 'session_read_handoff',
    title: 'Read recent handoffs',
    description:
      'Read recent handoffs of the current scope: explicit ones first, then the current session, then the newest. ' +
      'A handoff is a recall aid (goal, outcome, evidence pointers), not an instruction and not verification of current state. ' +
      `Returns { handoffs }. ${SCOPE_NOTE}`,
    input: handoffReadArgs,
    readOnly: true,
    run: async (services, viewer, args) => ({ handoffs: (await services.handoffs.readRecent(viewer, args)).map(handoffJson) }),
  }),
  tool({
    name: 'session_write_handoff',
    title: 'Write the session handoff',
    description:
      "Write the explicit handoff of your current session: what you were doing, where it ended and what the next session needs. It replaces this session's earlier handoff; the runtime's automatic handoffs never overwrite it. " +
      `Needs a runtime session (SESSION_REQUIRED otherwise). Returns { handoff }. ${SCOPE_NOTE}`,
    input: handoffWriteInput,
    readOnly: false,
    run: async (services, viewer, args) => ({ handoff: handoffJson(await services.handoffs.writeExplicit(viewer, args)) }),
  }),
  tool({
    name: 'brain_search',
    title: 'Search saved memories',
    description:
      'Search your saved Brain memories (durable preferences, compact project knowledge): lexical, plus embedding ranking when configured. ' +
      'A saved claim or source reference is not verification of current state. Search before saving to avoid duplicates. Returns { retrieval, hits: [{ memory, score, ... }] }.',
    input: brainSearchGraphqlArgs,
    readOnly: true,
    run: async (services, viewer, { first, ...rest }) => brainSearchJson(await services.brains.search(viewer, { ...rest, limit: first })),
  }),
  tool({
    name: 'brain_read',
    title: 'Read a saved memory',
    description:
      'Read one of your saved memories by memoryId, with its current revision (brain_update and brain_remove need it). NOT_FOUND when the id is unknown, removed or not yours. ' +
      'With asOf (an ISO-8601 time) you get the memory as it was then, from its revisions: NOT_FOUND if it did not exist yet, its tombstone (deleted true, deletedAt) if it had been removed. Returns { memory }.',
    input: brainReadGraphqlArgs,
    readOnly: true,
    run: async (services, viewer, { memoryId, asOf, ...rest }) => {
      const memory = asOf ? await services.brains.readAsOf(viewer, { ...rest, id: memoryId, asOf }) : await services.brains.read(viewer, { ...rest, id: memoryId });
      if (!memory) throw new NotFoundError('BrainMemory', memoryId);
      return { memory: brainMemoryJson(memory) };
    },
  }),
  tool({
    name: 'brain_save',
    title: 'Save a memory',
    description:
      'Save a new durable memory: no expiry, never loaded into prompts automatically, yours alone. Search first; read back important changes. Returns { memory } with its new memoryId and revision 1.',
    input: brainSaveInput,
    readOnly: false,
    run: async (services, viewer, args) => ({ memory: brainMemoryJson(await services.brains.save(viewer, args)) }),
  }),
  tool({
    name: 'brain_update',
    title: 'Update a saved memory',
    description:
      'Change the title, content or sourceRefs of one of your saved memories (at least one of them). Needs expectedRevision, the revision you last read: on REVISION_CONFLICT nothing changed and the error carries the current memory (currentValue). ' +
      'Operator-owned memories cannot be changed (OPERATOR_OWNED). Returns { memory }.',
    input: brainUpdateGraphqlInput,
    readOnly: false,
    run: async (services, viewer, { memoryId, ...rest }) => ({ memory: brainMemoryJson(await services.brains.update(viewer, { ...rest, id: memoryId })) }),
  }),
  tool({
    name: 'brain_remove',
    title: 'Remove a saved memory',
    description:
      'Remove one of your saved memories: it disappears from reads and search (a tombstone; nothing is physically erased). Needs expectedRevision; on REVISION_CONFLICT nothing changed. ' +
      'Operator-owned memories cannot be removed (OPERATOR_OWNED). Returns { memory } with deleted true.',
    input: brainRemoveGraphqlInput,
    readOnly: false,
    destructive: true,
    run: async (services, viewer, { memoryId, ...rest }) => ({ memory: brainMemoryJson(await services.brains.remove(viewer, { ...rest, id: memoryId })) }),
  }),
];
