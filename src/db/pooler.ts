/**
 * Pooled connections through a transaction pooler (PgBouncer `pool_mode = transaction`,
 * BURROW_POSTGRES_DIRECT_URL set): each transaction, or each statement outside one, may run on a
 * different server connection. So nothing of Burrow may outlive a transaction on them:
 * - named prepared statements (Drizzle's `.prepare(name)`, db/prepared-select.ts, the notify
 *   batch and the latest-sequence read) are sent unnamed here, once for all: PgBouncer 1.18 does
 *   not carry a statement prepared on one server connection to the next ("prepared statement
 *   does not exist"). An unnamed statement's Parse, Bind and Execute go in one message batch,
 *   which the pooler keeps on one server connection;
 * - LISTEN, session-level advisory locks (continuity owners) and migrations use the direct
 *   connection (db/database.external.ts);
 * - every SET on a pooled connection is SET LOCAL or set_config(..., true) (inside its
 *   transaction), and no temporary table is created: test/topology/pgbouncer.test.ts greps for it.
 */
import type pg from 'pg';

type QueryArgs = [unknown, ...unknown[]];

/** A copy of a query config without its statement name (its fields may sit on a prototype). */
function unnamed(config: pg.QueryConfig & { rowMode?: string; types?: unknown }): pg.QueryConfig {
  const copy: Record<string, unknown> = { text: config.text };
  if (config.values !== undefined) copy.values = config.values;
  if (config.rowMode !== undefined) copy.rowMode = config.rowMode;
  if (config.types !== undefined) copy.types = config.types;
  return copy as unknown as pg.QueryConfig;
}

/** Every connection of `pool` sends its statements unnamed (see above). */
export function sendUnnamedStatements(pool: pg.Pool): void {
  pool.on('connect', (client) => {
    const query = client.query.bind(client) as (...args: unknown[]) => unknown;
    client.query = ((...args: QueryArgs) => {
      const first = args[0] as { name?: unknown; text?: unknown; submit?: unknown } | string;
      if (typeof first === 'object' && first !== null && first.name && typeof first.submit !== 'function') {
        args[0] = unnamed(first as pg.QueryConfig);
      }
      return query(...args);
    }) as typeof client.query;
  });
}
