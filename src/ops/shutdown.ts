/**
 * Process lifecycle of `burrow serve`: graceful shutdown on SIGTERM/SIGINT and a last line of
 * defence against database errors nobody awaited.
 *
 * Shutdown: readiness turns 503, the listener closes (new connections are refused), in-flight
 * requests get BURROW_SHUTDOWN_GRACE_MS to finish, WebSockets close with 1001, background jobs
 * stop and ownership sessions end, then the pool closes and the process exits 0 with one log
 * line. A second signal exits at once; a shutdown that hangs is cut at grace + 2 s.
 *
 * "Second" means a second request to stop, not the first one delivered twice: `npm start` and
 * `npm run burrow` leave npm as this process's parent in the same process group, so a group's
 * SIGTERM (a container stop) or a terminal's Ctrl-C reaches this process from the kernel and
 * again from npm, which forwards what it receives. A repeat within SAME_STOP_MS of the first
 * signal is that echo and is ignored; a person who means "now" presses again later than that.
 */
const SAME_STOP_MS = 1000;

import { describeError, isConnectionLoss } from '../lib/connection-errors.js';
import type { Logger } from '../lib/logger.js';

export interface Stoppable {
  stop(graceMs: number): Promise<{ drained: boolean; inFlightAtStop: number }>;
}

export function installShutdown(opts: { app: Stoppable; closeDatabase: () => Promise<void>; logger: Logger; graceMs: number }) {
  const { app, closeDatabase, logger, graceMs } = opts;
  let began: number | null = null;
  const onSignal = (signal: NodeJS.Signals) => {
    if (began !== null) {
      if (performance.now() - began < SAME_STOP_MS) return;
      logger.warn('second signal during shutdown: exiting at once', { signal });
      process.exit(1);
    }
    began = performance.now();
    setTimeout(() => {
      logger.error('shutdown did not finish within BURROW_SHUTDOWN_GRACE_MS + 2 s: exiting', { signal, graceMs });
      process.exit(1);
    }, graceMs + 2000).unref();
    void (async () => {
      const { drained, inFlightAtStop } = await app.stop(graceMs);
      await closeDatabase();
      logger.info('shut down', {
        signal,
        durationMs: Math.round(performance.now() - began!),
        inFlightAtSignal: inFlightAtStop,
        inFlightFinished: drained,
        graceMs,
      });
      process.exit(0);
    })().catch((error) => {
      logger.error('shutdown failed', { signal, ...describeError(error) });
      process.exit(1);
    });
  };
  process.on('SIGTERM', onSignal);
  process.on('SIGINT', onSignal);
}

/**
 * After startup, a database error never ends the process: one that escaped every handler (a
 * promise nobody awaited) is logged without SQL or parameters. Anything else that escaped is a
 * bug, logged the same way; the process exits on it as Node would.
 */
export function guardProcess(logger: Logger) {
  process.on('unhandledRejection', (reason) => {
    logger.error('unhandled rejection', { databaseUnavailable: isConnectionLoss(reason), ...describeError(reason) });
  });
  process.on('uncaughtException', (error) => {
    if (isConnectionLoss(error)) {
      logger.warn('database connection error outside any request', describeError(error));
      return;
    }
    logger.error('uncaught exception', describeError(error));
    process.exit(1);
  });
}
