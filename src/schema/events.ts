/**
 * The events every subscription streams: one row of the per-agent event log, typed by its
 * stream. `AgentEvent` is the interface every event type implements, so a client selects the
 * common fields directly and each type's own fields with a fragment; `payload` keeps the JSON
 * exactly as recorded for runtimes that read it.
 */
import type { AgentEventRow, EventStream } from '../events/events.service.js';
import { encodeOperatorCursor } from '../events/operator-cursor.js';
import { builder } from './builder.js';

export const EventStreamEnum = builder.enumType('EventStream', {
  description: 'The family of an event, and the event type it is delivered as',
  values: {
    PROFILE: { value: 'profile', description: 'Agent creation and profile document updates (ProfileEvent)' },
    BRAIN: { value: 'brain', description: 'Brain memories saved, updated, removed or purged (BrainMemoryEvent)' },
    WORKING: { value: 'working', description: 'Working records written or changing state (WorkingRecordEvent)' },
    HANDOFF: { value: 'handoff', description: 'Session handoffs written (HandoffEvent)' },
    CONVERSATION: { value: 'conversation', description: 'Conversation originals appended, sessions reset, compacted, archived (ConversationEvent)' },
    ROLLING_CARD: { value: 'rolling_card', description: 'Rolling cards created, updated or expired (RollingCardEvent)' },
    TIDDLE_STATUS: { value: 'tiddle_status', description: 'Tiddle passes and syntheses finished (TiddleStatusEvent)' },
    CONTINUITY: { value: 'continuity', description: 'Continuity run state transitions (ContinuityRunEvent)' },
  } as const,
});

/** Every event type the log records, as the log spells it (dotted) and as the schema does. */
const EVENT_TYPES = {
  AGENT_CREATED: ['agent.created', 'The agent was created'],
  AGENT_ERASED: ['agent.erased', "The agent's erasure started: the last event of its log; every subscriber of the agent gets it, then its stream completes"],
  PROFILE_UPDATED: ['profile.updated', 'A profile document got a new revision'],
  BRAIN_CREATED: ['brain.created', 'A memory was saved (or imported)'],
  BRAIN_UPDATED: ['brain.updated', 'A memory got a new revision'],
  BRAIN_REMOVED: ['brain.removed', 'A memory was removed (tombstoned)'],
  BRAIN_PURGED: ['brain.purged', "A removed memory's content was purged by an operator (brainPurge); the event carries no title"],
  WORKING_CREATED: ['working.created', 'A working record was written'],
  WORKING_UPDATED: ['working.updated', 'A working record got a new revision'],
  WORKING_RESOLVED: ['working.resolved', 'A working record was resolved'],
  WORKING_SUPERSEDED: ['working.superseded', 'A working record was superseded by another'],
  WORKING_REACTIVATED: ['working.reactivated', 'A resolved or superseded working record became active again'],
  HANDOFF_WRITTEN: ['handoff.written', 'A session handoff was written'],
  CONVERSATION_APPENDED: ['conversation.appended', 'An original was appended to a session'],
  CONVERSATION_RESET: ['conversation.reset', 'A session was reset: its active history archived'],
  CONVERSATION_COMPACTED: ['conversation.compacted', 'Part of a session was archived and replaced by a summary'],
  CONVERSATION_ARCHIVED: ['conversation.archived', 'A session was archived'],
  CONVERSATION_UNARCHIVED: ['conversation.unarchived', 'A session was unarchived'],
  ROLLING_CARD_CREATED: ['rolling_card.created', 'A rolling card was created'],
  ROLLING_CARD_UPDATED: ['rolling_card.updated', 'A rolling card got a new revision'],
  ROLLING_CARD_EXPIRED: ['rolling_card.expired', 'A rolling card outlived its TTL'],
  TIDDLE_PASS_SUCCEEDED: ['tiddle.pass.succeeded', 'A Tiddle pass finished'],
  TIDDLE_PASS_FAILED: ['tiddle.pass.failed', 'A Tiddle pass failed; its error says why'],
  TIDDLE_SYNTHESIS_SUCCEEDED: ['tiddle.synthesis.succeeded', 'A cross-scope synthesis finished'],
  TIDDLE_SYNTHESIS_FAILED: ['tiddle.synthesis.failed', 'A cross-scope synthesis failed; its error says why'],
  CONTINUITY_TRANSITION: ['continuity.transition', 'A continuity run changed state'],
} as const;

export const AgentEventTypeEnum = builder.enumType('AgentEventType', {
  description: 'What happened',
  values: Object.fromEntries(Object.entries(EVENT_TYPES).map(([name, [value, description]]) => [name, { value, description }])) as Record<
    keyof typeof EVENT_TYPES,
    { value: (typeof EVENT_TYPES)[keyof typeof EVENT_TYPES][0]; description: string }
  >,
});

export const TYPE_OF_STREAM: Record<EventStream, string> = {
  profile: 'ProfileEvent',
  brain: 'BrainMemoryEvent',
  working: 'WorkingRecordEvent',
  handoff: 'HandoffEvent',
  conversation: 'ConversationEvent',
  rolling_card: 'RollingCardEvent',
  tiddle_status: 'TiddleStatusEvent',
  continuity: 'ContinuityRunEvent',
};

export const AgentEventRef = builder.interfaceRef<AgentEventRow>('AgentEvent').implement({
  description: 'One change of an agent, in per-agent sequence order. Each stream has its own event type with typed fields.',
  resolveType: (event) => TYPE_OF_STREAM[event.stream as EventStream],
  fields: (t) => ({
    sequence: t.exposeInt('sequence', { description: 'Per-agent, gap-free, commit-ordered; pass the last one seen as `after` to resume a per-agent subscription' }),
    cursor: t.string({
      description: "This event's position in the log across all agents: pass the last one seen as `operatorEvents(after:)` to resume",
      resolve: (event) => encodeOperatorCursor(event),
    }),
    agentId: t.exposeString('agentId', { description: 'The agent it happened to' }),
    stream: t.field({ type: EventStreamEnum, description: 'The stream (and so the event type)', resolve: (event) => event.stream as EventStream }),
    type: t.field({
      type: AgentEventTypeEnum,
      description: 'What happened',
      resolve: (event) => event.type as (typeof EVENT_TYPES)[keyof typeof EVENT_TYPES][0],
    }),
    subjectId: t.exposeString('subjectId', { description: 'The id of the record it happened to, as the stream names it (memory id, record id, `project/cardId`, run id, ...)' }),
    project: t.exposeString('project', { nullable: true, description: 'The continuity scope, for scoped streams' }),
    occurredAt: t.expose('occurredAt', { type: 'DateTime', description: 'When the change was written (server clock)' }),
    payload: t.expose('payload', { type: 'JSON', description: 'The event as recorded; the typed fields of each event type are read from it' }),
  }),
});

/** `after` as given by clients: a non-negative sequence or null for "from now". */
export function afterSequence(after: number | null | undefined): number | null {
  if (after == null) return null;
  return Math.max(0, after);
}
