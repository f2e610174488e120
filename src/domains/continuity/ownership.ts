/**
 * Runtime owners. An ownership session gets a UUID and, on a real server, a dedicated connection
 * holding a session-level advisory lock keyed by that UUID for as long as the session lives.
 * Liveness is decided only by that lock: any instance reads pg_locks for a granted lock on the key
 * held by the connection named `burrow-owner:<ownerId>`; without one the owner is gone. The
 * connection dying (process crash, network loss, pg_terminate_backend) releases the lock, so a
 * dead owner is visible from every instance without timers or process ids. The check takes no
 * lock itself: a try-lock probe would hold the key for an instant, and a second prober in that
 * instant would take a dead owner for a live one (and accept its late write).
 *
 * Embedded there is one backend: a session lock taken there would be re-entrant for every
 * request and die with nothing. The only owners that can exist are this process's, so the
 * in-process registry of open sessions is the liveness authority instead.
 *
 * Sessions are capped, because each one holds a PostgreSQL connection: at most
 * `ownersPerAgent` live owners per agent, and at most `ownersMax` owner connections on the
 * database all together (0: a quarter of max_connections), counted across every instance under
 * one admission lock. Opening past a cap is a typed refusal; nothing is held.
 */
import { hostname } from 'node:os';
import type pg from 'pg';
import { and, eq, sql, type SQL } from 'drizzle-orm';
import type { Database, DbOrTx } from '../../db/database.js';
import { LockClass, lockForTransaction, tryHoldSessionLock } from '../../db/locks.js';
import type { Clock } from '../../lib/clock.js';
import { describeError, isConnectionLoss } from '../../lib/connection-errors.js';
import { RequestError } from '../../lib/errors.js';
import { newId } from '../../lib/ids.js';
import type { Logger } from '../../lib/logger.js';
import { continuityOwners } from './continuity.sql.js';

/** Prefix of the dedicated connection's application_name; operators can see owners in pg_stat_activity. */
export const OWNER_APPLICATION_PREFIX = 'burrow-owner:';

export interface OwnershipSession {
  ownerId: string;
  agentId: string;
  instance: string;
  openedAt: Date;
  /** Resolves when the session ended: closed by its holder, or its lock connection was lost. */
  ended: Promise<'closed' | 'lost'>;
  close(): Promise<void>;
}

interface LiveSession {
  session: OwnershipSession;
  client: pg.Client | null;
  end: (how: 'closed' | 'lost') => void;
}

export interface OwnerLimits {
  /** Live owners one agent may have (BURROW_OWNERS_PER_AGENT). */
  perAgent: number;
  /** Owner connections on the database, all instances together (BURROW_OWNERS_MAX); 0: max_connections / 4. */
  total: number;
}

/** Used embedded when BURROW_OWNERS_MAX is automatic: sessions there hold no connection. */
const EMBEDDED_OWNERS_MAX = 64;

export const ownerLimitReached = (agentId: string, limit: number) =>
  new RequestError('OWNER_LIMIT_REACHED', `agent ${agentId} already has ${limit} live ownership sessions (BURROW_OWNERS_PER_AGENT); end one first`);
export const ownerCapacityReached = (limit: number) =>
  new RequestError('OWNER_CAPACITY_REACHED', `the database already holds ${limit} ownership connections (BURROW_OWNERS_MAX); retry later`);

export class OwnershipRegistry {
  readonly instance = `${hostname()}:${process.pid}:${newId().slice(0, 8)}`;
  private readonly live = new Map<string, LiveSession>();

  constructor(
    private readonly database: Database,
    private readonly clock: Clock,
    private readonly logger: Logger,
    private readonly limits: OwnerLimits = { perAgent: 4, total: 0 },
  ) {}

  /** Live sessions this instance holds (all agents). */
  get openCount(): number {
    return this.live.size;
  }

  get embedded(): boolean {
    return this.database.lifecycle === 'embedded';
  }

  /**
   * Opens a session. The lock is taken before the UUID is handed out or recorded, so every
   * owner id a run can name was locked first: "lock free" can only mean "gone".
   */
  async open(agentId: string): Promise<OwnershipSession> {
    if (this.embedded) this.admitEmbedded(agentId);
    let ownerId = newId();
    let client: pg.Client | null;
    try {
      client = await this.database.openDedicatedConnection();
    } catch (error) {
      this.logger.warn('cannot open an owner lock connection', { agentId, ...describeError(error) });
      // The database itself is gone (not merely out of connection slots): DATABASE_UNAVAILABLE.
      if (isConnectionLoss(error) && (error as { code?: string }).code !== '53300') throw error;
      throw new RequestError('OWNERSHIP_UNAVAILABLE', 'the server cannot open a lock connection for a new owner right now (database connection limit?); retry later');
    }
    if (client) {
      try {
        // try-lock, not lock: a busy key means a hashtext collision with a live owner; a fresh
        // UUID avoids waiting on a stranger.
        let locked = false;
        for (let attempt = 0; attempt < 5 && !locked; attempt++) {
          if (attempt > 0) ownerId = newId();
          locked = await tryHoldSessionLock(client, LockClass.continuityOwner, ownerId);
        }
        if (!locked) throw new Error('could not take an owner lock after 5 fresh owner ids');
        await client.query(`SET application_name = '${OWNER_APPLICATION_PREFIX}${ownerId}'`);
      } catch (error) {
        await client.end().catch(() => {});
        throw error;
      }
    }
    let resolveEnded!: (how: 'closed' | 'lost') => void;
    const ended = new Promise<'closed' | 'lost'>((resolve) => (resolveEnded = resolve));
    const openedAt = this.clock.now();
    const session: OwnershipSession = {
      ownerId,
      agentId,
      instance: this.instance,
      openedAt,
      ended,
      close: async () => {
        const entry = this.live.get(ownerId);
        if (!entry) return;
        entry.end('closed');
      },
    };
    let finished = false;
    const end = (how: 'closed' | 'lost') => {
      if (finished) return;
      finished = true;
      this.live.delete(ownerId);
      void (async () => {
        // Ending the connection releases the lock; only then is the session over for others.
        if (client) await client.end().catch(() => {});
        await this.database.db
          .update(continuityOwners)
          .set({ closedAt: this.clock.now() })
          .where(and(eq(continuityOwners.agentId, agentId), eq(continuityOwners.id, ownerId)))
          .catch(() => {});
        if (how === 'lost') this.logger.warn('continuity owner lost its lock connection', { agentId, ownerId });
        else this.logger.info('continuity owner ended', { agentId, ownerId, how });
        resolveEnded(how);
      })();
    };
    if (client) {
      // The lock lives exactly as long as this connection: its error or end is the session's
      // loss (the lock is already released by the server), never a process crash.
      client.on('error', () => end('lost'));
      client.on('end', () => end('lost'));
    }
    this.live.set(ownerId, { session, client, end });
    try {
      const row = { agentId, id: ownerId, instance: this.instance, openedAt };
      if (this.embedded) await this.database.db.insert(continuityOwners).values(row);
      else await this.admitAndRecord(row);
    } catch (error) {
      end('closed');
      throw error;
    }
    this.logger.info('continuity owner opened', { agentId, ownerId });
    return session;
  }

  private admitEmbedded(agentId: string): void {
    const sessions = [...this.live.values()];
    if (sessions.filter((entry) => entry.session.agentId === agentId).length >= this.limits.perAgent) throw ownerLimitReached(agentId, this.limits.perAgent);
    const total = this.limits.total || EMBEDDED_OWNERS_MAX;
    if (sessions.length >= total) throw ownerCapacityReached(total);
  }

  /**
   * Counts and records under one admission lock, so concurrent openings on any instance cannot
   * both pass a cap. The new session's connection already holds its lock and carries its
   * application_name, so it is in the overall count: at worst two racing openings both see each
   * other and one is refused early; the cap is never exceeded.
   */
  private async admitAndRecord(row: typeof continuityOwners.$inferInsert): Promise<void> {
    await this.database.db.transaction(async (tx) => {
      await lockForTransaction(tx, LockClass.continuityOwnerAdmission, 'owners');
      const { rows } = await tx.execute<{ agent_live: number; connections: number; max_connections: number }>(sql`
        SELECT (SELECT count(*)::int FROM continuity_owners o
                 WHERE o.agent_id = ${row.agentId} AND o.closed_at IS NULL AND ${ownerLockHeld(sql`o.id`)}) AS agent_live,
               (SELECT count(*)::int FROM pg_stat_activity
                 WHERE datname = current_database() AND application_name LIKE ${`${OWNER_APPLICATION_PREFIX}%`}) AS connections,
               current_setting('max_connections')::int AS max_connections`);
      const counts = rows[0];
      if (counts.agent_live >= this.limits.perAgent) throw ownerLimitReached(row.agentId, this.limits.perAgent);
      const total = this.limits.total || Math.max(1, Math.floor(counts.max_connections / 4));
      if (counts.connections > total) throw ownerCapacityReached(total);
      await tx.insert(continuityOwners).values(row);
    });
  }

  /** The subset of `ownerIds` that are alive, decided by their locks (see the file comment). */
  async alive(ownerIds: string[]): Promise<Set<string>> {
    const unique = [...new Set(ownerIds)];
    if (this.embedded) return new Set(unique.filter((id) => this.live.has(id)));
    if (unique.length === 0) return new Set();
    const { rows } = await this.database.db.execute<{ id: string }>(sql`SELECT id FROM unnest(${sql.param(unique)}::text[]) AS id WHERE ${ownerLockHeld(sql`id`)}`);
    return new Set(rows.map((row) => row.id));
  }

  /**
   * Liveness checked on a connection the caller already holds (inside its transaction): never a
   * second pooled connection, which a full pool could not give.
   */
  async isAliveOn(tx: DbOrTx, ownerId: string): Promise<boolean> {
    if (this.embedded) return this.live.has(ownerId);
    const { rows } = await tx.execute<{ held: boolean }>(sql`SELECT ${ownerLockHeld(sql`${ownerId}::text`)} AS held`);
    return rows[0]?.held === true;
  }

  async isAlive(ownerId: string): Promise<boolean> {
    return (await this.alive([ownerId])).has(ownerId);
  }

  /** Ends every session this instance holds (server shutdown). */
  async closeAll(): Promise<void> {
    const sessions = [...this.live.values()];
    for (const entry of sessions) entry.end('closed');
    await Promise.all(sessions.map((entry) => entry.session.ended));
  }
}

/**
 * True while the owner's lock is granted to its own connection (the one whose application_name
 * names the owner, so a hashtext collision with another owner's key cannot pass for it). Reads
 * pg_locks and pg_stat_activity only; see the file comment for why it takes no lock.
 */
function ownerLockHeld(ownerId: SQL): SQL {
  return sql`EXISTS (SELECT 1 FROM pg_locks l JOIN pg_stat_activity a ON a.pid = l.pid
                      WHERE l.locktype = 'advisory' AND l.granted AND l.database = a.datid
                        AND l.classid = ${LockClass.continuityOwner}::int::oid AND l.objid = hashtext(${ownerId})::oid AND l.objsubid = 2
                        AND a.datname = current_database() AND a.application_name = ${OWNER_APPLICATION_PREFIX} || ${ownerId})`;
}
