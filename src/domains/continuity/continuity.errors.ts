import { ForbiddenError } from '../../lib/errors.js';

/**
 * A fenced continuity write was refused: STALE_GENERATION, NOT_OWNER or FORBIDDEN_TRANSITION.
 * Carries what the run is now so the runtime can tell "someone recovered my run" from "I am
 * too early"; nothing was changed.
 */
export class ContinuityFenceError extends ForbiddenError {
  constructor(
    code: 'STALE_GENERATION' | 'NOT_OWNER' | 'FORBIDDEN_TRANSITION',
    message: string,
    readonly runId: string,
    readonly currentState: string,
    readonly currentGeneration: number,
  ) {
    super(code, message);
  }
}
