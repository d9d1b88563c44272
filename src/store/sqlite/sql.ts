/**
 * SQLite's side of the shared queries (../sql/sql.ts): `?` placeholders as
 * they are, binary collation by default, booleans as 0/1, and every write
 * waiting for the lock on timers (busy.ts).
 */
import type { SQLInputValue } from 'node:sqlite';
import type { Row, Sql, SqlValue } from '../sql/sql.ts';
import { whenUnlocked } from './busy.ts';
import { SqliteStatements } from './statements.ts';

const values = (params: readonly SqlValue[]) => params as SQLInputValue[];

export class SqliteSql extends SqliteStatements implements Sql {
  async rows(sql: string, params: readonly SqlValue[] = []): Promise<Row[]> {
    // No column of the schema holds a blob.
    return this.stmt(sql).all(...values(params)) as Row[];
  }

  async run(sql: string, params: readonly SqlValue[] = []): Promise<number> {
    return Number((await this.write(sql, ...values(params))).changes);
  }

  async writeReturning(sql: string, params: readonly SqlValue[] = []): Promise<Row[]> {
    const statement = this.stmt(sql);
    return (await whenUnlocked(this.db, () => statement.all(...values(params)), this.writeWait)) as Row[];
  }

  /** The cached prepared statement of sql, for the writes that run inside one transaction. */
  statement(sql: string) {
    return this.stmt(sql);
  }

  byteOrder(column: string): string {
    return column;
  }

  bool(value: boolean): SqlValue {
    return value ? 1 : 0;
  }
}
