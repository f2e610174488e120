/**
 * Import loops (npm run lint:imports): fails when files of one area import each other in a loop,
 * directly or through others. Type-only imports count: a loop through a type is still two rooms
 * that cannot be read, changed or moved one without the other; the cure is a shared types module.
 * Relative imports only (packages cannot import us back); each loop is printed as its files.
 */
import { readdirSync, readFileSync, statSync, existsSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import ts from 'typescript';

const ROOT = resolve(import.meta.dirname, '..');
const AREAS = ['src', 'console/src', 'scripts', 'bench', 'test', 'clients/typescript'];
const SOURCE = /\.(ts|tsx|mts|mjs)$/;

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

if (loops.length > 0) {
  for (const loop of loops) console.error(`import loop: ${loop.map((file) => relative(ROOT, file)).sort().join(' <-> ')}`);
  console.error(`${loops.length} import loop(s) in ${files.length} files`);
  process.exit(1);
}
console.log(`no import loops in ${files.length} files`);
