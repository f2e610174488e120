/**
 * How the console words an error (console/src/human-error.ts, through describeError in
 * console/src/api.ts): a sentence for the operator with the code kept after it, and a socket's
 * close event by its code and reason, never "[object CloseEvent]". Pure functions: no browser.
 */
import { describe, expect, it } from 'vitest';
import { ApiError, describeError } from '../console/src/api.js';
import { humanError } from '../console/src/human-error.js';

/** A CloseEvent as browsers make it: code and reason are accessors of the prototype, and String() of it is "[object CloseEvent]". */
class FakeCloseEvent {
  readonly #code: number;
  readonly #reason: string;
  constructor(code: number, reason: string) {
    this.#code = code;
    this.#reason = reason;
  }
  get code() {
    return this.#code;
  }
  get reason() {
    return this.#reason;
  }
  get [Symbol.toStringTag]() {
    return 'CloseEvent';
  }
}

describe('console errors in words', () => {
  it('keeps the code after a sentence, and names a taken id', () => {
    expect(humanError({ code: 'ALREADY_EXISTS', message: 'Agent hatchet already exists', resource: 'Agent', resourceId: 'hatchet' })).toBe(
      'The agent id "hatchet" is already taken: choose another (ALREADY_EXISTS)',
    );
    expect(humanError({ code: 'VALIDATION_FAILED', message: 'token name must be 1 to 200 characters', field: 'name' })).toBe(
      'Token name must be 1 to 200 characters (VALIDATION_FAILED)',
    );
    expect(humanError({ code: 'NOT_FOUND', message: 'ApiToken tok_1 not found.' })).toBe('ApiToken tok_1 not found (NOT_FOUND)');
    expect(humanError({ code: 'FORBIDDEN', message: 'operators only' })).toBe('This token may not do that: it needs an operator token (FORBIDDEN)');
    expect(humanError({ message: '' })).toBe('Something went wrong');
  });

  it('describeError: API errors, plain errors and a close event', () => {
    expect(describeError(new ApiError('a valid bearer token is required (Authorization: Bearer <token>)', 'UNAUTHENTICATED'))).toBe(
      'The token was refused (unknown, revoked or expired): sign in again (UNAUTHENTICATED)',
    );
    expect(describeError(new ApiError('fetch failed', null))).toBe('Fetch failed');
    expect(describeError(new Error('boom'))).toBe('Boom');
    const closed = new FakeCloseEvent(4403, 'Forbidden: the token was revoked or has expired');
    expect(String(closed)).toBe('[object CloseEvent]');
    expect(describeError(closed)).toBe('Live stream closed (4403 Forbidden): Forbidden: the token was revoked or has expired');
    expect(describeError(new FakeCloseEvent(1006, ''))).toBe('Live stream closed (1006 Connection lost)');
  });
});
