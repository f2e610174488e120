/**
 * The event type of each stream, implementing AgentEvent: typed fields read from the recorded
 * payload. Kept apart from events.ts because these import the domains' enums, and the domains
 * import events.ts for their subscriptions.
 */
import type { AgentEventRow, EventStream } from '../events/events.service.js';
import { ActorRef, PrincipalKindEnum, type ActorShape, type Principal } from './actor.js';
import { builder } from './builder.js';
import { AgentEventRef, TYPE_OF_STREAM } from './events.js';
import { ProfileKindEnum } from '../domains/agents/agents.graphql.js';
import type { ProfileKind } from '../domains/agents/agents.sql.js';
import { WorkingRecordKindEnum, WorkingRecordStateEnum } from '../domains/working-memory/working-memory.graphql.js';
import type { WorkingKind, WorkingState } from '../domains/working-memory/working-memory.sql.js';
import { HandoffOriginEnum } from '../domains/handoffs/handoffs.graphql.js';
import { ContinuityRunStateEnum } from '../domains/continuity/continuity.types.graphql.js';
import type { ContinuityRunState as RunState } from '../domains/continuity/continuity.sql.js';

type Payload = Record<string, unknown>;
const payloadOf = (event: AgentEventRow) => (event.payload ?? {}) as Payload;
const str = (event: AgentEventRow, key: string) => (typeof payloadOf(event)[key] === 'string' ? (payloadOf(event)[key] as string) : null);
const int = (event: AgentEventRow, key: string) => (typeof payloadOf(event)[key] === 'number' ? (payloadOf(event)[key] as number) : null);
const date = (event: AgentEventRow, key: string) => {
  const value = str(event, key);
  return value === null ? null : new Date(value);
};

// Fields of the same name have the same type on every event type (nullable where any lacks
// them), so one selection with fragments for every type stays valid GraphQL.

/** What every event type shares: the interface, and recognising its rows by stream. */
const asEvent = (name: string) => ({
  interfaces: [AgentEventRef],
  isTypeOf: (value: unknown) => TYPE_OF_STREAM[(value as AgentEventRow).stream as EventStream] === name,
});

builder.objectRef<AgentEventRow>('ProfileEvent').implement({
  ...asEvent('ProfileEvent'),
  description: 'AGENT_CREATED, PROFILE_UPDATED or AGENT_ERASED',
  fields: (t) => ({
    profileKind: t.field({
      type: ProfileKindEnum,
      nullable: true,
      description: 'The document updated; null on AGENT_CREATED',
      resolve: (e) => str(e, 'kind') as ProfileKind | null,
    }),
    revision: t.int({ nullable: true, description: "The document's new revision; null on AGENT_CREATED", resolve: (e) => int(e, 'revision') }),
    reason: t.string({ nullable: true, description: 'Why it changed, when the writer said', resolve: (e) => str(e, 'reason') }),
    agentName: t.string({ nullable: true, description: "The agent's name, on AGENT_CREATED", resolve: (e) => str(e, 'name') }),
  }),
});

builder.objectRef<AgentEventRow>('BrainMemoryEvent').implement({
  ...asEvent('BrainMemoryEvent'),
  description: 'BRAIN_CREATED, BRAIN_UPDATED, BRAIN_REMOVED or BRAIN_PURGED',
  fields: (t) => ({
    memoryId: t.string({ description: 'The memory', resolve: (e) => e.subjectId }),
    revision: t.int({ nullable: true, description: "The memory's revision after the change", resolve: (e) => int(e, 'revision') }),
    title: t.string({ nullable: true, description: 'The title after the change; null on BRAIN_PURGED and on every event of a purged memory', resolve: (e) => str(e, 'title') }),
    ownership: t.field({ type: PrincipalKindEnum, description: 'OPERATOR once an operator wrote it', resolve: (e) => (str(e, 'ownership') ?? 'AGENT') as Principal }),
    actor: t.field({ type: ActorRef, nullable: true, description: 'Who made the change', resolve: (e) => (payloadOf(e).actor as ActorShape | undefined) ?? null }),
    label: t.string({ nullable: true, description: 'migrated_albdruck on imported memories', resolve: (e) => str(e, 'label') }),
  }),
});

builder.objectRef<AgentEventRow>('WorkingRecordEvent').implement({
  ...asEvent('WorkingRecordEvent'),
  description: 'WORKING_CREATED, WORKING_UPDATED, WORKING_RESOLVED, WORKING_SUPERSEDED or WORKING_REACTIVATED',
  fields: (t) => ({
    recordId: t.string({ description: 'The working record', resolve: (e) => e.subjectId }),
    revision: t.int({ nullable: true, description: "The record's revision after the change", resolve: (e) => int(e, 'revision') }),
    recordKind: t.field({ type: WorkingRecordKindEnum, description: 'The kind of record', resolve: (e) => str(e, 'kind') as WorkingKind }),
    state: t.field({ type: WorkingRecordStateEnum, description: 'Its state after the change', resolve: (e) => str(e, 'state') as WorkingState }),
    pinned: t.boolean({ description: 'Pinned records do not expire', resolve: (e) => payloadOf(e).pinned === true }),
    expiresAt: t.field({ type: 'DateTime', nullable: true, description: 'When it expires', resolve: (e) => date(e, 'expiresAt') }),
    supersededBy: t.string({ nullable: true, description: 'The record id that supersedes it, when superseded', resolve: (e) => str(e, 'supersededBy') }),
  }),
});

builder.objectRef<AgentEventRow>('HandoffEvent').implement({
  ...asEvent('HandoffEvent'),
  description: 'HANDOFF_WRITTEN',
  fields: (t) => ({
    origin: t.field({
      type: HandoffOriginEnum,
      description: 'Explicit (the agent) or automatic (the runtime)',
      resolve: (e) => (str(e, 'origin') ?? 'EXPLICIT') as 'EXPLICIT' | 'AUTOMATIC',
    }),
    sessionId: t.string({ nullable: true, description: 'The session it hands off', resolve: (e) => str(e, 'sessionId') }),
    revision: t.int({ nullable: true, description: "The handoff's revision", resolve: (e) => int(e, 'revision') }),
    expiresAt: t.field({ type: 'DateTime', nullable: true, description: 'When it expires', resolve: (e) => date(e, 'expiresAt') }),
  }),
});

builder.objectRef<AgentEventRow>('ConversationEvent').implement({
  ...asEvent('ConversationEvent'),
  description: 'CONVERSATION_APPENDED, CONVERSATION_RESET, CONVERSATION_COMPACTED, CONVERSATION_ARCHIVED or CONVERSATION_UNARCHIVED',
  fields: (t) => ({
    sessionId: t.string({ nullable: true, description: 'The conversation session', resolve: (e) => str(e, 'sessionId') }),
    entryId: t.string({
      nullable: true,
      description: 'The appended original (APPENDED) or the summary (COMPACTED)',
      resolve: (e) => str(e, 'entryId') ?? str(e, 'summaryEntryId'),
    }),
    position: t.int({ nullable: true, description: "The appended original's position (APPENDED)", resolve: (e) => int(e, 'position') }),
    generation: t.int({ nullable: true, description: 'The archive generation written (RESET, COMPACTED)', resolve: (e) => int(e, 'generation') }),
    entryCount: t.int({ nullable: true, description: 'How many originals were archived (RESET, COMPACTED)', resolve: (e) => int(e, 'entryCount') }),
    reason: t.string({ nullable: true, description: 'Why the session was archived (ARCHIVED)', resolve: (e) => str(e, 'reason') }),
  }),
});

builder.objectRef<AgentEventRow>('RollingCardEvent').implement({
  ...asEvent('RollingCardEvent'),
  description: 'ROLLING_CARD_CREATED, ROLLING_CARD_UPDATED or ROLLING_CARD_EXPIRED',
  fields: (t) => ({
    cardId: t.string({ description: 'The card, within its project', resolve: (e) => str(e, 'cardId') ?? '' }),
    title: t.string({ nullable: true, description: 'The title after the change (CREATED, UPDATED)', resolve: (e) => str(e, 'title') }),
    revision: t.int({ nullable: true, description: "The card's revision after the change (CREATED, UPDATED)", resolve: (e) => int(e, 'revision') }),
    passId: t.string({ nullable: true, description: 'The Tiddle pass that wrote it (CREATED, UPDATED)', resolve: (e) => str(e, 'passId') }),
    ttlDays: t.int({ nullable: true, description: 'The TTL it outlived, in days (EXPIRED)', resolve: (e) => int(e, 'ttlDays') }),
  }),
});

builder.objectRef<AgentEventRow>('TiddleStatusEvent').implement({
  ...asEvent('TiddleStatusEvent'),
  description: 'TIDDLE_PASS_SUCCEEDED, TIDDLE_PASS_FAILED, TIDDLE_SYNTHESIS_SUCCEEDED or TIDDLE_SYNTHESIS_FAILED',
  fields: (t) => ({
    passId: t.string({ nullable: true, description: 'The pass', resolve: (e) => str(e, 'passId') }),
    error: t.string({ nullable: true, description: 'Why it failed (FAILED)', resolve: (e) => str(e, 'error') }),
    residueConsidered: t.int({ nullable: true, description: 'Residue entries the pass read', resolve: (e) => int(e, 'residueConsidered') }),
    cardsCreated: t.int({ description: 'Rolling cards created', resolve: (e) => listLength(e, 'created') }),
    cardsUpdated: t.int({ description: 'Rolling cards updated', resolve: (e) => listLength(e, 'updated') }),
    cardsExpired: t.int({ description: 'Rolling cards expired', resolve: (e) => listLength(e, 'expired') }),
    rejected: t.int({ nullable: true, description: 'Proposals refused (no evidence, over limits)', resolve: (e) => int(e, 'rejected') }),
    nextRunAt: t.field({ type: 'DateTime', nullable: true, description: 'When the next scheduled pass runs', resolve: (e) => date(e, 'nextRunAt') }),
  }),
});

builder.objectRef<AgentEventRow>('ContinuityRunEvent').implement({
  ...asEvent('ContinuityRunEvent'),
  description: 'CONTINUITY_TRANSITION',
  fields: (t) => ({
    runId: t.string({ description: 'The run', resolve: (e) => str(e, 'runId') ?? e.subjectId }),
    fromState: t.field({
      type: ContinuityRunStateEnum,
      nullable: true,
      description: 'The state before; null when the run started',
      resolve: (e) => str(e, 'from') as RunState | null,
    }),
    toState: t.field({ type: ContinuityRunStateEnum, description: 'The state after', resolve: (e) => str(e, 'to') as RunState }),
    generation: t.int({ nullable: true, description: "The run's fencing generation after the change", resolve: (e) => int(e, 'generation') }),
    ownerId: t.string({ nullable: true, description: 'The ownership session that holds the run', resolve: (e) => str(e, 'ownerId') }),
    reason: t.string({ nullable: true, description: 'Why, when the writer said', resolve: (e) => str(e, 'reason') }),
  }),
});

function listLength(event: AgentEventRow, key: string): number {
  const value = payloadOf(event)[key];
  return Array.isArray(value) ? value.length : typeof value === 'number' ? value : 0;
}
