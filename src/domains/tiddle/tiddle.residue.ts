/**
 * The runtime's terminal append (cheap: no model call, no card change), the reads of residue and
 * pass history, and the residue a pass selects within its budget.
 */
import { and, asc, desc, eq, gte, inArray, lt, sql } from 'drizzle-orm';
import { LockClass, lockForTransaction } from '../../db/locks.js';
import { RequestError, ValidationError, forbidden } from '../../lib/errors.js';
import { newId } from '../../lib/ids.js';
import { assertCleanText } from '../../lib/text-policy.js';
import { charLength } from '../../lib/text.js';
import { assertAgentAccess, requireViewer, resolveScope, type Viewer } from '../../auth/viewer.js';
import type { ResidueView } from './tiddle.proposer.js';
import { RESIDUE_EXCERPT_COUNT_LIMIT, RESIDUE_EXCERPT_TEXT_LIMIT, RESIDUE_REFERENCE_LIMIT, tiddleEntries, tiddleEnvelopes } from './tiddle.sql.js';
import {
  CROSS_SCOPE_PROJECT,
  PASS_INTERVAL_MS,
  RESIDUE_SELECTION_LIMIT,
  RESIDUE_SELECTION_CHARS,
  NUL,
  residueOf,
  residueCutoff,
  checkScopedRead,
  type TiddleDeps,
  type ResidueRow,
} from './tiddle.model.js';

const EXCERPT_ROLES = ['user', 'assistant', 'tool', 'system'] as const;

/**
 * Stores one terminal turn's residue for the runtime's agent, scope and session. No model call,
 * no card change. Prunes the scope's residue older than 24 hours and replaces the same reference.
 */
export async function appendResidue(
  deps: TiddleDeps,
  viewer: Viewer | null,
  input: { project?: string | null; turnRef: string; excerpts: { role: string; text: string }[] },
): Promise<{ entry: ResidueRow; pruned: number; replaced: boolean }> {
  const v = requireViewer(viewer);
  if (v.principal !== 'AGENT') throw forbidden('tiddleAppendResidue is a runtime call: use the agent token of the runtime');
  const agentId = v.agentId!;
  const project = resolveScope(v, input.project);
  if (project === CROSS_SCOPE_PROJECT) throw new ValidationError('project', `"${CROSS_SCOPE_PROJECT}" is reserved for cross-scope cards`);
  if (charLength(project) > 200 || project.includes(NUL)) {
    throw new ValidationError('project', 'a continuity scope is 1 to 200 characters without NUL', 200);
  }
  if (!v.sessionId) throw new RequestError('CONTINUITY_SESSION_REQUIRED', 'residue belongs to a session: send the Burrow-Session header');
  const turnRef = input.turnRef.trim();
  assertCleanText('turnRef', turnRef);
  if (turnRef.length < 1 || charLength(turnRef) > RESIDUE_REFERENCE_LIMIT) {
    throw new ValidationError('turnRef', `turnRef must be 1 to ${RESIDUE_REFERENCE_LIMIT} characters`, RESIDUE_REFERENCE_LIMIT);
  }
  if (input.excerpts.length < 1 || input.excerpts.length > RESIDUE_EXCERPT_COUNT_LIMIT) {
    throw new ValidationError('excerpts', `a residue holds 1 to ${RESIDUE_EXCERPT_COUNT_LIMIT} message excerpts`, RESIDUE_EXCERPT_COUNT_LIMIT);
  }
  const excerpts = input.excerpts.map((excerpt, index) => {
    if (!(EXCERPT_ROLES as readonly string[]).includes(excerpt.role)) {
      throw new ValidationError(`excerpts.${index}.role`, `role must be one of ${EXCERPT_ROLES.join(', ')}`);
    }
    assertCleanText(`excerpts.${index}.text`, excerpt.text);
    const length = charLength(excerpt.text);
    if (length < 1 || length > RESIDUE_EXCERPT_TEXT_LIMIT) {
      throw new ValidationError(`excerpts.${index}.text`, `an excerpt is 1 to ${RESIDUE_EXCERPT_TEXT_LIMIT} characters (got ${length})`, RESIDUE_EXCERPT_TEXT_LIMIT);
    }
    return { role: excerpt.role, text: excerpt.text };
  });
  const now = deps.clock.now();
  return deps.db.transaction(async (tx) => {
    await lockForTransaction(tx, LockClass.agent, agentId);
    await tx
      .insert(tiddleEnvelopes)
      .values({ agentId, project, nextRunAt: new Date(now.getTime() + PASS_INTERVAL_MS), createdAt: now, updatedAt: now })
      .onConflictDoNothing();
    const pruned = await tx
      .delete(tiddleEntries)
      .where(and(residueOf(agentId, project), lt(tiddleEntries.createdAt, residueCutoff(now))))
      .returning({ id: tiddleEntries.id });
    const id = newId();
    const [entry] = await tx
      .insert(tiddleEntries)
      .values({ agentId, id, project, kind: 'residue', reference: turnRef, sessionId: v.sessionId, excerpts, payload: {}, createdAt: now })
      .onConflictDoUpdate({
        target: [tiddleEntries.agentId, tiddleEntries.project, tiddleEntries.kind, tiddleEntries.reference],
        set: { sessionId: v.sessionId, excerpts, createdAt: now },
      })
      .returning();
    return { entry, pruned: pruned.length, replaced: entry.id !== id };
  });
}

/** The stored residue of a scope, newest first (what is stored, not only the 24-hour window). */
export async function listResidue(deps: TiddleDeps, viewer: Viewer | null, agentId: string, project: string, limit: number): Promise<ResidueRow[]> {
  checkScopedRead(viewer, agentId, project);
  return deps.db.select().from(tiddleEntries).where(residueOf(agentId, project)).orderBy(desc(tiddleEntries.createdAt), desc(tiddleEntries.reference)).limit(limit);
}

/** Operators read any scope (or all); agent tokens read their runtime scope's history (or "*"). */
export async function listHistory(
  deps: TiddleDeps,
  viewer: Viewer | null,
  agentId: string,
  requestedProject: string | null,
  page: { limit: number; after: { createdAt: Date; id: string } | null },
): Promise<ResidueRow[]> {
  const v = assertAgentAccess(viewer, agentId);
  const project = v.principal === 'AGENT' && requestedProject !== CROSS_SCOPE_PROJECT ? resolveScope(v, requestedProject) : requestedProject;
  const conditions = [eq(tiddleEntries.agentId, agentId), eq(tiddleEntries.kind, 'history')];
  if (project != null) conditions.push(eq(tiddleEntries.project, project));
  if (page.after) conditions.push(sql`(${tiddleEntries.createdAt}, ${tiddleEntries.id}) < (${page.after.createdAt.toISOString()}::timestamptz, ${page.after.id})`);
  const limit = page.limit;
  return deps.db
    .select()
    .from(tiddleEntries)
    .where(and(...conditions))
    .orderBy(desc(tiddleEntries.createdAt), desc(tiddleEntries.id))
    .limit(limit);
}

/**
 * One residue or history entry by its id (node(id)), authorized like tiddleResidue and
 * tiddleHistory: the agent first (AGENT_MISMATCH), then their scope rule, applied as a filter
 * because the id names no scope: an agent token sees its runtime scope's entries and those of "*"
 * only, so another scope's entry reads as missing (as a working record's node(id) does).
 */
export async function getEntry(deps: TiddleDeps, viewer: Viewer | null, agentId: string, kind: 'residue' | 'history', id: string): Promise<ResidueRow | null> {
  const v = assertAgentAccess(viewer, agentId);
  const conditions = [eq(tiddleEntries.agentId, agentId), eq(tiddleEntries.kind, kind), eq(tiddleEntries.id, id)];
  if (v.principal === 'AGENT') conditions.push(inArray(tiddleEntries.project, v.scope ? [CROSS_SCOPE_PROJECT, v.scope] : [CROSS_SCOPE_PROJECT]));
  const [row] = await deps.db
    .select()
    .from(tiddleEntries)
    .where(and(...conditions));
  return row ?? null;
}

/** Selects residue of the last 24 hours within the selection budget, newest first. */
export async function selectResidue(deps: TiddleDeps, agentId: string, project: string, now: Date): Promise<ResidueView[]> {
  const rows = await deps.db
    .select()
    .from(tiddleEntries)
    .where(and(residueOf(agentId, project), gte(tiddleEntries.createdAt, residueCutoff(now)), sql`${tiddleEntries.createdAt} <= ${now.toISOString()}::timestamptz`))
    .orderBy(desc(tiddleEntries.createdAt), asc(tiddleEntries.reference))
    .limit(RESIDUE_SELECTION_LIMIT);
  const selected: ResidueView[] = [];
  let budget = RESIDUE_SELECTION_CHARS;
  for (const row of rows) {
    const excerpts = row.excerpts as { role: string; text: string }[];
    const size = excerpts.reduce((sum, e) => sum + charLength(e.text), 0);
    if (size > budget) break;
    budget -= size;
    selected.push({ reference: row.reference, sessionId: row.sessionId, createdAt: row.createdAt.toISOString(), excerpts });
  }
  return selected;
}
