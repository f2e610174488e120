/**
 * The schema lint with a baseline: runs ESLint (eslint.config.js: @graphql-eslint's
 * schema-recommended and schema-relay sets) on schema.graphql and fails only on violations that
 * are not in scripts/schema-lint-baseline.json. A violation is keyed by its rule and the schema
 * element it is about (`Type`, `Type.field`, `Type.field(arg)`, `Enum.VALUE`), not by line, so
 * unrelated schema changes do not move it.
 *
 *   npm run lint:schema                        fails on new violations, reports fixed ones
 *   npm run lint:schema -- --update-baseline   writes the current violations as the baseline
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { ESLint } from 'eslint';
import { parse, type ASTNode } from 'graphql';

const root = fileURLToPath(new URL('..', import.meta.url));
const SCHEMA = 'schema.graphql';
const BASELINE = 'scripts/schema-lint-baseline.json';

const source = readFileSync(`${root}/${SCHEMA}`, 'utf8');
const document = parse(source);
const lineStarts = [0];
for (let i = 0; i < source.length; i++) if (source[i] === '\n') lineStarts.push(i + 1);

interface Named {
  path: string;
  start: number;
  end: number;
  children: Named[];
}

/** The named elements of the schema with their source ranges, nested. */
function elements(): Named[] {
  const named = (node: ASTNode & { name?: { value: string } }, path: string, children: Named[] = []): Named => ({
    path,
    start: node.loc!.start,
    end: node.loc!.end,
    children,
  });
  return document.definitions.flatMap((definition) => {
    if (!('name' in definition) || !definition.name) return [];
    const type = definition.name.value;
    const children: Named[] = [];
    if ('fields' in definition && definition.fields) {
      for (const field of definition.fields) {
        const args = 'arguments' in field && field.arguments ? field.arguments.map((a) => named(a, `${type}.${field.name.value}(${a.name.value})`)) : [];
        children.push(named(field, `${type}.${field.name.value}`, args));
      }
    }
    if ('values' in definition && definition.values) {
      for (const value of definition.values) children.push(named(value, `${type}.${value.name.value}`));
    }
    return [named(definition, type, children)];
  });
}

const tree = elements();

/** The innermost named element at a 1-based line and column. */
function locate(line: number, column: number): string {
  const offset = lineStarts[line - 1] + column - 1;
  let path = `line ${line}`;
  let level = tree;
  for (;;) {
    const hit = level.find((e) => e.start <= offset && offset < e.end);
    if (!hit) return path;
    path = hit.path;
    level = hit.children;
  }
}

const eslint = new ESLint({ cwd: root });
const [result] = await eslint.lintFiles([SCHEMA]);
const fatal = result.messages.filter((m) => !m.ruleId);
if (fatal.length) {
  for (const m of fatal) console.error(`${SCHEMA}:${m.line}:${m.column} ${m.message}`);
  process.exit(2);
}
const found = result.messages.map((m) => ({ key: `${m.ruleId!.replace('@graphql-eslint/', '')}|${locate(m.line, m.column)}`, message: m }));
const current = found.map((f) => f.key).sort();

if (process.argv.includes('--update-baseline')) {
  writeFileSync(`${root}/${BASELINE}`, `${JSON.stringify(current, null, 2)}\n`);
  console.log(`${BASELINE}: ${current.length} known violations`);
  process.exit(0);
}

// Multisets: the same rule may fire twice on one element, and each occurrence counts.
const known = new Map<string, number>();
for (const key of JSON.parse(readFileSync(`${root}/${BASELINE}`, 'utf8')) as string[]) known.set(key, (known.get(key) ?? 0) + 1);
const fresh = found.filter(({ key }) => {
  const left = known.get(key) ?? 0;
  if (left === 0) return true;
  known.set(key, left - 1);
  return false;
});
const fixed = [...known].filter(([, left]) => left > 0);

for (const { key, message } of fresh) console.error(`${SCHEMA}:${message.line}:${message.column} ${key}: ${message.message.replace(/\s+/g, ' ')}`);
if (fixed.length) {
  console.log(`${fixed.reduce((n, [, left]) => n + left, 0)} baseline entries no longer occur: run npm run lint:schema -- --update-baseline to drop them`);
}
console.log(`schema lint: ${current.length} violations, ${current.length - fresh.length} known in the baseline, ${fresh.length} new`);
process.exit(fresh.length ? 1 : 0);
