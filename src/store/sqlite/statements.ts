/**
 * The prepared statements of one node:sqlite connection, prepared once and
 * kept, and the one way the running process writes: waiting for the write
 * lock on timers, never on the event loop (see busy.ts).
 */
import type { DatabaseSync, SQLInputValue, StatementSync } from 'node:sqlite';
import { SERVER_WRITE_WAIT, whenUnlocked, type WriteWait } from './busy.ts';
import { readInTurn } from './read-turn.ts';

/** A LIMIT given by a bound parameter: `LIMIT ?`, `LIMIT $limit`. */
const BOUND_LIMIT = /\bLIMIT (\?|\$\w+)/g;

/**
 * The statement with each bound LIMIT written as an expression, `LIMIT (? + 0)`.
 * SQLite reads a bare bound LIMIT while it plans a statement, and so plans the
 * statement again each time that parameter is bound; node:sqlite binds every
 * parameter on every run. That cost ~5 µs a statement (an empty index probe took
 * 10–16 µs instead of 4–7). An expression is read when the statement runs; the
 * statements here are planned from their ORDER BY and indexes, not their LIMIT
 * (their plans are the same either way).
 */
export function limitAtRunTime(sql: string): string {
  return sql.replace(BOUND_LIMIT, 'LIMIT ($1 + 0)');
}

/** A statement that returns rows as arrays (no object per row), its bound LIMITs read at run time. */
export function prepareArrays(db: DatabaseSync, sql: string): StatementSync {
  const statement = db.prepare(limitAtRunTime(sql));
  statement.setReturnArrays(true);
  return statement;
}

export class SqliteStatements {
  readonly db: DatabaseSync;
  /** How this connection's writes wait for another connection's write lock (an import's). */
  protected readonly writeWait: WriteWait;
  private readonly statements = new Map<string, StatementSync>();

  constructor(db: DatabaseSync, writeWait: WriteWait = SERVER_WRITE_WAIT) {
    this.db = db;
    this.writeWait = writeWait;
  }

  /** A cached statement, run in the turn's read transaction (read-turn.ts) unless it writes. */
  protected stmt(sql: string): StatementSync {
    readInTurn(this.db);
    let statement = this.statements.get(sql);
    if (!statement) this.statements.set(sql, (statement = this.db.prepare(limitAtRunTime(sql))));
    return statement;
  }

  /**
   * A cached statement that returns rows as arrays (no object per row).
   * sameRead: run it in the read transaction the statement before it began, as
   * it is (not ended for its age, see read-turn.ts), so that both read one
   * snapshot; only right after a statement of the same turn.
   */
  protected arrays(sql: string, sameRead = false): StatementSync {
    if (!sameRead || !this.db.isTransaction) readInTurn(this.db);
    const cacheKey = `[]${sql}`;
    let statement = this.statements.get(cacheKey);
    if (!statement) this.statements.set(cacheKey, (statement = prepareArrays(this.db, sql)));
    return statement;
  }

  /** Runs one write statement, waiting on timers while another connection (an import) holds the lock. */
  protected write(sql: string, ...params: SQLInputValue[]) {
    const statement = this.stmt(sql);
    return whenUnlocked(this.db, () => statement.run(...params), this.writeWait);
  }
}
