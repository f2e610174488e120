/**
 * Clients are versioned with the schema: the server names its schema (SHA-256 of schema.graphql)
 * in the Burrow-Schema-Hash header and in graphql-ws's connection_ack, and a client generated from
 * another schema warns once. The client here is made to carry another schema's hash (vi.mock of
 * its generated constant): what an older or newer @burrow/client install looks like.
 */
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { createClient } from 'graphql-ws';
import WebSocket from 'ws';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { startServer, type TestServer } from './support/harness.js';
import { createBurrowClient, SCHEMA_HASH, type SchemaMismatch } from '../clients/typescript/sdk.js';

const OTHER_SCHEMA = 'f'.repeat(64);
vi.mock('../clients/typescript/generated/schema-hash.js', () => ({ SCHEMA_HASH: 'f'.repeat(64) }));

const FILE_HASH = createHash('sha256')
  .update(readFileSync(new URL('../schema.graphql', import.meta.url)))
  .digest('hex');

let server: TestServer;
beforeAll(async () => (server = await startServer()));
afterAll(async () => server?.stop());

describe('the schema hash', () => {
  it('is the SHA-256 of schema.graphql, in the package metadata and on every HTTP answer, refusals included', async () => {
    const pkg = JSON.parse(readFileSync(new URL('../clients/typescript/package.json', import.meta.url), 'utf8'));
    expect(pkg.burrow.schemaHash).toBe(FILE_HASH);
    const answered = await fetch(server.url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${server.operator.options.token}` },
      body: JSON.stringify({ query: '{ viewer { principal } }' }),
    });
    expect([answered.status, answered.headers.get('burrow-schema-hash')]).toEqual([200, FILE_HASH]);
    const refused = await fetch(server.url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ query: '{ viewer { principal } }' }) });
    expect([refused.status, refused.headers.get('burrow-schema-hash')]).toEqual([401, FILE_HASH]);
  });

  it('is in the connection_ack payload of graphql-ws', async () => {
    const acks: unknown[] = [];
    const ws = createClient({
      url: server.url.replace(/^http/, 'ws'),
      webSocketImpl: WebSocket,
      connectionParams: { authorization: `Bearer ${server.operator.options.token}` },
      on: { connected: (_socket, payload) => void acks.push(payload) },
    });
    try {
      for await (const result of ws.iterate({ query: '{ viewer { principal } }' })) {
        expect(result.data).toEqual({ viewer: { principal: 'OPERATOR' } });
        break;
      }
    } finally {
      await ws.dispose();
    }
    expect(acks).toEqual([{ schemaHash: FILE_HASH }]);
  });

  it('a client generated from another schema reports the mismatch once, over HTTP', async () => {
    expect(SCHEMA_HASH).toBe(OTHER_SCHEMA);
    const seen: SchemaMismatch[] = [];
    const client = createBurrowClient({ url: server.url, token: server.operator.options.token, onSchemaMismatch: (m) => seen.push(m) });
    expect((await client.viewer()).viewer.principal).toBe('OPERATOR');
    expect((await client.viewer()).viewer.principal).toBe('OPERATOR');
    expect(seen).toEqual([{ client: OTHER_SCHEMA, server: FILE_HASH }]);
    await client.close();
  });

  it('and over graphql-ws; by default with one console.warn; not at all with onSchemaMismatch: false', async () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    try {
      const client = createBurrowClient({ url: server.url, token: server.operator.options.token });
      expect((await client.viewer(undefined, { transport: 'ws' })).viewer.principal).toBe('OPERATOR');
      expect((await client.viewer()).viewer.principal).toBe('OPERATOR');
      expect(warn).toHaveBeenCalledTimes(1);
      expect(String(warn.mock.calls[0][0])).toMatch(new RegExp(`server's schema \\(${FILE_HASH.slice(0, 12)}…\\) differs from this client's \\(ffffffffffff…\\)`));
      await client.close();
      const quiet = createBurrowClient({ url: server.url, token: server.operator.options.token, onSchemaMismatch: false });
      expect((await quiet.viewer()).viewer.principal).toBe('OPERATOR');
      expect(warn).toHaveBeenCalledTimes(1);
      await quiet.close();
    } finally {
      warn.mockRestore();
    }
  });
});
