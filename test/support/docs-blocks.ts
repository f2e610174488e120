/**
 * The code blocks of README.md and docs/*.md as test/e2e/docs-examples.test.ts reads them, and
 * the runner of a doc's GraphQL operations in order (a reader's walk-through against one server).
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect } from 'vitest';
import { postGraphQL, ROOT, type ShippedServer } from './shipped.js';

const NOT_RUN = /<!-- not run by test\/e2e\/docs-examples\.test\.ts: ([^>]+?) -->\n$/;

export interface Block {
  file: string;
  line: number;
  lang: string;
  code: string;
  notRun: string | null;
  /** The ```json answer the doc shows right after this block ("answers:"). */
  answer: unknown;
  /** This block is the answer shown for the block before it. */
  isAnswer: boolean;
}

export function blocks(): Block[] {
  const files = [
    'README.md',
    ...readdirSync(join(ROOT, 'docs'))
      .filter((f) => f.endsWith('.md'))
      .map((f) => `docs/${f}`),
  ];
  const all: Block[] = [];
  for (const file of files) {
    const text = readFileSync(join(ROOT, file), 'utf8');
    const fences = [...text.matchAll(/^```(\S*)\n([\s\S]*?)^```$/gm)];
    fences.forEach((fence, i) => {
      const before = text.slice(i ? fences[i - 1].index! + fences[i - 1][0].length : 0, fence.index);
      const isAnswer = fence[1] === 'json' && /answers:\s*$/.test(before);
      all.push({
        file,
        line: text.slice(0, fence.index).split('\n').length,
        lang: fence[1],
        code: fence[2],
        notRun: NOT_RUN.exec(before)?.[1] ?? null,
        answer: null,
        isAnswer,
      });
      if (isAnswer) all[all.length - 2].answer = JSON.parse(fence[2]);
    });
  }
  return all;
}

export const where = (block: Block) => `${block.file}:${block.line}`;

/** A GraphQL answer without errors and without an error member. */
export function expectClean(answer: unknown, block: Block) {
  expect((answer as { errors?: unknown }).errors, `${where(block)}: ${JSON.stringify(answer)}`).toBeUndefined();
  expect(JSON.stringify(answer), where(block)).not.toMatch(/"code":/);
  expect((answer as { data?: unknown }).data, where(block)).toBeTruthy();
}

/**
 * Runs a doc's GraphQL operations in order as the operator, as a reader would: each operation's
 * variables are the values of the same names in the answers before it (the last answer naming
 * one wins). Every answer must be clean; returns them, and the names they gave.
 */
export async function operationsInOrder(server: ShippedServer, file: string, count: number): Promise<{ answers: Record<string, any>[]; named: Record<string, unknown> }> {
  const operations = blocks().filter((b) => b.file === file && b.lang === 'graphql' && !b.notRun);
  expect(operations).toHaveLength(count);
  const named: Record<string, unknown> = {};
  const remember = (value: unknown): void => {
    if (Array.isArray(value)) value.forEach(remember);
    else if (value && typeof value === 'object') {
      for (const [key, inner] of Object.entries(value)) {
        if (inner !== null && typeof inner !== 'object') named[key] = inner;
        else remember(inner);
      }
    }
  };
  const answers: Record<string, any>[] = [];
  for (const block of operations) {
    const variables = Object.fromEntries([...block.code.matchAll(/\$(\w+)\s*:/g)].map(([, name]) => [name, named[name]]));
    // A reader's operations are never within one millisecond of each other; the doc's are not either.
    await new Promise((resolve) => setTimeout(resolve, 5));
    const answer = await postGraphQL(server, server.operatorToken, { query: block.code, variables });
    expectClean(answer.body, block);
    remember(answer.body.data);
    answers.push(answer.body.data);
  }
  return { answers, named };
}
