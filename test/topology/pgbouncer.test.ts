/**
 * Through PgBouncer in transaction pooling mode (scripts/test-pgbouncer.sh): pooled statements
 * never depend on a named prepared statement surviving its transaction, and LISTEN, the owners'
 * session locks and migrations run on the direct connection (BURROW_POSTGRES_DIRECT_URL).
 * Runs when BURROW_TEST_POOLER_URL names the pooler in front of BURROW_TEST_DATABASE_URL's server.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, POOLER_URL, REAL_DATABASE_URL, startServer, type TestDatabase, type TestServer } from '../support/harness.js';
import { openOwner } from '../support/continuity.js';

const READY = POOLER_URL !== null && REAL_DATABASE_URL !== null;
const WHY = READY
  ? 'through PgBouncer (transaction pooling)'
  : 'skipped: needs BURROW_TEST_POOLER_URL and BURROW_TEST_DATABASE_URL (bash scripts/test-pgbouncer.sh start prints them)';

/** The backend pids PgBouncer's server connections hold: a backend not among them was reached directly. */
async function pooledBackendPids(): Promise<Set<number>> {
  const admin = new URL(POOLER_URL!);
  admin.pathname = '/pgbouncer';
  const client = new pg.Client({ connectionString: admin.toString() });
  await client.connect();
  try {
    const { rows } = await client.query<{ remote_pid: string }>('SHOW SERVERS');
    return new Set(rows.map((row) => Number(row.remote_pid)));
  } finally {
    await client.end();
  }
}

describe.skipIf(!READY)(`a transaction pooler in front of the pooled connections (${WHY})`, () => {
  let database: TestDatabase;
  let a: TestServer;
  let b: TestServer;

  beforeAll(async () => {
    database = await createTestDatabase();
    a = await startServer({ database });
    b = await startServer({ database });
  });
  afterAll(async () => {
    await b?.stop();
    await a?.stop();
    await database?.drop();
  });

  it('a named statement does not survive its transaction there; Burrow pool sends it unnamed and keeps working', async () => {
    // The hazard, with plain clients: A prepares on the one server connection, B's transaction
    // then holds that connection, and A's next execution lands on a new one.
    const fresh = await createTestDatabase();
    const plainA = new pg.Client({ connectionString: fresh.pooledUrl });
    const plainB = new pg.Client({ connectionString: fresh.pooledUrl });
    await plainA.connect();
    await plainB.connect();
    try {
      const probe = { name: 'burrow_probe', text: 'SELECT 1 AS one' };
      expect((await plainA.query(probe)).rows).toEqual([{ one: 1 }]);
      await plainB.query('BEGIN');
      await plainB.query('SELECT 1');
      await expect(plainA.query(probe)).rejects.toThrow('prepared statement "burrow_probe" does not exist');
      await plainB.query('ROLLBACK');
    } finally {
      await plainA.end();
      await plainB.end();
    }

    // The same sequence on Burrow's pool: the name is dropped, so each execution parses anew.
    const held = new pg.Client({ connectionString: database.pooledUrl });
    await held.connect();
    try {
      const probe = { name: 'burrow_probe', text: 'SELECT $1::int AS one', values: [1] };
      expect((await a.database.pool.query(probe)).rows).toEqual([{ one: 1 }]);
      await held.query('BEGIN');
      await held.query('SELECT 1');
      expect((await a.database.pool.query(probe)).rows).toEqual([{ one: 1 }]);
      await held.query('ROLLBACK');
    } finally {
      await held.end();
      await fresh.drop();
    }
  });

  it("two instances' requests interleave transactions through the pooler: named reads (preparedSelect, .prepare) and writes all answer", async () => {
    const ada = await a.agentClient('ada');
    const adaOnB = await b.agentClient('ada');
    const rounds = 12;
    const results = await Promise.all(
      Array.from({ length: rounds }, async (_, i) => {
        const writer = i % 2 ? ada : adaOnB;
        const reader = i % 2 ? adaOnB : ada;
        const saved = await writer.brainSave({ input: { title: `note ${i}`, content: `pooled kiwi ${i}` } });
        // agent(id) and agents: preparedSelect; brainSearch: Drizzle's .prepare(name).
        const [agent, agents, search] = await Promise.all([
          reader.agent({ id: 'ada' }),
          (i % 2 ? a : b).operator.agents({ first: 10 }),
          reader.brainSearch({ query: 'kiwi', first: 50 }),
        ]);
        return { saved: saved.brainSave.__typename, agent: agent.agent?.agentId, agents: agents.agents.edges.map((e) => e.node.agentId), hits: search.brainSearch.hits.length };
      }),
    );
    for (const result of results) {
      expect(result.saved).toBe('BrainSaveSuccess');
      expect(result.agent).toBe('ada');
      expect(result.agents).toEqual(['ada']);
      expect(result.hits).toBeGreaterThanOrEqual(1);
    }
    expect((await ada.brainSearch({ query: 'kiwi', first: 50 })).brainSearch.hits).toHaveLength(rounds);
  });

  it('pooled queries go through PgBouncer; LISTEN, an owner lock and the migration connection go to the server directly', async () => {
    const ada = await a.agentClient('ada');
    const owner = await openOwner(ada);
    try {
      const pooled = await pooledBackendPids();
      const { rows: viaPool } = await a.database.pool.query<{ pid: number }>('SELECT pg_backend_pid() AS pid');
      expect(pooled.has(viaPool[0].pid)).toBe(true);

      const direct = new pg.Client({ connectionString: database.url! });
      await direct.connect();
      try {
        const { rows: listeners } = await direct.query<{ pid: number }>("SELECT pid FROM pg_stat_activity WHERE datname = current_database() AND query LIKE 'LISTEN %'");
        // Each instance's one listening connection.
        expect(listeners).toHaveLength(2);
        const { rows: owners } = await direct.query<{ pid: number }>(
          `SELECT l.pid FROM pg_locks l JOIN pg_stat_activity s USING (pid)
            WHERE l.locktype = 'advisory' AND l.classid = 1003 AND l.granted AND s.application_name = $1`,
          [`burrow-owner:${owner.ownerId}`],
        );
        expect(owners).toHaveLength(1);
        const { rows: migrator } = await a.database.migrationPool!.query<{ pid: number }>('SELECT pg_backend_pid() AS pid');
        const again = await pooledBackendPids();
        for (const { pid } of [...listeners, ...owners, ...migrator]) expect(again.has(pid)).toBe(false);
      } finally {
        await direct.end();
      }
    } finally {
      await owner.close();
    }
  });
});

describe('nothing session-scoped is left on a pooled connection', () => {
  it('every SET in src is SET LOCAL or sits on a dedicated connection, set_config is transaction-local, and no temporary table is created', () => {
    const files: string[] = [];
    const walk = (dir: string) => {
      for (const name of readdirSync(dir)) {
        const path = join(dir, name);
        if (statSync(path).isDirectory()) walk(path);
        else if (path.endsWith('.ts')) files.push(path);
      }
    };
    walk('src');
    const found: string[] = [];
    for (const file of files) {
      const text = readFileSync(file, 'utf8');
      for (const match of text.matchAll(/['"`]\s*SET\s+(?!LOCAL\b)[a-z_]+\s*(=|TO\b)/gi)) found.push(`${file}: ${match[0]}`);
      for (const match of text.matchAll(/set_config\([^)]*\)/gi)) if (!/,\s*true\s*\)$/.test(match[0])) found.push(`${file}: ${match[0]}`);
      for (const match of text.matchAll(/CREATE\s+(TEMP|TEMPORARY)\s+TABLE|DISCARD\s+(ALL|TEMP|PLANS|SEQUENCES)|\bpg_advisory_lock\b/gi)) found.push(`${file}: ${match[0]}`);
    }
    // The owner's application_name and its session lock: on the owner's dedicated (direct) connection.
    expect(found.sort()).toEqual(['src/db/locks.ts: pg_advisory_lock', 'src/domains/continuity/ownership.ts: `SET application_name =']);
  });
});
