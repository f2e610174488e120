/**
 * Applies drizzle/ migrations under a ledger. Everything (lock, validation, application) happens
 * in one transaction holding a transaction-scoped advisory lock, so concurrent starters
 * serialise: one applies, the others find the work done. History is never rewritten: a changed,
 * renamed, missing or unknown migration stops startup with the reason.
 */
import { readFileSync, existsSync } from 'node:fs';
import { join } from 'node:path';
import type pg from 'pg';
import { sha256Hex } from '../lib/ids.js';
import { packagePath } from '../lib/package-path.js';

export interface MigrationFile {
  version: number;
  name: string;
  sql: string;
  checksum: string;
}

export class MigrationError extends Error {}

/** Fixed advisory lock key of the migrator ("burrow.migrate"). */
const MIGRATION_LOCK_KEY = 727_140_113;
const STATEMENT_BREAKPOINT = '--> statement-breakpoint';

export const DEFAULT_MIGRATIONS_DIR = packagePath('drizzle/');

/** Reads the migrations drizzle-kit wrote: the journal gives order and names. */
export function loadMigrations(dir = DEFAULT_MIGRATIONS_DIR): MigrationFile[] {
  const journalPath = join(dir, 'meta', '_journal.json');
  if (!existsSync(journalPath)) throw new MigrationError(`no migration journal at ${journalPath}`);
  const journal = JSON.parse(readFileSync(journalPath, 'utf8')) as { entries: { idx: number; tag: string }[] };
  const files = journal.entries.map((entry) => {
    const path = join(dir, `${entry.tag}.sql`);
    if (!existsSync(path)) throw new MigrationError(`migration ${entry.idx} "${entry.tag}" is in the journal but ${path} is missing`);
    const sql = readFileSync(path, 'utf8');
    return { version: entry.idx, name: entry.tag, sql, checksum: sha256Hex(sql) };
  });
  files.sort((a, b) => a.version - b.version);
  files.forEach((file, index) => {
    if (file.version !== index) {
      throw new MigrationError(`migration ${index} is missing from ${dir} (gap before ${file.version} "${file.name}")`);
    }
  });
  return files;
}

interface LedgerRow {
  version: number;
  name: string;
  checksum: string;
}

/** Explains why the ledger and the code disagree, or returns null when they agree. */
export function validateLedger(ledger: LedgerRow[], files: MigrationFile[]): string | null {
  const byVersion = new Map(files.map((file) => [file.version, file]));
  const newestKnown = files.length - 1;
  for (const [index, row] of ledger.entries()) {
    const file = byVersion.get(row.version);
    if (!file) {
      return row.version > newestKnown
        ? `the database is ahead of this code: it has migration ${row.version} "${row.name}", which this release does not know; run the newer Burrow that applied it`
        : `the database records unknown migration ${row.version} "${row.name}"`;
    }
    if (row.name !== file.name) {
      return `migration ${row.version} was renamed: the database applied "${row.name}", the code calls it "${file.name}"`;
    }
    if (row.checksum !== file.checksum) {
      return `migration ${row.version} "${row.name}" changed after it was applied (checksum ${row.checksum.slice(0, 12)}… in the database, ${file.checksum.slice(0, 12)}… in the code); migrations are append-only`;
    }
    if (row.version !== index) {
      const missing = files[index];
      return `gap in the ledger: migration ${index} "${missing?.name ?? '?'}" was never applied but later migration ${row.version} "${row.name}" was`;
    }
  }
  return null;
}

/**
 * Names the migration that failed, PostgreSQL's reason and SQLSTATE, and what to do. Nothing of
 * it was applied: the whole run is one transaction.
 */
function failedMigrationMessage(file: MigrationFile, error: unknown): string {
  const { message, code } = error as { message?: string; code?: string };
  const reason = `${message ?? String(error)}${code ? ` (SQLSTATE ${code})` : ''}`;
  const advice =
    code === '42P07' || code === '42710' || code === '42701'
      ? 'an object it creates already exists: this database holds tables Burrow did not record in burrow_schema_migrations; point Burrow at an empty database, or remove the leftover objects'
      : code === '42501'
        ? 'the database user lacks a privilege it needs: run migrations as the owner of the database'
        : 'fix the cause in the database and start again';
  return `migration ${file.version} "${file.name}" failed: ${reason}. Nothing of this run was applied (it is one transaction); ${advice}.`;
}

export async function migrate(pool: pg.Pool, files: MigrationFile[] = loadMigrations()): Promise<{ applied: string[] }> {
  const client = await pool.connect();
  let rollbackFailed = false;
  try {
    await client.query('BEGIN');
    await client.query('SELECT pg_advisory_xact_lock($1)', [MIGRATION_LOCK_KEY]);
    await client.query(`CREATE TABLE IF NOT EXISTS burrow_schema_migrations (
      version integer PRIMARY KEY,
      name text NOT NULL,
      checksum text NOT NULL,
      applied_at timestamptz NOT NULL DEFAULT now()
    )`);
    const { rows } = await client.query<LedgerRow>('SELECT version, name, checksum FROM burrow_schema_migrations ORDER BY version');
    const problem = validateLedger(rows, files);
    if (problem) throw new MigrationError(`refusing to migrate: ${problem}`);
    const applied: string[] = [];
    for (const file of files.slice(rows.length)) {
      try {
        for (const statement of file.sql.split(STATEMENT_BREAKPOINT)) {
          if (statement.trim()) await client.query(statement);
        }
      } catch (error) {
        throw new MigrationError(failedMigrationMessage(file, error));
      }
      await client.query('INSERT INTO burrow_schema_migrations (version, name, checksum) VALUES ($1, $2, $3)', [file.version, file.name, file.checksum]);
      applied.push(file.name);
    }
    await client.query('COMMIT');
    return { applied };
  } catch (error) {
    await client.query('ROLLBACK').catch(() => {
      rollbackFailed = true;
    });
    if (error instanceof MigrationError) throw error;
    throw new MigrationError(`migration failed: ${(error as Error).message}`);
  } finally {
    // A client whose rollback failed is in an unknown state: discard it rather than reuse it.
    client.release(rollbackFailed ? true : undefined);
  }
}
