import { getTableColumns, type Table } from 'drizzle-orm';
import pg from 'pg';
import type { Db } from './client.js';

/**
 * Statements on the hot path (the session check of every authenticated request, the credit reservation of every AI
 * request), sent without the query builder. Their text is written once, at start; on PostgreSQL each is a named
 * statement, which every connection parses and plans once and then only executes. Measured on a chat turn
 * (bench/chat-stream.ts): building a query with Drizzle costs about 0.3 ms of CPU, before the round trip starts.
 *
 * Rows come back as the driver decodes them (uuid and text as strings, integers as numbers, timestamps as Dates,
 * jsonb parsed), the same for node-postgres and PGlite; the column lists below name each column by its schema key.
 */
export type Statement<Row> = { readonly name: string; readonly text: string; readonly row?: Row };

export const statement = <Row>(name: string, text: string): Statement<Row> => ({ name, text });

export async function run<Row>(db: Db, s: Statement<Row>, values: unknown[]): Promise<Row[]> {
  const client = (db as unknown as { $client: unknown }).$client;
  if (client instanceof pg.Pool) {
    return (await client.query({ name: s.name, text: s.text, values })).rows as Row[];
  }
  const result = await (client as { query: (text: string, values: unknown[]) => Promise<{ rows: unknown[] }> }).query(
    s.text,
    values,
  );
  return result.rows as Row[];
}

/**
 * `alias."column_name" AS "<prefix>key", …` for every column of a table, so that a row read with it has the keys of
 * the table's `$inferSelect` type (with `prefix` in front, to tell two tables apart in one row).
 */
export function columnsOf(table: Table, alias: string, prefix = '') {
  return Object.entries(getTableColumns(table))
    .map(([key, column]) => `${alias}."${column.name}" AS "${prefix}${key}"`)
    .join(', ');
}

/** Reads one table's columns, selected with `columnsOf(table, alias, prefix)`, out of a row, as that table's row. */
export function columnReader<T>(table: Table, prefix: string): (row: Record<string, unknown>) => T {
  const keys = Object.keys(getTableColumns(table));
  const aliases = keys.map((key) => prefix + key);
  return (row) => {
    const out: Record<string, unknown> = {};
    for (let i = 0; i < keys.length; i++) out[keys[i]!] = row[aliases[i]!];
    return out as T;
  };
}

/**
 * `json_build_object('key', alias."column", …)` for the given columns of a table (and `extra` keys, each an SQL
 * expression): a row read as one JSON value. node-postgres describes and parses each column of a result on every
 * execution; an authenticated request's statement read about fifty (measured: a fifth of the request's CPU). One JSON
 * value per table costs one column each.
 */
export function jsonOf<T extends Table>(
  table: T,
  alias: string,
  keys: readonly (keyof T['_']['columns'] & string)[],
  extra: Record<string, string> = {},
) {
  const columns = getTableColumns(table);
  const pairs = keys.map((key) => `'${key}', ${alias}."${columns[key]!.name}"`);
  for (const [key, expression] of Object.entries(extra)) pairs.push(`'${key}', ${expression}`);
  return `json_build_object(${pairs.join(', ')})`;
}

/** Reads a value built with `jsonOf`: its timestamps (ISO strings in JSON) back into Dates. */
export function jsonReader<R>(table: Table, keys: readonly string[]): (value: Record<string, unknown>) => R {
  const columns = getTableColumns(table);
  const dates = keys.filter((key) => columns[key]!.columnType === 'PgTimestamp');
  return (value) => {
    for (const key of dates) if (value[key] != null) value[key] = new Date(value[key] as string);
    return value as R;
  };
}
