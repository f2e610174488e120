/**
 * `[Symbol.asyncIterator]` of the hand-written async iterators on the subscription path: one
 * shared function returning the iterator itself. An arrow per iterator (`() => wrapped`) was a
 * closure plus a computed name string ("[Symbol.asyncIterator]") per iterator, and every open
 * subscription holds several such iterators.
 */
export function returnThis<T>(this: T): T {
  return this;
}
