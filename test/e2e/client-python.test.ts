/**
 * The Python client as its README tells a user to get it, against the shipped server: the README's
 * install commands (a virtual environment, `pip install --no-index ./clients/python`: no package
 * index is needed) and then every ```python example of clients/python/README.md, as written (only
 * the port differs: the server listens on a free one; BURROW_TOKEN holds an operator token), run
 * by the installed package from outside the repository. Where the README shows what an example
 * prints, the output must be exactly that. The interpreter is `python3` (BURROW_TEST_PYTHON
 * chooses another, e.g. python3.9, the oldest the client supports); without one the test is
 * skipped and says why. Then the agent archive helpers (test/e2e/client-python-archive.py) against
 * the same server: a round trip under another id, the refusals and their exception classes. Last,
 * the retries (test/e2e/client-python-retries.py) through a proxy that loses answers on purpose.
 */
import { execFile, execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ROOT, startShipped, type ShippedServer } from '../support/shipped.js';
import { startLossyProxy } from '../support/lossy-proxy.js';

const run = promisify(execFile);
const PYTHON = process.env.BURROW_TEST_PYTHON?.trim() || 'python3';
const pythonVersion = (() => {
  try {
    return execFileSync(PYTHON, ['--version'], { encoding: 'utf8' }).trim();
  } catch {
    return null;
  }
})();
export const NO_PYTHON = `skipped: no ${PYTHON} on PATH; apt-get install -y python3 python3-venv`;

interface Example {
  code: string;
  /** What the README says it prints, when it says. */
  prints: string | null;
}

/** The README's ```sh install block and its ```python examples, each with the output shown after it. */
function readme(): { install: string[]; examples: Example[] } {
  const text = readFileSync(join(ROOT, 'clients/python/README.md'), 'utf8');
  const fences = [...text.matchAll(/```(\w*)\n([\s\S]*?)```/g)];
  const install = fences
    .find((f) => f[1] === 'sh')![2]
    .trim()
    .split('\n');
  const examples: Example[] = [];
  fences.forEach((fence, i) => {
    if (fence[1] !== 'python') return;
    const after = text.slice(fence.index! + fence[0].length, fences[i + 1]?.index ?? text.length);
    const inline = /^\s*prints `([^`]*)`/.exec(after);
    const shown = /^\s*prints, on a fresh server:\s*$/.test(after) && fences[i + 1]?.[1] === 'text' ? fences[i + 1][2] : null;
    examples.push({ code: fence[2], prints: inline ? `${inline[1]}\n` : shown });
  });
  return { install, examples };
}

let server: ShippedServer;
let work: string;
let venv: string;
beforeAll(async () => {
  if (!pythonVersion) return;
  // A small archive limit, so the archive test reaches LIMIT_EXCEEDED; the README's archives are a few KB.
  server = await startShipped({ env: { BURROW_ARCHIVE_MAX_BYTES: '65536' } });
  work = mkdtempSync(join(tmpdir(), 'burrow-python-e2e-'));
  venv = join(work, '.venv');
  await run(PYTHON, ['-m', 'venv', venv]);
  await run(join(venv, 'bin/pip'), ['install', '--no-index', '--disable-pip-version-check', '-q', './clients/python'], { cwd: ROOT });
}, 120_000);
afterAll(async () => {
  if (server) expect((await server.stop()).code).toBe(0);
  if (work) rmSync(work, { recursive: true, force: true });
});

describe.skipIf(!pythonVersion)(`the Python client from its README, against the shipped server${pythonVersion ? ` (${pythonVersion})` : ` (${NO_PYTHON})`}`, () => {
  it('installs offline as the README says, and every example runs as written', async () => {
    const { install, examples } = readme();
    // The README's two commands, run by beforeAll with the virtual environment in a temporary directory.
    expect(install).toEqual(['python3 -m venv .venv', '.venv/bin/pip install --no-index ./clients/python']);

    expect(examples.length).toBe(4);
    expect(examples.filter((e) => e.prints !== null).length).toBe(3);
    for (const [index, example] of examples.entries()) {
      expect(example.code.split('http://127.0.0.1:4000/graphql').length, 'the examples name the default URL at most once').toBeLessThanOrEqual(2);
      const file = join(work, `example_${index}.py`);
      writeFileSync(file, example.code.replace('http://127.0.0.1:4000/graphql', server.url));
      // From outside the repository: the installed package, not the sources, is imported.
      const { stdout, stderr } = await run(join(venv, 'bin/python'), [file], {
        cwd: work,
        env: { PATH: process.env.PATH ?? '/usr/bin:/bin', BURROW_TOKEN: server.operatorToken },
        timeout: 60_000,
      }).catch((error: { stdout: string; stderr: string; message: string }) => {
        throw new Error(`example ${index} failed: ${error.message}\n${error.stdout}\n${error.stderr}\n--- code ---\n${example.code}`);
      });
      if (example.prints !== null) expect(stdout, `example ${index}`).toBe(example.prints);
      expect(stderr, `example ${index}`).toBe('');
    }
  });

  it('exports an agent and imports it under another id, refuses a second import without replace, replaces with it, and raises the typed refusals', async () => {
    const dir = mkdtempSync(join(work, 'archive-'));
    const { stdout, stderr } = await run(join(venv, 'bin/python'), [join(ROOT, 'test/e2e/client-python-archive.py'), server.url, dir], {
      cwd: work,
      env: { PATH: process.env.PATH ?? '/usr/bin:/bin', BURROW_TOKEN: server.operatorToken },
      timeout: 60_000,
    }).catch((error: { stdout: string; stderr: string; message: string }) => {
      throw new Error(`client-python-archive.py failed: ${error.message}\n${error.stdout}\n${error.stderr}`);
    });
    expect(stderr).toBe('');
    const seen = JSON.parse(stdout) as Record<string, { written: number; size: number } & Record<string, unknown>>;
    const refused = (cls: string, status: number, code: string) => ({ class: cls, status, code });
    const profile = [
      ['SOUL', '', 1],
      ['RULES', '', 1],
      ['ORIENTATION', '', 1],
      ['PREFERENCES', 'Short answers.', 2],
      ['TOOLS', '', 1],
      ['DREAM_MEMORY', '', 1],
    ];
    expect(seen.source).toEqual({ name: 'Py Source', createdAt: expect.any(String), lastEventSequence: 2, profile });
    // Both exports are gzip, the returned count is the file's size, and the event log makes the first larger.
    expect(seen.pathExport).toEqual({ gzip: true, written: seen.pathExport.size, size: expect.any(Number) });
    expect(seen.bufferExport).toEqual({ gzip: true, written: seen.bufferExport.size, size: expect.any(Number) });
    expect(seen.pathExport.size).toBeGreaterThan(seen.bufferExport.size);
    // The path is written beside itself and renamed: no temporary file stays.
    expect(seen.leftoverFiles).toEqual(['py-src.burrow-agent.gz']);
    const counts = { agents: 1, agent_profile_documents: 6, agent_profile_revisions: 7 };
    expect(seen.import).toEqual({ agentId: 'py-copy', fromAgentId: 'py-src', replaced: false, counts: { ...counts, agent_events: 2 }, rows: 16 });
    // The copy reads as the source: name, creation time, event sequence, every profile document and revision.
    expect(seen.copySameAsSource).toBe(true);
    expect(seen.copyChanged).toBe(true);
    expect(seen.alreadyExists).toEqual(refused('AlreadyExists', 409, 'ALREADY_EXISTS'));
    expect(seen.unchangedAfterRefusal).toBe(true);
    expect(seen.replace).toEqual({ agentId: 'py-copy', fromAgentId: 'py-src', replaced: true, counts, rows: 14 });
    expect(seen.replacedSameAsSource).toBe(true);
    expect(seen.notFound).toEqual(refused('NotFound', 404, 'NOT_FOUND'));
    expect(seen.notFoundLeftFile).toBe(false);
    expect(seen.badArchive).toEqual(refused('BadArchive', 400, 'BAD_ARCHIVE'));
    expect(seen.badArchiveAgent).toBeNull();
    expect(seen.badRequest).toEqual(refused('BadRequest', 400, 'BAD_REQUEST'));
    expect(seen.agentTokenExport).toEqual(refused('Forbidden', 403, 'FORBIDDEN'));
    expect(seen.agentTokenImport).toEqual(refused('Forbidden', 403, 'FORBIDDEN'));
    // Over the server's BURROW_ARCHIVE_MAX_BYTES (64 KiB here): refused while the 4 MiB are still being sent, and the client reads that answer.
    expect(seen.tooLargeKnownLength).toEqual(refused('LimitExceeded', 413, 'LIMIT_EXCEEDED'));
    expect(seen.tooLargeChunked).toEqual(refused('LimitExceeded', 413, 'LIMIT_EXCEEDED'));
    expect(seen.tooLargeAgent).toBeNull();
    expect(seen.unauthenticated).toEqual(refused('Unauthenticated', 401, 'UNAUTHENTICATED'));
  });

  it('resends a keyed write with one Idempotency-Key after a lost answer and a 503, writing it once; never resends an unkeyed one', async () => {
    const proxy = await startLossyProxy(server.url);
    try {
      // brainSave: dropped, then answered; append: 503, dropped, answered; brainUpdate: dropped (not resent).
      proxy.plan(['drop', 'pass', 'unavailable', 'drop', 'pass', 'drop']);
      const { stdout, stderr } = await run(join(venv, 'bin/python'), [join(ROOT, 'test/e2e/client-python-retries.py'), server.url, proxy.url], {
        cwd: work,
        env: { PATH: process.env.PATH ?? '/usr/bin:/bin', BURROW_TOKEN: server.operatorToken },
        timeout: 60_000,
      }).catch((error: { stdout: string; stderr: string; message: string }) => {
        throw new Error(`client-python-retries.py failed: ${error.message}\n${error.stdout}\n${error.stderr}`);
      });
      expect(stderr).toBe('');
      expect(JSON.parse(stdout)).toEqual({
        saved: 'BrainSaveSuccess',
        appendedPosition: 1,
        update: 'RemoteDisconnected',
        // One memory (the update committed though its answer was lost), one entry.
        memories: [['Py lost answer', 2]],
        entries: 1,
      });
      const keys = proxy.seen.map((s) => s.idempotencyKey);
      expect(proxy.seen.map((s) => s.step)).toEqual(['drop', 'pass', 'unavailable', 'drop', 'pass', 'drop']);
      expect(keys[0]).toMatch(/^[0-9a-f-]{36}$/);
      expect(keys[1]).toBe(keys[0]);
      expect(new Set(keys.slice(2, 5)).size).toBe(1);
      expect(keys[2]).not.toBe(keys[0]);
      expect(keys[5]).toBeNull();
    } finally {
      await proxy.close();
    }
  });
});
