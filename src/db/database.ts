/**
 * What the rest of Burrow sees of the database: the Database handle, Drizzle's types, and the
 * error a failed start raises. One code path to the database: a pg.Pool with Drizzle over it.
 * Embedded (db/database.embedded.ts), the Pool is handed a PGlite instance (one backend, so the
 * Pool has size 1); external (db/database.external.ts), it connects to a server; managed
 * (db/managed.ts), Burrow runs the server itself and connects over its private socket.
 * db/database.open.ts picks one. This module holds types only (and StartupError), so the
 * openers, the managed lifecycle and the notification batcher all import it without a loop.
 */
import type pg from 'pg';
import type { NodePgDatabase } from 'drizzle-orm/node-postgres';
import type { ManagedSupervisor } from './managed.types.js';

export type Db = NodePgDatabase<Record<string, never>>;
/** A Drizzle handle that is either the database or an open transaction. */
export type DbOrTx = Db | Parameters<Parameters<Db['transaction']>[0]>[0];

export interface Capabilities {
  serverVersion: string;
  serverMajor: number;
  /** pgvector is installed in this database, so embedding ranking can run. */
  vector: boolean;
  vectorReason: string | null;
}

export interface Database {
  lifecycle: 'embedded' | 'external' | 'managed';
  /** Human description for banners: never contains a password. */
  description: string;
  pool: pg.Pool;
  /** Where migrations run when `pool` goes through a transaction pooler: the direct connection (db/pooler.ts). */
  migrationPool?: pg.Pool;
  /** The reads that may lag, on read replicas when configured (db/replicas.ts); absent: all on `db`. */
  reads?: RoutedReads;
  db: Db;
  capabilities: Capabilities;
  /** Counts SQL statements issued through Drizzle; tests read it to prove constant query counts. */
  statements: { count: number; onQuery?: (query: string, params: unknown[]) => void };
  /**
   * LISTEN on the instance's one listening connection, shared by all channels (external, see
   * db/listener.ts) or PGlite's own listener (embedded). `onLost` is called once if that
   * connection dies; the caller re-listens (see events/hub.listen.ts, auth/token-watch.ts).
   */
  listen(channel: string, onPayload: (payload: string) => void, onLost?: (error: Error) => void): Promise<() => Promise<void>>;
  /** This process's own notifications (db/notify-after-commit.ts), heard at commit; returns the removal. */
  hearLocally(channel: string, onPayload: (payload: string) => void): () => void;
  /**
   * A connection of its own for a session-level lock that must live as long as something else
   * (continuity owners). Null embedded: there is only one backend.
   */
  openDedicatedConnection(): Promise<pg.Client | null>;
  /** Managed only: the postmaster's supervisor; readiness fails while it is not running. */
  supervisor?: ManagedSupervisor;
  close(): Promise<void>;
}

export interface ReplicaStatus {
  /** host:port/database */
  name: string;
  up: boolean;
  /** WAL bytes the primary has that the replica has not replayed (at the last probe). */
  lagBytes: number;
  /** Seconds since the replica's last replayed commit while it is behind; 0 when caught up. */
  lagSeconds: number;
  /** Reads served by this replica, and reads it handed to the primary (down, lagging, not caught up, failed). */
  reads: number;
}

/** The reads that may lag, routed: one reader per database (the primary's and each replica's), built once. */
export interface RoutedReads {
  per<R>(build: (db: Db) => R): RoutedReader<R>;
  /** Each replica's state, for /metrics (empty without replicas). */
  status(): ReplicaStatus[];
  /** Reads sent to the primary because no replica could serve them (none healthy, or not caught up in time). */
  primaryFallbacks(): number;
  close(): Promise<void>;
}

export interface RoutedReader<R> {
  run<T>(read: (reader: R) => Promise<T>): Promise<T>;
}

export class StartupError extends Error {}

export interface OpenOptions {
  /** Called once when the first connection attempt fails and startup starts retrying. */
  onWaiting?: (reason: string) => void;
  /**
   * A CLI command that runs a few statements and exits. Embedded, PostgreSQL then starts with a
   * small buffer cache: PGlite zeroes all of its shared memory at every start, and the 128 MB
   * default cache (plus the lock and process tables sized for 100 connections, where PGlite has
   * one backend) was ~0.4 s of every command (docs/performance.md). The server keeps the cache.
   */
  oneShot?: boolean;
  /**
   * The database is Burrow's own (the managed cluster): its migrations create pg_trgm, as the
   * embedded database's do. Only an operator's external database must already have it.
   */
  ownDatabase?: boolean;
}
