/**
 * useValidationCache (src/schema/validation-cache.ts): a document is validated once under the
 * same rules, its errors included, and never answered from the cache under other rules.
 */
import { buildSchema, parse, specifiedRules, validate, type ValidationRule } from 'graphql';
import { envelop, type Plugin } from 'graphql-yoga';
import { describe, expect, it } from 'vitest';
import { useValidationCache } from '../src/schema/validation-cache.js';

const schema = buildSchema('type Query { a: String, b: String }');
const noB: ValidationRule = (context) => ({
  Field(node) {
    if (node.name.value === 'b') context.reportError(new (class extends Error {})('b is refused') as never);
  },
});
const alwaysFine: ValidationRule = () => ({});

function setup() {
  let validations = 0;
  // As Yoga's engine does: graphql's own rules, added to each request's list.
  const engine: Plugin = {
    onValidate({ addValidationRule, setValidationFn }) {
      for (const rule of specifiedRules) addValidationRule(rule);
      setValidationFn((...args: Parameters<typeof validate>) => {
        validations++;
        return validate(...args);
      });
    },
  };
  // Like graphql-armor's limits: a rule added to the list on every request; `strict` adds another.
  const rules: Plugin<{ strict?: boolean }> = {
    onValidate({ addValidationRule, context }) {
      addValidationRule(alwaysFine);
      if (context.strict) addValidationRule(noB);
    },
  };
  const getEnveloped = envelop({ plugins: [engine, rules, useValidationCache()] });
  const run = (document: ReturnType<typeof parse>, context: { strict?: boolean } = {}): readonly Error[] => {
    const { validate: run } = getEnveloped(context);
    return run(schema, document);
  };
  return { run, validations: () => validations };
}

describe('the validation cache', () => {
  it('validates a document once under the same rules and gives the same answer after', () => {
    const { run, validations } = setup();
    const document = parse('{ a b }');
    expect(run(document)).toEqual([]);
    expect(run(document)).toEqual([]);
    expect(validations()).toBe(1);
    // Another parse of the same text is another document: validated on its own.
    expect(run(parse('{ a b }'))).toEqual([]);
    expect(validations()).toBe(2);
  });

  it('remembers a refusal too', () => {
    const { run, validations } = setup();
    const document = parse('{ missing }');
    const first = run(document);
    expect(first.map((e) => e.message)).toEqual(['Cannot query field "missing" on type "Query".']);
    expect(run(document)).toBe(first);
    expect(validations()).toBe(1);
  });

  it('validates without the cache when the rules differ from the first validation', () => {
    const { run, validations } = setup();
    const document = parse('{ a b }');
    expect(run(document)).toEqual([]);
    // Stricter rules on the same document: validated again, and refused.
    expect(run(document, { strict: true }).map((e) => e.message)).toEqual(['b is refused']);
    expect(run(document, { strict: true }).map((e) => e.message)).toEqual(['b is refused']);
    expect(validations()).toBe(3);
    // The first rules still get the remembered answer, not the strict one.
    expect(run(document)).toEqual([]);
    expect(validations()).toBe(3);
  });
});
