/**
 * Read-your-writes across replicas: which token the current request acts for, and the WAL
 * position of its last commit on the primary.
 *
 * Every transport runs a request inside `withRequestScope` (the HTTP edge; a graphql-ws
 * operation) and the one authentication names the token in it (`noteAuthenticated`). When
 * replicas are configured, the primary pool's connections report each commit made inside a scope
 * that names a token (`watchCommits`): right after COMMIT (or a write outside a transaction)
 * the same connection reads `pg_current_wal_lsn()`, which is at or past that commit, and the
 * replica set remembers it for the token (db/replicas.ts) before the statement's caller
 * continues, so before the response that acknowledges the write is sent.
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import type pg from 'pg';

interface RequestScope {
  tokenId: string | null;
}

const scope = new AsyncLocalStorage<RequestScope>();
/**
 * Scopes are opened only once some pool logs commits (replicas configured): a running
 * AsyncLocalStorage makes Node track every promise, a cost nobody else should pay.
 */
let scoping = false;

/** Runs `body` as one request: what it commits is attributed to the token it authenticates as. */
export function withRequestScope<T>(body: () => T, tokenId: string | null = null): T {
  return scoping ? scope.run({ tokenId }, body) : body();
}

/** The authenticated token of the current request (auth/authenticate.ts calls it). */
export function noteAuthenticated(tokenId: string): void {
  const current = scope.getStore();
  if (current) current.tokenId = tokenId;
}

/** The token the current request acts for, or null (background jobs, CLI commands, no scope). */
export function currentTokenId(): string | null {
  return scope.getStore()?.tokenId ?? null;
}

/** A parsed `pg_lsn` ('16/B374D848'), comparable as a number. */
export function parseLsn(lsn: string): bigint {
  const [high, low] = lsn.split('/');
  return (BigInt(`0x${high}`) << 32n) + BigInt(`0x${low}`);
}

const BEGIN = /^\s*(begin|start\s+transaction)\b/i;
const END = /^\s*(commit|end|rollback(?!\s+to\b))\b/i;
const COMMIT = /^\s*(commit|end)\b/i;
/** Statements that never write: a write outside a transaction is anything else. */
const READ_ONLY = /^\s*(select|show|set|savepoint|release|rollback|declare|fetch|close|listen|unlisten)\b/i;
const CURRENT_LSN = 'SELECT pg_current_wal_lsn()::text AS lsn';

/**
 * Calls `onCommit(tokenId, lsn)` after every commit a scoped request makes on `pool`'s
 * connections (see above). Both forms of `client.query` are covered: promises (transactions) and
 * callbacks (pool.query).
 */
export function watchCommits(pool: pg.Pool, onCommit: (tokenId: string, lsn: string) => void): void {
  pool.on('connect', (client) => {
    let inTransaction = false;
    const query = client.query.bind(client) as (...args: unknown[]) => unknown;
    const readLsn = async (tokenId: string) => {
      const result = (await query(CURRENT_LSN)) as pg.QueryResult<{ lsn: string }>;
      onCommit(tokenId, result.rows[0].lsn);
    };
    client.query = ((...args: unknown[]) => {
      const first = args[0] as string | { text?: unknown; submit?: unknown } | undefined;
      const text = typeof first === 'string' ? first : typeof first?.text === 'string' && typeof first.submit !== 'function' ? first.text : null;
      if (text === null) return query(...args);
      const committing = inTransaction ? COMMIT.test(text) : !BEGIN.test(text) && !READ_ONLY.test(text);
      // Followed whoever runs the transaction, so a later scoped statement knows where it is.
      if (BEGIN.test(text)) inTransaction = true;
      else if (END.test(text)) inTransaction = false;
      const tokenId = currentTokenId();
      if (!committing || tokenId === null) return query(...args);
      const last = args[args.length - 1];
      if (typeof last === 'function') {
        const callback = last as (error: Error | null, result?: unknown) => void;
        args[args.length - 1] = (error: Error | null, result?: unknown) => {
          if (error) return callback(error, result);
          // A failed read of the position only loses read-your-writes for this commit: the
          // token's earlier position stays, and the write itself succeeded.
          readLsn(tokenId).then(
            () => callback(null, result),
            () => callback(null, result),
          );
        };
        return query(...args);
      }
      return (query(...args) as Promise<unknown>).then(async (result) => {
        await readLsn(tokenId).catch(() => {});
        return result;
      });
    }) as typeof client.query;
  });
}

/** Tokens whose last commit is remembered; the oldest is forgotten past this (it reads on a replica as if it never wrote). */
const REMEMBERED_TOKENS = 50_000;

export interface CommitLog {
  /** The WAL position at or past the token's last commit, or undefined when none is remembered. */
  lastCommit(tokenId: string): bigint | undefined;
}

/**
 * The commits of each token on `pool`. Installed before the pool opens its first connection:
 * a connection opened earlier would never report its commits.
 */
export function logTokenCommits(pool: pg.Pool): CommitLog {
  scoping = true;
  const last = new Map<string, bigint>();
  watchCommits(pool, (tokenId, lsn) => {
    // Re-inserted, so the map's order is the order of last use and the oldest goes first.
    last.delete(tokenId);
    last.set(tokenId, parseLsn(lsn));
    if (last.size > REMEMBERED_TOKENS) last.delete(last.keys().next().value!);
  });
  return { lastCommit: (tokenId) => last.get(tokenId) };
}
