/**
 * Ends what a token keeps open once the token is revoked or expires: WebSocket connections
 * (closed with 4403) and subscription streams (SSE: a last UNAUTHENTICATED error, then the end).
 * Revocation is announced with NOTIFY on TOKENS_CHANNEL in the revoking transaction, so every
 * instance sharing the database hears of it within moments; a periodic recheck of the tokens
 * that have something open is the backstop (a lost LISTEN connection, a notification missed
 * while reconnecting) and is also what ends connections whose token expired while open.
 */
import { inArray } from 'drizzle-orm';
import type { Plugin } from 'graphql-yoga';
import { createGraphQLError } from 'graphql-yoga';
import type { Database } from '../db/database.js';
import { backoffDelay } from '../lib/backoff.js';
import type { Clock } from '../lib/clock.js';
import { describeError } from '../lib/connection-errors.js';
import { IntervalJob } from '../lib/interval.js';
import type { Logger } from '../lib/logger.js';
import { apiTokens } from './auth.sql.js';
import type { TokenCache } from './token-cache.js';
import type { Viewer } from './viewer.js';
import { returnThis } from '../lib/async-iterators.js';

export const TOKENS_CHANNEL = 'burrow_tokens';

/** The close code of a WebSocket whose token was revoked or expired (graphql-ws uses 4403 for Forbidden). */
export const TOKEN_ENDED_CLOSE_CODE = 4403;

type OnEnded = () => void;

export class TokenWatch {
  private readonly open = new Map<string, Set<OnEnded>>();
  /** Tokens known to be ended, so an operation racing the close is refused without a query. */
  private readonly ended = new Set<string>();
  private unlisten: (() => Promise<void>) | null = null;
  private stopped = true;
  private reconnectTimer: NodeJS.Timeout | null = null;
  private reconnectAttempt = 0;
  readonly recheck: IntervalJob;

  constructor(
    private readonly database: Database,
    private readonly clock: Clock,
    private readonly logger: Logger,
    recheckSeconds: number,
    /** The server's cache of verified tokens: forgets a token when it ends. */
    private readonly cache: TokenCache | null = null,
  ) {
    this.recheck = new IntervalJob('token-recheck', recheckSeconds * 1000, () => this.recheckOpen(), logger);
  }

  async start(): Promise<void> {
    this.stopped = false;
    await this.listen();
  }

  async stop(): Promise<void> {
    this.stopped = true;
    if (this.reconnectTimer) clearTimeout(this.reconnectTimer);
    this.reconnectTimer = null;
    await this.unlisten?.();
    this.unlisten = null;
  }

  private async listen(): Promise<void> {
    const unlisten = await this.database.listen(
      TOKENS_CHANNEL,
      (tokenId) => this.end(tokenId),
      (error) => this.lost(error),
    );
    if (this.stopped) return void (await unlisten());
    this.unlisten = unlisten;
  }

  private lost(error: Error) {
    if (this.stopped) return;
    this.unlisten = null;
    this.cache?.suspend();
    this.logger.warn('token LISTEN connection lost; tokens are read from the database until it is back', describeError(error));
    this.scheduleReconnect();
  }

  private scheduleReconnect() {
    this.reconnectTimer = setTimeout(() => {
      this.reconnectTimer = null;
      if (this.stopped) return;
      this.listen().then(
        async () => {
          if (this.stopped) return;
          this.reconnectAttempt = 0;
          this.cache?.resume();
          this.logger.info('token LISTEN connection recovered');
          // A revocation committed while nobody listened ends what its token keeps open now.
          await this.recheckOpen().catch(() => {});
        },
        () => this.scheduleReconnect(),
      );
    }, backoffDelay(this.reconnectAttempt++));
  }

  /** Calls `onEnded` once if the token is revoked or expires while tracked; returns the untrack. */
  track(tokenId: string, onEnded: OnEnded): () => void {
    if (this.ended.has(tokenId)) {
      onEnded();
      return () => {};
    }
    let set = this.open.get(tokenId);
    if (!set) this.open.set(tokenId, (set = new Set()));
    set.add(onEnded);
    return () => {
      set.delete(onEnded);
      if (set.size === 0 && this.open.get(tokenId) === set) this.open.delete(tokenId);
    };
  }

  isEnded(tokenId: string): boolean {
    return this.ended.has(tokenId);
  }

  /** Connections currently tracked (all tokens). */
  get openCount(): number {
    let count = 0;
    for (const set of this.open.values()) count += set.size;
    return count;
  }

  private end(tokenId: string) {
    this.ended.add(tokenId);
    this.cache?.forget(tokenId);
    const set = this.open.get(tokenId);
    this.open.delete(tokenId);
    if (!set) return;
    this.logger.info('token ended: closing what it keeps open', { tokenId, connections: set.size });
    for (const onEnded of set) onEnded();
  }

  /** One query for every token with something open: revoked, or expired by the clock. */
  async recheckOpen(): Promise<void> {
    const ids = [...this.open.keys()];
    if (ids.length === 0) return;
    const now = this.clock.now();
    const rows = await this.database.db
      .select({ id: apiTokens.id, revokedAt: apiTokens.revokedAt, expiresAt: apiTokens.expiresAt })
      .from(apiTokens)
      .where(inArray(apiTokens.id, ids));
    const active = new Set(rows.filter((row) => !row.revokedAt && !(row.expiresAt && row.expiresAt <= now)).map((row) => row.id));
    // Revoked, expired, or a row that is gone: all ended.
    for (const id of ids) if (!active.has(id)) this.end(id);
  }
}

/**
 * An envelop plugin: every subscription stream (SSE, and graphql-ws alike) ends when its token
 * ends, with a last UNAUTHENTICATED error so the client knows why.
 */
export function useEndStreamsWithToken(watch: TokenWatch): Plugin {
  return {
    onSubscribe({ args }) {
      const viewer = (args.contextValue as { viewer?: Viewer | null }).viewer;
      if (!viewer) return;
      return {
        onSubscribeResult({ result, setResult }) {
          if (!(Symbol.asyncIterator in result)) return;
          setResult(endWithToken(result as AsyncIterable<unknown>, viewer.tokenId, watch) as never);
        },
      };
    },
  };
}

function endWithToken<T>(source: AsyncIterable<T>, tokenId: string, watch: TokenWatch): AsyncIterableIterator<T | { errors: unknown[] }> {
  const iterator = source[Symbol.asyncIterator]();
  type Result = IteratorResult<T | { errors: unknown[] }>;
  // The token's end settles the pending ask, if any, else the next one. Not a race against one
  // long-lived promise: each race left a reaction on it until the token ended, one per event.
  let endedByToken = false;
  let pending: { resolve: (result: Result | Promise<Result>) => void; reject: (error: unknown) => void } | null = null;
  let finished = false;
  const finish = async () => {
    if (finished) return;
    finished = true;
    untrack();
    await iterator.return?.();
  };
  const endedResult = async (): Promise<Result> => {
    await finish();
    const error = createGraphQLError('the token of this stream was revoked or has expired', { extensions: { code: 'UNAUTHENTICATED' } });
    return { done: false, value: { errors: [error] } };
  };
  const untrack = watch.track(tokenId, () => {
    endedByToken = true;
    const ask = pending;
    pending = null;
    ask?.resolve(endedResult());
  });
  // Made once per stream, so an event costs this wrapper two promises (the ask and its `then`):
  // with 10,000 subscribers of an agent, each event's pending asks are what its burst leaves for
  // the garbage collector.
  const answer = (next: IteratorResult<T>) => {
    const ask = pending;
    if (!ask) return; // the token ended first and answered the ask
    pending = null;
    if (next.done) {
      untrack();
      finished = true;
    }
    ask.resolve(next);
  };
  const fail = (error: unknown) => {
    const ask = pending;
    pending = null;
    ask?.reject(error);
  };
  const wrapped: AsyncIterableIterator<T | { errors: unknown[] }> = {
    [Symbol.asyncIterator]: returnThis,
    next() {
      if (finished) return Promise.resolve({ done: true, value: undefined });
      if (endedByToken) return endedResult();
      return new Promise<Result>((resolve, reject) => {
        pending = { resolve, reject };
        iterator.next().then(answer, fail);
      });
    },
    async return() {
      await finish();
      return { done: true, value: undefined };
    },
  };
  return wrapped;
}
