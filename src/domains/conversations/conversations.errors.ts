import { BurrowError } from '../../lib/errors.js';

/** A write to an archived session: refused until it is unarchived. Nothing was changed. */
export class SessionArchivedError extends BurrowError {
  constructor(
    readonly sessionId: string,
    readonly archivedAt: Date,
    readonly archivedBy: string,
    readonly reason: string | null,
  ) {
    super('SESSION_ARCHIVED', `session ${sessionId} is archived (since ${archivedAt.toISOString()}); unarchive it before writing to it`);
  }
}

/** Unarchiving a session that is not archived. Nothing was changed. */
export class SessionNotArchivedError extends BurrowError {
  constructor(readonly sessionId: string) {
    super('SESSION_NOT_ARCHIVED', `session ${sessionId} is not archived`);
  }
}
