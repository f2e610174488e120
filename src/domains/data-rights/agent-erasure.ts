/**
 * Erasing an agent (operators only), in three steps so that no transaction is long and a crash
 * anywhere leaves nothing half-visible:
 *
 * 1. One short transaction under the agent row's lock: refuse if a runtime owner is live (unless
 *    forced), append the final agent.erased event, set agents.erasure_started_at, open the
 *    receipt and revoke the agent's tokens (NOTIFY ends their sockets). From this commit the
 *    agent reads as absent (AgentsService filters erasure_started_at; root fields naming it
 *    answer NotFound through ErasingAgents, told by this step's NOTIFY) and every write that
 *    appends an event is refused as NotFound (events.service.ts bumps only such agents).
 * 2. Every store in ERASURE_ORDER, in batches of BATCH_ROWS rows, one transaction each, each
 *    folded into the receipt in the transaction that deletes it (so the receipt describes exactly
 *    what is gone, and a crash loses no count).
 * 3. One transaction under the agent row's lock (which blocks every insert naming the agent):
 *    whatever a racing write left, then the agents row, then the receipt completes.
 *
 * Re-running on an agent whose erasure started continues the same receipt; once the agents row
 * is gone the unfinished receipt alone is enough to finish. A completed erasure leaves nothing
 * to erase: the id answers NotFound and the receipt stays in dataRemovalReceipts.
 */
import { and, eq, isNull, sql } from 'drizzle-orm';
import type { Db, DbOrTx } from '../../db/database.js';
import type { Clock } from '../../lib/clock.js';
import { NotFoundError } from '../../lib/errors.js';
import type { FaultInjector } from '../../lib/faults.js';
import { actorOf, requireOperator, type Viewer } from '../../auth/viewer.js';
import { apiTokens } from '../../auth/auth.sql.js';
import { TOKENS_CHANNEL } from '../../auth/token-watch.js';
import { appendEvent } from '../../events/events.service.js';
import { agents } from '../agents/agents.sql.js';
import { continuityOwners } from '../continuity/continuity.sql.js';
import { completeReceipt, openReceipt, recordRemovedBatch, unfinishedReceipt, type DataRemovalReceiptRow, type ReceiptKey } from './data-rights.receipts.js';
import { dataRemovalReceipts } from './data-rights.sql.js';
import { OwnerLiveError } from './data-rights.errors.js';
import { ERASURES_CHANNEL } from './erasing-agents.js';
import { deleteBatch, ERASURE_ORDER, keyOf, storeKeys, type StoreKey } from './agent-erasure.stores.js';

/** Rows per transaction: a batch of originals takes tens of milliseconds, never minutes. */
export const BATCH_ROWS = 5_000;
/**
 * The event log goes only once subscribers had time to read agent.erased: the hub of every
 * instance re-checks each second even when a notification was lost.
 */
export const ERASED_EVENT_GRACE_MS = 2_000;

export interface ErasureProgress {
  store: string;
  rows: number;
  /** Rows removed from this store so far by this run. */
  storeTotal: number;
  /** How long the batch's transaction took. */
  ms: number;
}

export interface ErasureOutcome {
  receipt: DataRemovalReceiptRow;
  resumed: boolean;
  /** The longest single transaction of this run, in milliseconds (the bench prints it). */
  longestTransactionMs: number;
}

/** What the erasure asks of continuity: whether an ownership session is live (ownership.ts). */
export interface OwnerLiveness {
  isAliveOn(tx: DbOrTx, ownerId: string): Promise<boolean>;
}

export class AgentErasure {
  constructor(
    private readonly db: Db,
    private readonly clock: Clock,
    private readonly owners: OwnerLiveness,
    private readonly faults: FaultInjector,
    private readonly options: { batchRows?: number; graceMs?: number } = {},
  ) {}

  async erase(viewer: Viewer | null, input: { agentId: string; force?: boolean | null }, onProgress?: (p: ErasureProgress) => void): Promise<ErasureOutcome> {
    const operator = requireOperator(viewer);
    let longest = 0;
    const timed = async <T>(work: (tx: DbOrTx) => Promise<T>): Promise<T> => {
      const started = performance.now();
      try {
        return await this.db.transaction(work);
      } finally {
        longest = Math.max(longest, performance.now() - started);
      }
    };
    const { receipt, resumed } = await timed((tx) => this.start(tx, input.agentId, input.force === true, actorOf(operator)));
    const startCommitted = performance.now();
    const key: ReceiptKey = { agentId: receipt.agentId, id: receipt.id };
    const keys = await storeKeys(this.db);
    for (const store of ERASURE_ORDER) {
      if (store === 'agent_events') await this.waitForSubscribers(resumed ? null : startCommitted);
      const storeKey = keys.get(store)!;
      let after: unknown[] | null = null;
      let storeTotal = 0;
      for (;;) {
        const started = performance.now();
        const rows = await timed((tx) => this.removeBatch(tx, key, storeKey, after, this.options.batchRows ?? BATCH_ROWS));
        if (rows.length === 0) break;
        storeTotal += rows.length;
        onProgress?.({ store, rows: rows.length, storeTotal, ms: performance.now() - started });
        // A crash between two batches (tests): what committed stays removed and counted.
        this.faults('agent-erasure.batch');
        if (storeKey.columns.length === 0 || rows.length < (this.options.batchRows ?? BATCH_ROWS)) break;
        after = keyOf(storeKey, rows[rows.length - 1]);
      }
    }
    const completed = await timed((tx) => this.finish(tx, key, keys));
    return { receipt: completed, resumed, longestTransactionMs: longest };
  }

  /** Step 1, or the receipt of an erasure that started earlier (resumed). */
  private async start(tx: DbOrTx, agentId: string, force: boolean, actor: { kind: string; id: string }) {
    const [agent] = await tx.select().from(agents).where(eq(agents.id, agentId)).for('update');
    if (!agent || agent.erasureStartedAt) {
      // Two erasures at once: the second waited for the first one's step 1 and continues its receipt.
      const receipt = await unfinishedReceipt(tx, agentId, 'AGENT_ERASURE');
      if (!receipt) throw new NotFoundError('Agent', agentId);
      return { receipt, resumed: true };
    }
    const openOwners = await tx
      .select({ id: continuityOwners.id })
      .from(continuityOwners)
      .where(and(eq(continuityOwners.agentId, agentId), isNull(continuityOwners.closedAt)));
    const live: string[] = [];
    for (const owner of openOwners) if (await this.owners.isAliveOn(tx, owner.id)) live.push(owner.id);
    if (live.length > 0 && !force) throw new OwnerLiveError(agentId, live.sort());
    const now = this.clock.now();
    // Before erasure_started_at is set: from then on the agent's sequence no longer moves.
    await appendEvent(tx, this.clock, { agentId, stream: 'profile', type: 'agent.erased', subjectId: agentId, payload: { forced: live.length > 0 } });
    await tx.update(agents).set({ erasureStartedAt: now }).where(eq(agents.id, agentId));
    const receipt = await openReceipt(tx, { agentId, kind: 'AGENT_ERASURE', actor, forced: live.length > 0, now });
    const revoked = await tx
      .update(apiTokens)
      .set({ revokedAt: now })
      .where(and(eq(apiTokens.agentId, agentId), isNull(apiTokens.revokedAt)))
      .returning({ id: apiTokens.id });
    // Inside the transaction, as TokensService.revoke does: every instance must drop these tokens
    // and hide this agent (ErasingAgents) without waiting for a re-check; erasures are rare.
    for (const token of revoked) await tx.execute(sql`SELECT pg_notify(${TOKENS_CHANNEL}, ${token.id})`);
    await tx.execute(sql`SELECT pg_notify(${ERASURES_CHANNEL}, ${agentId})`);
    return { receipt, resumed: false };
  }

  /** One batch of one store and its fold into the receipt, in one transaction. */
  private async removeBatch(tx: DbOrTx, key: ReceiptKey, store: StoreKey, after: unknown[] | null, limit: number) {
    // The receipt's lock first: a second erasure of the same agent takes turns batch by batch.
    await lockReceipt(tx, key);
    const rows = await deleteBatch(tx, store, key.agentId, after, limit);
    await recordRemovedBatch(tx, key, store.table, rows);
    return rows;
  }

  /**
   * Step 3. The agent row's lock blocks every insert that names the agent (its foreign-key check
   * needs a share lock on the row), so what is left now stays left: rows a write committed
   * while the batches ran (a write's own statements run with its refused event) go here.
   */
  private async finish(tx: DbOrTx, key: ReceiptKey, keys: Map<string, StoreKey>): Promise<DataRemovalReceiptRow> {
    await lockReceipt(tx, key);
    const [agent] = await tx.select({ id: agents.id }).from(agents).where(eq(agents.id, key.agentId)).for('update');
    if (agent) {
      for (const store of ERASURE_ORDER) {
        const rows = await deleteBatch(tx, keys.get(store)!, key.agentId, null, null);
        await recordRemovedBatch(tx, key, store, rows);
      }
      const gone = await tx.execute<Record<string, unknown>>(sql`DELETE FROM agents WHERE id = ${key.agentId} RETURNING *`);
      await recordRemovedBatch(tx, key, 'agents', gone.rows);
      // The id is free again: a new agent of that name must not read as erasing.
      await tx.execute(sql`SELECT pg_notify(${ERASURES_CHANNEL}, ${key.agentId})`);
    }
    return completeReceipt(tx, key, this.clock.now());
  }

  /** `startedAt`: when this run's step 1 committed (performance.now()); null for a resumed run, which waits the whole grace. */
  private async waitForSubscribers(startedAt: number | null) {
    const grace = this.options.graceMs ?? ERASED_EVENT_GRACE_MS;
    const wait = startedAt === null ? grace : startedAt + grace - performance.now();
    if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
  }
}

async function lockReceipt(tx: DbOrTx, key: ReceiptKey) {
  const r = dataRemovalReceipts;
  await tx
    .select({ id: r.id })
    .from(r)
    .where(and(eq(r.agentId, key.agentId), eq(r.id, key.id)))
    .for('update');
}
