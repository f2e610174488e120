/**
 * One copy of graphql wherever Burrow runs. Two copies (graphql's ESM and CommonJS builds) refuse
 * each other's schema ("Cannot use GraphQLSchema … from another module or realm"): in the built
 * server that failed every subscription while every test from the sources passed.
 * - the bundle: no module specifier of graphql is left for run time (static, deep, dynamic or
 *   through a require, createRequire's included), since the bundle carries its own copy;
 * - the running built server, driven over HTTP, SSE and graphql-ws, loads no file of
 *   node_modules/graphql (a preloaded guard reports every load);
 * - under the test runner, the schema and the tests' graphql are the same copy.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { GraphQLSchema } from 'graphql';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createBurrowClient } from '../../clients/typescript/sdk.js';
import { schema } from '../../src/schema/index.js';
import { collect } from '../support/harness.js';
import { postGraphQL, ROOT, startShipped, type ShippedServer } from '../support/shipped.js';

const MARKER = 'SECOND-GRAPHQL-COPY';
const GUARD = join(ROOT, 'test/support/forbid-graphql-files.mjs');

function filesOf(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) =>
    entry.isDirectory() ? filesOf(join(dir, entry.name)) : entry.name.endsWith('.js') ? [join(dir, entry.name)] : [],
  );
}

/** Every place the bundle could load graphql at run time: `from "graphql…"`, `import "graphql…"`, or a call with it as the only argument (require, import(), createRequire(…)(…)). */
const GRAPHQL_SPECIFIER = /\bfrom\s*["']graphql(?:\/[^"']*)?["']|\bimport\s*["']graphql(?:\/[^"']*)?["']|\(\s*["']graphql(?:\/[^"']*)?["']\s*\)/g;

describe('one copy of graphql', () => {
  it('the bundle leaves no graphql module to load at run time', () => {
    // Lines of code only: the bundle keeps the packages' doc comments, whose examples import graphql.
    const code = (file: string) =>
      readFileSync(file, 'utf8')
        .split('\n')
        .filter((line) => !/^\s*(\*|\/\/|\/\*)/.test(line))
        .join('\n');
    const found = filesOf(join(ROOT, 'dist')).flatMap((file) => [...code(file).matchAll(GRAPHQL_SPECIFIER)].map((m) => `${file}: ${m[0]}`));
    expect(found).toEqual([]);
  });

  it('the test runner builds the schema with the graphql the tests import', () => {
    expect(schema).toBeInstanceOf(GraphQLSchema);
  });

  describe('the running built server', () => {
    let server: ShippedServer;
    beforeAll(async () => {
      server = await startShipped({ env: { NODE_OPTIONS: `--import=${GUARD}` } });
    });
    afterAll(async () => {
      await server.stop();
    });

    it('loads no file of node_modules/graphql over HTTP, SSE and graphql-ws', async () => {
      const client = createBurrowClient({ url: server.url, token: server.operatorToken });
      const events = collect(client.subscribe<{ operatorEvents: { sequence: number } }>('subscription { operatorEvents { sequence type } }'));
      // graphql-ws acknowledges before the subscription runs: wait for it to be live.
      await new Promise((resolve) => setTimeout(resolve, 200));
      const created = await client.createAgent({ input: { agentId: 'one-copy', name: 'one copy' } });
      expect(created.createAgent.__typename).toBe('CreateAgentSuccess');
      await events.waitFor(1);
      await events.stop();

      const sse = await fetch(server.url, {
        method: 'POST',
        headers: { 'content-type': 'application/json', accept: 'text/event-stream', authorization: `Bearer ${server.operatorToken}` },
        body: JSON.stringify({ query: 'subscription { agentEvents(agentId: "one-copy", after: 0) { sequence } }' }),
      });
      const reader = sse.body!.getReader();
      let text = '';
      while (!text.includes('"sequence"')) text += new TextDecoder().decode((await reader.read()).value);
      await reader.cancel();
      expect(text).not.toContain('INTERNAL_SERVER_ERROR');

      const query = await postGraphQL(server, server.operatorToken, { query: '{ agent(agentId: "one-copy") { __typename agentId } }' });
      expect(query.body).toEqual({ data: { agent: { __typename: 'Agent', agentId: 'one-copy' } } });
      await client.close();
      expect(server.stderr()).not.toContain(MARKER);
    });
  });
});
