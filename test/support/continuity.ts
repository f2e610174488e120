/** Helpers for continuity tests: ownership sessions over the real subscription, runs, and fences. */
import type { BurrowClient } from '../../clients/typescript/sdk.js';
import { waitUntil, type TestServer } from './harness.js';

export interface OwnerHandle {
  ownerId: string;
  /** Ends the subscription, which ends the session and releases its lock. */
  close(): Promise<void>;
  /** The next event after the first one (the session's end, when the lock is lost). */
  next(): Promise<{ live: boolean; ended: string | null } | null>;
}

export async function openOwner(client: BurrowClient, agentId?: string): Promise<OwnerHandle> {
  const iterator = client.runtimeOwnership(agentId ? { agentId } : {})[Symbol.asyncIterator]();
  const first = await iterator.next();
  if (first.done) throw new Error('runtimeOwnership ended before naming the owner');
  const ownership = first.value.runtimeOwnership;
  if (!ownership.live || ownership.ended !== null) throw new Error(`unexpected first ownership event ${JSON.stringify(ownership)}`);
  return {
    ownerId: ownership.ownerId,
    close: async () => {
      await iterator.return?.();
    },
    next: async () => {
      const item = await iterator.next();
      return item.done ? null : item.value.runtimeOwnership;
    },
  };
}

/** Waits (by condition, not by time) until the server no longer sees the owner alive. */
export async function waitUntilOwnerGone(client: BurrowClient, agentId: string, ownerId: string, timeoutMs = 10_000): Promise<void> {
  await waitUntil(
    async () => {
      const { continuityOwners } = await client.continuityOwners({ agentId, includeClosed: true });
      const owner = continuityOwners.find((o) => o.ownerId === ownerId);
      // The lock goes first (that is what ends the owner for everyone); closedAt is recorded just after.
      return Boolean(owner && !owner.live && owner.closedAt);
    },
    `owner ${ownerId} is gone`,
    timeoutMs,
  );
}

type Result = { __typename: string };

/** Unwraps a mutation result's success member or fails with the error it carried. */
export function ok<T extends Result, K extends string>(result: T, typename: K): Extract<T, { __typename: K }> {
  if (result.__typename !== typename) throw new Error(`expected ${typename}, got ${JSON.stringify(result)}`);
  return result as Extract<T, { __typename: K }>;
}

/** An agent's runtime client (scope proj, session sess-1) with a live owner session. */
export async function ownedAgent(server: TestServer, id: string) {
  const client = await server.agentClient(id, { scope: 'proj', session: 'sess-1' });
  const owner = await openOwner(client);
  return { client, owner };
}

export async function startRun(client: BurrowClient, owner: OwnerHandle, runId: string, head?: string) {
  const result = await client.startContinuityRun({ input: { runId, ownerId: owner.ownerId, head } });
  return ok(result.startContinuityRun, 'StartContinuityRunSuccess').run;
}

export async function fetchRun(client: BurrowClient, runId: string) {
  const { continuityRun } = await client.continuityRun({ runId });
  if (!continuityRun) throw new Error(`run ${runId} not found`);
  return continuityRun;
}

/** Closes an owner and waits until the server sees it gone. */
export async function abandonOwner(client: BurrowClient, agentId: string, owner: OwnerHandle) {
  await owner.close();
  await waitUntilOwnerGone(client, agentId, owner.ownerId);
}

/**
 * A run of the client's agent left INTERRUPTED by its owner (generation 1, head revision 1) with
 * one effect whose outcome was never confirmed: what the recovery queue of the console lists
 * before a reconciliation assesses it. The owner session is closed afterwards.
 */
export async function interruptedRun(client: BurrowClient, runId: string, effectId: string) {
  const owner = await openOwner(client);
  try {
    await startRun(client, owner, runId, '{"step":1}');
    const fence = { runId, generation: 1, ownerId: owner.ownerId };
    ok(
      (await client.recordContinuityEffect({ input: { ...fence, effectId, kind: 'http.post', request: '{"to":"tickets"}' } })).recordContinuityEffect,
      'RecordContinuityEffectSuccess',
    );
    return ok((await client.interruptContinuityRun({ input: { ...fence, reason: 'runtime stopped for a deploy' } })).interruptContinuityRun, 'InterruptContinuityRunSuccess').run;
  } finally {
    await owner.close();
  }
}
