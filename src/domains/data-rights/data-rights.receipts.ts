/**
 * Removal receipts: the kept record of an agent erasure or a memory purge. A receipt holds who
 * removed what and when, how many rows per store, and a SHA-256 chained over the removed rows,
 * never the content. Every batch of a removal folds itself into its receipt in the same
 * transaction that deletes (or empties) those rows, so the receipt always describes exactly
 * what has been removed, and a removal resumed after a crash continues the same chain.
 */
import { and, desc, eq, lt, or, sql } from 'drizzle-orm';
import type { DbOrTx } from '../../db/database.js';
import { newId, sha256Hex } from '../../lib/ids.js';
import { dataRemovalReceipts, type DataRemovalKind } from './data-rights.sql.js';

export type DataRemovalReceiptRow = typeof dataRemovalReceipts.$inferSelect;

export interface ReceiptKey {
  agentId: string;
  id: string;
}

/** The chain's first link: names the removal, so two removals never share a hash. */
const chainStart = (kind: DataRemovalKind, agentId: string, subjectId: string | null, receiptId: string) =>
  sha256Hex(JSON.stringify(['burrow-removal', kind, agentId, subjectId, receiptId]));

/**
 * One row in the form the hash covers: its columns as node-postgres returned them, dates as ISO
 * strings, in the order the table declares them. The caller removes rows in a fixed order
 * (by key), so the same data always gives the same hash.
 */
const canonicalRow = (row: unknown) => JSON.stringify(row, (_key, value: unknown) => (typeof value === 'bigint' ? value.toString() : value));

/** The next link: the previous hash, the store, and the digest of this batch's rows. */
export function foldBatch(previousHash: string, store: string, rows: readonly unknown[]): string {
  const batchDigest = sha256Hex(rows.map(canonicalRow).join('\n'));
  return sha256Hex(`${previousHash}\n${store}\n${rows.length}\n${batchDigest}`);
}

export async function openReceipt(
  db: DbOrTx,
  input: { agentId: string; kind: DataRemovalKind; subjectId?: string | null; actor: { kind: string; id: string }; forced?: boolean; now: Date },
): Promise<DataRemovalReceiptRow> {
  const id = newId();
  const subjectId = input.subjectId ?? null;
  const [row] = await db
    .insert(dataRemovalReceipts)
    .values({
      agentId: input.agentId,
      id,
      kind: input.kind,
      subjectId,
      actorKind: input.actor.kind,
      actorId: input.actor.id,
      forced: input.forced ?? false,
      startedAt: input.now,
      counts: {},
      contentHash: chainStart(input.kind, input.agentId, subjectId, id),
    })
    .returning();
  return row;
}

/**
 * Folds one removed batch into the receipt: counts[store] grows by its size and the hash chain
 * takes one link. Run it in the transaction that removes those rows. The row lock it takes
 * orders concurrent batches of one removal (there should be none; a re-run waits).
 */
export async function recordRemovedBatch(db: DbOrTx, key: ReceiptKey, store: string, rows: readonly unknown[]): Promise<DataRemovalReceiptRow> {
  const r = dataRemovalReceipts;
  const [current] = await db
    .select()
    .from(r)
    .where(and(eq(r.agentId, key.agentId), eq(r.id, key.id)))
    .for('update');
  if (!current) throw new Error(`removal receipt ${key.agentId}/${key.id} is missing`);
  if (rows.length === 0) return current;
  const counts = { ...current.counts, [store]: (current.counts[store] ?? 0) + rows.length };
  const [updated] = await db
    .update(r)
    .set({ counts, contentHash: foldBatch(current.contentHash, store, rows) })
    .where(and(eq(r.agentId, key.agentId), eq(r.id, key.id)))
    .returning();
  return updated;
}

export async function completeReceipt(db: DbOrTx, key: ReceiptKey, now: Date): Promise<DataRemovalReceiptRow> {
  const r = dataRemovalReceipts;
  const [row] = await db
    .update(r)
    .set({ completedAt: sql`coalesce(${r.completedAt}, ${now.toISOString()}::timestamptz)` })
    .where(and(eq(r.agentId, key.agentId), eq(r.id, key.id)))
    .returning();
  if (!row) throw new Error(`removal receipt ${key.agentId}/${key.id} is missing`);
  return row;
}

/** The unfinished receipt of a removal of this kind and subject, if a crash left one. */
export async function unfinishedReceipt(db: DbOrTx, agentId: string, kind: DataRemovalKind, subjectId: string | null = null): Promise<DataRemovalReceiptRow | null> {
  const r = dataRemovalReceipts;
  const [row] = await db
    .select()
    .from(r)
    .where(and(eq(r.agentId, agentId), eq(r.kind, kind), subjectId === null ? sql`${r.subjectId} IS NULL` : eq(r.subjectId, subjectId), sql`${r.completedAt} IS NULL`))
    .orderBy(desc(r.startedAt))
    .limit(1);
  return row ?? null;
}

/** The newest receipt of a removal of this kind and subject (a purged memory's: the one that purged it). */
export async function receiptOfSubject(db: DbOrTx, agentId: string, kind: DataRemovalKind, subjectId: string): Promise<DataRemovalReceiptRow | null> {
  const r = dataRemovalReceipts;
  const [row] = await db
    .select()
    .from(r)
    .where(and(eq(r.agentId, agentId), eq(r.kind, kind), eq(r.subjectId, subjectId)))
    .orderBy(desc(r.startedAt), desc(r.id))
    .limit(1);
  return row ?? null;
}

export async function receiptById(db: DbOrTx, key: ReceiptKey): Promise<DataRemovalReceiptRow | null> {
  const r = dataRemovalReceipts;
  const [row] = await db
    .select()
    .from(r)
    .where(and(eq(r.agentId, key.agentId), eq(r.id, key.id)));
  return row ?? null;
}

/** Newest first; `after` is the (startedAt, id) of the last receipt of the previous page. */
export async function listReceipts(db: DbOrTx, filter: { agentId?: string | null; limit: number; after: { at: Date; id: string } | null }): Promise<DataRemovalReceiptRow[]> {
  const r = dataRemovalReceipts;
  const conditions = [];
  if (filter.agentId) conditions.push(eq(r.agentId, filter.agentId));
  if (filter.after) conditions.push(or(lt(r.startedAt, filter.after.at), and(eq(r.startedAt, filter.after.at), lt(r.id, filter.after.id))));
  return db
    .select()
    .from(r)
    .where(conditions.length ? and(...conditions) : undefined)
    .orderBy(desc(r.startedAt), desc(r.id))
    .limit(filter.limit);
}
