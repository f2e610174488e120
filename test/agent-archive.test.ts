/**
 * The agent archive (docs/agent-archive.md): an agent with data in every store (the
 * authorization matrix's victim) exported and imported into another Burrow reads the same
 * through every agent query of the API; under a new id every row is the same but for the id;
 * a tampered or truncated file and an import over an existing agent are refused with nothing
 * written; secrets and token hashes never travel; a per-agent table the archive does not name
 * stops the export.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { gzipSync } from 'node:zlib';
import { createReadStream, readFileSync, writeFileSync } from 'node:fs';
import { exportAgentArchive } from '../src/domains/agent-archive/agent-archive.export.js';
import { importAgentArchive } from '../src/domains/agent-archive/agent-archive.import.js';
import { ARCHIVE_TABLES, EVENTS_TABLE, EXCLUDED_TABLES, uncoveredTables } from '../src/domains/agent-archive/agent-archive.tables.js';
import { agentFields, call, chat, fixture, keyOf, SCOPE, server, SESSION, setupMatrix, variablesFor, VICTIM, withAgent } from './support/authorization-matrix.js';
import { countsOf, exportToFile, importFile, linesOfFile, rowsOf, tempPath, writeLines } from './support/agent-archive.js';
import { ok } from './support/continuity.js';
import { startServer, type TestServer } from './support/harness.js';
import { Writable } from 'node:stream';

setupMatrix();
/**
 * What is not the agent's data: API tokens never travel (the receiving Burrow lists its own), and
 * an ownership session is live only while its process holds its lock on that server.
 */
const withoutTokens = (text: string) =>
  JSON.stringify(
    JSON.parse(text, (key, value: unknown) => {
      if ((value as { __typename?: string } | null)?.__typename === 'ApiTokenConnection') return 'tokens do not travel';
      return key === 'live' ? 'per server' : value;
    }),
  );
/** Agent queries that read the server's records about an agent, not the agent's data: they do not travel. */
const NOT_ARCHIVED: Record<string, string> = {
  'query dataRemovalReceipts': "removal receipts stay on the server that removed (the matrix victim's purge made one there)",
};
const agentQueries = () => agentFields.filter((root) => root.kind === 'query' && !(keyOf(root) in NOT_ARCHIVED));
/** Both agents' ids as one, in plain strings and inside base64 node ids and cursors (whose binding hashes the agent). */
const sameAgent = (text: string) =>
  JSON.stringify(
    JSON.parse(text, (_key, value: unknown) => {
      if (typeof value !== 'string') return value;
      const decoded = Buffer.from(value, 'base64').toString('utf8');
      const plain = Buffer.from(decoded, 'utf8').toString('base64').replace(/=+$/, '') === value.replace(/=+$/, '') && /[:/"]/.test(decoded) ? decoded : value;
      // A cursor's binding ("b") is a hash over what it was issued for, the agent included.
      return plain
        .replaceAll('matrix-copy', 'AGENT')
        .replaceAll(VICTIM, 'AGENT')
        .replace(/^\{"b":"[0-9a-f]+",/, '{"b":"binding",');
    }),
  );
const runtime = { scope: SCOPE, session: SESSION, conversation: 'matrix-conversation' };
const SECRET_TEXT = 'v1.0123456789abcdef.AAAAAAAAAAAAAAAA.AAAAAAAAAAAAAAAAAAAAAA.archive-secret';
let second: TestServer;
let archive: string;

beforeAll(async () => {
  // An embedding (no provider runs here) and a second conversation session: every store holds rows.
  await server.database.pool.query(
    `INSERT INTO brain_embeddings (agent_id, memory_id, revision, model, status, dimensions, embedding, updated_at)
     VALUES ($1, $2, 1, 'archive-model', 'indexed', 3, '{0.1,0.2,0.30000001}', '2026-06-01T12:00:00Z')`,
    [VICTIM, fixture.brainId],
  );
  archive = await exportToFile(server.database.pool, VICTIM, { includeEvents: true });
  // The same configuration as the matrix's server (its Tiddle proposer shows in tiddleStatus).
  second = await startServer({ config: { tiddle: { scheduler: false, proposer: { kind: 'openai', url: chat.url, model: 'matrix', apiKey: null, timeoutMs: 10_000 } } } });
}, 120_000);
afterAll(async () => second?.stop());

describe('agent archive', () => {
  it('covers every table with an agent_id column, in foreign-key order, and stops the export at one it does not name', async () => {
    expect(await uncoveredTables(server.database.pool)).toEqual([]);
    const { rows } = await server.database.pool.query<{ child: string; parent: string }>(
      `SELECT conrelid::regclass::text AS child, confrelid::regclass::text AS parent FROM pg_constraint WHERE contype = 'f' AND connamespace = 'public'::regnamespace`,
    );
    const order: string[] = [...ARCHIVE_TABLES, EVENTS_TABLE];
    for (const { child, parent } of rows.filter((r) => order.includes(r.child))) expect(order.indexOf(parent), `${child} -> ${parent}`).toBeLessThan(order.indexOf(child));
    expect(Object.keys(EXCLUDED_TABLES).sort()).toEqual(['api_tokens', 'data_removal_receipts', 'idempotency_keys']);

    await server.database.pool.query('CREATE TABLE archive_guard_probe (agent_id text)');
    try {
      const sink = new Writable({ write: (_chunk, _encoding, done) => done() });
      await expect(exportAgentArchive(server.database.pool, VICTIM, sink)).rejects.toThrow('does not cover the table(s) archive_guard_probe');
    } finally {
      await server.database.pool.query('DROP TABLE archive_guard_probe');
    }
  });

  it('imported into another Burrow under the same id, reads identical through every agent query, row for row and byte for byte', async () => {
    const before = await rowsOf(server.database.pool, VICTIM);
    for (const table of [...ARCHIVE_TABLES, EVENTS_TABLE])
      expect(before[table].length, table).toBeGreaterThan(table === 'tiddle_settings' || table === 'preference_learning_state' ? -1 : 0);
    const summary = await importFile(second.database.pool, archive);
    expect(summary).toMatchObject({ agentId: VICTIM, fromAgentId: VICTIM, replaced: false });
    expect(await rowsOf(second.database.pool, VICTIM)).toEqual(before);
    // Originals, byte for byte (json columns keep their text).
    const originals = 'SELECT entry_id, payload::text AS p FROM conversation_original_rows WHERE agent_id = $1 ORDER BY position';
    const there = (await second.database.pool.query(originals, [VICTIM])).rows;
    expect(there.length).toBeGreaterThan(1);
    expect(there).toEqual((await server.database.pool.query(originals, [VICTIM])).rows);

    const [here, imported] = await Promise.all([server.client(runtime), second.client(runtime)]);
    const queries = agentQueries();
    expect(queries.length).toBeGreaterThan(15);
    let answered = 0;
    for (const root of queries) {
      const variables = await variablesFor(root);
      const a = await call(here, root, variables, 10_000);
      const b = await call(imported, root, variables, 10_000);
      expect(withoutTokens(b.text), keyOf(root)).toBe(withoutTokens(a.text));
      if (a.outcome === 'ok') answered += 1;
    }
    expect(answered).toBeGreaterThan(15);
  });

  it('continues the event sequence after the imported events', async () => {
    const sequence = (await second.operator.agent({ id: VICTIM })).agent!.lastEventSequence;
    expect(sequence).toBe((await server.operator.agent({ id: VICTIM })).agent!.lastEventSequence);
    const saved = ok((await second.operator.brainSave({ input: { agentId: VICTIM, title: 'after import', content: 'x' } })).brainSave, 'BrainSaveSuccess');
    expect(saved.memory.memoryId).toBeTruthy();
    expect((await second.operator.agent({ id: VICTIM })).agent!.lastEventSequence).toBe(sequence + 1);
  });

  it('imports under a new id: every row the same but for the agent id, wherever it named the agent', async () => {
    const summary = await importFile(server.database.pool, archive, { agentId: 'matrix-copy' });
    expect(summary).toMatchObject({ agentId: 'matrix-copy', fromAgentId: VICTIM, replaced: false });
    const original = await rowsOf(server.database.pool, VICTIM);
    const copy = await rowsOf(server.database.pool, 'matrix-copy');
    for (const [table, rows] of Object.entries(original)) {
      // The agent's name is a name, not a reference: it stays (here it happens to equal the old id).
      const rewrite = (r: string) =>
        table === 'agents'
          ? r.replace(`"id":"${VICTIM}"`, '"id":"matrix-copy"')
          : r
              .replaceAll(`"${VICTIM}"`, '"matrix-copy"')
              .replaceAll(`/${VICTIM}/`, '/matrix-copy/')
              .replaceAll(`"${VICTIM}/`, '"matrix-copy/')
              .replace('{"name": "matrix-copy"}', `{"name": "${VICTIM}"}`);
      expect(copy[table], table).toEqual(rows.map(rewrite));
    }
    expect(JSON.stringify({ ...copy, agents: [] }).replace(`{\\"name\\": \\"${VICTIM}\\"}`, '')).not.toContain(VICTIM);
    const read = await server.operator.agent({ id: 'matrix-copy' });
    expect(read.agent).toMatchObject({ agentId: 'matrix-copy', name: VICTIM });

    // Through the API: every agent query reads the copy as it reads the original, once the agent id
    // (also inside node ids and cursors, which encode it) reads the same on both sides.
    const operator = await server.client(runtime);
    let answered = 0;
    for (const root of agentQueries()) {
      const variables = await variablesFor(root);
      const a = await call(operator, root, variables, 10_000);
      const b = await call(operator, root, withAgent(variables, root, 'matrix-copy'), 10_000);
      expect(sameAgent(withoutTokens(b.text)), keyOf(root)).toBe(sameAgent(withoutTokens(a.text)));
      if (a.outcome === 'ok') answered += 1;
    }
    expect(answered).toBeGreaterThan(15);
  });

  it('refuses a tampered, truncated or foreign file with nothing written', async () => {
    const pool = second.database.pool;
    const counts = await countsOf(pool);
    const lines = linesOfFile(archive);
    const edited = lines.map((line, i) => (i === 3 ? line.replace('"revision":', '"revision": ') : line));
    expect(edited[3]).not.toBe(lines[3]);
    const compressed = readFileSync(archive);
    const flipped = Buffer.from(compressed);
    flipped[Math.floor(flipped.length / 2)] ^= 0x01;
    const flippedPath = tempPath('flipped');
    writeFileSync(flippedPath, flipped);
    const truncatedPath = tempPath('truncated');
    writeFileSync(truncatedPath, compressed.subarray(0, Math.floor(compressed.length / 2)));
    const notGzip = tempPath('plain');
    writeFileSync(notGzip, 'hello');
    const cases: [string, RegExp][] = [
      [writeLines(edited), /SHA-256 differs/],
      // One flipped bit in the deflate stream can surface as any check of the reader (bad data, a
      // broken line, a wrong hash), depending on the archive's random ids: BAD_ARCHIVE is what counts.
      [flippedPath, /./],
      [truncatedPath, /does not decompress|truncated/],
      [writeLines(lines.slice(0, -1)), /no trailer/],
      [writeLines([...lines, '{}']), /follow the trailer/],
      [notGzip, /does not decompress/],
      [tempPath('empty'), /.*/],
    ];
    writeFileSync(cases[cases.length - 1][0], gzipSync(''));
    for (const [path, message] of cases) {
      await expect(importFile(pool, path, { agentId: 'never-written' }), path).rejects.toMatchObject({ code: 'BAD_ARCHIVE', message: expect.stringMatching(message) });
    }
    // A file swapped between the verifying pass and the importing one: rolled back.
    for (const swapped of [writeLines(edited), writeLines(lines.map((line, i) => (i === 3 ? line.slice(0, -5) : line)))]) {
      const reads = [archive, swapped];
      const changing = importAgentArchive(pool, () => createReadStream(reads.shift()!), { agentId: 'never-written' });
      await expect(changing).rejects.toMatchObject({ code: 'BAD_ARCHIVE', message: 'the file changed between verifying and importing it' });
    }
    expect(await countsOf(pool)).toEqual(counts);
  });

  it('refuses an existing agent unless asked to replace it; a replace puts the archive back in one transaction', async () => {
    const pool = second.database.pool;
    const counts = await countsOf(pool);
    await expect(importFile(pool, archive)).rejects.toMatchObject({ code: 'ALREADY_EXISTS' });
    expect(await countsOf(pool)).toEqual(counts);
    // The agent on this side changed since (a memory saved after the import); replace restores the archive.
    const summary = await importFile(pool, archive, { replace: true });
    expect(summary.replaced).toBe(true);
    expect(await rowsOf(pool, VICTIM)).toEqual(await rowsOf(server.database.pool, VICTIM, [...ARCHIVE_TABLES, EVENTS_TABLE]));
  });

  it('carries no secret: no token hash, no setting secret; a secret-only setting is left out', async () => {
    const pool = server.database.pool;
    await pool.query(
      `INSERT INTO agent_settings (agent_id, name, value, secret, revision, updated_at, updated_by) VALUES
      ($1, 'with-value', '"shown"', $2, 1, now(), 'op'), ($1, 'secret-only', NULL, $2, 1, now(), 'op')`,
      [VICTIM, SECRET_TEXT],
    );
    const path = await exportToFile(pool, VICTIM);
    const text = linesOfFile(path).join('\n');
    expect(text).not.toContain('archive-secret');
    const hashes = (await pool.query<{ token_hash: string }>('SELECT token_hash FROM api_tokens')).rows.map((r) => r.token_hash);
    expect(hashes.length).toBeGreaterThan(1);
    for (const hash of hashes) expect(text).not.toContain(hash);
    expect(text).not.toContain('"secret"');
    expect(JSON.parse(linesOfFile(path).at(-1)!)).toMatchObject({ secretOnlySettingsLeftOut: 1 });
    await importFile(pool, path, { agentId: 'matrix-no-secrets' });
    const settings = await pool.query('SELECT name, value, secret FROM agent_settings WHERE agent_id = $1 ORDER BY name', ['matrix-no-secrets']);
    expect(settings.rows).toEqual([
      { name: 'matrix-setting', value: 'victim-secret', secret: null },
      { name: 'with-value', value: 'shown', secret: null },
    ]);
  });

  it('ends an export whose receiver goes away, releasing its connection', async () => {
    const sink = new Writable({ highWaterMark: 1, write: (_chunk, _encoding, done) => setImmediate(() => (sink.destroy(), done())) });
    await expect(exportAgentArchive(server.database.pool, VICTIM, sink, { includeEvents: true })).rejects.toThrow('the archive receiver closed before the end');
    // Embedded, the pool has one connection: this answers only if the export gave it back.
    expect((await server.database.pool.query('SELECT 1 AS one')).rows).toEqual([{ one: 1 }]);
  });

  it('refuses an unknown agent on export and a bad new id on import', async () => {
    const sink = new Writable({ write: (_chunk, _encoding, done) => done() });
    await expect(exportAgentArchive(server.database.pool, 'no-such-agent', sink)).rejects.toMatchObject({ code: 'NOT_FOUND' });
    await expect(importFile(second.database.pool, archive, { agentId: 'Not An Id' })).rejects.toMatchObject({ code: 'BAD_REQUEST' });
  });
});
