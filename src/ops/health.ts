/**
 * Liveness and readiness for load balancers and Kubernetes probes.
 * - live: the process answers HTTP (no database involved, so a database outage never gets the
 *   process restarted).
 * - ready: the database answers, its migrations are exactly this code's, and LISTEN is up (or
 *   this instance would serve subscriptions that never hear of new events); 503 otherwise, and
 *   always 503 once shutdown began. The body names every check and the failing ones; when the
 *   database does not answer (an outage, a failover in progress) it also carries the error code
 *   requests get meanwhile, DATABASE_UNAVAILABLE.
 */
import type pg from 'pg';
import { loadMigrations, validateLedger, type MigrationFile } from '../db/migrator.js';
import type { EventHub } from '../events/hub.js';
import { describeError } from '../lib/connection-errors.js';

const CHECK_TIMEOUT_MS = 2000;

export interface CheckResult {
  ok: boolean;
  detail?: string;
}

export interface Readiness {
  status: 200 | 503;
  body: { status: 'ready' | 'not_ready'; failing: string[]; checks: Record<string, CheckResult>; error?: 'DATABASE_UNAVAILABLE' };
}

function withTimeout<T>(promise: Promise<T>, what: string): Promise<T> {
  let timer: NodeJS.Timeout;
  return Promise.race([
    promise.finally(() => clearTimeout(timer)),
    new Promise<never>((_, reject) => (timer = setTimeout(() => reject(new Error(`${what} did not answer within ${CHECK_TIMEOUT_MS} ms`)), CHECK_TIMEOUT_MS))),
  ]);
}

export function createHealth(deps: {
  pool: pg.Pool;
  hub: EventHub;
  isDraining: () => boolean;
  migrations?: MigrationFile[];
  /** Managed lifecycle: whether Burrow's own postmaster runs. */
  supervisor?: { readiness(): CheckResult };
}) {
  const files = deps.migrations ?? loadMigrations();

  async function database(): Promise<CheckResult> {
    try {
      await withTimeout(deps.pool.query('SELECT 1'), 'the database');
      return { ok: true };
    } catch (error) {
      return { ok: false, detail: summarize(error) };
    }
  }

  async function migrations(): Promise<CheckResult> {
    try {
      const { rows } = await withTimeout(
        deps.pool.query<{ version: number; name: string; checksum: string }>('SELECT version, name, checksum FROM burrow_schema_migrations ORDER BY version'),
        'the migration ledger',
      );
      const problem = validateLedger(rows, files);
      if (problem) return { ok: false, detail: problem };
      if (rows.length < files.length) return { ok: false, detail: `${files.length - rows.length} migration(s) pending: run burrow migrate or restart` };
      return { ok: true };
    } catch (error) {
      return { ok: false, detail: summarize(error) };
    }
  }

  return {
    live: () => ({ status: 200 as const, body: { status: 'live' } }),
    async ready(): Promise<Readiness> {
      const checks: Record<string, CheckResult> = {};
      if (deps.isDraining()) checks.shutdown = { ok: false, detail: 'the server is shutting down' };
      if (deps.supervisor) checks.postgres = deps.supervisor.readiness();
      [checks.database, checks.migrations] = await Promise.all([database(), migrations()]);
      checks.listen = deps.hub.listening ? { ok: true } : { ok: false, detail: 'the event LISTEN connection is down; reconnecting' };
      const failing = Object.entries(checks)
        .filter(([, check]) => !check.ok)
        .map(([name]) => name);
      const body: Readiness['body'] = { status: failing.length ? 'not_ready' : 'ready', failing, checks };
      if (!checks.database.ok) body.error = 'DATABASE_UNAVAILABLE';
      return { status: failing.length ? 503 : 200, body };
    },
  };
}

function summarize(error: unknown): string {
  const described = describeError(error);
  return String(described.sqlstate ? `SQLSTATE ${described.sqlstate}` : (described.errno ?? described.message ?? 'unavailable'));
}
