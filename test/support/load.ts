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

/**
 * The request deadline tests give a model or embedding provider (the fake servers of test/support)
 * when the test is not about that deadline: generous and stretched, so that a slow answer on a busy
 * machine is never a failed Tiddle pass or an unindexed memory that the test did not ask for. A test
 * about the deadline itself sets its own, with the provider's delay well past it.
 */
export function providerTimeoutMs(): number {
  return Math.min(600_000, scaled(30_000));
}
