import type { OwnershipSession } from './ownership.js';

/** One event of the runtimeOwnership subscription: the session, and how it ended (null while it is live). */
export interface OwnershipEvent {
  session: OwnershipSession;
  ended: 'closed' | 'lost' | null;
}

/**
 * The ownership session as an iterator: first the owner, then (if the lock connection dies) a
 * last event with ended = lost. Ending the subscription ends the session and releases its lock.
 */
export function ownershipEvents(session: OwnershipSession): AsyncIterableIterator<OwnershipEvent> {
  let opened = false;
  let done = false;
  const iterator: AsyncIterableIterator<OwnershipEvent> = {
    [Symbol.asyncIterator]: () => iterator,
    async next() {
      if (done) return { done: true, value: undefined };
      if (!opened) {
        opened = true;
        return { done: false, value: { session, ended: null } };
      }
      const how = await session.ended;
      if (done) return { done: true, value: undefined };
      done = true;
      return { done: false, value: { session, ended: how } };
    },
    async return() {
      done = true;
      await session.close();
      await session.ended;
      return { done: true, value: undefined };
    },
  };
  return iterator;
}
