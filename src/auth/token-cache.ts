/**
 * Verified bearer tokens kept in memory for a short time, so that a request does not look its
 * token up in api_tokens every time. What keeps it honest:
 * - revocation: TokensService.revoke forgets the token in its own instance at once, and every
 *   other instance forgets it when the NOTIFY on the tokens channel arrives (token-watch.ts);
 *   a lookup that was in flight while a token was forgotten is not cached (the generation);
 * - expiry: an entry never outlives its token's expiresAt, by the same clock authentication uses;
 * - a LISTEN connection that is down cannot hear revocations: the cache is suspended (every
 *   request reads the database) until it listens again;
 * - size: at most `max` tokens; the least recently used goes first.
 * The TTL is the backstop for what none of these can see (a row changed by hand in SQL).
 */
import type { Clock } from '../lib/clock.js';

export interface CachedToken {
  id: string;
  name: string;
  kind: 'operator' | 'agent';
  agentId: string | null;
  expiresAt: Date | null;
  /** As last written or read: last_used_at is written again only when this is older than the interval. */
  lastUsedAt: Date | null;
}

interface Entry {
  token: CachedToken;
  /** Epoch ms after which the entry is not used: now + TTL, or the token's expiry if sooner. */
  until: number;
}

export class TokenCache {
  /** Insertion order is recency order: a hit moves its entry to the end. */
  private readonly byHash = new Map<string, Entry>();
  private readonly hashById = new Map<string, string>();
  private changes = 0;
  private suspended = false;

  constructor(
    private readonly clock: Clock,
    private readonly ttlMs: number,
    private readonly max: number,
  ) {}

  /** Pass to `set`: a token forgotten between the two must not be cached from a stale read. */
  get generation(): number {
    return this.changes;
  }

  get size(): number {
    return this.byHash.size;
  }

  get(hash: string): CachedToken | null {
    const entry = this.byHash.get(hash);
    if (!entry) return null;
    if (this.clock.now().getTime() >= entry.until) {
      this.remove(hash, entry.token.id);
      return null;
    }
    this.byHash.delete(hash);
    this.byHash.set(hash, entry);
    return entry.token;
  }

  set(hash: string, token: CachedToken, generation: number): void {
    if (this.ttlMs <= 0 || this.suspended || generation !== this.changes) return;
    const now = this.clock.now().getTime();
    const until = Math.min(now + this.ttlMs, token.expiresAt ? token.expiresAt.getTime() : Infinity);
    if (until <= now) return;
    this.byHash.delete(hash);
    this.byHash.set(hash, { token, until });
    this.hashById.set(token.id, hash);
    for (const [oldest, entry] of this.byHash) {
      if (this.byHash.size <= this.max) break;
      this.remove(oldest, entry.token.id);
    }
  }

  /** The token was revoked (or is otherwise no longer to be trusted from memory). */
  forget(tokenId: string): void {
    this.changes++;
    const hash = this.hashById.get(tokenId);
    if (hash !== undefined) this.remove(hash, tokenId);
  }

  /** Revocations cannot be heard: drop everything and cache nothing until `resume`. */
  suspend(): void {
    this.changes++;
    this.suspended = true;
    this.byHash.clear();
    this.hashById.clear();
  }

  resume(): void {
    this.changes++;
    this.suspended = false;
  }

  private remove(hash: string, tokenId: string): void {
    this.byHash.delete(hash);
    if (this.hashById.get(tokenId) === hash) this.hashById.delete(tokenId);
  }
}
