import { cpSync, mkdtempSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { afterEach, describe, expect, it } from 'vitest';
import type { Database } from '../src/db/database.js';
import { openDatabase } from '../src/db/database.open.js';
import { DEFAULT_MIGRATIONS_DIR, loadMigrations, migrate, MigrationError } from '../src/db/migrator.js';
import { createTestDatabase, hasRealServer, NEEDS_REAL_SERVER, type TestDatabase } from './support/harness.js';

const opened: { database: Database; testDatabase: TestDatabase }[] = [];
afterEach(async () => {
  for (const { database, testDatabase } of opened.splice(0)) {
    await database.close();
    await testDatabase.drop();
  }
});

async function freshDatabase() {
  const testDatabase = await createTestDatabase();
  const database = await openDatabase(testDatabase.config);
  opened.push({ database, testDatabase });
  return database;
}

/** A copy of drizzle/ that a test may tamper with. */
function migrationsCopy(): string {
  const dir = mkdtempSync(join(tmpdir(), 'burrow-migrations-'));
  cpSync(DEFAULT_MIGRATIONS_DIR, dir, { recursive: true });
  return dir;
}

/** A copy of drizzle/ with one harmless migration appended, so there are always at least three. */
function migrationsWithExtra(): string {
  const dir = migrationsCopy();
  const j = journal(dir);
  const value = j.read();
  const idx = value.entries.length;
  const tag = `${String(idx).padStart(4, '0')}_test_extra`;
  value.entries.push({ ...value.entries.at(-1)!, idx, tag });
  j.write(value);
  writeFileSync(join(dir, `${tag}.sql`), 'CREATE TABLE test_extra (id int);');
  return dir;
}

function journal(dir: string) {
  const path = join(dir, 'meta', '_journal.json');
  return {
    read: () => JSON.parse(readFileSync(path, 'utf8')) as { entries: { idx: number; tag: string }[] },
    write: (value: unknown) => writeFileSync(path, JSON.stringify(value, null, 2)),
  };
}

describe('the migration ledger', () => {
  it('applies every migration once and records name and SHA-256 checksum', async () => {
    const database = await freshDatabase();
    const files = loadMigrations();
    expect((await migrate(database.pool)).applied).toEqual(files.map((f) => f.name));
    expect((await migrate(database.pool)).applied).toEqual([]);
    const { rows } = await database.pool.query('SELECT version, name, checksum, applied_at FROM burrow_schema_migrations ORDER BY version');
    expect(rows.map((r) => [r.version, r.name, r.checksum])).toEqual(files.map((f) => [f.version, f.name, f.checksum]));
    expect(rows[0].checksum).toMatch(/^[0-9a-f]{64}$/);
    expect(rows[0].applied_at).toBeInstanceOf(Date);
  });

  it('refuses to start when an applied migration changed, naming it', async () => {
    const database = await freshDatabase();
    await migrate(database.pool);
    const dir = migrationsCopy();
    const first = loadMigrations(dir)[0];
    writeFileSync(join(dir, `${first.name}.sql`), `${first.sql}\n-- edited later\n`);
    await expect(migrate(database.pool, loadMigrations(dir))).rejects.toThrow(new RegExp(`migration 0 "${first.name}" changed after it was applied .*append-only`));
  });

  it('refuses a renamed migration', async () => {
    const database = await freshDatabase();
    await migrate(database.pool);
    const dir = migrationsCopy();
    const j = journal(dir);
    const value = j.read();
    const oldTag = value.entries[1].tag;
    value.entries[1].tag = `${oldTag}_renamed`;
    j.write(value);
    renameSync(join(dir, `${oldTag}.sql`), join(dir, `${oldTag}_renamed.sql`));
    await expect(migrate(database.pool, loadMigrations(dir))).rejects.toThrow(`migration 1 was renamed: the database applied "${oldTag}", the code calls it "${oldTag}_renamed"`);
  });

  it('refuses a gap: a migration missing from the code', async () => {
    const dir = migrationsWithExtra();
    const j = journal(dir);
    const value = j.read();
    const last = value.entries.length - 1;
    value.entries.splice(last - 1, 1);
    j.write(value);
    expect(() => loadMigrations(dir)).toThrow(MigrationError);
    expect(() => loadMigrations(dir)).toThrow(new RegExp(`migration ${last - 1} is missing .*gap before ${last} `));
  });

  it('refuses a gap in the ledger: a later migration applied without an earlier one', async () => {
    const database = await freshDatabase();
    const files = loadMigrations(migrationsWithExtra());
    await migrate(database.pool, files);
    await database.pool.query('DELETE FROM burrow_schema_migrations WHERE version = 1');
    await expect(migrate(database.pool, files)).rejects.toThrow(`gap in the ledger: migration 1 "${files[1].name}" was never applied but later migration 2 "${files[2].name}" was`);
  });

  it('refuses a database that is ahead of the code', async () => {
    const database = await freshDatabase();
    await migrate(database.pool);
    await database.pool.query(`INSERT INTO burrow_schema_migrations (version, name, checksum) VALUES (999, '0999_from_the_future', 'abc')`);
    await expect(migrate(database.pool)).rejects.toThrow('the database is ahead of this code: it has migration 999 "0999_from_the_future"');
  });

  it('applies nothing when it refuses (validation and application are one transaction)', async () => {
    const database = await freshDatabase();
    await migrate(database.pool);
    const dir = migrationsCopy();
    const j = journal(dir);
    const value = j.read();
    value.entries.push({ ...value.entries.at(-1)!, idx: value.entries.length, tag: `${String(value.entries.length).padStart(4, '0')}_new_table` });
    j.write(value);
    writeFileSync(join(dir, `${value.entries.at(-1)!.tag}.sql`), 'CREATE TABLE should_not_exist (id int);');
    await database.pool.query(`UPDATE burrow_schema_migrations SET checksum = 'tampered' WHERE version = 0`);
    await expect(migrate(database.pool, loadMigrations(dir))).rejects.toThrow(/changed after it was applied/);
    const { rows } = await database.pool.query(`SELECT to_regclass('should_not_exist') AS t`);
    expect(rows[0].t).toBeNull();
  });
});

describe('a migration that fails', () => {
  it('names the migration, the SQLSTATE and what to do, and applies nothing', async () => {
    const database = await freshDatabase();
    // A leftover table Burrow never recorded: the first migration creates it too.
    await database.pool.query('CREATE TABLE api_tokens (id text)');
    const files = loadMigrations();
    const failure = await migrate(database.pool).then(
      () => null,
      (error: unknown) => error,
    );
    expect(failure).toBeInstanceOf(MigrationError);
    const message = (failure as Error).message;
    expect(message).toContain(`migration 0 "${files[0].name}" failed`);
    expect(message).toContain('SQLSTATE 42P07');
    expect(message).toContain('an object it creates already exists');
    expect(message).toContain('Nothing of this run was applied');
    const ledger = await database.pool.query("SELECT to_regclass('burrow_schema_migrations') AS t");
    expect(ledger.rows[0].t).toBeNull();
  });
});

describe.skipIf(!hasRealServer)(`concurrent migrators (${NEEDS_REAL_SERVER})`, () => {
  it('lets 5 pools migrate the same empty database at once: all succeed, one ledger row per migration', async () => {
    const testDatabase = await createTestDatabase({ real: true });
    const pools = Array.from({ length: 5 }, () => new pg.Pool({ connectionString: testDatabase.url!, max: 2 }));
    // DROP DATABASE … WITH (FORCE) can terminate a backend whose client is still ending (57P01).
    for (const pool of pools) pool.on('error', () => {});
    try {
      const results = await Promise.all(pools.map((pool) => migrate(pool)));
      const files = loadMigrations();
      expect(results.filter((r) => r.applied.length === files.length)).toHaveLength(1);
      expect(results.filter((r) => r.applied.length === 0)).toHaveLength(4);
      const { rows } = await pools[0].query('SELECT version, count(*)::int AS n FROM burrow_schema_migrations GROUP BY version ORDER BY version');
      expect(rows).toEqual(files.map((f) => ({ version: f.version, n: 1 })));
    } finally {
      await Promise.all(pools.map((pool) => pool.end()));
      await testDatabase.drop();
    }
  });
});
