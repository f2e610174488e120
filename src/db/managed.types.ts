/**
 * What the managed lifecycle's supervisor reports and takes: shared by db/database.ts (the
 * Database's `supervisor`), db/managed.ts and db/managed.postmaster.ts.
 */

export type SupervisorState = 'starting' | 'running' | 'restarting' | 'stopping' | 'stopped' | 'failed' | 'guest';

export interface SupervisorStatus {
  state: SupervisorState;
  /** The postmaster's pid while it runs under this process (null as a guest or when down). */
  pid: number | null;
  /** Restarts after an unexpected exit since this process started it. */
  restarts: number;
  lastExit: string | null;
}

/**
 * What readiness reads (src/ops/health.ts): ready only while the postmaster runs. Exposed on the
 * Database as `supervisor`, so a health check is one line:
 * `if (database.supervisor) checks.postgres = database.supervisor.readiness();`
 */
export interface ManagedSupervisor {
  status(): SupervisorStatus;
  readiness(): { ok: boolean; detail?: string };
}

export interface ManagedOptions {
  /**
   * Called when the restart limit is spent. The default writes the message to stderr and exits
   * the process with status 1: a server whose database cannot be kept up must not pretend.
   */
  onFatal?: (message: string) => void;
  /** Restart notices; default: a line on stderr. */
  onLog?: (message: string) => void;
}
