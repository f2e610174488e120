/** The checks of what a write stores: payload, role and reason bounds, and PostgreSQL's json verdict. */
import { ValidationError } from '../../lib/errors.js';
import { charLength } from '../../lib/text.js';
import { assertCleanText, assertJsonText } from '../../lib/text-policy.js';
import { CONVERSATION_LIMITS } from './conversations.sql.js';

const INVALID_JSON_CODES = new Set(['22P02', '22P05', '22025', '22021', '54000']);

export function validatePayload(field: 'payload' | 'summary', payload: string) {
  const length = charLength(payload);
  if (length > CONVERSATION_LIMITS.payload) {
    throw new ValidationError(field, `an original payload is bounded to ${CONVERSATION_LIMITS.payload} characters of JSON text (got ${length})`, CONVERSATION_LIMITS.payload);
  }
  // Validation only: the text itself is what is stored.
  assertJsonText(field, payload);
}

export function validateRole(role: string | null | undefined) {
  assertCleanText('role', role);
  if (role != null && (role.trim().length === 0 || charLength(role) > CONVERSATION_LIMITS.role)) {
    throw new ValidationError('role', `role is 1 to ${CONVERSATION_LIMITS.role} characters`, CONVERSATION_LIMITS.role);
  }
}

export function validateReason(reason: string | null | undefined) {
  if (reason != null && charLength(reason) > CONVERSATION_LIMITS.reason) {
    throw new ValidationError('reason', `reason is bounded to ${CONVERSATION_LIMITS.reason} characters`, CONVERSATION_LIMITS.reason);
  }
}

/** PostgreSQL's json input is the final judge of a payload (JSON.parse is more lenient in places). */
export async function withJsonErrors<T>(field: string, run: () => Promise<T>): Promise<T> {
  try {
    return await run();
  } catch (error) {
    const code = (error as { code?: string; cause?: { code?: string } }).code ?? (error as { cause?: { code?: string } }).cause?.code;
    if (code && INVALID_JSON_CODES.has(code)) throw new ValidationError(field, `PostgreSQL rejected the ${field} as json: ${(error as Error).message}`);
    throw error;
  }
}
