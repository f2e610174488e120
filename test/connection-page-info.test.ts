/**
 * toConnection's pageInfo: its cursors are encoded only when read, and they are getters of the
 * class, not of the object. An object literal with getters gave every page a hidden class of its
 * own holding the getters' closures, which kept each request's rows alive through V8's young
 * collections (docs/performance.md, tenth round); the nested read's CPU went from 1.6 to 1.1 ms
 * once this and Agent.profile's loaders stopped doing so.
 */
import { describe, expect, it } from 'vitest';
import { toConnection } from '../src/lib/cursor.js';

const rows = [{ id: 'a' }, { id: 'b' }, { id: 'c' }];

describe('toConnection', () => {
  it('answers a page of `limit` rows, one more meaning a next page, cursors encoded only when read', () => {
    const encoded: string[] = [];
    const cursorOf = (row: { id: string }) => {
      encoded.push(row.id);
      return `cursor:${row.id}`;
    };
    const connection = toConnection(rows, 2, cursorOf, 'cursor:z');
    expect(connection.edges.map((edge) => edge.node.id)).toEqual(['a', 'b']);
    expect(connection.pageInfo.hasNextPage).toBe(true);
    expect(connection.pageInfo.hasPreviousPage).toBe(true);
    expect(encoded).toEqual([]);
    expect(connection.pageInfo.startCursor).toBe('cursor:a');
    expect(connection.pageInfo.endCursor).toBe('cursor:b');
    expect(connection.edges[1].cursor).toBe('cursor:b');
    expect(encoded).toEqual(['a', 'b', 'b']);
  });

  it('a last page has no next page; an empty one has no cursors; a first one no previous page', () => {
    const last = toConnection(rows, 3, (row) => row.id, null);
    expect([last.pageInfo.hasNextPage, last.pageInfo.hasPreviousPage, last.pageInfo.endCursor]).toEqual([false, false, 'c']);
    const empty = toConnection([] as { id: string }[], 3, (row) => row.id, 'x');
    expect([empty.edges.length, empty.pageInfo.startCursor, empty.pageInfo.endCursor, empty.pageInfo.hasPreviousPage]).toEqual([0, null, null, true]);
  });

  it('keeps its getters on the prototype: two pages share one shape and own no accessor', () => {
    const one = toConnection(rows, 1, (row) => row.id, null).pageInfo;
    const two = toConnection(rows, 2, (row) => row.id, null).pageInfo;
    for (const page of [one, two]) {
      for (const name of ['startCursor', 'endCursor']) expect(Object.getOwnPropertyDescriptor(page, name)).toBeUndefined();
    }
    expect(Object.getPrototypeOf(one)).toBe(Object.getPrototypeOf(two));
    expect(Object.getOwnPropertyDescriptor(Object.getPrototypeOf(one), 'endCursor')?.get).toBeTypeOf('function');
  });
});
