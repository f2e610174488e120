/**
 * Point-in-time reads (`asOf:`): what was current at an instant, answered from revisions.
 * No graphql import here: the services and the MCP argument parser use it.
 */
import { ValidationError } from './errors.js';

/**
 * The exclusive upper bound of "written at or before asOf": asOf plus one millisecond. The API
 * shows times to the millisecond while PostgreSQL keeps microseconds, so a revision written at
 * 12:00:00.123456 is shown as 12:00:00.123; `created_at < asOf + 1 ms` makes a time read back
 * from the API include the revision it was read from.
 */
export const asOfBound = (asOf: Date): Date => new Date(asOf.getTime() + 1);

/** An ISO-8601 date and time with a zone (`2026-06-01T12:00:00Z`, `…+02:00`); a bare date is a day, not an instant. */
const ISO_INSTANT = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,9})?)?(Z|[+-]\d{2}:\d{2})$/i;

/** Parses an asOf given as text (MCP tool arguments): an ISO-8601 instant, else VALIDATION_FAILED naming the field. */
export function parseInstant(value: string, field: string): Date {
  const date = ISO_INSTANT.test(value) ? new Date(value) : null;
  if (!date || Number.isNaN(date.getTime()) || date.getUTCFullYear() < 1 || date.getUTCFullYear() > 9999) {
    throw new ValidationError(field, `${field} must be an ISO-8601 date and time with a zone, e.g. 2026-06-01T12:00:00.000Z (got ${JSON.stringify(value.slice(0, 60))})`);
  }
  return date;
}
