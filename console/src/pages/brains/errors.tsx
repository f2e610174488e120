/**
 * The Brains page's one place that turns what the API refused into a sentence a person can act
 * on. The API's own text is written for developers ("BrainMemory 3ff3… is at revision 2, not 1");
 * it is never the main message. The code stays beside it, small, for a support request.
 */
import { ApiError } from '../../api';
import { generalSentence } from '../../human-error';

export interface ShownError {
  /** The sentence shown as the message. */
  text: string;
  /** The API's error code, shown small for support; null for problems found in the browser. */
  code: string | null;
}

/** What a typed error result or a thrown request error carries that the sentences use. */
export interface ErrorFacts {
  code: string | null;
  currentRevision?: number | null;
  expectedRevision?: number | null;
}

const SENTENCES: Record<string, (f: ErrorFacts) => string> = {
  REVISION_CONFLICT: (f) =>
    `Someone else changed this memory${f.currentRevision ? ` (now revision ${f.currentRevision}${f.expectedRevision ? `; you read ${f.expectedRevision}` : ''})` : ''}. Reload to see their version.`,
  NOT_FOUND: () => 'This memory no longer exists: another writer removed it. Reload the list.',
  VALIDATION_FAILED: () => 'The memory was not saved: check the title (1 to 240 characters), the content (up to 24,000) and at most 12 source references.',
  OPERATOR_OWNED: () => 'An operator owns this memory, so an agent cannot change or remove it.',
  AGENT_MISMATCH: () => 'This token belongs to another agent and cannot read these memories.',
  CURSOR_MISMATCH: () => 'The list changed its search, order or filter under this page. Start again from the first page.',
  BAD_CURSOR: () => 'This page link is no longer valid. Start again from the first page.',
  QUERY_TOO_LONG: () => 'The search text is too long. Shorten it.',
  BAD_REQUEST: () => 'The console sent a request the server does not accept. Reload the page; if it happens again, report the code.',
  INTERNAL_SERVER_ERROR: () => 'The server failed unexpectedly. Try again; if it happens again, report the code.',
};

/**
 * The sentence for a code (a typed result's or a request's): the memory's own sentence, else the
 * one every page uses (human-error.ts), else a general one, still with the code.
 */
export function memoryError(facts: ErrorFacts): ShownError {
  const own = facts.code ? SENTENCES[facts.code] : undefined;
  const text = own?.(facts) ?? generalSentence(facts.code) ?? 'The server refused this request. Try again; if it happens again, report the code.';
  return { text, code: facts.code };
}

/** One bulk-deletion item's outcome in words (the status itself is shown beside it, as the code). */
export function deletionSentence(status: string, currentRevision: number | null, expectedRevision: number | null): string {
  if (status === 'DELETED') return 'Deleted.';
  if (status === 'INVALID') return 'Not deleted: the console sent an invalid revision for it. Reload the list and try again.';
  return memoryError({ code: status === 'FORBIDDEN' ? 'OPERATOR_OWNED' : status, currentRevision, expectedRevision }).text;
}

/** A thrown error: an API error by its code; a network failure in words (no code: nothing reached the server). */
export function shownFromThrown(error: unknown): ShownError {
  if (error instanceof ApiError && error.code) return memoryError({ code: error.code });
  if (error instanceof TypeError) return { text: 'The server could not be reached. Check the connection and try again.', code: null };
  return { text: 'The request failed. Try again; if it happens again, reload the console.', code: null };
}

/** A problem found here, before any request (e.g. a search too short): no code. */
export const local = (text: string): ShownError => ({ text, code: null });

/** An event handler for an async action whose failure is shown as a human error instead of an unhandled rejection. */
export function handledHere<A extends unknown[]>(action: (...args: A) => Promise<unknown>, show: (error: ShownError) => void): (...args: A) => void {
  return (...args) => void action(...args).catch((error: unknown) => show(shownFromThrown(error)));
}

export function ErrorMessage({ error }: { error: ShownError | null }) {
  if (!error) return null;
  return (
    <p role="alert" class="error">
      {error.text}
      {error.code && ' '}
      {error.code && <small class="error-code">Code: {error.code}</small>}
    </p>
  );
}
