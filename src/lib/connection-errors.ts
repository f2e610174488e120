/**
 * Telling a lost or refused database connection (failover, restart, network reset, an
 * administrator ending sessions) from every other failure. Those are expected events: the
 * request that used the connection fails with a typed, retryable DATABASE_UNAVAILABLE and the
 * process carries on. Inspects shapes only (no pg import), walking the cause chain because
 * Drizzle wraps driver errors.
 */

/** SQLSTATEs that mean "this connection (or the server) went away or is not accepting us". */
const UNAVAILABLE_SQLSTATES = new Set([
  '57P01', // admin_shutdown: pg_terminate_backend, smart/fast shutdown
  '57P02', // crash_shutdown
  '57P03', // cannot_connect_now: starting up, recovering
  '57P05', // idle_session_timeout
  '53300', // too_many_connections
  '25P03', // idle_in_transaction_session_timeout
  // read_only_sql_transaction: a write reached a server that turned read-only under its
  // connection (a primary being demoted by a failover); db/primary-router.ts finds the new one.
  '25006',
]);

// ENOENT: a Unix socket that is gone (managed PostgreSQL restarting).
const UNAVAILABLE_NODE_CODES = new Set(['ENOENT', 'ECONNREFUSED', 'ECONNRESET', 'EPIPE', 'ETIMEDOUT', 'EHOSTUNREACH', 'ENETUNREACH', 'ENOTFOUND', 'EAI_AGAIN']);

// node-postgres raises these without a code.
const UNAVAILABLE_MESSAGES =
  /Connection terminated|connection error and is not queryable|Client was closed and is not queryable|timeout exceeded when trying to connect|not currently accepting connections|the database system is (starting up|shutting down|in recovery mode)|server closed the connection unexpectedly/i;

function* causes(error: unknown): Generator<unknown> {
  for (let current = error, depth = 0; current && depth < 6; current = (current as { cause?: unknown }).cause, depth++) {
    yield current;
    // AggregateError (e.g. one per resolved address when connecting).
    const inner = (current as { errors?: unknown }).errors;
    if (Array.isArray(inner)) for (const each of inner) yield each;
  }
}

export function isConnectionLoss(error: unknown): boolean {
  for (const current of causes(error)) {
    if (typeof current !== 'object' || current === null) continue;
    const code = (current as { code?: unknown }).code;
    if (typeof code === 'string') {
      if (code.startsWith('08') && code.length === 5) return true; // connection_exception class
      if (UNAVAILABLE_SQLSTATES.has(code) || UNAVAILABLE_NODE_CODES.has(code)) return true;
    }
    const message = (current as { message?: unknown }).message;
    // Drizzle's own wrapper repeats the SQL in its message: only trust driver messages.
    if (typeof message === 'string' && !message.startsWith('Failed query') && UNAVAILABLE_MESSAGES.test(message)) return true;
  }
  return false;
}

/**
 * What may be logged about a database error: its SQLSTATE and the names PostgreSQL gives
 * (constraint, table, column), never the SQL, its parameters or the error text (which can quote
 * user values, e.g. "invalid input syntax for type uuid: …"). Non-database errors keep their
 * class name and a short message.
 */
export function describeError(error: unknown): Record<string, unknown> {
  for (const current of causes(error)) {
    if (typeof current !== 'object' || current === null) continue;
    const fields = current as { code?: unknown; constraint?: unknown; table?: unknown; column?: unknown; routine?: unknown };
    if (typeof fields.code === 'string' && /^[0-9A-Z]{5}$/.test(fields.code)) {
      const described: Record<string, unknown> = { sqlstate: fields.code };
      if (typeof fields.constraint === 'string') described.constraint = fields.constraint;
      if (typeof fields.table === 'string') described.table = fields.table;
      if (typeof fields.column === 'string') described.column = fields.column;
      return described;
    }
    if (typeof fields.code === 'string' && UNAVAILABLE_NODE_CODES.has(fields.code)) return { errno: fields.code };
  }
  // The innermost error that is not Drizzle's SQL-quoting wrapper.
  let innermost: unknown = error;
  for (const current of causes(error)) innermost = current;
  const err = innermost as { name?: unknown; message?: unknown };
  const message = typeof err?.message === 'string' ? err.message : String(innermost);
  return {
    error: typeof err?.name === 'string' ? err.name : 'Error',
    message: message.startsWith('Failed query') ? 'query failed' : message.slice(0, 200),
  };
}

/**
 * For graphql-ws, which closes a socket whose onConnect throws with the error's message as the
 * close reason (code 4500): never the SQL and parameters a driver error carries.
 */
export function closeReason(error: unknown): never {
  throw new Error(isConnectionLoss(error) ? 'DATABASE_UNAVAILABLE: the database is unavailable right now; retry shortly' : 'Internal server error');
}
