/**
 * The external lifecycle's version and connection rules, on whatever real server
 * BURROW_TEST_DATABASE_URL names (CI: PostgreSQL 17, and the machine's PostgreSQL 15), else on
 * the PostgreSQL 17 that a plain `npm test` starts.
 * Configuration goes through loadConfig, as a deployment's environment would.
 */
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../src/config.js';
import { StartupError } from '../src/db/database.js';
import { openDatabase } from '../src/db/database.open.js';
import { createTestDatabase, hasRealServer, NEEDS_REAL_SERVER, REAL_SERVER_URL, startServer, type TestDatabase } from './support/harness.js';

async function serverMajor(): Promise<number> {
  const client = new pg.Client({ connectionString: REAL_SERVER_URL! });
  await client.connect();
  try {
    return Math.floor(Number((await client.query(`SELECT current_setting('server_version_num') AS n`)).rows[0].n) / 10000);
  } finally {
    await client.end();
  }
}

const major = hasRealServer ? await serverMajor() : 0;

async function opens(env: Record<string, string>): Promise<string> {
  const database = await openDatabase(loadConfig({ BURROW_POSTGRES_LIFECYCLE: 'external', ...env }).database);
  try {
    return (await database.pool.query<{ db: string }>('SELECT current_database() AS db')).rows[0].db;
  } finally {
    await database.close();
  }
}

async function refusal(env: Record<string, string>): Promise<string> {
  try {
    await opens(env);
  } catch (error) {
    expect(error).toBeInstanceOf(StartupError);
    return (error as Error).message;
  }
  throw new Error('expected startup to be refused');
}

describe.skipIf(!hasRealServer)(`external lifecycle on the real server (${hasRealServer ? `PostgreSQL ${major}` : NEEDS_REAL_SERVER})`, () => {
  let database: TestDatabase;
  beforeAll(async () => {
    database = await createTestDatabase({ real: true });
  });
  afterAll(async () => {
    await database?.drop();
  });

  it('refuses a server below the required major (default 17) naming the variable and the fix, and opens one at or above it', async () => {
    const config = loadConfig({ BURROW_POSTGRES_LIFECYCLE: 'external', BURROW_POSTGRES_URL: database.url! }).database;
    expect(config.lifecycle === 'external' && config.requiredMajor).toBe(17);
    const below = (required: number) =>
      new RegExp(
        `is version ${major}\\.\\d+.* \\(major ${major}\\), below BURROW_POSTGRES_REQUIRED_MAJOR=${required}: upgrade the server or set BURROW_POSTGRES_REQUIRED_MAJOR=${major} if you accept it`,
      );
    // The default: CI's PostgreSQL 15 step is below it, the PostgreSQL 17 passes at it.
    if (major < 17) expect(await refusal({ BURROW_POSTGRES_URL: database.url! })).toMatch(below(17));
    else expect(await opens({ BURROW_POSTGRES_URL: database.url! })).toBe(database.name);
    // One above the server's own major refuses on any server; its own major opens.
    expect(await refusal({ BURROW_POSTGRES_URL: database.url!, BURROW_POSTGRES_REQUIRED_MAJOR: String(major + 1) })).toMatch(below(major + 1));
    expect(await opens({ BURROW_POSTGRES_URL: database.url!, BURROW_POSTGRES_REQUIRED_MAJOR: String(major) })).toBe(database.name);
  });

  it('connects with BURROW_POSTGRES_URL over DATABASE_URL over the individual fields', async () => {
    const url = new URL(database.url!);
    const accept = { BURROW_POSTGRES_REQUIRED_MAJOR: String(major) };
    const unreachable = 'postgres://nobody@127.0.0.1:1/none';
    expect(await opens({ ...accept, BURROW_POSTGRES_URL: database.url!, DATABASE_URL: unreachable, BURROW_POSTGRES_PORT: '1' })).toBe(database.name);
    expect(await opens({ ...accept, DATABASE_URL: database.url!, BURROW_POSTGRES_PORT: '1' })).toBe(database.name);
    expect(
      await opens({
        ...accept,
        BURROW_POSTGRES_HOST: url.hostname,
        BURROW_POSTGRES_PORT: url.port || '5432',
        BURROW_POSTGRES_DATABASE: database.name!,
        BURROW_POSTGRES_USER: decodeURIComponent(url.username),
      }),
    ).toBe(database.name);
    // Try once (no startup retry): the URL named first is the one refused, whatever DATABASE_URL says.
    expect(await refusal({ ...accept, BURROW_POSTGRES_CONNECT_TIMEOUT_S: '0', BURROW_POSTGRES_URL: unreachable, DATABASE_URL: database.url! })).toMatch(
      /^cannot connect to PostgreSQL at 127\.0\.0\.1:1\/none after trying for 0 s \(BURROW_POSTGRES_CONNECT_TIMEOUT_S\) \(.*\): check BURROW_POSTGRES_URL/,
    );
  });

  it('reports whether the vector extension is installed instead of failing, and creates nothing', async () => {
    const extensions = async (pool: pg.Pool | pg.Client) => (await pool.query(`SELECT extname FROM pg_extension ORDER BY extname`)).rows.map((r) => r.extname);
    const admin = new pg.Client({ connectionString: database.url! });
    await admin.connect();
    const before = await extensions(admin).finally(() => admin.end());
    const opened = await openDatabase(
      loadConfig({ BURROW_POSTGRES_LIFECYCLE: 'external', BURROW_POSTGRES_URL: database.url!, BURROW_POSTGRES_REQUIRED_MAJOR: String(major) }).database,
    );
    try {
      const installed = (await opened.pool.query(`SELECT count(*)::int AS n FROM pg_extension WHERE extname = 'vector'`)).rows[0].n === 1;
      expect(opened.capabilities.vector).toBe(installed);
      expect(opened.capabilities.vectorReason).toBe(
        installed
          ? null
          : `the vector extension is not installed in database ${new URL(database.url!).hostname}:${new URL(database.url!).port || 5432}/${database.name}; Brain search stays lexical`,
      );
      expect(await extensions(opened.pool)).toEqual(before);
      // The administrator made pg_trgm (createTestDatabase does what the README asks of one).
      expect(before).toContain('pg_trgm');
    } finally {
      await opened.close();
    }
  });

  it('refuses a database without pg_trgm, naming the statement an administrator runs, and creates nothing', async () => {
    const bare = await createTestDatabase({ real: true, withTrgm: false });
    const admin = new pg.Client({ connectionString: bare.url! });
    await admin.connect();
    try {
      const env = { BURROW_POSTGRES_URL: bare.url!, BURROW_POSTGRES_REQUIRED_MAJOR: String(major) };
      const display = `${new URL(bare.url!).hostname}:${new URL(bare.url!).port || 5432}/${bare.name}`;
      expect(await refusal(env)).toBe(
        `the pg_trgm extension is not installed in database ${display}; Burrow's search needs it and an external database gets no extension from Burrow: have an administrator (or the database owner: pg_trgm is a trusted extension) run \`CREATE EXTENSION pg_trgm;\` in that database, then start again`,
      );
      const extensions = async () => (await admin.query(`SELECT extname FROM pg_extension ORDER BY extname`)).rows.map((r) => r.extname);
      const tables = async () => (await admin.query(`SELECT count(*)::int AS n FROM pg_tables WHERE schemaname NOT IN ('pg_catalog', 'information_schema')`)).rows[0].n;
      expect([await extensions(), await tables()]).toEqual([['plpgsql'], 0]);
      // The statement the message names is all it takes: then the server starts and migrates.
      await admin.query('CREATE EXTENSION pg_trgm;');
      const server = await startServer({ database: bare });
      await server.agentClient('ext-trgm-after');
      await server.stop();
      expect(await extensions()).toEqual(['pg_trgm', 'plpgsql']);
    } finally {
      await admin.end();
      await bare.drop();
    }
  });

  it('never creates a database or a role: not on a full start with migrations, not for a database that does not exist', async () => {
    const admin = new pg.Client({ connectionString: REAL_SERVER_URL! });
    await admin.connect();
    const catalog = async () => ({
      databases: (await admin.query(`SELECT datname FROM pg_database WHERE datname NOT LIKE 'burrow_t_%' ORDER BY datname`)).rows.map((r) => r.datname),
      roles: (await admin.query(`SELECT rolname FROM pg_roles ORDER BY rolname`)).rows.map((r) => r.rolname),
    });
    try {
      const before = await catalog();
      const fresh = await createTestDatabase({ real: true });
      try {
        const server = await startServer({ database: fresh });
        await server.agentClient('ext-nothing-created');
        await server.stop();
      } finally {
        await fresh.drop();
      }
      const missing = new URL(database.url!);
      missing.pathname = '/burrow_t_never_created';
      expect(await refusal({ BURROW_POSTGRES_URL: missing.toString(), BURROW_POSTGRES_REQUIRED_MAJOR: String(major) })).toContain('burrow_t_never_created');
      expect((await admin.query(`SELECT count(*)::int AS n FROM pg_database WHERE datname = 'burrow_t_never_created'`)).rows[0].n).toBe(0);
      expect(await catalog()).toEqual(before);
    } finally {
      await admin.end();
    }
  });
});
