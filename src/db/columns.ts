/** Column helpers shared by every *.sql.ts so timestamps and ids look the same everywhere. */
import { timestamp } from 'drizzle-orm/pg-core';

export const timestamptz = (name: string) => timestamp(name, { withTimezone: true, mode: 'date' });
