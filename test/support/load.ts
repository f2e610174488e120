/**
 * How much to stretch the suite's deadlines: the machine's load average per core now (at least 1),
 * or BURROW_TEST_TIMEOUT_FACTOR when set. A deadline catches a hung test; it never judges speed,
 * so a busy machine gets later deadlines instead of an inconclusive run.
 */
import { cpus, loadavg } from 'node:os';

export function timeoutFactor(): number {
  const forced = Number(process.env.BURROW_TEST_TIMEOUT_FACTOR);
  return forced > 0 ? forced : Math.max(1, loadavg()[0] / Math.max(1, cpus().length));
}

/** `ms` stretched by timeoutFactor(), read at the moment of the call. */
export function scaled(ms: number): number {
  return Math.round(ms * timeoutFactor());
}
