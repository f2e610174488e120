/**
 * Which browser origins may call the API (HTTP and WebSocket upgrades). Tokens travel in headers
 * and connectionParams, never cookies, so this is defence in depth: a page on another origin can
 * neither read answers (CORS) nor open a socket, unless BURROW_CORS_ORIGINS lists it.
 */

/**
 * No Origin (a non-browser client) passes; so does the server's own origin (GraphiQL, same host);
 * any other origin only when listed. The literal origin "null" (sandboxed frames, files) never does.
 */
export function originAllowed(origin: string | null | undefined, host: string | null | undefined, allowed: readonly string[]): boolean {
  if (origin == null || origin === '') return true;
  if (allowed.includes(origin)) return true;
  try {
    return host != null && new URL(origin).host === host.toLowerCase();
  } catch {
    return false;
  }
}

/** Yoga's `cors` option: headers only for listed origins, never reflected, no credentials (no cookies). */
export function corsOptions(allowed: readonly string[]) {
  return (request: Request) => {
    const origin = request.headers.get('origin');
    if (!origin || !allowed.includes(origin)) return false as const;
    return {
      origin: [origin],
      credentials: false,
      methods: ['POST'],
      allowedHeaders: ['authorization', 'content-type', 'accept', 'burrow-continuity-scope', 'burrow-session', 'burrow-conversation', 'idempotency-key'],
      maxAge: 600,
    };
  };
}
