import { and, desc, eq, gt, inArray, isNull, lt, lte, or, sql } from 'drizzle-orm';
import type { Db } from '../db/database.js';
import { forExistingAgent } from '../db/foreign-keys.js';
import type { Clock } from '../lib/clock.js';
import { NotFoundError, ValidationError } from '../lib/errors.js';
import { newId, randomToken, sha256Hex } from '../lib/ids.js';
import { assertCleanText } from '../lib/text-policy.js';
import { apiTokens } from './auth.sql.js';
import type { CachedToken, TokenCache } from './token-cache.js';
import { TOKENS_CHANNEL } from './token-watch.js';
import type { RuntimeScope, Viewer } from './viewer.js';

const TOKEN_PREFIX = 'brw_';

export interface TokenRecord {
  id: string;
  name: string;
  kind: 'operator' | 'agent';
  agentId: string | null;
  createdAt: Date;
  revokedAt: Date | null;
  lastUsedAt: Date | null;
  expiresAt: Date | null;
}

/** Parses a lifetime such as 30d, 12h, 90m or 3600s (what `token create --expires-in` takes). */
export function parseLifetime(text: string): number | null {
  const match = /^(\d{1,6})([smhd])$/.exec(text.trim());
  if (!match) return null;
  const amount = Number(match[1]);
  const unit = { s: 1000, m: 60_000, h: 3_600_000, d: 86_400_000 }[match[2] as 's' | 'm' | 'h' | 'd'];
  return amount > 0 ? amount * unit : null;
}

export class TokensService {
  constructor(
    private readonly db: Db,
    private readonly clock: Clock,
    /** last_used_at is written at most this often per token (one UPDATE, not one per request). */
    private readonly lastUsedIntervalMs = 60_000,
    /** Verified tokens in memory (the server's; the CLI has none): see token-cache.ts. */
    private readonly cache: TokenCache | null = null,
  ) {}

  /** Creates a token and returns its secret once; only the hash is stored. `expiresInMs`: optional lifetime. */
  async create(input: { kind: 'operator' | 'agent'; name: string; agentId?: string | null; expiresInMs?: number | null }): Promise<{ token: string; record: TokenRecord }> {
    assertCleanText('name', input.name, 200);
    const name = input.name.trim();
    if (name.length < 1 || name.length > 200) throw new ValidationError('name', 'token name must be 1 to 200 characters', 200);
    if (input.kind === 'agent' && !input.agentId) throw new ValidationError('agentId', 'an agent token needs the agent it acts as');
    if (input.expiresInMs != null && !(input.expiresInMs > 0)) throw new ValidationError('expiresIn', 'a token lifetime must be positive');
    const createdAt = this.clock.now();
    const token = `${TOKEN_PREFIX}${randomToken()}`;
    const [record] = await forExistingAgent(input.agentId ?? '', () =>
      this.db
        .insert(apiTokens)
        .values({
          id: newId(),
          name,
          kind: input.kind,
          agentId: input.kind === 'agent' ? input.agentId! : null,
          tokenHash: sha256Hex(token),
          createdAt,
          expiresAt: input.expiresInMs != null ? new Date(createdAt.getTime() + input.expiresInMs) : null,
        })
        .returning(),
    );
    return { token, record: toRecord(record) };
  }

  /** Every token, newest first, keyset-paged on (created_at, id). */
  async list(page: { limit: number; after: { createdAt: Date; id: string } | null } = { limit: 1_000_000, after: null }): Promise<TokenRecord[]> {
    const after = page.after;
    const rows = await this.db
      .select()
      .from(apiTokens)
      .where(after ? or(lt(apiTokens.createdAt, after.createdAt), and(eq(apiTokens.createdAt, after.createdAt), lt(apiTokens.id, after.id))) : undefined)
      .orderBy(desc(apiTokens.createdAt), desc(apiTokens.id))
      .limit(page.limit);
    return rows.map(toRecord);
  }

  async count(): Promise<number> {
    const [row] = await this.db.select({ count: sql<number>`count(*)::int` }).from(apiTokens);
    return row.count;
  }

  async countForAgent(agentId: string): Promise<number> {
    const [row] = await this.db
      .select({ count: sql<number>`count(*)::int` })
      .from(apiTokens)
      .where(eq(apiTokens.agentId, agentId));
    return row.count;
  }

  async get(id: string): Promise<TokenRecord | null> {
    const [row] = await this.db.select().from(apiTokens).where(eq(apiTokens.id, id));
    return row ? toRecord(row) : null;
  }

  /**
   * The first `limit` tokens of each agent, newest first, in one statement for any number of
   * agents (`Agent.tokens` of a whole page). `after` holds each agent's keyset position, if any.
   */
  async forAgents(agentIds: readonly string[], limit: number, after: Map<string, { createdAt: Date; id: string }>): Promise<TokenRecord[][]> {
    if (agentIds.length === 0) return [];
    const positions = [...after].map(
      ([agentId, p]) => sql`(${apiTokens.agentId} = ${agentId} AND (${apiTokens.createdAt}, ${apiTokens.id}) < (${p.createdAt.toISOString()}::timestamptz, ${p.id}))`,
    );
    const outside = sql.join(
      [...after.keys()].map((agentId) => sql`${agentId}`),
      sql`, `,
    );
    const paged = positions.length ? sql`AND (${apiTokens.agentId} NOT IN (${outside}) OR ${sql.join(positions, sql` OR `)})` : sql``;
    const ranked = this.db.$with('ranked').as(
      this.db
        .select({
          id: apiTokens.id,
          rank: sql<number>`row_number() OVER (PARTITION BY ${apiTokens.agentId} ORDER BY ${apiTokens.createdAt} DESC, ${apiTokens.id} DESC)`.as('rank'),
        })
        .from(apiTokens)
        .where(sql`${inArray(apiTokens.agentId, [...agentIds])} ${paged}`),
    );
    const rows = await this.db
      .with(ranked)
      .select({ token: apiTokens })
      .from(ranked)
      .innerJoin(apiTokens, eq(apiTokens.id, ranked.id))
      .where(lte(ranked.rank, limit))
      .orderBy(desc(apiTokens.createdAt), desc(apiTokens.id));
    return agentIds.map((agentId) => rows.filter((r) => r.token.agentId === agentId).map((r) => toRecord(r.token)));
  }

  /**
   * Revokes a token. The NOTIFY commits with the revocation: every instance on the database
   * then ends the WebSockets and streams the token keeps open (see token-watch.ts).
   */
  async revoke(id: string): Promise<TokenRecord> {
    const row = await this.db.transaction(async (tx) => {
      const [revoked] = await tx
        .update(apiTokens)
        .set({ revokedAt: this.clock.now() })
        .where(and(eq(apiTokens.id, id), isNull(apiTokens.revokedAt)))
        .returning();
      if (revoked) await tx.execute(sql`SELECT pg_notify(${TOKENS_CHANNEL}, ${revoked.id})`);
      return revoked;
    });
    if (!row) throw new NotFoundError('ApiToken', id);
    // This instance refuses it from the next request on, without waiting for its own NOTIFY.
    this.cache?.forget(row.id);
    return toRecord(row);
  }

  /** Deletes a token that was never shown (the first start's, when the server then failed to start). */
  async removeUnshown(id: string): Promise<void> {
    await this.db.delete(apiTokens).where(eq(apiTokens.id, id));
  }

  async hasOperatorToken(): Promise<boolean> {
    const rows = await this.db
      .select({ id: apiTokens.id })
      .from(apiTokens)
      .where(and(eq(apiTokens.kind, 'operator'), isNull(apiTokens.revokedAt), or(isNull(apiTokens.expiresAt), gt(apiTokens.expiresAt, this.clock.now()))))
      .limit(1);
    return rows.length > 0;
  }

  /**
   * Token secret -> viewer, or null when unknown, revoked or expired. Notes the use (throttled).
   * A token verified recently comes from the cache, with no statement. Transports call it
   * through auth/authenticate.ts, which reads the secret and the scope.
   */
  async lookup(secret: string | null | undefined, scope: RuntimeScope): Promise<Viewer | null> {
    if (!secret || !secret.startsWith(TOKEN_PREFIX)) return null;
    const hash = sha256Hex(secret);
    const now = this.clock.now();
    let token = this.cache?.get(hash) ?? null;
    if (!token) {
      const generation = this.cache?.generation ?? 0;
      const [row] = await this.db
        .select()
        .from(apiTokens)
        .where(and(eq(apiTokens.tokenHash, hash), isNull(apiTokens.revokedAt)))
        .limit(1);
      if (!row) return null;
      token = { id: row.id, name: row.name, kind: row.kind as CachedToken['kind'], agentId: row.agentId, expiresAt: row.expiresAt, lastUsedAt: row.lastUsedAt };
      this.cache?.set(hash, token, generation);
    }
    if (token.expiresAt && token.expiresAt <= now) return null;
    const stale = new Date(now.getTime() - this.lastUsedIntervalMs);
    if (!token.lastUsedAt || token.lastUsedAt <= stale) {
      // Noted before the write, so concurrent requests of one cached token write it once.
      token.lastUsedAt = now;
      // Conditional, so concurrent requests (and other instances) write it once per interval.
      await this.db
        .update(apiTokens)
        .set({ lastUsedAt: now })
        .where(and(eq(apiTokens.id, token.id), or(isNull(apiTokens.lastUsedAt), lte(apiTokens.lastUsedAt, stale))));
    }
    return {
      principal: token.kind === 'operator' ? 'OPERATOR' : 'AGENT',
      tokenId: token.id,
      tokenName: token.name,
      agentId: token.agentId,
      ...scope,
    };
  }
}

function toRecord(row: typeof apiTokens.$inferSelect): TokenRecord {
  return {
    id: row.id,
    name: row.name,
    kind: row.kind as TokenRecord['kind'],
    agentId: row.agentId,
    createdAt: row.createdAt,
    revokedAt: row.revokedAt,
    lastUsedAt: row.lastUsedAt,
    expiresAt: row.expiresAt,
  };
}
