/**
 * Operational working memory: decisions, findings, blockers, handoffs and tasks of one agent in
 * one continuity scope. Every read hides expired records (pinned ones never expire when read);
 * every change is revision-checked in one statement and appends a `working` event in the same
 * transaction.
 *
 * This class is the domain's one entry point; the work lives in the files named for it:
 * working-memory.writes.ts (create, rewrite, state change, retention sweep), working-memory.reads.ts
 * (one record, search, lists, batch loaders), working-memory.conditions.ts (visibility, ownership,
 * scope, filters), working-memory.validation.ts (input checks) and working-memory.types.ts.
 */
import type { Db } from '../../db/database.js';
import type { Clock } from '../../lib/clock.js';
import type { FaultInjector } from '../../lib/faults.js';
import type { Viewer } from '../../auth/viewer.js';
import type { RuntimeContext } from '../../auth/runtime.js';
import * as writes from './working-memory.writes.js';
import * as reads from './working-memory.reads.js';
import type { ScopeArgs, WorkingDeps, WorkingListFilter, WorkingRecordRow, WorkingStateInput, WorkingWriteInput } from './working-memory.types.js';

export class WorkingMemoryService {
  private readonly deps: WorkingDeps;

  constructor(db: Db, clock: Clock, faults: FaultInjector, defaultTtlDays: number) {
    this.deps = { db, clock, faults, defaultTtlDays };
  }

  // ---- writes -------------------------------------------------------------------------------

  write(viewer: Viewer | null, input: WorkingWriteInput): Promise<WorkingRecordRow> {
    return writes.write(this.deps, viewer, input);
  }

  setState(viewer: Viewer | null, input: WorkingStateInput): Promise<WorkingRecordRow> {
    return writes.setState(this.deps, viewer, input);
  }

  sweepExpired(cutoff: Date): Promise<number> {
    return writes.sweepExpired(this.deps, cutoff);
  }

  // ---- reads --------------------------------------------------------------------------------

  get(viewer: Viewer | null, input: ScopeArgs & { id: string }): Promise<WorkingRecordRow | null> {
    return reads.get(this.deps, viewer, input);
  }

  getInScope(runtime: RuntimeContext, id: string): Promise<WorkingRecordRow | null> {
    return reads.getInScope(this.deps, runtime, id);
  }

  search(viewer: Viewer | null, input: WorkingListFilter & { query?: string | null; first?: number | null }): Promise<WorkingRecordRow[]> {
    return reads.search(this.deps, viewer, input);
  }

  list(
    viewer: Viewer | null,
    input: WorkingListFilter & { limit: number; after: { createdAt: Date; id: string } | null },
  ): Promise<{ runtime: RuntimeContext; rows: WorkingRecordRow[] }> {
    return reads.list(this.deps, viewer, input);
  }

  listPages(
    viewer: Viewer | null,
    agentIds: readonly string[],
    input: Omit<WorkingListFilter, 'agentId'> & { limit: number; afterOf: (runtime: RuntimeContext) => { createdAt: Date; id: string } | null },
  ): Promise<({ runtime: RuntimeContext; rows: WorkingRecordRow[] } | Error)[]> {
    return reads.listPages(this.deps, viewer, agentIds, input);
  }

  byKeys(keys: readonly { agentId: string; id: string }[]): Promise<(WorkingRecordRow | null)[]> {
    return reads.byKeys(this.deps, keys);
  }
}
