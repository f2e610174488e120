/**
 * Data rights: the operator's removals (agent erasure, memory purge) and their receipts. Every
 * part here is operators only: an agent can neither remove data this way nor read a receipt.
 */
import type { Db } from '../../db/database.js';
import { requireOperator, type Viewer } from '../../auth/viewer.js';
import { listReceipts, receiptById, type DataRemovalReceiptRow, type ReceiptKey } from './data-rights.receipts.js';

export class RemovalReceipts {
  constructor(private readonly db: Db) {}

  async get(viewer: Viewer | null, key: ReceiptKey): Promise<DataRemovalReceiptRow | null> {
    requireOperator(viewer);
    return receiptById(this.db, key);
  }

  /** Newest first, of one agent or of all; receipts outlive the agents they describe. */
  async list(viewer: Viewer | null, filter: { agentId?: string | null; limit: number; after: { at: Date; id: string } | null }): Promise<DataRemovalReceiptRow[]> {
    requireOperator(viewer);
    return listReceipts(this.db, filter);
  }
}
