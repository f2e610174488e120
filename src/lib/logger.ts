/**
 * JSON-line logs on stderr through pino. The interface is the project's own (msg first, fields
 * second) so callers never see pino. Entries carry `time` (ISO), `level` (as a word), `msg` and
 * the fields; never SQL parameters or user content (see connection-errors.ts describeError).
 */
import pino from 'pino';

export type LogLevel = 'debug' | 'info' | 'warn' | 'error' | 'silent';

export interface Logger {
  debug(msg: string, fields?: Record<string, unknown>): void;
  info(msg: string, fields?: Record<string, unknown>): void;
  warn(msg: string, fields?: Record<string, unknown>): void;
  error(msg: string, fields?: Record<string, unknown>): void;
  child(fields: Record<string, unknown>): Logger;
}

/**
 * Drizzle's query errors start their message with the SQL and every parameter ("Failed query:
 * … params: …"); a caller that logs `error.message` must not put user content in the log.
 */
const DRIZZLE_QUERY_MESSAGE = /^Failed query:/;
function scrub(fields: Record<string, unknown>): Record<string, unknown> {
  for (const [key, value] of Object.entries(fields)) {
    if (typeof value === 'string' && DRIZZLE_QUERY_MESSAGE.test(value)) {
      fields[key] = 'a database query failed (SQL and parameters withheld)';
    }
  }
  return fields;
}

function wrap(base: pino.Logger): Logger {
  return {
    debug: (msg, fields) => base.debug(fields ?? {}, msg),
    info: (msg, fields) => base.info(fields ?? {}, msg),
    warn: (msg, fields) => base.warn(fields ?? {}, msg),
    error: (msg, fields) => base.error(fields ?? {}, msg),
    child: (fields) => lazyChild(base, fields),
  };
}

/**
 * A child logger made on its first entry: every request gets one (with its requestId) and most
 * never log, while making a pino child costs a few microseconds (its bindings are serialized).
 */
function lazyChild(base: pino.Logger, fields: Record<string, unknown>): Logger {
  let made: Logger | null = null;
  const child = () => (made ??= wrap(base.child(fields)));
  return {
    debug: (msg, more) => child().debug(msg, more),
    info: (msg, more) => child().info(msg, more),
    warn: (msg, more) => child().warn(msg, more),
    error: (msg, more) => child().error(msg, more),
    child: (more) => child().child(more),
  };
}

/** One JSON line per entry on stderr, written synchronously so a line before exit is never lost. */
export function createLogger(level: LogLevel, base: Record<string, unknown> = {}): Logger {
  const root = pino(
    {
      level,
      base,
      timestamp: pino.stdTimeFunctions.isoTime,
      formatters: { level: (label) => ({ level: label }), log: scrub },
    },
    pino.destination({ fd: 2, sync: true }),
  );
  return wrap(root);
}
