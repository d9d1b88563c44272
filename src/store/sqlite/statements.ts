/**
 * The prepared statements of one node:sqlite connection, prepared once and
 * kept, and the one way the running process writes: waiting for the write
 * lock on timers, never on the event loop (see busy.ts).
 */
import type { DatabaseSync, SQLInputValue, StatementSync } from 'node:sqlite';
import { whenUnlocked } from './busy.ts';

export class SqliteStatements {
  readonly db: DatabaseSync;
  private readonly statements = new Map<string, StatementSync>();

  constructor(db: DatabaseSync) {
    this.db = db;
  }

  protected stmt(sql: string): StatementSync {
    let statement = this.statements.get(sql);
    if (!statement) this.statements.set(sql, (statement = this.db.prepare(sql)));
    return statement;
  }

  /** A cached statement that returns rows as arrays (no object per row). */
  protected arrays(sql: string): StatementSync {
    const cacheKey = `[]${sql}`;
    let statement = this.statements.get(cacheKey);
    if (!statement) {
      statement = this.db.prepare(sql);
      statement.setReturnArrays(true);
      this.statements.set(cacheKey, statement);
    }
    return statement;
  }

  /** Runs one write statement, waiting on timers while another connection (an import) holds the lock. */
  protected write(sql: string, ...params: SQLInputValue[]) {
    const statement = this.stmt(sql);
    return whenUnlocked(this.db, () => statement.run(...params));
  }
}
