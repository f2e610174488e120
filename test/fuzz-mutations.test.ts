/**
 * A fuzz over every mutation field, read from the schema itself (graphql-js over
 * src/schema/index.ts): each argument leaf in turn gets hostile values (empty and 1 MB strings,
 * NUL, lone surrogates, 100,000-deep JSON text, -1, 0, 2^31, 2^53, 10,000-element lists) while
 * the other arguments hold plain values. Every answer must be a typed one: no HTTP 5xx and no
 * INTERNAL_SERVER_ERROR. Bounded: one request per (field, leaf, value), a few in flight at once.
 */
import { createRequire } from 'node:module';
import type { GraphQLInputType, GraphQLNamedType } from 'graphql';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { schema } from '../src/schema/index.js';
import { startServer, type TestServer } from './support/harness.js';

// The schema's types come from the copy of graphql that Pothos loads (Node's resolution); the
// test's own `import from 'graphql'` may be another copy, whose instanceof checks would fail.
const graphql = createRequire(import.meta.url)('graphql') as typeof import('graphql');
const { getNamedType, getNullableType, isEnumType, isInputObjectType, isLeafType, isListType, isNonNullType, isScalarType } = graphql;

const MB = 'x'.repeat(1_000_000);
const DEEP_JSON = `${'['.repeat(100_000)}${']'.repeat(100_000)}`;
const JSON_TEXT_FIELDS = /^(head|payload|request|receipt|result)$/;

/**
 * A JSON value nested 100,000 levels: too deep for JSON.stringify's own recursion, so the
 * variables carry this marker and the request body splices the raw text in its place.
 */
const DEEP_JSON_VALUE = 'fuzz:deep-json-value';
const withDeepJson = (body: string) => body.split(JSON.stringify(DEEP_JSON_VALUE)).join(DEEP_JSON);

/** Hostile values for one leaf, by its type. */
function attacks(type: GraphQLNamedType): unknown[] {
  if (isEnumType(type)) return [type.getValues()[0].value, 'NOT_A_VALUE'];
  switch (type.name) {
    case 'String':
    case 'ID':
      return ['', MB, 'a\u0000b', 'lone \ud800 surrogate', '\udc00', DEEP_JSON, 'evil\u202Egnp'];
    case 'Int':
    case 'Float':
      return [-1, 0, 2 ** 31, 2 ** 53];
    case 'Boolean':
      return [true, false];
    case 'DateTime':
      return ['', 'not a date', '275760-09-13T00:00:00.001Z'];
    case 'JSON':
      return [DEEP_JSON_VALUE, { a: '\u0000' }];
    default:
      return [''];
  }
}

/** A plain value for a type (required arguments and fields beside the one under attack). */
function plain(type: GraphQLInputType, name: string): unknown {
  const nullable = getNullableType(type);
  if (isListType(nullable)) return [plain(nullable.ofType, name)];
  if (isInputObjectType(nullable)) {
    const value: Record<string, unknown> = {};
    for (const field of Object.values(nullable.getFields())) if (isNonNullType(field.type)) value[field.name] = plain(field.type, field.name);
    return value;
  }
  if (isEnumType(nullable)) return nullable.getValues()[0].value;
  switch ((nullable as GraphQLNamedType).name) {
    case 'Int':
    case 'Float':
      return 1;
    case 'Boolean':
      return false;
    case 'DateTime':
      return '2026-06-01T12:00:00.000Z';
    case 'JSON':
      return {};
    default:
      return JSON_TEXT_FIELDS.test(name) ? '{}' : `fuzz-${name}`;
  }
}

function summary(value: unknown): string {
  if (typeof value === 'string') return value.length > 40 ? `string(${value.length}): ${JSON.stringify(value.slice(0, 20))}…` : JSON.stringify(value);
  if (Array.isArray(value)) return `array(${value.length})`;
  return JSON.stringify(value)?.slice(0, 40) ?? String(value);
}

interface Case {
  field: string;
  path: string;
  /** What the attacked leaf held, for the failure message. */
  value: string;
  variables: Record<string, unknown>;
  query: string;
}

/** Every (mutation field, argument leaf, hostile value), and a 10,000-element list for every list. */
function cases(): Case[] {
  const mutation = schema.getMutationType()!;
  const all: Case[] = [];
  for (const field of Object.values(mutation.getFields())) {
    const declared = field.args.map((a) => `$${a.name}: ${a.type.toString()}`).join(', ');
    const passed = field.args.map((a) => `${a.name}: $${a.name}`).join(', ');
    const selection = isLeafType(getNamedType(field.type)) ? '' : ' { __typename }';
    const query = `mutation${declared ? `(${declared})` : ''} { ${field.name}${passed ? `(${passed})` : ''}${selection} }`;
    const base = Object.fromEntries(field.args.map((a) => [a.name, plain(a.type, a.name)]));
    if (field.args.length === 0) all.push({ field: field.name, path: '-', value: '-', variables: {}, query });
    const visit = (type: GraphQLInputType, path: string[], name: string) => {
      const nullable = getNullableType(type);
      const set = (value: unknown) => {
        const variables = structuredClone(base);
        let target: Record<string, unknown> = variables;
        for (const key of path.slice(0, -1)) {
          target[key] ??= {};
          target = target[key] as Record<string, unknown>;
        }
        target[path[path.length - 1]] = value;
        all.push({ field: field.name, path: path.join('.'), value: summary(value), variables, query });
      };
      if (isListType(nullable)) {
        set(Array.from({ length: 10_000 }, () => plain(nullable.ofType, name)));
        visit(nullable.ofType, [...path.slice(0, -1), path[path.length - 1]], name);
        return;
      }
      if (isInputObjectType(nullable)) {
        for (const inner of Object.values(nullable.getFields())) visit(inner.type, [...path, inner.name], inner.name);
        return;
      }
      if (isScalarType(nullable) || isEnumType(nullable)) for (const value of attacks(nullable)) set(value);
    };
    for (const arg of field.args) visit(arg.type, [arg.name], arg.name);
  }
  return all;
}

let server: TestServer;
beforeAll(async () => {
  server = await startServer();
});
afterAll(async () => server?.stop());

describe('mutation fuzz', () => {
  it('answers every hostile argument of every mutation with a typed result: no 5xx, no INTERNAL_SERVER_ERROR', async () => {
    const agent = await server.agentClient('fuzz-agent', { scope: 'fuzz-scope', session: 'fuzz-session', conversation: 'fuzz-conversation' });
    const all = cases();
    expect(all.length).toBeGreaterThan(300);
    const failures: string[] = [];
    const statuses = new Map<number, number>();
    const send = async (item: Case, token: string) => {
      const response = await fetch(server.url, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          accept: 'application/graphql-response+json',
          authorization: `Bearer ${token}`,
          'burrow-continuity-scope': 'fuzz-scope',
          'burrow-session': 'fuzz-session',
        },
        body: withDeepJson(JSON.stringify({ query: item.query, variables: item.variables })),
      });
      statuses.set(response.status, (statuses.get(response.status) ?? 0) + 1);
      const text = await response.text();
      if (response.status >= 500 || /"INTERNAL_SERVER_ERROR"/.test(text)) failures.push(`${item.field} ${item.path}=${item.value} -> ${response.status} ${text.slice(0, 300)}`);
      return text;
    };
    let next = 0;
    const worker = async () => {
      while (next < all.length) {
        const item = all[next++];
        // As the agent (runtime headers set); where that is refused as the wrong principal, or
        // the leaf is an agentId (an agent naming another is refused before anything else), as
        // the operator too, so operator-only fields and cross-agent paths are reached.
        const text = await send(item, agent.options.token);
        if (/"code":"(FORBIDDEN|AGENT_MISMATCH)"/.test(text) || /(^|\.)agentId$/.test(item.path)) await send(item, server.operator.options.token);
      }
    };
    await Promise.all([worker(), worker(), worker()]);
    expect(failures).toEqual([]);
    expect([...statuses.keys()].every((status) => status < 500)).toBe(true);
  });
});
