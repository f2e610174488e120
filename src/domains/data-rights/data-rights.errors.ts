import { BurrowError } from '../../lib/errors.js';

/** An erasure refused because a runtime still owns the agent (a live ownership session); nothing was changed. */
export class OwnerLiveError extends BurrowError {
  constructor(
    readonly agentId: string,
    readonly ownerIds: string[],
  ) {
    super('OWNER_LIVE', `agent ${agentId} has ${ownerIds.length} live ownership session(s) (${ownerIds.join(', ')}); end them, or erase with force: true`);
  }
}
