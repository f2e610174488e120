/** The conditions every working-memory statement is built from: visibility, ownership, scope and the list filters. */
import { and, eq, gt, inArray, or, sql, type SQL } from 'drizzle-orm';
import type { Actor } from '../../auth/viewer.js';
import type { RuntimeContext } from '../../auth/runtime.js';
import { workingRecords } from './working-memory.sql.js';
import type { WorkingListFilter } from './working-memory.types.js';

/** Pinned records bypass expiry; others are visible until their expiry instant. */
export function visible(now: Date): SQL {
  return or(eq(workingRecords.pinned, true), gt(workingRecords.expiresAt, now))!;
}

/** Operator-written records are operator-owned: agents cannot rewrite them or change their state. */
export function writableBy(actor: Actor): SQL | undefined {
  return actor.kind === 'AGENT' ? sql`${workingRecords.writtenByKind} <> 'OPERATOR'` : undefined;
}

export function inScope(runtime: RuntimeContext): SQL {
  return and(eq(workingRecords.agentId, runtime.agentId), eq(workingRecords.project, runtime.scope))!;
}

export function filters(input: WorkingListFilter): SQL[] {
  const conditions: SQL[] = [];
  if (input.kind) conditions.push(eq(workingRecords.kind, input.kind));
  if (input.state) conditions.push(eq(workingRecords.state, input.state));
  if (input.kinds?.length) conditions.push(inArray(workingRecords.kind, [...input.kinds]));
  if (input.states?.length) conditions.push(inArray(workingRecords.state, [...input.states]));
  return conditions;
}
