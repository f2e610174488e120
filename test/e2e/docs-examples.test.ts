/**
 * Every code block of README.md and docs/*.md runs as written against a fresh shipped server
 * (`npm start`, or `npm run burrow -- serve` on the real server's pass), or says why not:
 *
 * - ```text blocks are not code (diagrams, file trees, usage);
 * - a block right after `<!-- not run by test/e2e/docs-examples.test.ts: reason -->` is skipped
 *   for that reason (it starts the server, needs placeholders of yours, runs for minutes, …);
 * - a ```json block after a paragraph ending in "answers:" is the exact answer of the block
 *   before it;
 * - everything else runs: docs/quickstart.md's shell blocks in order in bash, as one pasted shell
 *   would (the placeholders `brw_...` become the operator token the banner printed and the secret
 *   createApiToken returned, and port 4000 the server's), the `agentEvents` / `operatorEvents` SSE
 *   streams until their first event; the TypeScript snippets with tsx from the repository root;
 *   docs/tiddle.md's GraphQL operation as the agent's runtime; the GraphQL operations of
 *   docs/point-in-time.md, docs/data-purge.md and docs/agent-erasure.md in order as the operator,
 *   each with the values of its variables' names in the answers before it (operationsInOrder).
 *
 * A block that fits none of these fails the test, so a new example is run or says why not. Every
 * GraphQL answer must carry no `errors` and no error member (`code`), unless the doc shows the
 * error it answers.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { blocks, expectClean, operationsInOrder, where, type Block } from '../support/docs-blocks.js';
import { waitUntil } from '../support/harness.js';
import { postGraphQL, ROOT, startShipped, type ShippedServer } from '../support/shipped.js';

const DEFAULT_URL = 'http://127.0.0.1:4000/graphql';

/** Runs a shell block in bash; `untilEvent`: an SSE stream, ended once its first event arrived. */
function bash(script: string, env: Record<string, string>, untilEvent = false): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn('bash', ['-c', script], { cwd: ROOT, env, detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk) => {
      stdout += chunk;
      if (untilEvent && /event: next\ndata: .*\n/.test(stdout)) process.kill(-child.pid!, 'SIGTERM');
    });
    child.stderr.on('data', (chunk) => (stderr += chunk));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}

let server: ShippedServer;
const scratch: string[] = [];

/** A token for the agent hatchet (made first when the quickstart did not run before). */
async function agentToken(name: string): Promise<string> {
  await postGraphQL(server, server.operatorToken, { query: 'mutation { createAgent(input: { agentId: "hatchet", name: "Hatchet" }) { __typename } }' });
  const made = await postGraphQL(server, server.operatorToken, {
    query: 'mutation($i: CreateApiTokenInput!) { createApiToken(input: $i) { ... on CreateApiTokenSuccess { secret } } }',
    variables: { i: { kind: 'AGENT', agentId: 'hatchet', name } },
  });
  return made.body.data.createApiToken.secret as string;
}
beforeAll(async () => {
  server = await startShipped();
});
afterAll(async () => {
  for (const file of scratch) rmSync(file, { force: true, recursive: true });
  if (server) expect((await server.stop()).code).toBe(0);
});

describe('the code blocks of README.md and docs/*.md', () => {
  it('every block is run, is text, is a shown answer, or says why it is not run', () => {
    const runnable = (b: Block) =>
      (b.file === 'docs/quickstart.md' && (b.lang === 'sh' || b.lang === 'ts')) ||
      (b.file === 'docs/tiddle.md' && b.lang === 'graphql') ||
      (b.file === 'docs/point-in-time.md' && (b.lang === 'graphql' || b.lang === 'ts')) ||
      (b.file === 'docs/data-purge.md' && b.lang === 'graphql') ||
      (b.file === 'docs/agent-erasure.md' && b.lang === 'graphql') ||
      (b.file === 'docs/mcp.md' && b.lang === 'ts') ||
      (b.file === 'docs/agent-archive.md' && (b.lang === 'sh' || b.lang === 'ts')) ||
      (b.file === 'README.md' && b.lang === 'ts');
    const unaccounted = blocks().filter((b) => !b.notRun && b.lang !== 'text' && !b.isAnswer && !runnable(b));
    expect(unaccounted.map(where)).toEqual([]);
  });

  it("the README's one prerequisite command installs what the skipped tests name", () => {
    const install = blocks().find((b) => b.file === 'README.md' && b.code.startsWith('apt-get install'))!;
    expect(install.code.trim()).toBe('apt-get install -y chromium python3 python3-venv');
    // test/support/browser.ts skips without /usr/bin/chromium (Debian's package chromium);
    // test/e2e/client-python.test.ts without python3 and its venv module.
    expect(readFileSync(join(ROOT, 'test/support/browser.ts'), 'utf8')).toContain("CHROMIUM = '/usr/bin/chromium'");
    expect(readFileSync(join(ROOT, 'test/e2e/client-python.test.ts'), 'utf8')).toContain('apt-get install -y python3 python3-venv');
  });

  it('docs/quickstart.md runs as written, in order, in one shell', async () => {
    const quick = blocks().filter((b) => b.file === 'docs/quickstart.md' && b.lang === 'sh' && !b.notRun);
    expect(quick.length).toBeGreaterThanOrEqual(18);
    const env: Record<string, string> = { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: process.env.HOME ?? '/tmp' };
    let agentToken: string | null = null;
    // What the reader's shell keeps: the exports and functions of the blocks before.
    let prelude = '';
    for (const block of quick) {
      const code = block.code
        .replace(DEFAULT_URL, server.url)
        .replace('export TOKEN=brw_...', `export TOKEN=${server.operatorToken}`)
        .replace('export AGENT_TOKEN=brw_...', `export AGENT_TOKEN=${agentToken ?? 'no-secret-yet'}`);
      if (/^export |\(\) \{/m.test(code) && !code.includes('<<')) {
        const defined = await bash(`set -e\n${prelude}\n${code}`, env);
        expect(defined.code, `${where(block)}: ${defined.stderr}`).toBe(0);
        prelude += `${code}\n`;
        continue;
      }
      if (code.includes('text/event-stream')) {
        // A stream never ends by itself: run it until its first event, poking one where it waits for a live one.
        const stream = bash(`${prelude}\n${code}`, env, true);
        let done = false;
        void stream.then(() => (done = true));
        if (code.includes('operatorEvents')) {
          let n = 0;
          await waitUntil(
            async () => {
              if (done) return true;
              await postGraphQL(server, server.operatorToken, {
                query: 'mutation($i: BrainSaveInput!) { brainSave(input: $i) { __typename } }',
                variables: { i: { agentId: 'hatchet', title: `poke ${++n}`, content: 'a live event for the stream' } },
              });
              return done;
            },
            `the first operatorEvents event (${where(block)})`,
            30_000,
            300,
          );
        }
        const { stdout } = await stream;
        const data = /event: next\ndata: (.*)\n/.exec(stdout);
        expect(data, `${where(block)}: ${stdout}`).not.toBeNull();
        expectClean(JSON.parse(data![1]), block);
        continue;
      }
      const ran = await bash(`${prelude}\n${code}`, env);
      expect(ran.code, `${where(block)}: ${ran.stderr}`).toBe(0);
      expect(ran.stderr, where(block)).toBe('');
      const answer = JSON.parse(ran.stdout) as { data?: Record<string, any> };
      if (block.answer) expect(answer, where(block)).toEqual(block.answer);
      else expectClean(answer, block);
      const secret = answer.data?.createApiToken?.secret as string | undefined;
      if (secret) agentToken = secret;
    }
    expect(agentToken, 'createApiToken gave the runtime its secret').toMatch(/^brw_/);
  });

  it("docs/tiddle.md's residue mutation runs as the agent's runtime", async () => {
    const [block] = blocks().filter((b) => b.file === 'docs/tiddle.md' && b.lang === 'graphql');
    const token = await agentToken('docs-tiddle');
    const answer = await postGraphQL(server, token, { query: block.code }, { 'burrow-continuity-scope': 'my-project', 'burrow-session': 's-tiddle' });
    expectClean(answer.body, block);
    expect(answer.body.data.tiddleAppendResidue.append.entry.reference).toMatch(/turn-42/);
  });

  it("docs/point-in-time.md's operations run in order, each with the values the answers before it named", async () => {
    await agentToken('docs-point-in-time');
    const { answers, named } = await operationsInOrder(server, 'docs/point-in-time.md', 6);
    const { memoryId, savedAt, editedAt, removedAt } = named;
    expect([savedAt, editedAt, removedAt].every((at) => typeof at === 'string')).toBe(true);
    expect(answers[3]).toEqual({
      whenSaved: { revision: 1, content: 'The release freeze starts on the 12th.', deleted: false },
      whenEdited: { revision: 2, content: 'The release freeze starts on the 19th.', deleted: false },
      whenRemoved: { revision: 3, deleted: true, deletedAt: removedAt },
      now: null,
    });
    expect(answers[4]).toEqual({
      whenSaved: { edges: [{ node: { memoryId, revision: 1, deleted: false } }] },
      whenEdited: { edges: [] },
      whenRemoved: { edges: [{ node: { memoryId, revision: 3, deleted: true, deletedAt: removedAt } }] },
      now: { edges: [] },
    });
    expect(answers[5].agent.profile.map((d: { kind: string }) => d.kind)).toEqual(['SOUL', 'RULES', 'ORIENTATION', 'PREFERENCES', 'TOOLS', 'DREAM_MEMORY']);
    expect(answers[5].beforeHatchet).toBeNull();
  });

  it("docs/data-purge.md's operations save, remove and purge a memory, and list the purge's receipt", async () => {
    await agentToken('docs-data-purge');
    const { answers, named } = await operationsInOrder(server, 'docs/data-purge.md', 4);
    const { memoryId } = named;
    expect(memoryId).toEqual(expect.any(String));
    expect(answers[0]).toEqual({ brainSave: { memory: { memoryId, revision: 1 } } });
    expect(answers[1]).toEqual({ brainRemove: { memory: { revision: 2, deleted: true } } });
    const { brainPurge } = answers[2];
    const operator = brainPurge.memory.purgedBy;
    expect(operator).toEqual({ kind: 'OPERATOR', principalId: expect.any(String) });
    // Two events carried the title (brain.saved, brain.removed); one memory row, its two revisions; no embedding on the shipped server.
    const counts = [
      { store: 'agent_events', rows: 2 },
      { store: 'brain_memories', rows: 1 },
      { store: 'brain_memory_revisions', rows: 2 },
    ];
    expect(brainPurge).toEqual({
      __typename: 'BrainPurgeSuccess',
      alreadyPurged: false,
      memory: {
        memoryId,
        title: '',
        content: '',
        purgedAt: expect.any(String),
        purgedBy: operator,
        revisions: [
          { revision: 2, action: 'REMOVED', title: '', content: '' },
          { revision: 1, action: 'CREATED', title: '', content: '' },
        ],
      },
      receipt: {
        receiptId: expect.any(String),
        kind: 'MEMORY_PURGE',
        memoryId,
        startedAt: expect.any(String),
        completedAt: expect.any(String),
        counts,
        contentHash: expect.stringMatching(/^[0-9a-f]{64}$/),
      },
    });
    const { receiptId, completedAt, contentHash } = brainPurge.receipt;
    expect(Date.parse(completedAt)).toBeGreaterThanOrEqual(Date.parse(brainPurge.receipt.startedAt));
    expect(answers[3]).toEqual({
      dataRemovalReceipts: { edges: [{ node: { receiptId, kind: 'MEMORY_PURGE', memoryId, actor: operator, completedAt, counts, contentHash } }] },
    });
    // The tombstone stays hidden from reads, and no text of it is left to find.
    const after = await postGraphQL(server, server.operatorToken, {
      query: 'query($m: String!) { brainRead(agentId: "hatchet", memoryId: $m) { revision } brainMemories(agentId: "hatchet", query: "4711") { edges { node { memoryId } } } }',
      variables: { m: memoryId },
    });
    expect(after.body).toEqual({ data: { brainRead: null, brainMemories: { edges: [] } } });
  });

  it("docs/agent-erasure.md's operations create an agent, erase it, read its receipt, and find it gone", async () => {
    const { answers } = await operationsInOrder(server, 'docs/agent-erasure.md', 4);
    expect(answers[0]).toEqual({ createAgent: { __typename: 'CreateAgentSuccess', agent: { agentId: 'agent-1', name: 'Agent 1' } } });
    const { agentErase } = answers[1];
    // A new agent has its six profile documents (one revision each), the events of its creation, and its row.
    const counts = [
      { store: 'agent_events', rows: 2 },
      { store: 'agent_profile_documents', rows: 6 },
      { store: 'agent_profile_revisions', rows: 6 },
      { store: 'agents', rows: 1 },
    ];
    expect(agentErase).toEqual({
      __typename: 'AgentEraseSuccess',
      resumed: false,
      receipt: {
        receiptId: expect.any(String),
        kind: 'AGENT_ERASURE',
        agentId: 'agent-1',
        forced: false,
        startedAt: expect.any(String),
        completedAt: expect.any(String),
        counts,
        contentHash: expect.stringMatching(/^[0-9a-f]{64}$/),
      },
    });
    const { receiptId, startedAt, completedAt, contentHash } = agentErase.receipt;
    expect(Date.parse(completedAt)).toBeGreaterThanOrEqual(Date.parse(startedAt));
    expect(answers[2]).toEqual({
      agent: null,
      dataRemovalReceipts: {
        edges: [
          {
            node: {
              receiptId,
              kind: 'AGENT_ERASURE',
              agentId: 'agent-1',
              actor: { kind: 'OPERATOR', principalId: expect.any(String) },
              forced: false,
              completedAt,
              counts,
              contentHash,
            },
          },
        ],
      },
    });
    expect(answers[3]).toEqual({ agentErase: { __typename: 'NotFound', resourceId: 'agent-1' } });
    // Once the erasure completed, the agent id reads as one that never existed.
    const gone = await postGraphQL(server, server.operatorToken, {
      query: 'query { gone: brainMemories(agentId: "agent-1") { edges { node { memoryId } } } never: brainMemories(agentId: "never-made") { edges { node { memoryId } } } }',
    });
    expect(gone.body).toEqual({ data: { gone: { edges: [] }, never: { edges: [] } } });
  });

  it("docs/agent-archive.md's HTTP examples run in order, in one shell, against the shipped server", async () => {
    const shell = blocks().filter((b) => b.file === 'docs/agent-archive.md' && b.lang === 'sh' && !b.notRun);
    expect(shell).toHaveLength(2);
    await agentToken('docs-archive');
    const dir = mkdtempSync(join(tmpdir(), 'burrow-docs-archive-'));
    scratch.push(dir);
    const script = shell.map((b) => b.code.replaceAll('http://127.0.0.1:4000', server.origin).replace('export TOKEN=brw_...', `export TOKEN=${server.operatorToken}`));
    const ran = await bash(`set -e\ncd ${dir}\n${script.join('\n')}`, { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: process.env.HOME ?? '/tmp' });
    expect(ran.code, ran.stderr).toBe(0);
    // curl prints each answer without a newline of its own.
    const answers = JSON.parse(`[${ran.stdout.trim().replace(/\}\s*\{"/g, '},{"')}]`) as Record<string, unknown>[];
    expect(answers).toEqual([
      expect.objectContaining({ agentId: 'hatchet-copy', fromAgentId: 'hatchet', replaced: false }),
      { error: { code: 'ALREADY_EXISTS', message: 'agent "hatchet-copy" already exists: import with replace to overwrite it' } },
      expect.objectContaining({ agentId: 'hatchet-copy', replaced: true }),
    ]);
  });

  it('the TypeScript snippets run with tsx from the repository root', async () => {
    const snippets = blocks().filter((b) => b.lang === 'ts' && !b.notRun);
    expect(snippets.map((b) => b.file).sort()).toEqual(['README.md', 'docs/agent-archive.md', 'docs/mcp.md', 'docs/point-in-time.md', 'docs/quickstart.md']);
    const mcpToken = await agentToken('docs-mcp');
    for (const [index, block] of snippets.entries()) {
      const file = join(ROOT, `.readme-snippet-docs-${process.pid}-${index}.ts`);
      scratch.push(file);
      writeFileSync(file, block.code.replace(DEFAULT_URL, server.url).replace('http://127.0.0.1:4000/mcp', `${server.origin}/mcp`));
      const ran = await new Promise<{ code: number | null; stdout: string; stderr: string }>((resolve, reject) => {
        const child = spawn(join(ROOT, 'node_modules/.bin/tsx'), [file], {
          cwd: ROOT,
          env: { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: process.env.HOME ?? '/tmp', BURROW_TOKEN: server.operatorToken, AGENT_TOKEN: mcpToken },
        });
        let stdout = '';
        let stderr = '';
        child.stdout.on('data', (chunk) => (stdout += chunk));
        child.stderr.on('data', (chunk) => (stderr += chunk));
        child.on('error', reject);
        child.on('exit', (code) => resolve({ code, stdout, stderr }));
      });
      expect(ran.code, `${where(block)}: ${ran.stderr}`).toBe(0);
      expect(ran.stderr, where(block)).toBe('');
      expect(ran.stdout.length, where(block)).toBeGreaterThan(0);
    }
  });
});
