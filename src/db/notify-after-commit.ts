/**
 * NOTIFY once the write has committed, several notifications to one statement.
 *
 * Why not `pg_notify` inside the writing transaction: PostgreSQL then takes one database-wide
 * lock when the transaction starts to commit and holds it until the commit is flushed, so
 * notifying transactions commit one after the other, each with its own WAL flush, and group
 * commit never happens. Burrow's event writes all notify: on the bench's PostgreSQL the save
 * statement ran 1,877 per second without its `pg_notify` and 1,090–1,234 with it
 * (docs/performance.md). Here a transaction only writes; `notifyAfterCommit` queues the
 * notification on it, and once it has committed the queue joins a batch that one statement sends
 * (a NOTIFY-only transaction writes no WAL and waits for no flush). A rolled-back transaction
 * announces nothing, as before.
 *
 * What is given up: a process that stops between a commit and its batch (a crash, a lost
 * connection while sending) never announces that commit. Listeners must treat a notification as
 * a hint and re-check on their own now and then; the event hub compares its agents' newest
 * sequences with what it has read every second (events/hub.channels.ts). A token's revocation keeps its
 * `pg_notify` inside the revoking transaction (auth/tokens.service.ts): revocations are rare, and
 * other instances must drop the token from their caches without waiting for any re-check.
 */
import type pg from 'pg';
import type { Db, DbOrTx } from './database.js';

interface Notification {
  channel: string;
  payload: string;
}

/** Per open transaction of an installed database: what it will announce once it commits. */
const pendingOf = new WeakMap<object, Notification[]>();
/** Per installed database handle: where its autocommit statements' notifications go. */
const senderOf = new WeakMap<object, BatchSender>();

/** At most this many notifications per statement (PostgreSQL's own limit is far larger). */
const BATCH_MAX = 1000;
const SEND = 'SELECT pg_notify(n.channel, n.payload) FROM unnest($1::text[], $2::text[]) AS n(channel, payload)';

class BatchSender {
  private queued: Notification[] = [];
  private sending: Promise<void> | null = null;
  /** This process's own listeners, by channel: they hear its notifications at once (see hearLocally). */
  readonly local = new Map<string, Set<(payload: string) => void>>();

  constructor(private readonly pool: pg.Pool) {}

  add(notifications: Notification[]) {
    if (notifications.length === 0) return;
    for (const notification of notifications) {
      this.queued.push(notification);
      const listeners = this.local.get(notification.channel);
      if (listeners) for (const listener of listeners) listener(notification.payload);
    }
    this.sending ??= this.sendAll();
  }

  /** Resolves once everything queued so far has been sent (or has failed to be). */
  drain(): Promise<void> {
    return this.sending ?? Promise.resolve();
  }

  /**
   * One statement at a time: what commits while a batch is on its way waits for the next one, so
   * under load a statement carries many notifications and when idle one goes out at once.
   */
  private async sendAll() {
    try {
      while (this.queued.length > 0) {
        const batch = this.queued.splice(0, BATCH_MAX);
        try {
          await this.pool.query({ name: 'burrow_notify_batch', text: SEND, values: [batch.map((n) => n.channel), batch.map((n) => n.payload)] });
        } catch {
          // Lost with the connection (or refused at shutdown): the listeners' own re-checks
          // deliver what these would have announced (see the header).
        }
      }
    } finally {
      this.sending = null;
    }
  }
}

export interface AfterCommitNotifications {
  /** Resolves once the last batch has been sent. */
  drain(): Promise<void>;
  /**
   * Calls `listener` with every payload this process notifies on `channel`, as soon as its write
   * has committed, before the batch goes out: a listener in the writing process (its event hub)
   * need not wait for the round trip through PostgreSQL, which on a busy event loop is a turn
   * later. It still hears the same notification again from PostgreSQL. Returns the removal.
   */
  hearLocally(channel: string, listener: (payload: string) => void): () => void;
}

/** Makes `db` send notifications after commit. */
export function installNotifyAfterCommit(db: Db, pool: pg.Pool): AfterCommitNotifications {
  const sender = new BatchSender(pool);
  senderOf.set(db, sender);
  const transaction = db.transaction.bind(db);
  db.transaction = (async (work, config) => {
    const pending: Notification[] = [];
    const result = await transaction((tx) => work(tracked(tx, pending)), config);
    sender.add(pending);
    return result;
  }) as Db['transaction'];
  return {
    drain: () => sender.drain(),
    hearLocally: (channel, listener) => {
      let listeners = sender.local.get(channel);
      if (!listeners) sender.local.set(channel, (listeners = new Set()));
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  };
}

type Transaction = Parameters<Parameters<Db['transaction']>[0]>[0];

/**
 * Registers `tx` as collecting into `pending`. A savepoint inside it (`tx.transaction`) collects
 * on its own and hands its notifications up only if it is released: a savepoint rolled back
 * announces nothing.
 */
function tracked(tx: Transaction, pending: Notification[]): Transaction {
  pendingOf.set(tx, pending);
  const savepoint = tx.transaction.bind(tx);
  tx.transaction = (async (work: (inner: Transaction) => Promise<unknown>) => {
    const own: Notification[] = [];
    const result = await savepoint((inner) => work(tracked(inner, own)));
    pending.push(...own);
    return result;
  }) as Transaction['transaction'];
  return tx;
}

/**
 * `pg_notify(channel, payload)` once what `dbOrTx` wrote has committed: at the end of the
 * transaction `dbOrTx` is, or now for the database handle itself (its statement has run
 * and, outside a transaction, committed).
 */
export function notifyAfterCommit(dbOrTx: DbOrTx, channel: string, payload: string): void {
  const pending = pendingOf.get(dbOrTx);
  if (pending) {
    pending.push({ channel, payload });
    return;
  }
  const sender = senderOf.get(dbOrTx);
  if (!sender) throw new Error('notifyAfterCommit: neither a database handle from openDatabase nor one of its transactions');
  sender.add([{ channel, payload }]);
}
