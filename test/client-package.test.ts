/**
 * @burrow/client as a package: `npm pack` builds the tarball (prepack: tsc to ESM with
 * declarations), a separate project installs it, and a plain ESM script there imports
 * `@burrow/client` and talks to a real server: a query, a mutation, a subscription. The package's
 * dependencies come from npm's cache (the root install put them there): --prefer-offline.
 */
import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type TestServer } from './support/harness.js';
import { SCHEMA_HASH } from '../clients/typescript/sdk.js';

const run = promisify(execFile);
const PACKAGE_DIR = new URL('../clients/typescript/', import.meta.url).pathname;
const npm = (args: string[], cwd: string) => run('npm', [...args, '--no-audit', '--no-fund', '--loglevel=error'], { cwd, maxBuffer: 16 * 1024 * 1024 });

let server: TestServer;
let project: string;
beforeAll(async () => {
  server = await startServer();
  project = mkdtempSync(join(tmpdir(), 'burrow-client-consumer-'));
});
afterAll(async () => {
  await server?.stop();
  if (project) rmSync(project, { recursive: true, force: true });
});

describe('@burrow/client from its npm pack tarball', () => {
  it('installs into a separate project and runs a query, a mutation and a subscription against a real server', async () => {
    const { stdout: packed } = await npm(['pack', '--json', '--pack-destination', project], PACKAGE_DIR);
    const [tarball] = JSON.parse(packed.slice(packed.indexOf('['))) as { filename: string; files: { path: string }[] }[];
    const files = tarball.files.map((f) => f.path).sort();
    // Compiled ESM with declarations, the operations and the manifest; no TypeScript sources.
    expect(files).toEqual(expect.arrayContaining(['dist/sdk.js', 'dist/sdk.d.ts', 'dist/generated/sdk.js', 'dist/generated/sdk.d.ts', 'README.md', 'package.json', 'operations/agents.graphql']));
    expect(files.filter((f) => f.endsWith('.ts') && !f.endsWith('.d.ts'))).toEqual([]);

    await npm(['init', '-y'], project);
    await npm(['install', '--prefer-offline', join(project, tarball.filename)], project);
    const installed = JSON.parse(readFileSync(join(project, 'node_modules/@burrow/client/package.json'), 'utf8'));
    expect(installed.name).toBe('@burrow/client');
    expect(installed.burrow.schemaHash).toBe(SCHEMA_HASH);

    writeFileSync(
      join(project, 'consumer.mjs'),
      `import { createBurrowClient, SCHEMA_HASH, BurrowRequestError } from '@burrow/client';
const warnings = [];
const client = createBurrowClient({ url: process.argv[2], token: process.argv[3], onSchemaMismatch: (m) => warnings.push(m) });
const created = await client.createAgent({ input: { agentId: 'packed', name: 'Packed' } });
const viewer = await client.viewer();
const events = client.agentEvents({ agentId: 'packed', after: 0 });
const first = await events.next();
await events.return();
let refused = null;
try { await client.agentEvents({ agentId: 'ghost' }).next(); } catch (error) { refused = error instanceof BurrowRequestError ? error.code : String(error); }
await client.close();
console.log(JSON.stringify({ created: created.createAgent.__typename, principal: viewer.viewer.principal, event: first.value.agentEvents, schemaHash: SCHEMA_HASH, warnings, refused }));
`,
    );
    const { stdout } = await run('node', ['consumer.mjs', server.url, server.operator.options.token], { cwd: project });
    const result = JSON.parse(stdout);
    expect(result).toMatchObject({
      created: 'CreateAgentSuccess',
      principal: 'OPERATOR',
      event: { sequence: 1, agentId: 'packed' },
      schemaHash: SCHEMA_HASH,
      warnings: [],
      refused: 'NOT_FOUND',
    });
  }, 180_000);
});
