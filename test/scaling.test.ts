/**
 * docs/scaling.md promises a path to a distributed PostgreSQL (Citus) sharded by agent: every
 * per-agent table's primary key and unique constraints/indexes include agent_id, so each can be
 * distributed by it. This reads the catalog of a freshly migrated database and fails on any
 * table that breaks that, apart from the global tables docs/scaling.md lists (and why).
 */
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../src/db/database.js';
import { openDatabase } from '../src/db/database.open.js';
import { migrate } from '../src/db/migrator.js';
import { createTestDatabase, type TestDatabase } from './support/harness.js';

let testDatabase: TestDatabase;
let database: Database;
beforeAll(async () => {
  testDatabase = await createTestDatabase();
  database = await openDatabase(testDatabase.config);
  await migrate(database.pool);
});
afterAll(async () => {
  await database?.close();
  await testDatabase?.drop();
});

/** The tables docs/scaling.md names under "Tables not keyed by agent_id". */
function documentedGlobalTables(): Map<string, string> {
  const doc = readFileSync(new URL('../docs/scaling.md', import.meta.url), 'utf8');
  const section = doc.split(/^## /m).find((part) => part.startsWith('Tables not keyed by agent_id'));
  if (!section) throw new Error('docs/scaling.md has no "## Tables not keyed by agent_id" section');
  const tables = new Map<string, string>();
  for (const match of section.matchAll(/^\| `([a-z0-9_]+)` \| ([^|]+) \|/gm)) tables.set(match[1], match[2].trim());
  return tables;
}

describe('the Citus path', () => {
  it('every primary key and unique constraint or index includes agent_id, apart from the documented global tables', async () => {
    const { rows } = await database.pool.query<{ table: string; index: string; columns: string[] }>(`
      SELECT c.relname AS table, ic.relname AS index,
             array_agg(a.attname::text ORDER BY k.ord) AS columns
        FROM pg_index i
        JOIN pg_class c ON c.oid = i.indrelid
        JOIN pg_namespace n ON n.oid = c.relnamespace
        JOIN pg_class ic ON ic.oid = i.indexrelid
        CROSS JOIN LATERAL unnest(i.indkey) WITH ORDINALITY AS k(attnum, ord)
        LEFT JOIN pg_attribute a ON a.attrelid = c.oid AND a.attnum = k.attnum
       WHERE n.nspname = current_schema() AND c.relkind IN ('r', 'p') AND i.indisunique
       GROUP BY c.relname, ic.relname
       ORDER BY 1, 2`);
    expect(rows.length).toBeGreaterThan(10);
    const global = documentedGlobalTables();
    const offenders = rows.filter((row) => !global.has(row.table) && !row.columns.includes('agent_id')).map((row) => `${row.table}.${row.index} (${row.columns.join(', ')})`);
    expect(offenders, 'unique keys without agent_id: add agent_id or document the table in docs/scaling.md').toEqual([]);

    // Every documented exception exists (the list does not rot) and agents is keyed by its id.
    const tables = new Set(rows.map((row) => row.table));
    expect([...global.keys()].filter((table) => !tables.has(table))).toEqual([]);
    expect(rows.find((row) => row.table === 'agents' && row.index === 'agents_pkey')?.columns).toEqual(['id']);
  });
});
