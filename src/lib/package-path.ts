/**
 * Files that ship beside the code (drizzle/ migrations, the trusted-documents manifest) are found
 * from the package root, the nearest directory above this module that holds package.json: the
 * same answer from the sources (src/lib/) and from the compiled bundle (dist/ or dist/chunks/),
 * where a path relative to the module would point elsewhere.
 */
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

let root: string | null = null;

function packageRoot(): string {
  if (root) return root;
  let dir = dirname(fileURLToPath(import.meta.url));
  while (!existsSync(join(dir, 'package.json'))) {
    const parent = dirname(dir);
    if (parent === dir) throw new Error(`no package.json above ${fileURLToPath(import.meta.url)}`);
    dir = parent;
  }
  return (root = dir);
}

/** An absolute path inside the package, e.g. packagePath('drizzle/'). */
export function packagePath(relative: string): string {
  return join(packageRoot(), relative);
}
