/**
 * `npm run burrow -- settings …`, `… export`, `… import` as an operator runs them (the built CLI, real processes,
 * exit codes, stdin for secrets), the settings key at startup, key rotation, and the documented
 * backup procedure (pg_dump -Fc, pg_restore into a fresh database) on a real server of pg_dump's major.
 */
import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, mkdtempSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { describe, expect, it } from 'vitest';
import { keyIdOf, openEnvelope } from '../src/domains/settings/settings.crypto.js';
import { createTestDatabase, onRealServer, REAL_SERVER_URL, startServer, waitUntil } from './support/harness.js';
import { runNpm, spawnBurrow, userEnv, type CommandResult } from './support/shipped.js';

const API_KEY = 'sk-cli-plaintext-api-key-3e9f';

interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
  kill?: () => void;
  /** With `until`: resolves when the process has exited. */
  exited?: Promise<void>;
}

/** Everything every command printed (stdout, stderr, debug logs): no secret may ever appear in it. */
let printed = '';

/** `npm run burrow -- ...args` (the built CLI, as operators run it); with `until`, returns once stdout satisfies it, still running. */
async function burrow(args: string[], env: Record<string, string>, options: { stdin?: string; until?: (stdout: string) => boolean } = {}): Promise<Run> {
  const environment = userEnv({ BURROW_LOG_LEVEL: 'debug', ...env });
  const record = (result: CommandResult) => ((printed += result.stdout + result.stderr), result);
  if (!options.until) return record(await runNpm(['run', 'burrow', '--', ...args], environment, options.stdin));
  const until = options.until;
  const running = spawnBurrow(args, environment, { input: options.stdin });
  const exited = running.exited.then(record);
  let ended: CommandResult | null = null;
  void exited.then((result) => (ended = result));
  await waitUntil(() => ended !== null || until(running.stdout()), `burrow ${args.join(' ')} printed what was awaited`, 120_000);
  if (ended) return ended;
  return { code: null, stdout: running.stdout(), stderr: running.stderr(), kill: () => void running.stop(), exited: exited.then(() => undefined) };
}

const tmp = () => mkdtempSync(join(tmpdir(), 'burrow-settings-'));
/** A database for a sequence of commands: a fresh one on the real server, else an embedded directory. */
async function commandDatabase(): Promise<{ env: Record<string, string>; drop: () => Promise<void> }> {
  if (!onRealServer) return { env: { BURROW_POSTGRES_LIFECYCLE: 'embedded', BURROW_DATA_DIR: tmp() }, drop: async () => {} };
  const database = await createTestDatabase();
  return { env: { BURROW_POSTGRES_LIFECYCLE: 'external', BURROW_POSTGRES_URL: database.url!, BURROW_POSTGRES_REQUIRED_MAJOR: '13' }, drop: database.drop };
}
const key = () => randomBytes(32).toString('base64');
const idOf = (base64: string) => keyIdOf(Buffer.from(base64, 'base64'));

describe('the settings key at startup', () => {
  it('refuses to start when BURROW_SETTINGS_KEY does not decode to exactly 32 bytes, naming it and not echoing it', async () => {
    for (const bad of [randomBytes(31).toString('base64'), randomBytes(33).toString('hex'), 'short']) {
      const run = await burrow(['serve'], { BURROW_POSTGRES_LIFECYCLE: 'embedded', BURROW_DATA_DIR: tmp(), BURROW_SETTINGS_KEY: bad });
      expect(run.code).toBe(1);
      expect(run.stderr).toMatch(/BURROW_SETTINGS_KEY must (decode \(base64 or hex\) to exactly 32 bytes|be base64 or hex)/);
      expect(run.stderr).not.toContain(bad);
      expect(run.stderr).not.toMatch(/\n\s+at /);
      expect(run.stdout).toBe('');
    }
  });
});

describe('settings, rotation, export and import on the command line', () => {
  it('stores a secret from stdin, rotates the key, exports with a password and imports repeat-safely', async () => {
    const source = await commandDatabase();
    const target = await commandDatabase();
    const [keyA, keyB, keyC] = [key(), key(), key()];
    const dir = tmp();
    const passwordFile = join(dir, 'password');
    writeFileSync(passwordFile, 'a long export password\n');
    try {
      const setModel = ['settings', 'set-model', 'BRAIN_EMBEDDINGS', '--url', 'http://127.0.0.1:9/v1', '--model', 'embed', '--api-key-stdin'];
      const keyless = await burrow(setModel, source.env, { stdin: `${API_KEY}\n` });
      expect(keyless.code).toBe(1);
      expect(keyless.stderr).toMatch(/apiKey is a secret .* BURROW_SETTINGS_KEY/);
      expect(keyless.stderr + keyless.stdout).not.toContain(API_KEY);
      expect((await burrow(['settings', 'status'], source.env)).stdout).toMatch(/^settings key: none/);

      const withA = { ...source.env, BURROW_SETTINGS_KEY: keyA };
      const saved = await burrow(setModel, withA, { stdin: `${API_KEY}\n` });
      expect(saved.stdout).toBe('model BRAIN_EMBEDDINGS saved at revision 1 (hasSecret true); it applies at the next start unless an env variable overrides it\n');
      const listed = await burrow(['settings', 'list'], withA);
      expect(listed.stdout).toBe('model BRAIN_EMBEDDINGS\thttp://127.0.0.1:9/v1\tembed\ttimeout 5000 ms\thasSecret true\trevision 1\n');

      expect((await burrow(['settings', 'rotate-key'], withA)).stderr).toMatch(/BURROW_SETTINGS_NEW_KEY/);
      const rotating = { ...withA, BURROW_SETTINGS_NEW_KEY: keyB };
      const rotated = await burrow(['settings', 'rotate-key'], rotating);
      expect(rotated.stdout).toBe(`re-encrypted 1 secrets under key ${idOf(keyB)} (0 already were); now start Burrow with BURROW_SETTINGS_KEY set to the new key\n`);
      // Repeat-safe: an interrupted or repeated rotation finishes without touching what is done.
      expect((await burrow(['settings', 'rotate-key'], rotating)).stdout).toMatch(/^re-encrypted 0 secrets .* \(1 already were\)/);

      const withB = { ...source.env, BURROW_SETTINGS_KEY: keyB };
      const noPassword = await burrow(['export', '--include-secrets'], withB);
      expect(noPassword.code).toBe(1);
      expect(noPassword.stderr).toMatch(/--include-secrets requires a password/);
      // The old key no longer opens the secret: it says which key made it.
      const oldKey = await burrow(['export', '--include-secrets', '--password-file', passwordFile], withA);
      expect(oldKey.code).toBe(1);
      expect(oldKey.stderr).toContain(`encrypted with key ${idOf(keyB)}, not the configured key ${idOf(keyA)}`);

      const plain = await burrow(['export'], withB);
      expect(plain.code).toBe(0);
      expect(plain.stdout).not.toContain(API_KEY);
      expect(JSON.parse(plain.stdout)).toMatchObject({ secrets: null, 'model-connections': [{ purpose: 'BRAIN_EMBEDDINGS', hasSecret: true }] });
      const file = join(dir, 'export.json');
      const written = await burrow(['export', '--include-secrets', '--password-file', passwordFile, '--out', file], withB);
      expect(written.stderr).toMatch(/exported agents, settings, model-connections, mcp-connections to .* \(secrets in a password-encrypted envelope\)/);
      expect(statSync(file).mode & 0o777).toBe(0o600);
      const document = JSON.parse(readFileSync(file, 'utf8'));
      expect(JSON.stringify(document)).not.toContain(API_KEY);
      expect(openEnvelope('a long export password', document.secrets)).toEqual({ 'model-connections/BRAIN_EMBEDDINGS': API_KEY });

      // A starting server uses the stored connection, opened with the new key.
      const served = await burrow(['serve'], { ...withB, BURROW_PORT: '0' }, { until: (out) => out.includes('operator token') });
      served.kill?.();
      expect(served.stdout).toMatch(/model connections: BRAIN_EMBEDDINGS stored, TIDDLE_PROPOSER off; settings key: [0-9a-f]{16}/);
      // The data directory is free once the server has exited.
      await served.exited;

      const withC = { ...target.env, BURROW_SETTINGS_KEY: keyC };
      const imported = await burrow(['import', file, '--password-file', passwordFile], withC);
      expect(imported.stdout).toBe(
        'agents\tcreated 0\tupdated 0\tunchanged 0\nsettings\tcreated 0\tupdated 0\tunchanged 0\nmodel-connections\tcreated 1\tupdated 0\tunchanged 0\nmcp-connections\tcreated 0\tupdated 0\tunchanged 0\n',
      );
      const again = await burrow(['import', file, '--password-file', passwordFile], withC);
      expect(again.stdout).toContain('model-connections\tcreated 0\tupdated 0\tunchanged 1\n');
      const reexported = await burrow(['export', '--include-secrets', '--password-stdin'], withC, { stdin: 'another long password\n' });
      expect(openEnvelope('another long password', JSON.parse(reexported.stdout).secrets)).toEqual({ 'model-connections/BRAIN_EMBEDDINGS': API_KEY });
      expect(printed.length).toBeGreaterThan(1000);
      expect(printed).not.toContain(API_KEY);
    } finally {
      await source.drop();
      await target.drop();
    }
    // Embedded, each of the ~14 commands boots PGlite in its own process: minutes on a busy machine.
  });
});

/**
 * A PostgreSQL server and the pg_dump and pg_restore of its major. pg_dump refuses a server newer
 * than itself, and a newer pg_restore may set what an older server lacks, so the majors match. The
 * PostgreSQL 17 binaries Burrow ships have no pg_dump: the machine's client tools are used (on
 * PATH, and Debian's /usr/lib/postgresql/N/bin), against the real server of the pass, else the
 * machine's own server on 127.0.0.1:5432 (CI's PostgreSQL 15, whose pg_dump 15 CI has).
 */
interface DumpPair {
  server: string;
  major: number;
  pgDump: string;
  pgRestore: string;
}

const majorOf = (versionLine: string) => Number(/\(PostgreSQL\) (\d+)/.exec(versionLine)?.[1] ?? NaN);

function dumpTools(): Map<number, { pgDump: string; pgRestore: string }> {
  const tools = new Map<number, { pgDump: string; pgRestore: string }>();
  const candidates = [{ pgDump: 'pg_dump', pgRestore: 'pg_restore' }];
  const debian = '/usr/lib/postgresql';
  if (existsSync(debian)) {
    for (const version of readdirSync(debian)) candidates.push({ pgDump: join(debian, version, 'bin/pg_dump'), pgRestore: join(debian, version, 'bin/pg_restore') });
  }
  for (const candidate of candidates) {
    try {
      const major = majorOf(execFileSync(candidate.pgDump, ['--version'], { encoding: 'utf8' }));
      if (major === majorOf(execFileSync(candidate.pgRestore, ['--version'], { encoding: 'utf8' })) && !tools.has(major)) tools.set(major, candidate);
    } catch {
      // not installed
    }
  }
  return tools;
}

async function serverMajor(url: string): Promise<number | null> {
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 3000 });
  try {
    await client.connect();
    return Math.floor(Number((await client.query<{ v: string }>("SELECT current_setting('server_version_num') AS v")).rows[0].v) / 10_000);
  } catch {
    return null;
  } finally {
    await client.end().catch(() => {});
  }
}

async function findDumpPair(): Promise<DumpPair | string> {
  const tools = dumpTools();
  const servers = [...new Set([REAL_SERVER_URL, 'postgres://postgres@127.0.0.1:5432/postgres'].filter((url): url is string => url !== null))];
  const seen: string[] = [];
  for (const server of servers) {
    const major = await serverMajor(server);
    if (major === null) continue;
    seen.push(`PostgreSQL ${major} at ${new URL(server).host}`);
    const pair = tools.get(major);
    if (pair) return { server, major, ...pair };
  }
  const dumps = [...tools.keys()].map((major) => `pg_dump ${major}`).join(', ') || 'no pg_dump';
  return `skipped: no pg_dump of a reachable server's major (${dumps}; ${seen.join(', ') || 'no server reachable'})`;
}

const dumpPair = await findDumpPair();

describe.skipIf(typeof dumpPair === 'string')(
  `backup and restore with pg_dump and pg_restore (docs/operations-data.md)${typeof dumpPair === 'string' ? ` (${dumpPair})` : ` on PostgreSQL ${dumpPair.major}`}`,
  () => {
    it('restores a custom-format dump into a fresh database that Burrow starts on and reads, secrets included with the same key', async () => {
      const { server, major, pgDump, pgRestore } = dumpPair as DumpPair;
      const settingsKey = key();
      const config = { settings: { key: { bytes: Buffer.from(settingsKey, 'base64'), id: idOf(settingsKey) }, newKey: null } };
      const original = await createTestDatabase({ server: { url: server, requiredMajor: major } });
      const restored = await createTestDatabase({ server: { url: server, requiredMajor: major } });
      const dump = join(tmp(), 'burrow.dump');
      try {
        const server = await startServer({ database: original, config });
        await server.agentClient('keeper');
        await server.operator.updateProfileDocument({ input: { agentId: 'keeper', kind: 'SOUL', content: 'restored soul', expectedRevision: 1 } });
        await server.operator.setAgentSetting({ input: { agentId: 'keeper', name: 'tool', value: { on: true }, secret: API_KEY } });
        await server.operator.appendDreamDiaryEntry({ input: { agentId: 'keeper', body: 'restored diary entry' } });
        await server.operator.brainSave({ input: { agentId: 'keeper', title: 'restored memory', content: 'restored memory content' } });
        await server.stop();

        execFileSync(pgDump, ['-Fc', '-f', dump, original.url!]);
        execFileSync(pgRestore, ['--exit-on-error', '-d', restored.url!, dump]);

        const migrate = await burrow(['migrate'], { BURROW_POSTGRES_LIFECYCLE: 'external', BURROW_POSTGRES_URL: restored.url!, BURROW_POSTGRES_REQUIRED_MAJOR: '13' });
        expect(migrate.stdout).toBe('the database is up to date; nothing applied\n');
        const again = await startServer({ database: restored, config });
        try {
          expect((await again.operator.profileDocument({ agentId: 'keeper', kind: 'SOUL' })).profileDocument).toMatchObject({ content: 'restored soul', revision: 2 });
          expect((await again.operator.dreamDiary({ agentId: 'keeper' })).dreamDiary.edges.map((e) => e.node.body)).toEqual(['restored diary entry']);
          expect((await again.operator.brainMemories({ agentId: 'keeper' })).brainMemories.edges.map((e) => e.node.title)).toEqual(['restored memory']);
          const exported = (await again.operator.exportConfiguration({ input: { includeSecrets: true, password: 'restore check pw' } })).exportConfiguration;
          if (exported.__typename !== 'ExportConfigurationSuccess') throw new Error(JSON.stringify(exported));
          expect(openEnvelope('restore check pw', (exported.document as { secrets: never }).secrets)).toEqual({ 'settings/keeper/tool': API_KEY });
        } finally {
          await again.stop();
        }
      } finally {
        await original.drop();
        await restored.drop();
      }
    });
  },
);
