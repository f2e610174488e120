/**
 * preparedSelect(db, name, query): a hot read prepared once, whose rows are mapped by a mapper
 * built for its columns.
 *
 * Like Drizzle's `.prepare(name)`: the SQL is built once and runs as a named statement, which
 * each pooled connection parses and plans once. The difference is the row mapping: Drizzle's
 * generic mapper asks every value's column what kind of selection it is (`is()` walks the
 * prototype chain) and walks a path per column, about a tenth of the CPU of reading 50 agents
 * with their 300 profile documents. Here the columns are looked at once, and a row costs one
 * object and a conversion only where the driver's value needs one (timestamps to Date).
 * Only plain column selections are accepted (`db.select().from(table)` or `{ key: column }`).
 */
import type pg from 'pg';
import { Column, fillPlaceholders, is, type Logger, type SQL } from 'drizzle-orm';
import { PgDialect } from 'drizzle-orm/pg-core';
import type { Db } from './database.js';

interface ColumnSelect {
  getSQL(): SQL;
  readonly _: { readonly selectedFields: Record<string, unknown>; readonly result: unknown[] };
}

export interface PreparedSelect<Row> {
  execute(values?: Record<string, unknown>): Promise<Row[]>;
}

const dialect = new PgDialect();
const passThrough = Column.prototype.mapFromDriverValue;

type Decoder = ((value: unknown) => unknown) | null;

/**
 * `(row) => ({ key0: row[0], key1: decode1(row[1]), ... })`, generated once per statement: an
 * object literal gets its final shape in one allocation, where filling `{}` key by key grew it
 * through a new hidden class per key and a second allocation past four keys (300 documents a
 * nested read). The keys are the selection's own (our code, not input) and are quoted anyway.
 */
function rowMapper(keys: string[], decoders: Decoder[]): (row: unknown[]) => Record<string, unknown> {
  const fields = keys.map((key, i) => `${JSON.stringify(key)}: ${decoders[i] ? `row[${i}] === null ? null : decoders[${i}](row[${i}])` : `row[${i}]`}`);
  return new Function('decoders', `return (row) => ({ ${fields.join(', ')} });`)(decoders) as (row: unknown[]) => Record<string, unknown>;
}

export function preparedSelect<Query extends ColumnSelect>(db: Db, name: string, query: Query): PreparedSelect<Query['_']['result'][number]> {
  const selected = Object.entries(query._.selectedFields);
  const keys = selected.map(([key]) => key);
  const decoders = selected.map(([key, field]): Decoder => {
    if (!is(field, Column)) throw new Error(`preparedSelect ${name}: "${key}" is not a column`);
    return field.mapFromDriverValue === passThrough ? null : (value: unknown) => field.mapFromDriverValue(value);
  });
  const mapRow = rowMapper(keys, decoders);
  // Drizzle's prepared query gives the SQL, its parameters with placeholders, the statement's
  // pg config (its name, array rows, and the type parsers that leave timestamps as the strings
  // the decoders expect), the client and the logger that counts statements.
  const prepared = db._.session.prepareQuery(dialect.sqlToQuery(query.getSQL()), undefined, name, true) as unknown as DrizzlePrepared;
  // It is run here rather than by Drizzle's execute, which wraps each call in four async layers
  // (two no-op tracing spans and a no-op cache). The config's fields sit on a frozen prototype:
  // pg copies a config's own properties, descriptor by descriptor, at every call, and this one
  // has none (the copy was 1.6 % of a one-agent read).
  const statement = Object.create(Object.freeze({ ...prepared.queryConfig })) as pg.QueryArrayConfig;
  return {
    async execute(values = {}) {
      const params = fillPlaceholders(prepared.params, values);
      prepared.logger.logQuery(prepared.queryString, params);
      const { rows } = await prepared.client.query(statement, params);
      return rows.map(mapRow) as Query['_']['result'];
    },
  };
}

/** The parts of Drizzle's NodePgPreparedQuery that preparedSelect uses. */
interface DrizzlePrepared {
  client: { query(config: pg.QueryArrayConfig, values: unknown[]): Promise<pg.QueryArrayResult> };
  logger: Logger;
  queryString: string;
  params: unknown[];
  queryConfig: { name: string; text: string; rowMode: 'array'; types: unknown };
}
