/**
 * AccessStore and UsageStore over node:sqlite: the shared queries
 * (../sql/access-queries.ts) plus SQLite's usage writes, which never wait for
 * another writer (an import may hold the lock for seconds): when the database
 * is busy they write nothing and the caller keeps its counts for the next tick.
 */
import type { DatabaseSync } from 'node:sqlite';
import type { CounterRow, UsageRow, UsageStore } from '../access-store.ts';
import { SqlAccessStore } from '../sql/access-queries.ts';
import { isBusy, tryWrite } from './busy.ts';
import type { SqliteSql } from './sql.ts';

export class SqliteAccessStore extends SqlAccessStore implements UsageStore {
  private readonly db: DatabaseSync;
  private readonly statements: SqliteSql;

  constructor(sql: SqliteSql) {
    super(sql);
    this.db = sql.db;
    this.statements = sql;
  }

  async writeCounters(counters: CounterRow[], keepWindows: string[]): Promise<boolean> {
    return this.inWriteTransaction(() => {
      const setCounter = this.statements.statement(
        'INSERT INTO limit_counters (org_id, window_key, count) VALUES (?, ?, ?) ON CONFLICT (org_id, window_key) DO UPDATE SET count = excluded.count',
      );
      for (const c of counters) setCounter.run(c.orgId, c.window, c.count);
      if (keepWindows.length > 0) {
        // Past minutes are of no further use.
        const placeholders = keepWindows.map(() => '?').join(', ');
        this.db.prepare(`DELETE FROM limit_counters WHERE window_key LIKE 'minute:%' AND window_key NOT IN (${placeholders})`).run(...keepWindows);
      }
    });
  }

  async addUsage(usage: UsageRow[], lastUsed: Map<string, string>): Promise<boolean> {
    return this.inWriteTransaction(() => {
      const addUsage = this.statements.statement(
        'INSERT INTO usage_daily (key_id, day, outcome, count) VALUES (?, ?, ?, ?) ON CONFLICT (key_id, day, outcome) DO UPDATE SET count = count + excluded.count',
      );
      for (const u of usage) addUsage.run(u.keyId, u.day, u.outcome, u.count);
      const touch = this.statements.statement('UPDATE api_keys SET last_used_at = ? WHERE id = ? AND (last_used_at IS NULL OR last_used_at < ?)');
      for (const [keyId, at] of lastUsed) touch.run(at, keyId, at);
    });
  }

  /** Runs write in one IMMEDIATE transaction; false, writing nothing, when another writer holds the lock. */
  private inWriteTransaction(write: () => void): boolean {
    try {
      tryWrite(this.db, () => this.db.exec('BEGIN IMMEDIATE'));
    } catch (error) {
      if (isBusy(error)) return false;
      throw error;
    }
    try {
      write();
      this.db.exec('COMMIT');
      return true;
    } catch (error) {
      this.db.exec('ROLLBACK');
      throw error;
    }
  }
}
