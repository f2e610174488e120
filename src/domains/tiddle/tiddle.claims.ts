/**
 * Scope claims: a lease on one scope's envelope, so only one instance runs a scope's pass at a
 * time. The lease outlives the proposer's timeout; an instance that dies loses it when it runs out.
 */
import { and, eq, sql } from 'drizzle-orm';
import { newId } from '../../lib/ids.js';
import { tiddleEnvelopes } from './tiddle.sql.js';
import { CROSS_SCOPE_PROJECT, type TiddleDeps } from './tiddle.model.js';

function leaseUntil(deps: TiddleDeps, now: Date) {
  return new Date(now.getTime() + deps.proposerTimeoutMs + 60_000);
}

/** Claims the most overdue free scope: SKIP LOCKED, so concurrent instances never claim the same one. */
export async function claimDue(deps: TiddleDeps): Promise<{ agentId: string; project: string; token: string } | null> {
  const now = deps.clock.now();
  const token = newId();
  const result = await deps.db.execute<{ agent_id: string; project: string }>(sql`
    UPDATE ${tiddleEnvelopes} AS e
       SET claim_token = ${token}, claimed_until = ${leaseUntil(deps, now).toISOString()}::timestamptz,
           last_attempt_at = ${now.toISOString()}::timestamptz, updated_at = ${now.toISOString()}::timestamptz
      FROM (SELECT agent_id, project FROM ${tiddleEnvelopes}
             WHERE next_run_at <= ${now.toISOString()}::timestamptz
               AND project <> ${CROSS_SCOPE_PROJECT}
               AND (claimed_until IS NULL OR claimed_until <= ${now.toISOString()}::timestamptz)
             ORDER BY next_run_at, agent_id, project
             LIMIT 1
             FOR UPDATE SKIP LOCKED) AS due
     WHERE e.agent_id = due.agent_id AND e.project = due.project
 RETURNING e.agent_id, e.project`);
  const row = result.rows[0];
  return row ? { agentId: row.agent_id, project: row.project, token } : null;
}

export async function claimScope(deps: TiddleDeps, agentId: string, project: string): Promise<string | null> {
  const now = deps.clock.now();
  const token = newId();
  const claimed = await deps.db
    .update(tiddleEnvelopes)
    .set({ claimToken: token, claimedUntil: leaseUntil(deps, now), lastAttemptAt: now, updatedAt: now })
    .where(
      and(
        eq(tiddleEnvelopes.agentId, agentId),
        eq(tiddleEnvelopes.project, project),
        sql`(${tiddleEnvelopes.claimedUntil} IS NULL OR ${tiddleEnvelopes.claimedUntil} <= ${now.toISOString()}::timestamptz)`,
      ),
    )
    .returning({ project: tiddleEnvelopes.project });
  return claimed.length ? token : null;
}
