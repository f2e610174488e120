/**
 * The command line as a user runs it: `npm run burrow -- …` (the built CLI in dist/), real
 * processes, real stdout/stderr and exit codes.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createBurrowClient } from '../clients/typescript/sdk.js';
import { createTestDatabase, hasRealServer, NEEDS_REAL_SERVER, onRealServer, REAL_SERVER_URL, waitUntil } from './support/harness.js';
import { ROOT, runNpm, spawnBurrow, userEnv, type CommandResult } from './support/shipped.js';

type Run = CommandResult & { kill?: () => Promise<unknown> };

/**
 * `npm run burrow -- ...args`, as the README has users run every command (the built CLI). With
 * `until`, returns once the running command's stdout satisfies it, with `kill` to stop it.
 */
async function burrow(args: string[], env: Record<string, string>, until?: (stdout: string) => boolean): Promise<Run> {
  const environment = userEnv({ BURROW_LOG_LEVEL: 'error', ...env });
  if (!until) return runNpm(['run', 'burrow', '--', ...args], environment);
  const running = spawnBurrow(args, environment);
  let ended: CommandResult | null = null;
  void running.exited.then((result) => (ended = result));
  await waitUntil(() => ended !== null || until(running.stdout()), `burrow ${args.join(' ')} printed what was awaited`, 120_000);
  if (ended) return ended;
  return { code: null, signal: null, stdout: running.stdout(), stderr: running.stderr(), kill: () => running.stop() };
}

/** `node scripts/burrow.mjs ...args`: the script itself, without npm's default lifecycle. */
function script(args: string[], env: Record<string, string>): Promise<CommandResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['scripts/burrow.mjs', ...args], { cwd: ROOT, env: userEnv({ BURROW_LOG_LEVEL: 'error', ...env }) });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk) => (stdout += chunk));
    child.stderr.on('data', (chunk) => (stderr += chunk));
    child.on('error', reject);
    child.on('close', (code, signal) => resolve({ code, signal, stdout, stderr }));
    child.stdin.end();
  });
}

const embeddedEnv = () => ({ BURROW_POSTGRES_LIFECYCLE: 'embedded', BURROW_DATA_DIR: mkdtempSync(join(tmpdir(), 'burrow-cli-')) });

describe('help and unknown commands', () => {
  for (const args of [['help'], ['--help'], ['-h']]) {
    it(`burrow ${args[0]} prints the usage on stdout and exits 0`, async () => {
      const run = await burrow(args, {});
      expect(run.code).toBe(0);
      expect(run.stdout).toMatch(/^usage: burrow <command>\n/);
      expect(run.stdout).toContain('token create --operator --name NAME');
      expect(run.stderr).toBe('');
    });
  }

  it('names an unknown command and exits 1, with the usage on stderr', async () => {
    const run = await burrow(['x'], {});
    expect(run.code).toBe(1);
    expect(run.stderr).toMatch(/^burrow: unknown command "x"\nusage: burrow <command>/);
    expect(run.stdout).toBe('');
    // Names of Object.prototype are not commands either.
    expect((await burrow(['toString'], {})).stderr).toContain('unknown command "toString"');
  });

  it('without a command prints the usage on stderr and exits 1', async () => {
    const run = await burrow([], {});
    expect(run.code).toBe(1);
    expect(run.stderr).toMatch(/^usage: burrow <command>/);
  });
});

describe('startup errors', () => {
  it('refuses an unset lifecycle with a message naming the choices and no stack trace', async () => {
    // npm run burrow defaults to embedded (package.json); the script run by itself does not.
    const run = await script(['serve'], {});
    expect(run.code).toBe(1);
    expect(run.stderr).toMatch(/BURROW_POSTGRES_LIFECYCLE is unset.*embedded.*external.*managed/);
    expect(run.stderr).not.toMatch(/\n\s+at /);
  });

  it('reports every bad variable at once', async () => {
    const run = await burrow(['serve'], { BURROW_POSTGRES_LIFECYCLE: 'external', BURROW_POSTGRES_URL: 'mysql://x', BURROW_PORT: 'x', BURROW_POSTGRES_TLS: 'nope' });
    expect(run.code).toBe(1);
    expect(run.stderr).toMatch(/BURROW_POSTGRES_URL is not a postgres:\/\/ URL/);
    expect(run.stderr).toMatch(/BURROW_POSTGRES_TLS="nope"/);
    expect(run.stderr).toMatch(/BURROW_PORT="x"/);
    expect(run.stderr).not.toMatch(/\n\s+at /);
  });

  // On the real server that every pass has (the pass's own, or the one a plain `npm test` starts).
  it.skipIf(!hasRealServer)(`refuses a server below BURROW_POSTGRES_REQUIRED_MAJOR, saying how to fix it${hasRealServer ? '' : ` (${NEEDS_REAL_SERVER})`}`, async () => {
    const run = await burrow(['migrate'], { BURROW_POSTGRES_LIFECYCLE: 'external', BURROW_POSTGRES_URL: REAL_SERVER_URL!, BURROW_POSTGRES_REQUIRED_MAJOR: '99' });
    expect(run.code).toBe(1);
    expect(run.stderr).toMatch(/below BURROW_POSTGRES_REQUIRED_MAJOR=99: upgrade the server or set BURROW_POSTGRES_REQUIRED_MAJOR=\d+/);
    expect(run.stderr).not.toMatch(/\n\s+at /);
  });

  it('names the connection variables when the server cannot be reached', async () => {
    const run = await burrow(['migrate'], { BURROW_POSTGRES_LIFECYCLE: 'external', BURROW_POSTGRES_URL: 'postgres://nobody@127.0.0.1:1/none' });
    expect(run.code).toBe(1);
    expect(run.stderr).toMatch(/cannot connect to PostgreSQL at 127\.0\.0\.1:1\/none .*BURROW_POSTGRES_URL/);
  });
});

describe('commands on the database under test', () => {
  it('migrates, then manages tokens: create prints once, list shows no secret, revoke', async () => {
    // Each command is its own process: on the real server they connect in a second; embedded,
    // each boots PGlite on the same data directory in turn.
    const database = onRealServer ? await createTestDatabase() : null;
    const env: Record<string, string> = database
      ? { BURROW_POSTGRES_LIFECYCLE: 'external', BURROW_POSTGRES_URL: database.url!, BURROW_POSTGRES_REQUIRED_MAJOR: '13' }
      : embeddedEnv();
    try {
      const migrated = await burrow(['migrate'], env);
      expect(migrated.code).toBe(0);
      expect(migrated.stdout).toMatch(/^applied: 0000_platform, 0001_extensions/);
      expect((await burrow(['migrate'], env)).stdout).toBe('the database is up to date; nothing applied\n');

      const created = await burrow(['token', 'create', '--operator', '--name', 'ops'], env);
      expect(created.code).toBe(0);
      const token = created.stdout.trim();
      expect(token).toMatch(/^brw_[A-Za-z0-9_-]{40,}$/);
      expect(created.stderr).toMatch(/created operator token .* "ops"; it is shown once/);

      const agentless = await burrow(['token', 'create', '--agent', 'ghost', '--name', 'g'], env);
      expect(agentless.code).toBe(1);
      expect(agentless.stderr).toMatch(/no agent "ghost"/);

      const listed = await burrow(['token', 'list'], env);
      expect(listed.stdout).toMatch(/\toperator\t-\tops\tcreated .*\tactive\tlast used never\n/);
      expect(listed.stdout).not.toContain(token);
      const id = listed.stdout.split('\t')[0];

      const badLifetime = await burrow(['token', 'create', '--operator', '--name', 'x', '--expires-in', '30 days'], env);
      expect([badLifetime.code, badLifetime.stderr]).toEqual([
        1,
        expect.stringMatching(/--expires-in "30 days" must be a positive whole number with a unit: 3600s, 90m, 12h or 30d/),
      ]);
      const expiring = await burrow(['token', 'create', '--operator', '--name', 'month', '--expires-in', '30d'], env);
      const expiresAt = /expiring (\S+); it is shown once/.exec(expiring.stderr)![1];
      const lifetime =
        new Date(expiresAt).getTime() -
        new Date(/created (\S+)/.exec((await burrow(['token', 'list'], env)).stdout.split('\n').find((l) => l.includes('\tmonth\t'))!)![1]).getTime();
      expect(lifetime).toBe(30 * 86_400_000);

      const revoked = await burrow(['token', 'revoke', id], env);
      expect(revoked.stdout).toBe(`revoked ${id} "ops"\n`);
      expect((await burrow(['token', 'list'], env)).stdout).toMatch(/\trevoked /);
    } finally {
      await database?.drop();
    }
  });
});

describe('the quick start on the embedded database', () => {
  it('serves with a banner naming the lifecycle and database and how to get an operator token', async () => {
    const env = { ...embeddedEnv(), BURROW_PORT: '0' };
    const run = await burrow(['serve'], env, (out) => out.includes('operator token'));
    try {
      expect(run.stdout).toMatch(/serving GraphQL on http:\/\/127\.0\.0\.1:\d+\/graphql \(HTTP, SSE and graphql-ws\)/);
      expect(run.stdout).toMatch(/lifecycle: embedded — embedded PGlite: its own PostgreSQL 1\d\.\d+ \(WASM\), not the PostgreSQL 17 of managed, in /);
      const token = /operator token \(first start .*\): (brw_\S+)/.exec(run.stdout)![1];
      const port = /127\.0\.0\.1:(\d+)\/graphql/.exec(run.stdout)![1];
      const client = createBurrowClient({ url: `http://127.0.0.1:${port}/graphql`, token });
      expect((await client.viewer()).viewer.principal).toBe('OPERATOR');
      const page = await fetch(`http://127.0.0.1:${port}/graphql`, { headers: { accept: 'text/html' } });
      expect(await page.text()).toContain('GraphiQL');
    } finally {
      await run.kill?.();
    }
  });
});

describe.skipIf(!hasRealServer)(`commands on an external database${hasRealServer ? '' : ` (${NEEDS_REAL_SERVER})`}`, () => {
  it('migrates a real server database with burrow migrate', async () => {
    const database = await createTestDatabase({ real: true });
    try {
      const run = await burrow(['migrate'], { BURROW_POSTGRES_LIFECYCLE: 'external', BURROW_POSTGRES_URL: database.url!, BURROW_POSTGRES_REQUIRED_MAJOR: '13' });
      expect(run.code).toBe(0);
      expect(run.stdout).toMatch(/^applied: 0000_platform/);
    } finally {
      await database.drop();
    }
  });
});

/** What `npm start` and `npm run burrow` run is the esbuild bundle in dist/ (scripts/build.mjs), built by the test run's global setup. */
describe('the compiled CLI (dist/)', () => {
  it('serves queries whose execution checks graphql types (one copy of graphql in the bundle)', async () => {
    const run = await burrow(['serve'], { BURROW_PORT: '0', ...embeddedEnv() }, (out) => out.includes('operator token'));
    try {
      const token = /operator token \(first start .*\): (brw_\S+)/.exec(run.stdout)![1];
      const port = /127\.0\.0\.1:(\d+)\/graphql/.exec(run.stdout)![1];
      const client = createBurrowClient({ url: `http://127.0.0.1:${port}/graphql`, token });
      expect((await client.createAgent({ input: { agentId: 'compiled', name: 'Compiled' } })).createAgent.__typename).toBe('CreateAgentSuccess');
      const saved = (await client.brainSave({ input: { agentId: 'compiled', title: 'Kestrel sighting', content: 'A kestrel hovered over the build server.' } })).brainSave;
      expect(saved.__typename).toBe('BrainSaveSuccess');
      // __typename on an object type (what Apollo Client adds to every selection) failed from the
      // bundle with "Cannot use GraphQLNonNull "String!" from another module or realm": graphql-jit
      // took the meta field from a second copy of graphql.
      const typenames = await fetch(`http://127.0.0.1:${port}/graphql`, {
        method: 'POST',
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
        body: JSON.stringify({
          query: 'query($q: String!) { brainSearch(agentId: "compiled", query: $q, first: 5) { __typename hits { __typename } } }',
          variables: { q: 'kestrel' },
        }),
      });
      expect(await typenames.json()).toEqual({ data: { brainSearch: { __typename: 'BrainSearchResult', hits: [{ __typename: 'BrainSearchHit' }] } } });
      const found = (await client.brainSearch({ agentId: 'compiled', query: 'kestrel', first: 5 })).brainSearch;
      expect(found.hits.map((hit) => hit.memory.title)).toEqual(['Kestrel sighting']);
      const listed = (await client.brainMemories({ agentId: 'compiled', query: 'KESTREL', first: 5 })).brainMemories;
      expect(listed.edges.map((edge) => edge.node.title)).toEqual(['Kestrel sighting']);
    } finally {
      await run.kill?.();
    }
  });

  it('finds the migrations from dist/ (they ship beside it, not inside it)', async () => {
    const run = await burrow(['migrate'], embeddedEnv());
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    expect(run.stdout).toMatch(/^applied: 0000_platform, 0001_extensions, /);
  });
});

describe('one-shot commands on the embedded database', () => {
  it('start PostgreSQL with a small buffer cache; the server keeps the default, on the same data', async () => {
    const { openDatabase } = await import('../src/db/database.open.js');
    const config = { lifecycle: 'embedded' as const, dataDir: embeddedEnv().BURROW_DATA_DIR };
    const settings = async (database: Awaited<ReturnType<typeof openDatabase>>) =>
      (await database.pool.query("SELECT current_setting('shared_buffers') AS buffers, current_setting('max_connections') AS connections")).rows[0];

    const command = await openDatabase(config, { oneShot: true });
    try {
      expect(await settings(command)).toEqual({ buffers: '16MB', connections: '5' });
      await command.pool.query('CREATE TABLE written_by_a_command (n int); INSERT INTO written_by_a_command VALUES (7)');
    } finally {
      await command.close();
    }
    const server = await openDatabase(config);
    try {
      expect(await settings(server)).toEqual({ buffers: '128MB', connections: '100' });
      expect((await server.pool.query('SELECT n FROM written_by_a_command')).rows).toEqual([{ n: 7 }]);
    } finally {
      await server.close();
    }
  });
});
