/**
 * The guards every pg.Pool of Burrow gets (embedded and external alike), and Drizzle over it.
 */
import type pg from 'pg';
import { drizzle } from 'drizzle-orm/node-postgres';
import type { Database, Db } from './database.js';
import { installNotifyAfterCommit } from './notify-after-commit.js';

/**
 * A connection that errors while nobody is waiting on it (idle in the pool, checked out between
 * two statements of a transaction, a dedicated connection) emits 'error'; unheard, that kills the
 * process. The statement that next uses it fails instead, and the masker makes that a
 * DATABASE_UNAVAILABLE; pg-pool discards the broken client when it is released.
 */
export const ignoreConnectionError = () => {};

/** A ROLLBACK (or ROLLBACK TO SAVEPOINT) statement, as Drizzle and the migrator send it. */
const ROLLBACK = /^\s*rollback\b/i;

/**
 * Clients whose ROLLBACK failed since they were checked out. Such a connection is in an unknown
 * state (still inside a transaction, or half gone), so it is discarded at release instead of
 * going back to the pool: Drizzle's transaction() releases its client the same way whether or not
 * its rollback worked, and every other holder would too.
 */
const failedRollback = new WeakSet<pg.ClientBase>();

/** Marks `client` when a ROLLBACK it sends fails; the caller still sees the failure. */
function watchRollbacks(client: pg.PoolClient): void {
  const query = client.query.bind(client) as (...args: unknown[]) => unknown;
  client.query = ((...args: unknown[]) => {
    const first = args[0] as string | { text?: unknown } | undefined;
    const text = typeof first === 'string' ? first : first?.text;
    const result = query(...args);
    if (typeof text === 'string' && ROLLBACK.test(text) && result && typeof (result as Promise<unknown>).then === 'function') {
      (result as Promise<unknown>).then(undefined, () => failedRollback.add(client));
    }
    return result;
  }) as typeof client.query;
}

export function guardPool(pool: pg.Pool): void {
  pool.on('error', ignoreConnectionError);
  // pg-pool removes its own idle listener while a client is checked out: this one stays.
  pool.on('connect', (client) => {
    client.on('error', ignoreConnectionError);
    watchRollbacks(client as pg.PoolClient);
  });
  // A checked-out client whose connection dies goes back to the pool (and out of it) at once.
  // Drizzle's transaction() sends BEGIN before its try/finally, so a connection lost at BEGIN
  // would otherwise never be released: each fault would leak a pool slot until none is left.
  // A later release() by the holder is then a no-op. (pool.query uses the callback form and
  // releases by itself.)
  const connect = pool.connect.bind(pool) as (cb?: unknown) => unknown;
  pool.connect = ((callback?: unknown) => {
    if (callback) return connect(callback);
    return (connect() as Promise<pg.PoolClient>).then((client) => {
      const release = client.release.bind(client);
      let released = false;
      const onEnd = () => {
        if (released) return;
        released = true;
        release(new Error('the connection ended while checked out'));
      };
      client.once('end', onEnd);
      client.release = ((error?: Error | boolean) => {
        client.removeListener('end', onEnd);
        if (released) return;
        released = true;
        // A truthy argument makes pg-pool end the connection rather than reuse it.
        release(error || (failedRollback.has(client) ? new Error('its ROLLBACK failed: discarded') : undefined));
      }) as pg.PoolClient['release'];
      return client;
    });
  }) as typeof pool.connect;
}

export function wrapDrizzle(pool: pg.Pool) {
  // onQuery lets the bench capture the statements a request issued, to EXPLAIN them.
  const statements: Database['statements'] = { count: 0 };
  const db = drizzle(pool, {
    logger: {
      logQuery: (query, params) => {
        statements.count++;
        statements.onQuery?.(query, params);
      },
    },
  }) as unknown as Db;
  const notifications = installNotifyAfterCommit(db, pool);
  return { db, statements, notifications };
}
