/**
 * Connection routing to the read-write server, with libpq's `target_session_attrs=read-write`
 * semantics: every connection Burrow opens on an external server (pooled, LISTEN, owner locks)
 * is a `RoutedClient`, which connects to the primary among the configured hosts and refuses a
 * server that is read-only (a hot standby, or a promoted one the failover engine still keeps
 * read-only). Nothing here replicates or promotes anything: the failover engine does that, and
 * this only finds which host it made the primary.
 *
 * The primary is remembered once found, so an ordinary connection costs one connect. A
 * connection to it that ends unexpectedly, or a server that turns read-only under a live
 * connection, makes it forgotten: the next connection probes every host again (all at once,
 * one short connection each) and takes the first in list order that is read-write. While none
 * is (the failover in progress), connecting fails with SQLSTATE 08001, which the error masker
 * answers as 503 DATABASE_UNAVAILABLE (retryable). A write refused as read-only (SQLSTATE 25006)
 * does the same: the connection is dropped once the statement ends and the primary forgotten.
 *
 * Through a transaction pooler (PgBouncer) the hosts are poolers: what they report at connect is
 * the first server connection's state, cached (PgBouncer 1.18 keeps `in_hot_standby=on` for a
 * standby it connected to, after that standby was promoted), and a demotion under a live client
 * connection is never reported at all. So there the server is asked at every connect, and a
 * 25006 is what tells a demotion.
 */
import pg from 'pg';
import { isConnectionLoss } from '../lib/connection-errors.js';
import { describeHosts, type HostPort } from './multi-host.js';

/** How long one probe may take to connect: a host that does not answer is skipped after it. */
const PROBE_CONNECT_TIMEOUT_MS = 3000;

/** Why a server was not used: read-only, or the reason it did not answer. */
type Verdict = { writable: true } | { writable: false; reason: string; error?: unknown };

/** SQLSTATE 08001 (sqlclient_unable_to_establish_sqlconnection), as libpq reports the same case. */
export class NoWritableServerError extends Error {
  readonly code = '08001';
}

interface ParameterStatus {
  parameterName: string;
  parameterValue: string;
}

/**
 * Whether the server behind `client` takes writes. PostgreSQL 14 and later report `in_hot_standby`
 * and `default_transaction_read_only` at connect (and again when they change), so that costs no
 * round trip; older servers are asked, as libpq asks them.
 */
async function readOnlyReason(client: pg.Client, reported: Map<string, string>, trustReported: boolean): Promise<string | null> {
  if (!trustReported || !reported.has('in_hot_standby')) {
    const { rows } = await client.query<{ transaction_read_only: string }>('SHOW transaction_read_only');
    return rows[0]?.transaction_read_only === 'on' ? 'read-only' : null;
  }
  if (reported.get('in_hot_standby') === 'on') return 'a standby in recovery';
  if (reported.get('default_transaction_read_only') === 'on') return 'read-only (default_transaction_read_only)';
  return null;
}

/**
 * Points a client not yet connected at `host`. Set after construction: node-postgres lets a
 * connection string's host win over a `host` option, and it connects to this.host/this.port (its
 * parameters carry them for TLS's server name).
 */
function aim(client: pg.Client, host: HostPort): void {
  client.host = host.host;
  client.port = host.port;
  const parameters = (client as unknown as { connectionParameters: { host: string; port: number } }).connectionParameters;
  parameters.host = host.host;
  parameters.port = host.port;
}

const describe = (error: unknown) => (error as Error).message || (error as { code?: string }).code || String(error);

export class PrimaryRouter {
  private known: HostPort | null = null;
  private search: Promise<HostPort> | null = null;

  /**
   * `hosts`: the candidates in order; empty means the connection string's own host (one server,
   * still checked to be read-write). `config`: everything else a connection needs. `pooler`:
   * the hosts are transaction poolers, whose reported parameters are not the server's (above).
   */
  constructor(
    readonly hosts: HostPort[],
    private readonly config: pg.ClientConfig,
    private readonly options: { pooler?: boolean } = {},
  ) {}

  /** Whether what a host reports at connect is its server's own state. */
  get trustReported(): boolean {
    return !this.options.pooler;
  }

  /** Where the next connection goes: the known primary, else the result of one shared probe. */
  async target(): Promise<HostPort | null> {
    if (this.hosts.length === 0) return null;
    if (this.known) return this.known;
    this.search ??= this.probeAll().finally(() => (this.search = null));
    return this.search;
  }

  /** `host` is no longer (or not) the primary: the next connection probes again. */
  forget(host: HostPort | null): void {
    if (host && this.known === host) this.known = null;
  }

  private async probeAll(): Promise<HostPort> {
    const verdicts = await Promise.all(this.hosts.map((host) => this.probe(host)));
    const index = verdicts.findIndex((verdict) => verdict.writable);
    if (index >= 0) return (this.known = this.hosts[index]);
    // A server that refuses us (password, missing database, TLS) will not start accepting us by a
    // failover: that is the error to report, at once, not "no primary yet".
    const refusal = verdicts.find((verdict) => !verdict.writable && verdict.error !== undefined && !isConnectionLoss(verdict.error));
    if (refusal && !refusal.writable) throw refusal.error;
    const reasons = verdicts.map((verdict, i) => `${describeHosts([this.hosts[i]])} ${verdict.writable ? 'writable' : verdict.reason}`);
    throw new NoWritableServerError(`no server accepts writes right now (${reasons.join('; ')}): a failover may be in progress; retry shortly`);
  }

  private async probe(host: HostPort): Promise<Verdict> {
    const reported = new Map<string, string>();
    const client = new pg.Client({ ...this.config, connectionTimeoutMillis: PROBE_CONNECT_TIMEOUT_MS });
    aim(client, host);
    client.on('error', () => {});
    (client as unknown as { connection: pg.Connection }).connection.on('parameterStatus', (message: ParameterStatus) =>
      reported.set(message.parameterName, message.parameterValue),
    );
    try {
      await client.connect();
      const reason = await readOnlyReason(client, reported, this.trustReported);
      return reason ? { writable: false, reason } : { writable: true };
    } catch (error) {
      return { writable: false, reason: describe(error), error };
    } finally {
      await client.end().catch(() => {});
    }
  }

  /** The pg.Client class Burrow's pool, listener and dedicated connections are made of. */
  clientClass(): typeof pg.Client {
    const router = this;
    return class RoutedClient extends pg.Client {
      private readonly reported = new Map<string, string>();
      private routedTo: HostPort | null = null;

      constructor(config?: string | pg.ClientConfig) {
        super(config);
        const connection = (this as unknown as { connection: pg.Connection }).connection;
        connection.on('parameterStatus', (message: ParameterStatus) => {
          this.reported.set(message.parameterName, message.parameterValue);
          // A server that turns read-only under a live connection (demoted without a restart):
          // never write through it. The 'error' reaches whoever holds the connection (the pool
          // drops an idle one; the listener and an owner treat it as lost).
          const turnedReadOnly = ['in_hot_standby', 'default_transaction_read_only'].includes(message.parameterName) && message.parameterValue === 'on';
          if (turnedReadOnly && (this as unknown as { _connected: boolean })._connected) this.refuse('the server turned read-only');
        });
        // A write refused as read-only: the server was demoted under this connection (through a
        // pooler, the only sign of it). The statement fails as it is (25006 is a connection
        // loss: 503 DATABASE_UNAVAILABLE); the connection ends once the server is ready for the
        // next one, so the pool drops it, and the next connection looks for the primary again.
        connection.on('errorMessage', (message: { code?: string }) => {
          if (message.code !== '25006') return;
          router.forget(this.routedTo);
          connection.once('readyForQuery', () => void this.end().catch(() => {}));
        });
        connection.once('end', () => {
          if (!(this as unknown as { _ending: boolean })._ending) router.forget(this.routedTo);
        });
      }

      private refuse(reason: string): void {
        router.forget(this.routedTo);
        this.emit('error', new NoWritableServerError(`${reason}: ${describeHosts(this.routedTo ? [this.routedTo] : [])}`));
        void this.end().catch(() => {});
      }

      override connect(): Promise<pg.Client>;
      override connect(callback: (err: Error | null, client?: pg.Client) => void): void;
      override connect(callback?: (err: Error | null, client?: pg.Client) => void): Promise<pg.Client> | void {
        const connected = this.connectToPrimary().then(() => this as pg.Client);
        if (!callback) return connected;
        connected.then((client) => callback(null, client), callback);
      }

      private async connectToPrimary(): Promise<void> {
        const target = await router.target();
        if (target) {
          this.routedTo = target;
          aim(this, target);
        }
        try {
          await super.connect();
        } catch (error) {
          router.forget(target);
          throw error;
        }
        const reason = await readOnlyReason(this, this.reported, router.trustReported).catch((error: unknown) => describe(error));
        if (reason) {
          router.forget(target);
          await this.end().catch(() => {});
          throw new NoWritableServerError(`${target ? describeHosts([target]) : 'the server'} is ${reason}; Burrow writes only through the primary`);
        }
      }
    };
  }
}
