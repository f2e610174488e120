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
    child: (fields) => new LazyChild(base, fields),
  };
}

/**
 * A child logger made on its first entry: every request gets one (with its requestId) and most
 * never log, while making a pino child costs a few microseconds (its bindings are serialized).
 * A class, so a request's child is one small object rather than six closures.
 */
class LazyChild implements Logger {
  private made: Logger | null = null;

  constructor(
    private readonly base: pino.Logger,
    private readonly fields: Record<string, unknown>,
  ) {}

  private get logger(): Logger {
    return (this.made ??= wrap(this.base.child(this.fields)));
  }

  debug(msg: string, fields?: Record<string, unknown>) {
    this.logger.debug(msg, fields);
  }
  info(msg: string, fields?: Record<string, unknown>) {
    this.logger.info(msg, fields);
  }
  warn(msg: string, fields?: Record<string, unknown>) {
    this.logger.warn(msg, fields);
  }
  error(msg: string, fields?: Record<string, unknown>) {
    this.logger.error(msg, fields);
  }
  child(more: Record<string, unknown>): Logger {
    return this.logger.child(more);
  }
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
