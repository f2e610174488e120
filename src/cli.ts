/**
 * burrow serve | migrate | token create|list|revoke | ...
 * Run with `npm run burrow -- <command>` (or `npm start` for serve on the embedded database).
 */
import { parseArgs } from 'node:util';
import type { TokenRecord } from './auth/tokens.service.js';
import type { Runtime } from './main.js';
import type { Services } from './services.js';

// Each command imports what it needs when it runs: `help` loads no dependency, `token list` no
// GraphQL server; the compiled CLI starts in a fraction of a second (docs/performance.md).
// serve and mcp run until stopped; every other command runs a few statements and exits.
const openServerRuntime = async () => (await import('./main.js')).openRuntime();
const openCommandRuntime = async () => (await import('./main.js')).openRuntime({ oneShot: true });
const clock = async () => (await import('./lib/clock.js')).systemClock;
async function servicesOf(runtime: Runtime): Promise<Services> {
  const [{ createServices }, { noFaults }] = await Promise.all([import('./services.js'), import('./lib/faults.js')]);
  return createServices({ config: runtime.config, database: runtime.database, clock: await clock(), logger: runtime.logger, faults: noFaults });
}
const tokensOf = async (runtime: Runtime) => new (await import('./auth/tokens.service.js')).TokensService(runtime.database.db, await clock());

const usage = async () => `usage: burrow <command>
  help, --help, -h                          this text
  serve                                     start the GraphQL server (HTTP, SSE, WebSocket on one port; MCP at /mcp)
  migrate                                   apply pending migrations and exit
  token create --operator --name NAME       print a new operator token (shown once)
  token create --agent AGENT_ID --name NAME print a new token bound to one agent (shown once)
               [--expires-in 30d]           optional lifetime (s, m, h or d); refused everywhere after it
  token list                                list tokens (never their secrets)
  token revoke TOKEN_ID                     revoke a token
  retention run                             remove working records, handoffs and rolling cards expired longer than
                                            BURROW_RETENTION_GRACE_DAYS ago, and report per store
  import-albdruck                           copy legacy Albdruck knowledge into Brains (repeat-safe)
${(await import('./domains/brains/brains.cli.js')).BRAIN_USAGE}
${(await import('./domains/data-rights/agent-erasure.cli.js')).AGENT_USAGE}
${(await import('./domains/settings/settings.cli.js')).SETTINGS_USAGE}
${(await import('./domains/agent-archive/agent-archive.cli.js')).AGENT_ARCHIVE_USAGE}
  mcp --stdio                               the MCP tools over stdin/stdout for a runtime on this machine:
                                            BURROW_TOKEN (agent token, required), BURROW_CONTINUITY_SCOPE,
                                            BURROW_SESSION, BURROW_CONVERSATION (see docs/mcp.md)
The database comes from BURROW_POSTGRES_LIFECYCLE (embedded | external | managed); see README.`;

const [command, ...rest] = process.argv.slice(2);

function status(token: TokenRecord): string {
  if (token.revokedAt) return `revoked ${token.revokedAt.toISOString()}`;
  if (!token.expiresAt) return 'active';
  return `${token.expiresAt <= new Date() ? 'expired' : 'active, expires'} ${token.expiresAt.toISOString()}`;
}

const commands: Record<string, () => Promise<void>> = {
  async serve() {
    const runtime = await openServerRuntime();
    const [{ buildApp }, { withStoredModelConnections }, { guardProcess, installShutdown }, { loadTracing }] = await Promise.all([
      import('./app.js'),
      import('./domains/settings/settings.effective.js'),
      import('./ops/shutdown.js'),
      import('./ops/tracing.js'),
    ]);
    const { config, sources } = await withStoredModelConnections(runtime.config, runtime.database.db, runtime.logger);
    const app = buildApp({ config, database: runtime.database, logger: runtime.logger, tracing: await loadTracing(config.ops.tracing) });
    guardProcess(runtime.logger);
    // A database Burrow made itself (embedded, managed) gets a first operator token at its first
    // start. Made before the server listens, so the banner that shows it is written before any
    // request is answered: a script that waits for the port finds the token already printed.
    const tokens = await tokensOf(runtime);
    const bootstrap = runtime.config.database.lifecycle !== 'external' && !(await tokens.hasOperatorToken()) ? await tokens.create({ kind: 'operator', name: 'bootstrap' }) : null;
    let port: number;
    try {
      port = await app.start();
    } catch (error) {
      // Never shown: the next start makes (and shows) a new one.
      if (bootstrap) await tokens.removeUnshown(bootstrap.record.id).catch(() => {});
      await app.stop().catch(() => {});
      await runtime.close();
      throw error;
    }
    // From here to the banner's write nothing is awaited (see app.start).
    const lines = [
      `Burrow is serving GraphQL on http://${runtime.config.host}:${port}/graphql (HTTP, SSE and graphql-ws)`,
      `  MCP tools (Streamable HTTP, agent tokens): http://${runtime.config.host}:${port}/mcp`,
      `  operator console (sign in with an operator token): http://${runtime.config.host}:${port}/console`,
      `  lifecycle: ${runtime.config.database.lifecycle} — ${runtime.database.description}`,
      `  migrations applied at this start: ${runtime.migrations.length ? runtime.migrations.join(', ') : 'none pending'}`,
      `  model connections: ${Object.entries(sources)
        .map(([purpose, source]) => `${purpose} ${source}`)
        .join(', ')}; settings key: ${config.settings.key ? config.settings.key.id : 'none (secrets cannot be written)'}`,
      runtime.config.graphiql ? `  GraphiQL: open http://${runtime.config.host}:${port}/graphql in a browser` : '  GraphiQL: off',
    ];
    if (bootstrap) {
      lines.push(`  operator token (first start of this data directory; shown once, only its hash is kept): ${bootstrap.token}`);
    } else {
      lines.push(
        '  tokens: createApiToken with an operator token (see docs/quickstart.md), or `npm run burrow -- token create` while the server is stopped' +
          (runtime.config.database.lifecycle !== 'embedded' ? ` (${runtime.config.database.lifecycle}: no need to stop it)` : ''),
      );
    }
    process.stdout.write(`${lines.join('\n')}\n`);
    if (app.metricsPort() !== null) process.stdout.write(`  metrics (no token): http://${runtime.config.ops.metrics!.host}:${app.metricsPort()}/metrics\n`);
    installShutdown({ app, closeDatabase: runtime.close, logger: runtime.logger, graceMs: runtime.config.ops.shutdownGraceMs });
  },

  async mcp() {
    const { values } = parseArgs({ args: rest, options: { stdio: { type: 'boolean' } } });
    if (!values.stdio) throw new Error('burrow mcp needs --stdio (Streamable HTTP is served by `burrow serve` at /mcp)');
    const identity = (await import('./config.mcp-stdio.js')).loadMcpStdioIdentity();
    // This process does not LISTEN for revocations: it looks its token up on every call instead.
    process.env.BURROW_TOKEN_CACHE_SECONDS = '0';
    const runtime = await openServerRuntime();
    try {
      const services = await servicesOf(runtime);
      const { serveMcpStdio } = await import('./mcp/stdio.js');
      await serveMcpStdio({ services, logger: runtime.logger.child({ component: 'mcp' }), identity });
    } finally {
      await runtime.close();
    }
  },

  async migrate() {
    const runtime = await openCommandRuntime();
    process.stdout.write(runtime.migrations.length ? `applied: ${runtime.migrations.join(', ')}\n` : 'the database is up to date; nothing applied\n');
    await runtime.close();
  },

  async token() {
    const [action, ...args] = rest;
    const { values, positionals } = parseArgs({
      args,
      allowPositionals: true,
      options: { operator: { type: 'boolean' }, agent: { type: 'string' }, name: { type: 'string' }, 'expires-in': { type: 'string' } },
    });
    const { parseLifetime } = await import('./auth/tokens.service.js');
    const runtime = await openCommandRuntime();
    try {
      const tokens = await tokensOf(runtime);
      if (action === 'create') {
        if (Boolean(values.operator) === Boolean(values.agent)) throw new Error('token create needs exactly one of --operator or --agent AGENT_ID');
        if (!values.name) throw new Error('token create needs --name NAME');
        const expiresInMs = values['expires-in'] === undefined ? null : parseLifetime(values['expires-in']);
        if (expiresInMs === null && values['expires-in'] !== undefined) {
          throw new Error(`--expires-in "${values['expires-in']}" must be a positive whole number with a unit: 3600s, 90m, 12h or 30d`);
        }
        if (values.agent) {
          const [agent] = (await runtime.database.pool.query('SELECT id FROM agents WHERE id = $1', [values.agent])).rows;
          if (!agent) throw new Error(`no agent "${values.agent}": create it first (createAgent)`);
        }
        const { token, record } = await tokens.create({ kind: values.operator ? 'operator' : 'agent', name: values.name, agentId: values.agent, expiresInMs });
        const expiry = record.expiresAt ? `, expiring ${record.expiresAt.toISOString()}` : '';
        process.stderr.write(`created ${record.kind} token ${record.id} "${record.name}"${record.agentId ? ` for agent ${record.agentId}` : ''}${expiry}; it is shown once:\n`);
        process.stdout.write(`${token}\n`);
      } else if (action === 'list') {
        for (const t of await tokens.list()) {
          process.stdout.write(
            `${t.id}\t${t.kind}\t${t.agentId ?? '-'}\t${t.name}\tcreated ${t.createdAt.toISOString()}\t${status(t)}\tlast used ${t.lastUsedAt?.toISOString() ?? 'never'}\n`,
          );
        }
      } else if (action === 'revoke') {
        const id = positionals[0];
        if (!id) throw new Error('token revoke needs TOKEN_ID (see token list)');
        const record = await tokens.revoke(id);
        process.stdout.write(`revoked ${record.id} "${record.name}"\n`);
      } else {
        throw new Error(await usage());
      }
    } finally {
      await runtime.close();
    }
  },

  async retention() {
    const [action] = rest;
    if (action !== 'run') throw new Error(await usage());
    const runtime = await openCommandRuntime();
    try {
      const services = await servicesOf(runtime);
      const report = await services.retention.run();
      process.stdout.write(
        `retention run at ${report.ranAt.toISOString()} (grace ${report.graceDays} days): removed what expired before ${report.cutoff.toISOString()}\n` +
          report.stores.map((s) => `  ${s.store}\t${s.removed} removed\t(${s.rule}: before ${s.olderThan.toISOString()})\n`).join('') +
          '  brains and conversation originals are never removed by retention\n',
      );
    } finally {
      await runtime.close();
    }
  },
};

/** Settings, export and import act through the services as the CLI operator. */
const withServices = (body: (services: Services) => Promise<void>) => async () => {
  const runtime = await openCommandRuntime();
  try {
    await body(await servicesOf(runtime));
  } finally {
    await runtime.close();
  }
};
const settingsCli = () => import('./domains/settings/settings.cli.js');
commands.settings = withServices(async (services) => (await settingsCli()).settingsCommand(rest, services.settings, services.config.settings.newKey));
commands.export = withServices(async (services) => (await settingsCli()).exportCommand(rest, services.transfer));
commands.brain = withServices(async (services) => (await import('./domains/brains/brains.cli.js')).brainCommand(rest, services.brains));
/** `agent erase` goes through the erasure service; `agent export|import` copy an agent's tables as they are (docs/agent-archive.md). */
const archiveCommand = async () => {
  const runtime = await openCommandRuntime();
  try {
    await (await import('./domains/agent-archive/agent-archive.cli.js')).agentCommand(rest, runtime.database.pool);
  } finally {
    await runtime.close();
  }
};
commands.agent =
  rest[0] === 'erase' ? withServices(async (services) => (await import('./domains/data-rights/agent-erasure.cli.js')).agentCommand(rest, services.erasure)) : archiveCommand;
commands.import = withServices(async (services) => (await settingsCli()).importCommand(rest, services.transfer));

/**
 * Copies legacy Albdruck knowledge into Brains. Repeat-safe: records imported before are
 * skipped, so edits made since and tombstones stay as they are. Progress goes to a terminal's
 * stderr; the summary to stdout.
 */
commands['import-albdruck'] = async () => {
  const runtime = await openCommandRuntime();
  try {
    const services = await servicesOf(runtime);
    const progress = process.stderr.isTTY;
    let lastDraw = 0;
    const summary = await services.brains.importAlbdruck({ kind: 'OPERATOR', id: 'cli:import-albdruck' }, (done, total) => {
      if (!progress) return;
      // Wall-clock throttling of terminal redraws only; no business time involved.
      const now = performance.now();
      if (done !== total && now - lastDraw < 100) return;
      lastDraw = now;
      process.stderr.write(`\rimporting legacy Albdruck records: ${done}/${total} (${Math.floor((done / Math.max(total, 1)) * 100)}%)`);
    });
    if (progress && summary.total > 0) process.stderr.write('\n');
    const lines = [
      `Albdruck import: ${summary.total} legacy records`,
      `  imported:          ${summary.imported}`,
      `  skipped:           ${summary.skipped} (imported before; left as they are)`,
      `  deleted-on-import: ${summary.deletedOnImport} (non-active or operator-deleted legacy records, imported as tombstones)`,
      `  failed:            ${summary.failed}`,
    ];
    if (summary.createdAgents.length) lines.push(`  agents created:    ${summary.createdAgents.join(', ')}`);
    for (const failure of summary.failures) lines.push(`  failed ${failure.legacyId}: ${failure.reason}`);
    process.stdout.write(`${lines.join('\n')}\n`);
    if (summary.failed > 0) process.exitCode = 1;
  } finally {
    await runtime.close();
  }
};

const body = Object.hasOwn(commands, command ?? '') ? commands[command!] : undefined;
if (command === 'help' || command === '--help' || command === '-h') {
  process.stdout.write(`${await usage()}\n`);
} else if (!body) {
  // No command is a mistake too: the usage goes to stderr and the exit code says so.
  process.stderr.write(`${command ? `burrow: unknown command "${command}"\n` : ''}${await usage()}\n`);
  process.exitCode = 1;
} else {
  await (await import('./main.js')).runCommand(body);
}
