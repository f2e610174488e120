/**
 * What every pass and synthesis leaves behind: its outcome, its history entry (kept 180 days)
 * and its status event.
 */
import { and, eq, lt } from 'drizzle-orm';
import type { DbOrTx } from '../../db/database.js';
import { appendEvent } from '../../events/events.service.js';
import { daysBefore } from '../../lib/expiry.js';
import { newId } from '../../lib/ids.js';
import { tiddleEntries } from './tiddle.sql.js';
import { HISTORY_RETENTION_DAYS, type TiddleDeps, type PassOutcome, type PassStatus } from './tiddle.model.js';

export function emptyOutcome(
  deps: TiddleDeps,
  agentId: string,
  project: string,
  kind: PassOutcome['kind'],
  trigger: PassOutcome['trigger'],
  status: PassStatus,
  error: string | null,
): PassOutcome {
  return {
    agentId,
    project,
    passId: newId(),
    kind,
    trigger,
    status,
    error,
    residueConsidered: 0,
    created: [],
    updated: [],
    expired: [],
    preferenceSignals: [],
    noops: 0,
    rejected: [],
    nextRunAt: null,
    at: deps.clock.now(),
  };
}

export async function statusEvent(deps: TiddleDeps, tx: DbOrTx, outcome: PassOutcome) {
  await appendEvent(tx, deps.clock, {
    agentId: outcome.agentId,
    stream: 'tiddle_status',
    type: `tiddle.${outcome.kind}.${outcome.status === 'SUCCEEDED' ? 'succeeded' : 'failed'}`,
    subjectId: `${outcome.agentId}/${outcome.project}`,
    project: outcome.project,
    payload: {
      passId: outcome.passId,
      kind: outcome.kind,
      trigger: outcome.trigger,
      status: outcome.status,
      error: outcome.error,
      residueConsidered: outcome.residueConsidered,
      created: outcome.created,
      updated: outcome.updated,
      expired: outcome.expired,
      preferenceSignals: outcome.preferenceSignals,
      rejected: outcome.rejected.length,
      nextRunAt: outcome.nextRunAt?.toISOString() ?? null,
    },
  });
}

export async function appendHistory(tx: DbOrTx, outcome: PassOutcome, residueReferences: string[]) {
  await tx.insert(tiddleEntries).values({
    agentId: outcome.agentId,
    id: newId(),
    project: outcome.project,
    kind: 'history',
    reference: outcome.passId,
    sessionId: null,
    excerpts: [],
    payload: {
      passId: outcome.passId,
      kind: outcome.kind,
      trigger: outcome.trigger,
      status: outcome.status,
      residueConsidered: outcome.residueConsidered,
      residueReferences,
      created: outcome.created,
      updated: outcome.updated,
      expired: outcome.expired,
      preferenceSignals: outcome.preferenceSignals,
      noops: outcome.noops,
      rejected: outcome.rejected,
    },
    createdAt: outcome.at,
  });
  await tx
    .delete(tiddleEntries)
    .where(
      and(
        eq(tiddleEntries.agentId, outcome.agentId),
        eq(tiddleEntries.project, outcome.project),
        eq(tiddleEntries.kind, 'history'),
        lt(tiddleEntries.createdAt, daysBefore(outcome.at, HISTORY_RETENTION_DAYS)),
      ),
    );
}
