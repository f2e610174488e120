/**
 * The shapes the working-memory parts share: the record row, the inputs of the verbs and what
 * every operation works with. It imports none of the parts, so any part may import it.
 */
import type { Db } from '../../db/database.js';
import type { Clock } from '../../lib/clock.js';
import type { FaultInjector } from '../../lib/faults.js';
import type { WorkingKind, WorkingState, workingRecords } from './working-memory.sql.js';

/** What every working-memory operation works with. */
export interface WorkingDeps {
  db: Db;
  clock: Clock;
  faults: FaultInjector;
  defaultTtlDays: number;
}

export type WorkingRecordRow = typeof workingRecords.$inferSelect;

export interface ScopeArgs {
  agentId?: string | null;
  project?: string | null;
}

export interface WorkingWriteInput extends ScopeArgs {
  /** Rewrite this record (with expectedRevision); absent: create a new one. */
  id?: string | null;
  expectedRevision?: number | null;
  kind: WorkingKind;
  state?: WorkingState | null;
  title: string;
  content: string;
  sourceRefs?: string[] | null;
  pinned?: boolean | null;
  ttlDays?: number | null;
  supersededById?: string | null;
  /** A retry with the same key answers the first write (db/idempotency.ts). */
  idempotencyKey?: string | null;
}

export interface WorkingStateInput extends ScopeArgs {
  id: string;
  expectedRevision: number;
  state: WorkingState;
  supersededById?: string | null;
}

export interface WorkingListFilter extends ScopeArgs {
  kind?: WorkingKind | null;
  state?: WorkingState | null;
  /** Any of these kinds (the list's filter); empty or absent: every kind. */
  kinds?: readonly WorkingKind[] | null;
  states?: readonly WorkingState[] | null;
}
