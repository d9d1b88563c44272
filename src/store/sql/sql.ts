/**
 * What differs between the SQL backends, behind one small interface: each
 * backend implements it once (sqlite/sql.ts, postgres/sql.ts) and the queries
 * both backends share (sql/access-queries.ts, sql/dashboard-queries.ts) are
 * written once against it.
 *
 * Shared SQL is written with `?` placeholders (PostgreSQL's implementation
 * numbers them) and must contain no literal `?`. Upserts use
 * `ON CONFLICT … DO UPDATE SET col = excluded.col`, which both speak.
 */
export type SqlValue = string | number | boolean | null;
/** A row of a read: column name → value (bigint: PostgreSQL's count, as text, is a string). */
export type Row = Record<string, string | number | bigint | boolean | null>;

export interface Sql {
  /** Rows of a read. */
  rows(sql: string, params?: readonly SqlValue[]): Promise<Row[]>;
  /** One write statement; returns how many rows it changed. SQLite waits for the write lock on timers. */
  run(sql: string, params?: readonly SqlValue[]): Promise<number>;
  /** One write statement with RETURNING; its rows. */
  writeReturning(sql: string, params?: readonly SqlValue[]): Promise<Row[]>;
  /** `column` as an ORDER BY term in byte (binary) order. */
  byteOrder(column: string): string;
  /** A boolean as the backend stores it (SQLite: 0/1). */
  bool(value: boolean): SqlValue;
}

/** `?, ?, ?` for n values. */
export function placeholders(n: number): string {
  return Array.from({ length: n }, () => '?').join(', ');
}
