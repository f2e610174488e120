/** Backoff of LISTEN reconnects and of retried reads: doubles from MIN to MAX. */
const BACKOFF_MIN_MS = 100;
const BACKOFF_MAX_MS = 5000;

/** Full jitter over the upper half, so instances cut at once do not reconnect in lockstep. */
export function backoffDelay(attempt: number): number {
  const ceiling = Math.min(BACKOFF_MAX_MS, BACKOFF_MIN_MS * 2 ** Math.min(attempt, 16));
  return ceiling / 2 + Math.random() * (ceiling / 2);
}
