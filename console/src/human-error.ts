/**
 * Every error the console shows, in one form: a sentence for the operator, then the code in
 * parentheses, kept for support and the docs (docs/errors.md): "The agent id "hatchet" is already
 * taken: choose another (ALREADY_EXISTS)". Both thrown errors (describeError in api.ts) and the
 * error members of result unions (ConsoleError fragment) go through here, so pages never format
 * an error themselves.
 */

export interface ErrorLike {
  code?: string | null;
  message: string;
  /** ValidationFailed: the input field. */
  field?: string | null;
  /** AlreadyExists: the kind of record and the id that is taken. */
  resource?: string | null;
  resourceId?: string | null;
  /** RevisionConflict: the revision the write named and the one stored now. */
  expectedRevision?: number | null;
  currentRevision?: number | null;
}

/** The server's text starts lower-case ("agent name must be …"): a sentence here. */
const sentence = (text: string) => {
  const trimmed = text.trim().replace(/\.$/, '');
  return trimmed ? trimmed[0]!.toUpperCase() + trimmed.slice(1) : 'Something went wrong';
};

const FIXED: Record<string, string> = {
  UNAUTHENTICATED: 'The token was refused (unknown, revoked or expired): sign in again',
  FORBIDDEN: 'This token may not do that: it needs an operator token',
  RATE_LIMITED: 'Too many requests: wait a moment and try again',
  DATABASE_UNAVAILABLE: 'The database cannot be reached: try again shortly',
  SETTINGS_KEY_REQUIRED: 'The server has no settings key (BURROW_SETTINGS_KEY), so it cannot store a secret: leave the secret empty, or set the key and restart Burrow',
};

/** The sentence for a code that means the same on every page (a page's own sentences come first), or undefined. */
export const generalSentence = (code: string | null | undefined): string | undefined => (code ? FIXED[code] : undefined);

export function humanError(error: ErrorLike): string {
  const code = error.code ?? null;
  let text: string;
  if (code === 'ALREADY_EXISTS' && error.resourceId) {
    text = `The ${(error.resource ?? 'record').toLowerCase()} id "${error.resourceId}" is already taken: choose another`;
  } else if (code === 'REVISION_CONFLICT' && error.currentRevision != null && error.expectedRevision != null) {
    // The server's text names its record type ("ModelConnectionSetting …"): the person needs what happened and what to do.
    text = `Someone else saved revision ${error.currentRevision} after you read revision ${error.expectedRevision}: nothing was saved. Read it again, then retry`;
  } else if (code && FIXED[code]) {
    text = FIXED[code];
  } else {
    text = sentence(error.message);
  }
  return code ? `${text} (${code})` : text;
}
