/** The event log in the graph: Agent.events (paged) and operatorEvents (live, across agents). */
import { sql } from 'drizzle-orm';
import { requireOperator } from '../auth/viewer.js';
import { AgentRef } from '../domains/agents/agents.graphql.js';
import { bindingOf, decodePositionCursor, encodeCursor, pageSize, toConnection } from '../lib/cursor.js';
import { NotFoundError, ValidationError } from '../lib/errors.js';
import { builder } from '../schema/builder.js';
import { connectionType, pageArgs } from '../schema/connections.js';
import { AgentEventRef, EventStreamEnum } from '../schema/events.js';
import type { Db } from '../db/database.js';
import type { AgentEventRow, EventStream } from './events.service.js';
import { decodeOperatorCursor } from './operator-cursor.js';
import { operatorStream } from './operator-stream.js';

const EVENTS_PAGE_MAX = 500;
const OPERATOR_AGENT_IDS_MAX = 1000;
/** Event cursors hold a sequence, under one binding for every agent, so a batch of agents shares `after`. */
const EVENTS_BINDING = bindingOf('Agent.events');

const AgentEventConnection = connectionType(AgentEventRef, 'AgentEvent');

/** One page of the log per agent, in one statement: a LATERAL read per agent on the (agent_id, sequence) key. */
async function eventPages(db: Db, agentIds: readonly string[], after: number, limit: number): Promise<AgentEventRow[][]> {
  const result = await db.execute<{
    agent_id: string;
    sequence: string | number;
    stream: string;
    type: string;
    subject_id: string;
    project: string | null;
    payload: unknown;
    occurred_at: string | Date;
    tx_id: string;
  }>(sql`
    SELECT e.agent_id, e.sequence, e.stream, e.type, e.subject_id, e.project, e.payload, e.occurred_at, e.tx_id::text AS tx_id
      FROM jsonb_array_elements_text(${JSON.stringify(agentIds)}::jsonb) AS a(id)
     CROSS JOIN LATERAL (
       SELECT * FROM agent_events
        WHERE agent_id = a.id AND sequence > ${after}
        ORDER BY sequence
        LIMIT ${limit}
     ) e`);
  const pages = new Map<string, AgentEventRow[]>(agentIds.map((id) => [id, []]));
  for (const row of result.rows) {
    pages.get(row.agent_id)!.push({
      agentId: row.agent_id,
      sequence: Number(row.sequence),
      stream: row.stream,
      type: row.type,
      subjectId: row.subject_id,
      project: row.project,
      payload: typeof row.payload === 'string' ? JSON.parse(row.payload) : row.payload,
      occurredAt: new Date(row.occurred_at),
      txId: row.tx_id,
    });
  }
  return agentIds.map((id) => pages.get(id)!);
}

builder.objectField(AgentRef, 'events', (t) =>
  t.loadable({
    type: AgentEventConnection,
    description:
      "The agent's event log in sequence order (oldest retained first), every stream. Pass a page's `endCursor` as `after` to continue; " +
      'the log keeps BURROW_EVENT_RETENTION_DAYS days. Batched: one statement for every agent of a page.',
    args: pageArgs(t.arg, EVENTS_PAGE_MAX, 50),
    byPath: true,
    load: async (agentIds: string[], ctx, args) => {
      const limit = pageSize(args.first, EVENTS_PAGE_MAX, 50);
      const after = decodePositionCursor(args.after, EVENTS_BINDING) ?? 0;
      const pages = await eventPages(ctx.services.database.db, agentIds, after, limit + 1);
      return pages.map((rows) => toConnection(rows, limit, (e) => encodeCursor(EVENTS_BINDING, [e.sequence]), args.after));
    },
    resolve: (agent) => agent.id,
  }),
);

builder.subscriptionFields((t) => ({
  operatorEvents: t.field({
    type: AgentEventRef,
    description:
      "Operators only. Every agent's events (or those of `agentIds`, of `streams`) in one order that is safe to resume: " +
      'pass the `cursor` of the last event received as `after` to continue exactly after it. Without `after`, from now. ' +
      'An event is delivered once every transaction older than it has finished, so a long transaction elsewhere delays (never reorders) the stream.',
    args: {
      after: t.arg.string({ required: false, description: 'The `cursor` of the last event received' }),
      agentIds: t.arg.stringList({
        required: false,
        description: `Only these agents (at most ${OPERATOR_AGENT_IDS_MAX}); every agent when absent. An unknown agent is NOT_FOUND.`,
      }),
      streams: t.arg({ type: [EventStreamEnum], required: false, description: 'Only these streams; every stream when absent' }),
    },
    subscribe: async (_, args, ctx) => {
      requireOperator(ctx.viewer);
      const after = decodeOperatorCursor(args.after);
      let agentIds: string[] | null = null;
      if (args.agentIds) {
        agentIds = [...new Set(args.agentIds)];
        if (agentIds.length === 0 || agentIds.length > OPERATOR_AGENT_IDS_MAX) {
          throw new ValidationError('agentIds', `agentIds names 1 to ${OPERATOR_AGENT_IDS_MAX} agents`, OPERATOR_AGENT_IDS_MAX);
        }
        const known = new Set((await ctx.services.agents.agentsByIds(agentIds)).map((a) => a.id));
        const unknown = agentIds.find((id) => !known.has(id));
        if (unknown !== undefined) throw new NotFoundError('Agent', unknown);
      }
      const streams = args.streams?.length ? [...new Set(args.streams as EventStream[])] : null;
      return operatorStream(ctx.services.database, ctx.services.hub, ctx.logger, { after, agentIds, streams });
    },
    resolve: (event: AgentEventRow) => event,
  }),
}));
