/**
 * PostgreSQL's side of the shared queries (../sql/sql.ts): `?` placeholders
 * numbered `$1, $2, …` (once per SQL text), byte order by COLLATE "C",
 * booleans as they are, on the store's pool (or a transaction's connection).
 */
import type { Row, Sql, SqlValue } from '../sql/sql.ts';
import { exec, rows, type Queryable } from './pg-client.ts';

const numbered = new Map<string, string>();

/** The SQL text with its `?` placeholders numbered. */
function numberPlaceholders(sql: string): string {
  let text = numbered.get(sql);
  if (text === undefined) {
    let n = 0;
    text = sql.replace(/\?/g, () => `$${++n}`);
    numbered.set(sql, text);
  }
  return text;
}

export class PostgresSql implements Sql {
  private readonly pool: Queryable;

  constructor(pool: Queryable) {
    this.pool = pool;
  }

  rows(sql: string, params: readonly SqlValue[] = []): Promise<Row[]> {
    return rows(this.pool, numberPlaceholders(sql), [...params]);
  }

  run(sql: string, params: readonly SqlValue[] = []): Promise<number> {
    return exec(this.pool, numberPlaceholders(sql), [...params]);
  }

  writeReturning(sql: string, params: readonly SqlValue[] = []): Promise<Row[]> {
    return this.rows(sql, params);
  }

  byteOrder(column: string): string {
    return `${column} COLLATE "C"`;
  }

  bool(value: boolean): SqlValue {
    return value;
  }
}
