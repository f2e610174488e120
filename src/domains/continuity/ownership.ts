/**
 * Runtime owners. An ownership session gets a UUID and, on a real server, a dedicated connection
 * holding a session-level advisory lock keyed by that UUID for as long as the session lives.
 * Liveness is decided only by that lock: any instance try-locks the key from a pooled connection
 * (a different backend); if it gets the lock the owner is gone. The connection dying (process
 * crash, network loss, pg_terminate_backend) releases the lock, so a dead owner is visible from
 * every instance without timers or process ids.
 *
 * Embedded there is one backend: a session lock taken there would be re-entrant for every
 * request and die with nothing. The only owners that can exist are this process's, so the
 * in-process registry of open sessions is the liveness authority instead.
 */
import { hostname } from 'node:os';
import type pg from 'pg';
import { and, eq, sql } from 'drizzle-orm';
import type { Database, DbOrTx } from '../../db/database.js';
import { heldSessionLocks, LockClass, tryHoldSessionLock } from '../../db/locks.js';
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

export class OwnershipRegistry {
  readonly instance = `${hostname()}:${process.pid}:${newId().slice(0, 8)}`;
  private readonly live = new Map<string, LiveSession>();

  constructor(
    private readonly database: Database,
    private readonly clock: Clock,
    private readonly logger: Logger,
  ) {}

  get embedded(): boolean {
    return this.database.lifecycle === 'embedded';
  }

  /**
   * Opens a session. The lock is taken before the UUID is handed out or recorded, so every
   * owner id a run can name was locked first: "lock free" can only mean "gone".
   */
  async open(agentId: string): Promise<OwnershipSession> {
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
        // try-lock, not lock: a busy key means a hashtext collision with a live owner (or a
        // reconciler probing it this instant); a fresh UUID avoids waiting on a stranger.
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
      await this.database.db.insert(continuityOwners).values({ agentId, id: ownerId, instance: this.instance, openedAt });
    } catch (error) {
      end('closed');
      throw error;
    }
    this.logger.info('continuity owner opened', { agentId, ownerId });
    return session;
  }

  /** The subset of `ownerIds` that are alive, decided by the lock protocol (see the file comment). */
  async alive(ownerIds: string[]): Promise<Set<string>> {
    const unique = [...new Set(ownerIds)];
    if (this.embedded) return new Set(unique.filter((id) => this.live.has(id)));
    const connection = await this.database.pool.connect();
    try {
      return await heldSessionLocks(connection, LockClass.continuityOwner, unique);
    } finally {
      connection.release();
    }
  }

  /**
   * Liveness checked on a connection the caller already holds (inside its transaction): never a
   * second pooled connection, which a full pool could not give. That connection is not the
   * owner's, so the try-lock protocol holds; the lock it may get is released in the statement.
   */
  async isAliveOn(tx: DbOrTx, ownerId: string): Promise<boolean> {
    if (this.embedded) return this.live.has(ownerId);
    const { rows } = await tx.execute<{ held: boolean }>(
      sql`SELECT CASE WHEN pg_try_advisory_lock(${LockClass.continuityOwner}::int, hashtext(${ownerId}))
                      THEN NOT pg_advisory_unlock(${LockClass.continuityOwner}::int, hashtext(${ownerId}))
                      ELSE true END AS held`,
    );
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
