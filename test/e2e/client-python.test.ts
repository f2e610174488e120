/**
 * The Python client as its README tells a user to get it, against the shipped server: the README's
 * install commands (a virtual environment, `pip install --no-index ./clients/python`: no package
 * index is needed) and then every ```python example of clients/python/README.md, as written (only
 * the port differs: the server listens on a free one; BURROW_TOKEN holds an operator token), run
 * by the installed package from outside the repository. Where the README shows what an example
 * prints, the output must be exactly that. The interpreter is `python3` (BURROW_TEST_PYTHON
 * chooses another, e.g. python3.9, the oldest the client supports); without one the test is
 * skipped and says why.
 */
import { execFile, execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ROOT, startShipped, type ShippedServer } from '../support/shipped.js';

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
beforeAll(async () => {
  if (!pythonVersion) return;
  server = await startShipped();
  work = mkdtempSync(join(tmpdir(), 'burrow-python-e2e-'));
});
afterAll(async () => {
  if (server) expect((await server.stop()).code).toBe(0);
  if (work) rmSync(work, { recursive: true, force: true });
});

describe.skipIf(!pythonVersion)(`the Python client from its README, against the shipped server${pythonVersion ? ` (${pythonVersion})` : ` (${NO_PYTHON})`}`, () => {
  it('installs offline as the README says, and every example runs as written', async () => {
    const { install, examples } = readme();
    // The README's two commands, with the virtual environment in a temporary directory.
    expect(install).toEqual(['python3 -m venv .venv', '.venv/bin/pip install --no-index ./clients/python']);
    const venv = join(work, '.venv');
    await run(PYTHON, ['-m', 'venv', venv]);
    await run(join(venv, 'bin/pip'), ['install', '--no-index', '--disable-pip-version-check', '-q', './clients/python'], { cwd: ROOT });

    expect(examples.length).toBe(3);
    expect(examples.filter((e) => e.prints !== null).length).toBe(2);
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
});
