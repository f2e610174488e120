/**
 * What the bare baselines run for one request: the statements an ideal plan needs, their rows
 * shaped into the answer Burrow gives (checked equal before anything is timed). No GraphQL, no
 * authentication, no limits: the floor Burrow is measured against. Every statement is named, so
 * each pooled connection parses and plans it once and then only binds and executes it, as Burrow's
 * own prepared reads do.
 */
import { fillPlaceholders, type Query } from 'drizzle-orm';
import { drizzle } from 'drizzle-orm/node-postgres';
import type pg from 'pg';
import type { Actor } from '../../src/auth/viewer.js';
import type { Db } from '../../src/db/database.js';
import { PROFILE_KINDS } from '../../src/domains/agents/agents.sql.js';
import { brainSaveStatement } from '../../src/domains/brains/brains.memories.js';
import { brainEvent } from '../../src/domains/brains/brains.writes.js';
import { eventWriteQuery } from '../../src/events/events.service.js';
import { newId } from '../../src/lib/ids.js';

type Body = { query?: string; variables?: Record<string, unknown> };
type DocumentRow = { agent_id: string; kind: string; content: string; revision: number };

const KIND_SLOT = new Map<string, number>(PROFILE_KINDS.map((kind, i) => [kind, i]));

/** Six documents placed by kind (one pass, no sort), as Burrow places them. */
function profileOf(rows: DocumentRow[]) {
  const slots: ({ kind: string; content: string; revision: number } | undefined)[] = new Array(PROFILE_KINDS.length);
  for (const d of rows) slots[KIND_SLOT.get(d.kind)!] = { kind: d.kind, content: d.content, revision: d.revision };
  return slots.filter((d) => d !== undefined);
}

/** `agents(first: 50)` with profiles: one page of agents, then one statement for all their documents. */
export async function nestedRead(pool: pg.Pool, first = 50) {
  const agents = await pool.query<{ id: string; name: string }>({
    name: 'nested_agents',
    text: 'SELECT id, name FROM agents ORDER BY created_at DESC, id DESC LIMIT $1',
    values: [first],
  });
  const ids = agents.rows.map((a) => a.id);
  const documents = await pool.query<DocumentRow>({
    name: 'nested_documents',
    text: 'SELECT agent_id, kind, content, revision FROM agent_profile_documents WHERE agent_id = ANY($1::text[])',
    values: [ids],
  });
  const byAgent = new Map<string, DocumentRow[]>(ids.map((id) => [id, []]));
  for (const d of documents.rows) byAgent.get(d.agent_id)!.push(d);
  return { agents: { edges: agents.rows.map((a) => ({ node: { agentId: a.id, name: a.name, profile: profileOf(byAgent.get(a.id)!) } })) } };
}

/** `agent(agentId:)` with its profile: the agent by id, then its documents. */
export async function profileRead(pool: pg.Pool, id: string) {
  const agent = (await pool.query<{ id: string; name: string }>({ name: 'profile_agent', text: 'SELECT id, name FROM agents WHERE id = $1', values: [id] })).rows[0];
  if (!agent) return { agent: null };
  const documents = await pool.query<DocumentRow>({
    name: 'profile_documents',
    text: 'SELECT agent_id, kind, content, revision FROM agent_profile_documents WHERE agent_id = $1',
    values: [id],
  });
  return { agent: { agentId: agent.id, name: agent.name, profile: profileOf(documents.rows) } };
}

/** The operator the bench's saves are made by (the shipped server's first token's name). */
export const OPERATOR: Actor = { kind: 'OPERATOR', id: 'e2e-operator' };
let saveQuery: Query | null = null;

/**
 * `brainSave`: the statement the server prepares for a save (the memory, its first revision, the
 * sequence bump and the event; src/domains/brains/brains.memories.ts), named, with the values the
 * server gives it. What any Node server pays for this write over HTTP. Without the wake-up NOTIFY
 * Burrow sends after commits (one statement for several saves): that is Burrow's own feature.
 */
export async function saveWrite(pool: pg.Pool, body: Body) {
  saveQuery ??= eventWriteQuery(brainSaveStatement(drizzle(pool) as unknown as Db));
  const input = body.variables?.input as { agentId: string; title: string; content: string; sourceRefs?: string[] };
  const id = newId();
  const now = new Date();
  const event = brainEvent({ agentId: input.agentId, id, revision: 1, title: input.title, ownership: OPERATOR.kind }, 'brain.created', OPERATOR);
  const values = fillPlaceholders(saveQuery.params, {
    agentId: input.agentId,
    id,
    title: input.title,
    content: input.content,
    sourceRefs: input.sourceRefs ?? [],
    ownership: OPERATOR.kind,
    actorKind: OPERATOR.kind,
    actorId: OPERATOR.id,
    now,
    occurredAt: now.toISOString(),
    payload: JSON.stringify(event.payload),
  });
  const result = await pool.query({ name: 'bare_brain_save', text: saveQuery.sql, values });
  if (result.rows.length === 0) throw new Error(`no agent ${input.agentId}`);
  return { brainSave: { __typename: 'BrainSaveSuccess', memory: { id, revision: 1 } } };
}

export const BASELINE_HANDLERS = {
  nested: (pool: pg.Pool) => nestedRead(pool),
  profile: (pool: pg.Pool, body: Body) => profileRead(pool, String(body.variables?.id)),
  save: saveWrite,
} satisfies Record<string, (pool: pg.Pool, body: Body) => Promise<unknown>>;

export type BaselineName = keyof typeof BASELINE_HANDLERS;
