/**
 * docs/errors.md lists every error code the API can answer with: every code the source raises
 * (domain error classes, request errors, extensions.code) must have its row.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ERROR_CODES } from '../src/lib/error-codes.js';

const ROOT = new URL('..', import.meta.url).pathname;

function sources(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? sources(path) : path.endsWith('.ts') ? [path] : [];
  });
}

describe('docs/errors.md', () => {
  it('has a row for every code the source raises', () => {
    const raised = new Set<string>();
    // The classes whose first argument is a code (the others take a field or resource name).
    const patterns = [/(?:RequestError|ForbiddenError|ContinuityFenceError|AgentArchiveError|super)\(\s*'([A-Za-z_]+)'/g, /\bcode: '([A-Za-z_]+)'/g];
    for (const file of sources(join(ROOT, 'src'))) {
      const text = readFileSync(file, 'utf8');
      for (const pattern of patterns) for (const match of text.matchAll(pattern)) raised.add(match[1]);
    }
    const documented = new Set([...readFileSync(join(ROOT, 'docs/errors.md'), 'utf8').matchAll(/^\| `([A-Za-z_]+)` \|/gm)].map((m) => m[1]));
    expect(raised.size).toBeGreaterThan(25);
    expect([...raised].filter((code) => !documented.has(code)).sort()).toEqual([]);
    // The seed's lowercase codes are among them.
    expect(documented).toContain('continuity_scope_mismatch');
    expect(documented).toContain('continuity_scope_required');
    // The schema's enum ErrorCode and the table hold exactly the same codes.
    expect(Object.keys(ERROR_CODES).sort()).toEqual([...documented].sort());
  });
});
