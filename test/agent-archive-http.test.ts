/**
 * GET and POST /agents/{id}/archive: operators only, JSON refusals with their status (never a
 * 500 for a bad file), the upload limit, and a download that uploads back under a new id.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { randomBytes } from 'node:crypto';
import { gunzipSync } from 'node:zlib';
import { exportAgentArchive, importAgentArchive } from '../clients/typescript/sdk.js';
import { DEFAULT_LIMITS } from '../src/config.server.js';
import { countsOf } from './support/agent-archive.js';
import { ok } from './support/continuity.js';
import { startServer, type TestServer } from './support/harness.js';

let server: TestServer;
let operatorToken: string;
let agentToken: string;
const LIMIT = 64 * 1024;

const archiveUrl = (id: string, query = '') => `${server.url.replace('/graphql', '')}/agents/${id}/archive${query}`;
const auth = (token: string) => ({ authorization: `Bearer ${token}` });

beforeAll(async () => {
  server = await startServer({ config: { limits: { ...DEFAULT_LIMITS, archiveBytes: LIMIT } } });
  operatorToken = (await server.app.services.tokens.create({ kind: 'operator', name: 'archive-http' })).token;
  const agent = await server.agentClient('archived', { scope: 'archive', session: 'archive-session', conversation: 'c1' });
  agentToken = (await server.app.services.tokens.create({ kind: 'agent', name: 'archive-agent', agentId: 'archived' })).token;
  ok((await agent.brainSave({ input: { title: 'kept', content: 'travels' } })).brainSave, 'BrainSaveSuccess');
  ok((await agent.appendConversationEntry({ input: { payload: '{"text":  "spacing kept"}' } })).appendConversationEntry, 'AppendConversationEntrySuccess');
});
afterAll(async () => server?.stop());

async function refusal(response: Response) {
  expect(response.headers.get('content-type')).toBe('application/json');
  return { status: response.status, ...((await response.json()) as { error: { code: string; message: string } }).error };
}

describe('agent archive over HTTP', () => {
  it('answers operators only', async () => {
    expect(await refusal(await fetch(archiveUrl('archived')))).toMatchObject({ status: 401, code: 'UNAUTHENTICATED' });
    expect(await refusal(await fetch(archiveUrl('archived'), { headers: auth(agentToken) }))).toMatchObject({ status: 403, code: 'FORBIDDEN' });
    expect(await refusal(await fetch(archiveUrl('archived'), { method: 'POST', headers: auth(agentToken), body: 'x' }))).toMatchObject({ status: 403 });
    expect(await refusal(await fetch(archiveUrl('nobody'), { headers: auth(operatorToken) }))).toMatchObject({ status: 404, code: 'NOT_FOUND' });
    expect(await refusal(await fetch(archiveUrl('archived'), { method: 'DELETE', headers: auth(operatorToken) }))).toMatchObject({ status: 405 });
  });

  it('downloads an archive and uploads it under a new id; an existing agent needs replace=true', async () => {
    const download = await fetch(archiveUrl('archived', '?includeEvents=true'), { headers: auth(operatorToken) });
    expect(download.status).toBe(200);
    expect(download.headers.get('content-type')).toBe('application/gzip');
    const bytes = Buffer.from(await download.arrayBuffer());
    const lines = gunzipSync(bytes).toString('utf8').trim().split('\n');
    expect(JSON.parse(lines[0])).toMatchObject({ format: 'burrow-agent-archive', version: 1, agentId: 'archived', includesEvents: true });
    expect(lines.join('\n')).toContain('{"text":  "spacing kept"}');

    const first = await fetch(archiveUrl('archived-copy'), { method: 'POST', headers: auth(operatorToken), body: bytes });
    expect(first.status).toBe(200);
    expect(await first.json()).toMatchObject({ agentId: 'archived-copy', fromAgentId: 'archived', replaced: false });
    const memories = await server.operator.brainMemories({ agentId: 'archived-copy' });
    expect(memories.brainMemories.edges.map((e) => e.node.title)).toEqual(['kept']);

    const counts = await countsOf(server.database.pool);
    expect(await refusal(await fetch(archiveUrl('archived-copy'), { method: 'POST', headers: auth(operatorToken), body: bytes }))).toMatchObject({
      status: 409,
      code: 'ALREADY_EXISTS',
    });
    expect(await countsOf(server.database.pool)).toEqual(counts);
    const replaced = await fetch(archiveUrl('archived-copy', '?replace=true'), { method: 'POST', headers: auth(operatorToken), body: bytes });
    expect(replaced.status).toBe(200);
    expect(await replaced.json()).toMatchObject({ replaced: true });
  });

  it('refuses a bad file with 400 and one over BURROW_ARCHIVE_MAX_BYTES with 413, writing nothing', async () => {
    const counts = await countsOf(server.database.pool);
    const bad = await refusal(await fetch(archiveUrl('from-garbage'), { method: 'POST', headers: auth(operatorToken), body: 'not an archive' }));
    expect(bad).toMatchObject({ status: 400, code: 'BAD_ARCHIVE' });
    expect(bad.message).not.toMatch(/ at |node_modules/);
    const big = randomBytes(LIMIT + 1);
    expect(await refusal(await fetch(archiveUrl('from-big'), { method: 'POST', headers: auth(operatorToken), body: big }))).toMatchObject({ status: 413, code: 'LIMIT_EXCEEDED' });
    expect(await refusal(await fetch(archiveUrl('Bad%20Id'), { method: 'POST', headers: auth(operatorToken), body: 'x' }))).toMatchObject({ status: 400, code: 'BAD_REQUEST' });
    expect(await countsOf(server.database.pool)).toEqual(counts);
  });
});

describe('the TypeScript client', () => {
  it('streams an export into an import under a new id, and reports a refusal with its code', async () => {
    const target = { url: server.url, token: operatorToken };
    const stream = await exportAgentArchive(target, 'archived', { includeEvents: true });
    expect(await importAgentArchive(target, 'archived-by-client', stream)).toMatchObject({ agentId: 'archived-by-client', fromAgentId: 'archived', replaced: false });
    const memories = await server.operator.brainMemories({ agentId: 'archived-by-client' });
    expect(memories.brainMemories.edges.map((e) => e.node.title)).toEqual(['kept']);

    const bytes = new Uint8Array(await new Response(await exportAgentArchive(target, 'archived')).arrayBuffer());
    await expect(importAgentArchive(target, 'archived-by-client', bytes)).rejects.toMatchObject({ name: 'AgentArchiveError', code: 'ALREADY_EXISTS', status: 409 });
    expect(await importAgentArchive(target, 'archived-by-client', bytes, { replace: true })).toMatchObject({ replaced: true });
    await expect(exportAgentArchive({ url: server.url, token: agentToken }, 'archived')).rejects.toMatchObject({ code: 'FORBIDDEN', status: 403 });
    await expect(exportAgentArchive(target, 'nobody')).rejects.toMatchObject({ code: 'NOT_FOUND', status: 404 });
    // A streamed (chunked) upload has no length to check first: it is counted as it arrives.
    const counts = await countsOf(server.database.pool);
    const oversized = new ReadableStream<Uint8Array>({
      start(controller) {
        for (let i = 0; i < 4; i++) controller.enqueue(randomBytes(LIMIT / 2));
        controller.close();
      },
    });
    await expect(importAgentArchive(target, 'streamed-too-large', oversized)).rejects.toMatchObject({ code: 'LIMIT_EXCEEDED', status: 413 });
    expect(await countsOf(server.database.pool)).toEqual(counts);
  });
});
