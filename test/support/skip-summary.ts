/**
 * A reporter that ends the run with one line saying which tests were skipped and why, so a skip
 * is never silent. A reason is the note of `ctx.skip(note)`, else the `skipped: …` that the test's
 * or an enclosing suite's name carries (harness.ts NEEDS_REAL_SERVER, browser.ts NO_CHROMIUM, …).
 */
import type { Reporter, TestCase, TestModule, TestSuite } from 'vitest/node';

function reasonOf(test: TestCase): string {
  const result = test.result();
  if (result.state === 'skipped' && result.note) return result.note;
  for (let task: TestCase | TestSuite | TestModule = test; task.type !== 'module'; task = task.parent) {
    const match = /skipped: (.*)\)$/.exec(task.name);
    if (match) return match[1];
  }
  return `no reason given (${test.fullName})`;
}

export default class SkipSummary implements Reporter {
  onTestRunEnd(modules: ReadonlyArray<TestModule>) {
    const reasons = new Map<string, number>();
    for (const module of modules) {
      for (const test of module.children.allTests('skipped')) reasons.set(reasonOf(test), (reasons.get(reasonOf(test)) ?? 0) + 1);
    }
    const total = [...reasons.values()].reduce((a, b) => a + b, 0);
    const line = total === 0 ? 'nothing' : `${total}: ${[...reasons].map(([reason, n]) => `${n} ${reason}`).join('; ')}`;
    process.stdout.write(`\nSkipped: ${line}\n`);
  }
}
