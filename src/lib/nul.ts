import { ValidationError } from './errors.js';

/**
 * PostgreSQL text cannot hold U+0000: such input would fail inside the database as an
 * unexpected error. It is rejected up front as a validation failure instead.
 */
export function assertNoNul(field: string, value: string | null | undefined, limit: number | null = null): void {
  if (value != null && value.includes('\u0000')) throw new ValidationError(field, `${field} must not contain the NUL character (U+0000)`, limit);
}
