/**
 * @burrow/client as a user gets it, against the shipped server: `npm pack` builds the tarball
 * (prepack: tsc to ESM with declarations), a separate project installs it offline (`npm install
 * --offline` of the tarball and of its dependencies graphql, graphql-ws and ws, packed from the
 * repository's node_modules: npm's cache holds their tarballs but not the registry metadata a
 * range needs), and a plain ESM script there imports `@burrow/client` and talks to the server that
 * `npm start` (or `npm run burrow -- serve`) runs: a query, a mutation, a subscription that
 * receives a replayed event and then a live one caused by a later mutation.
 */
import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SCHEMA_HASH } from '../../clients/typescript/sdk.js';
import { ROOT, startShipped, type ShippedServer } from '../support/shipped.js';

const run = promisify(execFile);
const PACKAGE_DIR = join(ROOT, 'clients/typescript');
const npm = (args: string[], cwd: string) => run('npm', [...args, '--no-audit', '--no-fund', '--loglevel=error'], { cwd, maxBuffer: 16 * 1024 * 1024 });

let server: ShippedServer;
let project: string;
beforeAll(async () => {
  server = await startShipped();
  project = mkdtempSync(join(tmpdir(), 'burrow-client-consumer-'));
});
afterAll(async () => {
  if (server) expect((await server.stop()).code).toBe(0);
  if (project) rmSync(project, { recursive: true, force: true });
});

describe('@burrow/client from its npm pack tarball, against the shipped server', () => {
  it('installs offline into a separate project and runs a query, a mutation and a subscription that receives a live event', async () => {
    const { stdout: packed } = await npm(['pack', '--json', '--pack-destination', project], PACKAGE_DIR);
    const [tarball] = JSON.parse(packed.slice(packed.indexOf('['))) as { filename: string; files: { path: string }[] }[];
    const files = tarball.files.map((f) => f.path).sort();
    // Compiled ESM with declarations, the operations and the manifest; no TypeScript sources.
    expect(files).toEqual(
      expect.arrayContaining(['dist/sdk.js', 'dist/sdk.d.ts', 'dist/generated/sdk.js', 'dist/generated/sdk.d.ts', 'README.md', 'package.json', 'operations/agents.graphql']),
    );
    expect(files.filter((f) => f.endsWith('.ts') && !f.endsWith('.d.ts'))).toEqual([]);

    await npm(['init', '-y'], project);
    const dependencies = Object.keys(JSON.parse(readFileSync(join(PACKAGE_DIR, 'package.json'), 'utf8')).dependencies as Record<string, string>);
    expect(dependencies.sort()).toEqual(['graphql', 'graphql-ws', 'ws']);
    const depTarballs: string[] = [];
    for (const name of dependencies) {
      const { stdout: dep } = await npm(['pack', '--ignore-scripts', '--json', '--pack-destination', project, join(ROOT, 'node_modules', name)], project);
      depTarballs.push(join(project, (JSON.parse(dep.slice(dep.indexOf('['))) as { filename: string }[])[0].filename));
    }
    // --offline: no registry is asked; anything not at hand fails here, loudly.
    await npm(['install', '--offline', join(project, tarball.filename), ...depTarballs], project);
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
const replayed = await events.next();
// Live: an event the subscription can only get from a mutation made after it started.
const saved = await client.brainSave({ input: { agentId: 'packed', title: 'packed note', content: 'saved by the packed client' } });
const live = await events.next();
await events.return();
let refused = null;
try { await client.agentEvents({ agentId: 'ghost' }).next(); } catch (error) { refused = error instanceof BurrowRequestError ? error.code : String(error); }
await client.close();
console.log(JSON.stringify({ created: created.createAgent.__typename, principal: viewer.viewer.principal, replayed: replayed.value.agentEvents, saved: saved.brainSave.__typename, live: live.value.agentEvents, schemaHash: SCHEMA_HASH, warnings, refused }));
`,
    );
    const { stdout } = await run('node', ['consumer.mjs', server.url, server.operatorToken], { cwd: project, timeout: 60_000 });
    const result = JSON.parse(stdout);
    expect(result).toMatchObject({
      created: 'CreateAgentSuccess',
      principal: 'OPERATOR',
      replayed: { sequence: 1, agentId: 'packed', type: 'AGENT_CREATED' },
      saved: 'BrainSaveSuccess',
      live: { sequence: 2, agentId: 'packed', type: 'BRAIN_CREATED' },
      schemaHash: SCHEMA_HASH,
      warnings: [],
      refused: 'NOT_FOUND',
    });
  });
});
