/**
 * The house rules (npm run lint:house, which npm run lint and CI run), two checks over the hand-written code:
 * - file size: every hand-written source file (code, styles, scripts; not generated files, migrations
 *   or docs) has at most MAX_LINES lines. A file that grows past it holds more than one job: split it
 *   by responsibility, do not squeeze it.
 * - import loops: no files import each other in a loop, directly or through others. Type-only imports
 *   count: a loop through a type is still two rooms that cannot be read, changed or moved one without
 *   the other; the cure is a shared types module. Relative imports only (packages cannot import us back).
 * Each violation is printed with its files.
 */
import { execFileSync } from 'node:child_process';
import { readdirSync, readFileSync, statSync, existsSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import ts from 'typescript';

const ROOT = resolve(import.meta.dirname, '..');
const AREAS = ['src', 'console/src', 'scripts', 'bench', 'test', 'clients/typescript'];
const SOURCE = /\.(ts|tsx|mts|mjs)$/;
const MAX_LINES = 399;
/** Hand-written source: what git tracks with these endings, minus what a tool writes. */
const SIZED = /\.(ts|tsx|mts|mjs|js|cjs|css|py|sh|html|sql)$/;
const GENERATED = /(^drizzle\/|(^|\/)generated(\/|\.ts$))/;

function sourceFiles(dir: string): string[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (name === 'node_modules' || name === 'dist' || name.startsWith('.')) return [];
    if (statSync(path).isDirectory()) return sourceFiles(path);
    return SOURCE.test(name) && !name.endsWith('.d.ts') && !name.endsWith('.d.mts') ? [path] : [];
  });
}

/** './x.js' is written for Node's ESM resolution; the file on disk is x.ts (or x.tsx, x/index.ts). */
function resolveImport(from: string, specifier: string): string | undefined {
  if (!specifier.startsWith('.')) return undefined;
  const base = resolve(dirname(from), specifier);
  const stem = base.replace(/\.(js|mjs|jsx)$/, '');
  const candidates = [base, `${stem}.ts`, `${stem}.tsx`, `${stem}.mts`, `${stem}.mjs`, join(base, 'index.ts'), join(base, 'index.tsx')];
  return candidates.find((path) => existsSync(path) && statSync(path).isFile());
}

const files = AREAS.flatMap((area) => sourceFiles(join(ROOT, area)));
const edges = new Map<string, string[]>();
for (const file of files) {
  const { importedFiles } = ts.preProcessFile(readFileSync(file, 'utf8'), true, true);
  const targets = importedFiles.map((imported) => resolveImport(file, imported.fileName)).filter((path): path is string => path !== undefined);
  edges.set(file, [...new Set(targets)]);
}

// Tarjan's strongly connected components: every component of more than one file is a loop.
let index = 0;
const order = new Map<string, number>();
const low = new Map<string, number>();
const stack: string[] = [];
const onStack = new Set<string>();
const loops: string[][] = [];
function visit(file: string): void {
  order.set(file, index);
  low.set(file, index);
  index += 1;
  stack.push(file);
  onStack.add(file);
  for (const target of edges.get(file) ?? []) {
    if (!order.has(target)) {
      visit(target);
      low.set(file, Math.min(low.get(file)!, low.get(target)!));
    } else if (onStack.has(target)) {
      low.set(file, Math.min(low.get(file)!, order.get(target)!));
    }
  }
  if (low.get(file) === order.get(file)) {
    const component: string[] = [];
    let member: string;
    do {
      member = stack.pop()!;
      onStack.delete(member);
      component.push(member);
    } while (member !== file);
    if (component.length > 1 || (edges.get(file) ?? []).includes(file)) loops.push(component);
  }
}
for (const file of edges.keys()) if (!order.has(file)) visit(file);

const tracked = execFileSync('git', ['ls-files'], { cwd: ROOT, encoding: 'utf8' }).split('\n');
const sized = tracked.filter((path) => SIZED.test(path) && !GENERATED.test(path) && existsSync(join(ROOT, path)));
const oversized = sized.map((path) => ({ path, lines: readFileSync(join(ROOT, path), 'utf8').split('\n').length - 1 })).filter(({ lines }) => lines > MAX_LINES);
const loopNames = loops.map((loop) =>
  loop
    .map((file) => relative(ROOT, file))
    .sort()
    .join(' <-> '),
);

for (const { path, lines } of oversized) console.error(`file over ${MAX_LINES} lines: ${path} (${lines})`);
for (const name of loopNames) console.error(`import loop: ${name}`);
if (oversized.length > 0 || loops.length > 0) {
  console.error(`${oversized.length} of ${sized.length} files over ${MAX_LINES} lines; ${loops.length} import loop(s) in ${files.length} files`);
  process.exit(1);
}
console.log(`house rules: ${sized.length} files of at most ${MAX_LINES} lines; no import loops in ${files.length} files`);
