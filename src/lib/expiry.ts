/**
 * Every lifetime in Burrow is counted one way: a TTL or window of N days is N × 86,400,000 ms
 * of the injected clock, UTC-exact. A day is never a calendar day of the database session's
 * time zone: `make_interval(days => n)` or `interval '1 day'` add calendar days there, so a TTL
 * that spans a daylight-saving change would come out an hour short or long, and a record
 * written by JavaScript and rewritten by SQL would expire at different instants.
 *
 * The SQL forms exist only for a TTL that the row itself holds (a column, or the agent's
 * persisted setting in a subquery); they compute the same instant (days × 86,400 s of elapsed
 * time, which PostgreSQL never turns into calendar days).
 */
import { sql, type SQL } from 'drizzle-orm';
import { DAY_MS } from './clock.js';

/** The instant a TTL of `days` started at `from` ends. */
export const expiryAfter = (from: Date, days: number): Date => new Date(from.getTime() + days * DAY_MS);

/** The instant `days` before `now`: anything older than it is outside a window of `days`. */
export const daysBefore = (now: Date, days: number): Date => new Date(now.getTime() - days * DAY_MS);

const elapsedDays = (days: SQL | number): SQL => sql`(${days} * interval '86400 seconds')`;
const instant = (at: Date | SQL): SQL | string => (at instanceof Date ? at.toISOString() : at);

/** expiryAfter in SQL: `from` + days × 86,400 s. */
export const expiryAfterSql = (from: Date | SQL, days: SQL | number): SQL => sql`(${instant(from)}::timestamptz + ${elapsedDays(days)})`;

/** daysBefore in SQL: `now` − days × 86,400 s. */
export const daysBeforeSql = (now: Date | SQL, days: SQL | number): SQL => sql`(${instant(now)}::timestamptz - ${elapsedDays(days)})`;
