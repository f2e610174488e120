/**
 * The README's client snippet runs as written against a fresh server: only the port differs
 * (the test server listens on a free one) and BURROW_TOKEN holds an operator token.
 */
import { spawn } from 'node:child_process';
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type TestServer } from './support/harness.js';

const ROOT = new URL('..', import.meta.url).pathname;
let server: TestServer;
beforeAll(async () => (server = await startServer()));
afterAll(async () => server?.stop());

function snippet(): string {
  const readme = readFileSync(join(ROOT, 'README.md'), 'utf8');
  const section = readme.slice(readme.indexOf('### The typed client'));
  const match = /```ts\n([\s\S]*?)```/.exec(section);
  if (!match) throw new Error('no ts snippet under "The typed client" in README.md');
  return match[1];
}

function run(file: string, token: string): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(join(ROOT, 'node_modules', '.bin', 'tsx'), [file], { cwd: ROOT, env: { ...process.env, BURROW_TOKEN: token } });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk) => (stdout += chunk));
    child.stderr.on('data', (chunk) => (stderr += chunk));
    child.on('error', reject);
    child.on('exit', (code) => resolve({ code, stdout, stderr }));
  });
}

describe("the README's client snippet", () => {
  it('runs as written: a defined token, an agent it creates, the AGENT_CREATED event', async () => {
    const text = snippet();
    expect(text).toContain("url: 'http://127.0.0.1:4000/graphql'");
    const { token } = await server.app.services.tokens.create({ kind: 'operator', name: 'readme' });
    const file = join(ROOT, `.readme-snippet-${process.pid}.ts`);
    writeFileSync(file, text.replace('http://127.0.0.1:4000/graphql', server.url));
    try {
      const first = await run(file, token);
      expect(first.stderr).toBe('');
      expect(first.code).toBe(0);
      expect(first.stdout).toBe('OPERATOR readme\nCreateAgentSuccess\n1 AGENT_CREATED\n');
      // Run again, as the comment says: the agent exists now.
      const again = await run(file, token);
      expect(again.code).toBe(0);
      expect(again.stdout).toBe('OPERATOR readme\nAlreadyExists\n1 AGENT_CREATED\n');
    } finally {
      rmSync(file, { force: true });
    }
  });
});
