/**
 * `npm run burrow -- agent export|import` as users run them, on the shipped build: an agent
 * written through the running server, exported and imported under a new id while it is stopped
 * (the embedded database is one process's), reads the same through the restarted server; a second
 * import is refused, a tampered file too, each with exit code 1 and nothing written.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gunzipSync, gzipSync } from 'node:zlib';
import { afterAll, describe, expect, it } from 'vitest';
import { DEFAULT_LIFECYCLE, postGraphQL, startShipped, type ShippedServer } from '../support/shipped.js';

const dir = mkdtempSync(join(tmpdir(), 'bw-archive-'));
const running: ShippedServer[] = [];
afterAll(async () => {
  for (const server of running) await server.stop();
  rmSync(dir, { recursive: true, force: true });
});

const READ = `query($id: String!) { brainMemories(agentId: $id) { edges { node { title content revision createdAt } } }
  conversationOriginals(agentId: $id, sessionId: "s1") { edges { node { payload position } } } }`;

describe('burrow agent export / import (the shipped CLI)', () => {
  it('round-trips an agent under a new id; refuses an existing agent and a tampered file', async () => {
    const dataDir = join(dir, 'data');
    const first = await startShipped({ dataDir });
    running.push(first);
    const op = first.operatorToken;
    const session = { 'burrow-continuity-scope': 'p', 'burrow-session': 's1' };
    await postGraphQL(first, op, { query: 'mutation { createAgent(input: { agentId: "wren", name: "Wren" }) { __typename } }' });
    await postGraphQL(first, op, { query: 'mutation { brainSave(input: { agentId: "wren", title: "nest", content: "under the eaves" }) { __typename } }' });
    const appended = await postGraphQL(
      first,
      op,
      { query: 'mutation($p: String!) { appendConversationEntry(input: { agentId: "wren", payload: $p }) { __typename } }', variables: { p: '{"text":   "kept as written"}' } },
      session,
    );
    expect(appended.body.data.appendConversationEntry.__typename).toBe('AppendConversationEntrySuccess');
    const before = await postGraphQL(first, op, { query: READ, variables: { id: 'wren' } });
    expect(before.body.data.brainMemories.edges).toHaveLength(1);

    // Embedded: the CLI opens the data directory the server held.
    if (DEFAULT_LIFECYCLE === 'embedded') await first.stop();
    const file = join(dir, 'wren.burrow-agent.gz');
    const exported = await first.burrow(['agent', 'export', '--agent', 'wren', '--out', file, '--include-events']);
    expect(exported.code, exported.stderr).toBe(0);
    expect(exported.stdout).toMatch(/^exported agent wren: \d+ rows to .*wren\.burrow-agent\.gz \(sha256 [0-9a-f]{64}\)/);
    expect(gunzipSync(readFileSync(file)).toString('utf8')).toContain('{"text":   "kept as written"}');

    const imported = await first.burrow(['agent', 'import', '--file', file, '--agent', 'wren-copy']);
    expect(imported.code, imported.stderr).toBe(0);
    expect(imported.stdout).toMatch(/^imported agent wren as wren-copy: \d+ rows\n$/);

    const again = await first.burrow(['agent', 'import', '--file', file, '--agent', 'wren-copy']);
    expect(again.code).toBe(1);
    expect(again.stderr).toContain('agent "wren-copy" already exists: import with replace to overwrite it');
    const lines = gunzipSync(readFileSync(file)).toString('utf8').replace('under the eaves', 'under the floor');
    const tampered = join(dir, 'tampered.gz');
    writeFileSync(tampered, gzipSync(lines));
    const refused = await first.burrow(['agent', 'import', '--file', tampered, '--agent', 'wren-tampered']);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain("the file's SHA-256 differs from its trailer");
    const replaced = await first.burrow(['agent', 'import', '--file', file, '--agent', 'wren-copy', '--replace']);
    expect(replaced.code, replaced.stderr).toBe(0);
    expect(replaced.stdout).toContain('(replaced the agent that was there)');

    const second = DEFAULT_LIFECYCLE === 'embedded' ? await startShipped({ dataDir, operatorToken: op }) : first;
    if (second !== first) running.push(second);
    const copy = await postGraphQL(second, op, { query: READ, variables: { id: 'wren-copy' } });
    expect(copy.body).toEqual(before.body);
    const none = await postGraphQL(second, op, { query: 'query { agent(agentId: "wren-tampered") { agentId } }' });
    expect(none.body).toEqual({ data: { agent: null } });
  });
});
