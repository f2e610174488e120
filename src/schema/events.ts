/** The event type every subscription streams: one row of the per-agent event log. */
import type { AgentEventRow } from '../events/events.service.js';
import { builder } from './builder.js';

export const AgentEventRef = builder.objectRef<AgentEventRow>('AgentEvent').implement({
  description: 'One change of an agent, in per-agent sequence order',
  fields: (t) => ({
    sequence: t.exposeInt('sequence', { description: 'Per-agent, gap-free, commit-ordered; pass the last one seen as `after` to resume' }),
    agentId: t.exposeString('agentId'),
    stream: t.exposeString('stream'),
    type: t.exposeString('type'),
    subjectId: t.exposeString('subjectId'),
    project: t.exposeString('project', { nullable: true }),
    occurredAt: t.expose('occurredAt', { type: 'DateTime' }),
    payload: t.expose('payload', { type: 'JSON' }),
  }),
});

/** `after` as given by clients: a non-negative sequence or null for "from now". */
export function afterSequence(after: number | null | undefined): number | null {
  if (after == null) return null;
  return Math.max(0, after);
}
