/**
 * Retries without duplicates (docs/idempotency.md). A logical call is sent, and resent after a
 * retryable failure: DATABASE_UNAVAILABLE (HTTP 503, waiting what Retry-After says) or a lost
 * connection (waiting an exponential, jittered backoff). A mutation carries one Idempotency-Key,
 * chosen once per logical call and the same on every attempt, so the server answers a repeat of a
 * write that had committed with its first result instead of writing again. Only what cannot
 * write twice is resent: queries, and mutations whose every field takes the key
 * (IDEMPOTENT_MUTATIONS); any other mutation fails at once, since its first attempt may have
 * committed.
 */
import { randomUUID } from 'node:crypto';
import { Kind, parse, type DocumentNode, type OperationDefinitionNode } from 'graphql';
import { IDEMPOTENT_MUTATIONS } from './generated/idempotent-mutations.js';

export interface RetryOptions {
  /** Attempts in all, the first included (default 4; 1: never resend). */
  attempts?: number;
  /** The first backoff after a lost connection, doubled each time (default 200 ms). */
  baseDelayMs?: number;
  /** No wait longer than this, Retry-After included (default 10,000 ms). */
  maxDelayMs?: number;
}

/** How one operation is sent: whether it may be resent, and the key it carries. */
export interface RetryPlan {
  resend: boolean;
  idempotencyKey: string | null;
}

/** The plan for a document: a fresh key for a keyed mutation; queries resend without one. */
export function planOf(document: DocumentNode): RetryPlan {
  const operation = document.definitions.find((d): d is OperationDefinitionNode => d.kind === Kind.OPERATION_DEFINITION);
  if (!operation || operation.operation !== 'mutation') return { resend: true, idempotencyKey: null };
  const fields = operation.selectionSet.selections.map((s) => (s.kind === Kind.FIELD ? s.name.value : null));
  const keyed = fields.length > 0 && fields.every((name) => name !== null && IDEMPOTENT_MUTATIONS.has(name));
  return keyed ? { resend: true, idempotencyKey: randomUUID() } : { resend: false, idempotencyKey: null };
}

/** The plan for a document's text (`request`); text that does not parse is sent once, for the server to refuse. */
export function planOfText(query: string): RetryPlan {
  try {
    return planOf(parse(query));
  } catch {
    return { resend: false, idempotencyKey: null };
  }
}

/** A failure worth sending again: the server lost its database, or the connection was lost. */
export function retryDelayOf(error: unknown, attempt: number, options: RetryOptions): number | null {
  const max = options.maxDelayMs ?? 10_000;
  const { code, retryAfterSeconds } = error as { code?: unknown; retryAfterSeconds?: unknown };
  if (code === 'DATABASE_UNAVAILABLE') return Math.min(max, typeof retryAfterSeconds === 'number' ? retryAfterSeconds * 1000 : 1000);
  if (!isConnectionLoss(error)) return null;
  const backoff = (options.baseDelayMs ?? 200) * 2 ** (attempt - 1);
  return Math.min(max, backoff / 2 + Math.random() * (backoff / 2));
}

/** fetch's own failure (connection refused, reset, closed before an answer), or an answer that is not JSON (cut off, or a proxy's error page). */
function isConnectionLoss(error: unknown): boolean {
  if (!(error instanceof Error)) return false;
  if (error.name === 'TypeError' && /fetch failed|terminated|other side closed/i.test(error.message)) return true;
  return error.name === 'SyntaxError' || (error.cause instanceof Error && /ECONNRESET|ECONNREFUSED|EPIPE|UND_ERR_SOCKET/.test(String((error.cause as { code?: unknown }).code)));
}

/** Runs `send` until it succeeds, the failure is not retryable, or the attempts run out. */
export async function withRetries<R>(plan: RetryPlan, options: RetryOptions, send: () => Promise<R>): Promise<R> {
  const attempts = plan.resend ? Math.max(1, options.attempts ?? 4) : 1;
  for (let attempt = 1; ; attempt++) {
    try {
      return await send();
    } catch (error) {
      const delay = attempt < attempts ? retryDelayOf(error, attempt, options) : null;
      if (delay === null) throw error;
      await new Promise((resolve) => setTimeout(resolve, delay));
    }
  }
}
