import { and, desc, eq, isNull } from 'drizzle-orm';
import type { Db } from '../db/database.js';
import type { Clock } from '../lib/clock.js';
import { NotFoundError, ValidationError } from '../lib/errors.js';
import { newId, randomToken, sha256Hex } from '../lib/ids.js';
import { apiTokens } from './auth.sql.js';
import type { Viewer } from './viewer.js';

const TOKEN_PREFIX = 'brw_';

export interface TokenRecord {
  id: string;
  name: string;
  kind: 'operator' | 'agent';
  agentId: string | null;
  createdAt: Date;
  revokedAt: Date | null;
  lastUsedAt: Date | null;
}

export interface HeaderScope {
  scope: string | null;
  sessionId: string | null;
  conversationId: string | null;
}

export class TokensService {
  constructor(
    private readonly db: Db,
    private readonly clock: Clock,
  ) {}

  /** Creates a token and returns its secret once; only the hash is stored. */
  async create(input: { kind: 'operator' | 'agent'; name: string; agentId?: string | null }): Promise<{ token: string; record: TokenRecord }> {
    const name = input.name.trim();
    if (name.length < 1 || name.length > 200) throw new ValidationError('name', 'token name must be 1 to 200 characters', 200);
    if (input.kind === 'agent' && !input.agentId) throw new ValidationError('agentId', 'an agent token needs the agent it acts as');
    const token = `${TOKEN_PREFIX}${randomToken()}`;
    const [record] = await this.db
      .insert(apiTokens)
      .values({
        id: newId(),
        name,
        kind: input.kind,
        agentId: input.kind === 'agent' ? input.agentId! : null,
        tokenHash: sha256Hex(token),
        createdAt: this.clock.now(),
      })
      .returning();
    return { token, record: toRecord(record) };
  }

  async list(): Promise<TokenRecord[]> {
    const rows = await this.db.select().from(apiTokens).orderBy(desc(apiTokens.createdAt));
    return rows.map(toRecord);
  }

  async revoke(id: string): Promise<TokenRecord> {
    const [row] = await this.db
      .update(apiTokens)
      .set({ revokedAt: this.clock.now() })
      .where(and(eq(apiTokens.id, id), isNull(apiTokens.revokedAt)))
      .returning();
    if (!row) throw new NotFoundError('active token', id);
    return toRecord(row);
  }

  async hasOperatorToken(): Promise<boolean> {
    const rows = await this.db
      .select({ id: apiTokens.id })
      .from(apiTokens)
      .where(and(eq(apiTokens.kind, 'operator'), isNull(apiTokens.revokedAt)))
      .limit(1);
    return rows.length > 0;
  }

  /** Bearer secret -> viewer, or null when unknown or revoked. */
  async authenticate(secret: string | null | undefined, scope: HeaderScope): Promise<Viewer | null> {
    if (!secret || !secret.startsWith(TOKEN_PREFIX)) return null;
    const [row] = await this.db
      .select()
      .from(apiTokens)
      .where(and(eq(apiTokens.tokenHash, sha256Hex(secret)), isNull(apiTokens.revokedAt)))
      .limit(1);
    if (!row) return null;
    return {
      principal: row.kind === 'operator' ? 'OPERATOR' : 'AGENT',
      tokenId: row.id,
      tokenName: row.name,
      agentId: row.agentId,
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
  };
}

/** Reads the runtime-owned scope headers; blank values count as absent. */
export function scopeFromHeaders(get: (name: string) => string | null | undefined): HeaderScope {
  const read = (name: string) => {
    const value = get(name)?.trim();
    return value ? value : null;
  };
  return {
    scope: read('burrow-continuity-scope'),
    sessionId: read('burrow-session'),
    conversationId: read('burrow-conversation'),
  };
}

/** The secret of an `Authorization: Bearer <token>` header, or null. */
export function bearerSecret(header: string | null | undefined): string | null {
  return header && header.toLowerCase().startsWith('bearer ') ? header.slice(7).trim() : null;
}
