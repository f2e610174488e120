/**
 * The server as users run it: the built artifact (dist/, what `npm start` and `npm run burrow`
 * run), started through the README's commands in its own process group, on the embedded database
 * (`npm start`), on an external PostgreSQL (`npm run burrow -- serve`) or managed. The end-to-end
 * layer (test/e2e/) drives it only from outside: HTTP, SSE, WebSocket, MCP, the CLI, the packed
 * clients and a browser. The bundle is built once before any test runs (test/support/global-setup.ts),
 * so no start of the layer rebuilds it under another.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { closeSync, mkdtempSync, openSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createBurrowClient, type BurrowClient } from '../../clients/typescript/sdk.js';
import { createTestDatabase, REAL_DATABASE_URL, TEST_REQUIRED_MAJOR, type TestDatabase } from './harness.js';

export const ROOT = fileURLToPath(new URL('../../', import.meta.url));

export type ShippedLifecycle = 'embedded' | 'external' | 'managed';

/** The lifecycle this pass of the suite runs the shipped server on: external on a real server, else embedded. */
export const DEFAULT_LIFECYCLE: ShippedLifecycle = REAL_DATABASE_URL ? 'external' : 'embedded';

export interface CommandResult {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
}

export interface ShippedServer {
  lifecycle: ShippedLifecycle;
  /** http://127.0.0.1:PORT */
  origin: string;
  /** http://127.0.0.1:PORT/graphql */
  url: string;
  /** ws://127.0.0.1:PORT/graphql */
  wsUrl: string;
  port: number;
  /** An operator token: the banner's on a first embedded or managed start, else one made with `burrow token create`. */
  operatorToken: string;
  /** The environment the server runs with: `burrow(...)` commands get the same. */
  env: Record<string, string>;
  /** The npm process (the process group's leader). */
  child: ChildProcess;
  /** Everything the process group wrote so far. */
  stdout(): string;
  stderr(): string;
  /** `npm run burrow -- ...args` with the server's environment (external and managed share the running database). */
  burrow(args: string[], options?: { env?: Record<string, string>; input?: string }): Promise<CommandResult>;
  /** Sends `signal` to the whole process group (what a terminal's Ctrl-C or a container stop does) and waits for npm to exit. */
  stop(signal?: NodeJS.Signals): Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

export interface ShippedOptions {
  lifecycle?: ShippedLifecycle;
  /** Extra environment (limits, grace, log level); wins over the harness's defaults. */
  env?: Record<string, string>;
  /** The embedded or managed data directory (default: a new temporary one, removed at stop). */
  dataDir?: string;
  /** External: the database (default: a fresh one on BURROW_TEST_DATABASE_URL, dropped at stop). */
  database?: TestDatabase;
  /** How long to wait for the banner (default 120 s: a loaded machine starts slowly). */
  startTimeoutMs?: number;
  /**
   * An operator token of this data, when the caller has one: a restart on the same `dataDir` or
   * `database`. Embedded, no other process can make one while the server holds its directory.
   */
  operatorToken?: string;
  /**
   * A directory for the server's output: `stdout` and `stderr` are written to files there
   * (read back synchronously) instead of pipes. A test can then tell what the server had written
   * at the moment something else happened: the server's write to a file is done before its next
   * system call, while a pipe's bytes reach the test only when its event loop gets to them.
   */
  outputDir?: string;
}

/** The environment a user's shell would give: PATH and HOME, nothing of the test runner's. */
function baseEnv(): Record<string, string> {
  const env: Record<string, string> = { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: process.env.HOME ?? tmpdir(), LANG: 'C.UTF-8' };
  for (const name of ['TMPDIR', 'npm_config_cache']) if (process.env[name]) env[name] = process.env[name]!;
  return env;
}

/** Runs `npm run burrow -- ...args` (or any npm script) from the repository root and collects its output. */
export function runNpm(npmArgs: string[], env: Record<string, string>, input?: string): Promise<CommandResult> {
  return new Promise((resolve, reject) => {
    const child = spawn('npm', ['--silent', ...npmArgs], { cwd: ROOT, env, stdio: ['pipe', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk) => (stdout += chunk));
    child.stderr.on('data', (chunk) => (stderr += chunk));
    child.on('error', reject);
    child.on('close', (code, signal) => resolve({ code, signal, stdout, stderr }));
    child.stdin.end(input ?? '');
  });
}

const BANNER = /serving GraphQL on http:\/\/127\.0\.0\.1:(\d+)\/graphql/;
const BOOTSTRAP_TOKEN = /operator token \(first start[^:]*: (\S+)/;

export async function startShipped(options: ShippedOptions = {}): Promise<ShippedServer> {
  const lifecycle = options.lifecycle ?? DEFAULT_LIFECYCLE;
  const cleanups: (() => Promise<void> | void)[] = [];
  const env: Record<string, string> = {
    ...baseEnv(),
    BURROW_PORT: '0',
    BURROW_HOST: '127.0.0.1',
    BURROW_LOG_LEVEL: 'warn',
    BURROW_TIDDLE_SCHEDULER: 'false',
  };
  if (lifecycle === 'external') {
    if (!options.database && !REAL_DATABASE_URL) throw new Error('the external lifecycle needs BURROW_TEST_DATABASE_URL');
    const database = options.database ?? (await createTestDatabase());
    if (!options.database) cleanups.push(() => database.drop());
    Object.assign(env, {
      BURROW_POSTGRES_LIFECYCLE: 'external',
      BURROW_POSTGRES_URL: database.pooledUrl ?? database.url!,
      BURROW_POSTGRES_REQUIRED_MAJOR: String(TEST_REQUIRED_MAJOR),
    });
    // Through a pooler (BURROW_TEST_POOLER_URL): what needs a session goes to the server itself.
    if (database.pooledUrl) env.BURROW_POSTGRES_DIRECT_URL = database.url!;
  } else {
    let dataDir = options.dataDir;
    if (!dataDir) {
      // Short: a managed cluster's socket path must fit in 107 bytes.
      dataDir = mkdtempSync(join(tmpdir(), 'bw-'));
      const made = dataDir;
      cleanups.push(() => rmSync(made, { recursive: true, force: true }));
    }
    Object.assign(env, { BURROW_DATA_DIR: dataDir });
    // `npm start` chooses embedded itself, as the README says; managed is chosen explicitly.
    if (lifecycle === 'managed') env.BURROW_POSTGRES_LIFECYCLE = 'managed';
  }
  Object.assign(env, options.env);

  const burrow: ShippedServer['burrow'] = (args, opts = {}) => runNpm(['run', 'burrow', '--', ...args], { ...env, ...opts.env }, opts.input);

  let operatorToken: string | null = options.operatorToken ?? null;
  if (lifecycle === 'external' && !operatorToken) {
    const made = await burrow(['token', 'create', '--operator', '--name', 'e2e-operator']);
    if (made.code !== 0) throw new Error(`burrow token create failed (${made.code}): ${made.stderr}`);
    operatorToken = made.stdout.trim();
  }

  // Its own process group, as a terminal runs a command: stop() signals the group.
  const dir = options.outputDir;
  const files = dir ? { dir, out: openSync(join(dir, 'stdout'), 'w'), err: openSync(join(dir, 'stderr'), 'w') } : null;
  const child = spawn('npm', lifecycle === 'embedded' ? ['start'] : ['run', 'burrow', '--', 'serve'], {
    cwd: ROOT,
    env,
    detached: true,
    stdio: ['ignore', files?.out ?? 'pipe', files?.err ?? 'pipe'],
  });
  const piped = { stdout: '', stderr: '' };
  if (files) {
    // The child holds its own copies of the descriptors.
    closeSync(files.out);
    closeSync(files.err);
  } else {
    child.stdout!.on('data', (chunk) => (piped.stdout += chunk));
    child.stderr!.on('data', (chunk) => (piped.stderr += chunk));
  }
  const output = (name: 'stdout' | 'stderr') => (files ? readFileSync(join(files.dir, name), 'utf8') : piped[name]);
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) => child.on('exit', (code, signal) => resolve({ code, signal })));
  const cleanup = async () => {
    for (const step of cleanups.reverse()) await step();
  };

  const deadline = Date.now() + (options.startTimeoutMs ?? 120_000);
  for (;;) {
    const stdout = output('stdout');
    const port = BANNER.exec(stdout)?.[1];
    const token = operatorToken ?? BOOTSTRAP_TOKEN.exec(stdout)?.[1] ?? null;
    // The banner is one write: once it names the port, the token line (if any) is there too.
    if (port && (token || /\n {2}tokens: /.test(stdout))) {
      operatorToken = token;
      if (!operatorToken) {
        const made = await burrow(['token', 'create', '--operator', '--name', 'e2e-operator']);
        if (made.code !== 0) throw new Error(`burrow token create failed (${made.code}): ${made.stderr}`);
        operatorToken = made.stdout.trim();
      }
      break;
    }
    if (child.exitCode !== null || child.signalCode !== null || Date.now() > deadline) {
      if (child.exitCode === null) process.kill(-child.pid!, 'SIGKILL');
      await cleanup();
      throw new Error(`the shipped server (${lifecycle}) did not start:\n${stdout}\n${output('stderr')}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 25));
  }

  const port = Number(BANNER.exec(output('stdout'))![1]);
  let stopped: Promise<{ code: number | null; signal: NodeJS.Signals | null }> | null = null;
  return {
    lifecycle,
    origin: `http://127.0.0.1:${port}`,
    url: `http://127.0.0.1:${port}/graphql`,
    wsUrl: `ws://127.0.0.1:${port}/graphql`,
    port,
    operatorToken: operatorToken!,
    env,
    child,
    stdout: () => output('stdout'),
    stderr: () => output('stderr'),
    burrow,
    exited,
    stop(signal = 'SIGTERM') {
      stopped ??= (async () => {
        if (child.exitCode === null && child.signalCode === null) {
          try {
            process.kill(-child.pid!, signal);
          } catch {
            // The group is gone already.
          }
        }
        // A server that does not stop within its grace is a failure the caller sees (a second kill here would hide it).
        const result = await exited;
        await cleanup();
        return result;
      })();
      return stopped;
    },
  };
}

/** POSTs one GraphQL operation with a bearer token and returns the HTTP status, headers and parsed body. */
export async function postGraphQL(
  server: Pick<ShippedServer, 'url'>,
  token: string | null,
  body: { query: string; variables?: Record<string, unknown>; operationName?: string },
  headers: Record<string, string> = {},
): Promise<{ status: number; headers: Headers; body: any }> {
  const response = await fetch(server.url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}), ...headers },
    body: JSON.stringify(body),
  });
  const text = await response.text();
  let parsed: unknown = text;
  try {
    parsed = JSON.parse(text);
  } catch {
    // Not JSON: the caller sees the text.
  }
  return { status: response.status, headers: response.headers, body: parsed };
}

export interface BurrowProcess {
  child: ChildProcess;
  stdout(): string;
  stderr(): string;
  /** Its exit, with everything it printed. */
  exited: Promise<CommandResult>;
  /** Sends `signal` to its process group (npm and Burrow) and waits for the exit. */
  stop(signal?: NodeJS.Signals): Promise<CommandResult>;
}

/**
 * `npm run burrow -- ...args` left running in its own process group, for a test that reads its
 * output while it runs (a server's banner, a long command); `runNpm` is for commands that end.
 * `stdin` gets `input` (default nothing) and is closed.
 */
export function spawnBurrow(args: string[], env: Record<string, string>, options: { input?: string } = {}): BurrowProcess {
  const child = spawn('npm', ['--silent', 'run', 'burrow', '--', ...args], { cwd: ROOT, env, detached: true, stdio: ['pipe', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stdout!.on('data', (chunk) => (stdout += chunk));
  child.stderr!.on('data', (chunk) => (stderr += chunk));
  child.stdin!.end(options.input ?? '');
  const exited = new Promise<CommandResult>((resolve, reject) => {
    child.on('error', reject);
    child.on('close', (code, signal) => resolve({ code, signal, stdout, stderr }));
  });
  return {
    child,
    stdout: () => stdout,
    stderr: () => stderr,
    exited,
    stop(signal = 'SIGTERM') {
      if (child.exitCode === null && child.signalCode === null) {
        try {
          process.kill(-child.pid!, signal);
        } catch {
          // The group is gone already.
        }
      }
      return exited;
    },
  };
}

/** The environment of a user's shell (PATH, HOME; nothing of the test runner's) plus `env`: for runNpm and spawnBurrow. */
export const userEnv = (env: Record<string, string> = {}): Record<string, string> => ({ ...baseEnv(), ...env });

/** A typed client holding the shipped server's operator token. */
export const operatorClient = (server: Pick<ShippedServer, 'url' | 'operatorToken'>) => createBurrowClient({ url: server.url, token: server.operatorToken });

/**
 * A new token through the API (createApiToken, as an operator would make one): an operator token,
 * or one bound to `agentId` (the agent is created first when missing). Returns the secret and the
 * token's id (what revokeApiToken takes).
 */
export async function createShippedToken(
  server: Pick<ShippedServer, 'url' | 'operatorToken'>,
  options: { name: string; agentId?: string },
): Promise<{ secret: string; tokenId: string }> {
  const operator = operatorClient(server);
  try {
    if (options.agentId && !(await operator.agent({ id: options.agentId })).agent) {
      const created = await operator.createAgent({ input: { agentId: options.agentId, name: options.agentId } });
      if (created.createAgent.__typename !== 'CreateAgentSuccess') throw new Error(`createAgent failed: ${JSON.stringify(created)}`);
    }
    const made = await operator.createApiToken({
      input: options.agentId ? { kind: 'AGENT', agentId: options.agentId, name: options.name } : { kind: 'OPERATOR', name: options.name },
    });
    if (made.createApiToken.__typename !== 'CreateApiTokenSuccess') throw new Error(`createApiToken failed: ${JSON.stringify(made)}`);
    return { secret: made.createApiToken.secret, tokenId: made.createApiToken.token.tokenId };
  } finally {
    await operator.close();
  }
}

/** A typed client bound to `agentId` (created when missing) with a new agent token and the runtime's scope headers. */
export async function shippedAgentClient(
  server: Pick<ShippedServer, 'url' | 'operatorToken'>,
  agentId: string,
  options: { scope?: string | null; session?: string | null; conversation?: string | null } = {},
): Promise<BurrowClient> {
  const { secret } = await createShippedToken(server, { name: `agent-${agentId}`, agentId });
  return createBurrowClient({ url: server.url, token: secret, scope: options.scope ?? null, session: options.session ?? null, conversation: options.conversation ?? null });
}

/**
 * A sample of the shipped server's Prometheus metrics (an operator may read /metrics on the main
 * port): each value by its name and labels as printed, e.g. `burrow_db_pool_connections{state="idle"}`.
 */
export async function readMetrics(origin: string, token: string): Promise<Map<string, number>> {
  const response = await fetch(`${origin}/metrics`, { headers: { authorization: `Bearer ${token}` } });
  // Refused or failed, there is no sample: an empty map would read as every metric absent.
  if (response.status !== 200) throw new Error(`/metrics answered ${response.status}`);
  const text = await response.text();
  const values = new Map<string, number>();
  for (const line of text.split('\n')) {
    if (!line || line.startsWith('#')) continue;
    const at = line.lastIndexOf(' ');
    values.set(line.slice(0, at), Number(line.slice(at + 1)));
  }
  return values;
}
