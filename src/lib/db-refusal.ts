/**
 * A PostgreSQL error caused by the data a client sent (SQLSTATE class 22, data exception, or a
 * CHECK violation), found anywhere in the cause chain: Drizzle wraps driver errors. Returns a
 * message safe to show (no SQL, no parameters), or null.
 */
export function clientDataRefusal(error: unknown): string | null {
  for (let current = error, depth = 0; current && depth < 5; current = (current as { cause?: unknown }).cause, depth++) {
    const code = (current as { code?: unknown }).code;
    if (typeof code !== 'string') continue;
    if (code === '22021' || code === '22P05') return 'text must not contain the NUL character (U+0000) or invalid Unicode';
    if (code === '23514') return `a value breaks the limit "${(current as { constraint?: string }).constraint ?? 'check'}"`;
    if (code.startsWith('22')) return 'a value is out of range or not of the expected form';
  }
  return null;
}
