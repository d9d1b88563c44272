/**
 * AccessStore and UsageStore over node:sqlite: the shared queries
 * (../sql/access-queries.ts) plus SQLite's usage writes, to the activity file
 * (activity.ts), which never wait for another writer: when that file is busy
 * they write nothing and the caller keeps its counts for the next tick.
 */
import type { DatabaseSync } from 'node:sqlite';
import type { CounterRow, UsageRow, UsageStore } from '../access-store.ts';
import { SqlAccessStore } from '../sql/access-queries.ts';
import { writeActivity } from './busy.ts';
import type { SqliteSql } from './sql.ts';

/** A key's last use, for the key row `k`: in the activity file since schema 15. */
export const SQLITE_LAST_USED_AT = '(SELECT u.at FROM key_last_used u WHERE u.key_id = k.id) AS last_used_at';

export class SqliteAccessStore extends SqlAccessStore implements UsageStore {
  private readonly db: DatabaseSync;
  private readonly statements: SqliteSql;

  constructor(sql: SqliteSql) {
    super(sql, SQLITE_LAST_USED_AT);
    this.db = sql.db;
    this.statements = sql;
  }

  async writeCounters(counters: CounterRow[], keepWindows: string[]): Promise<boolean> {
    return writeActivity(this.db, () => {
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
    return writeActivity(this.db, () => {
      const addUsage = this.statements.statement(
        'INSERT INTO usage_daily (key_id, day, outcome, count) VALUES (?, ?, ?, ?) ON CONFLICT (key_id, day, outcome) DO UPDATE SET count = count + excluded.count',
      );
      for (const u of usage) addUsage.run(u.keyId, u.day, u.outcome, u.count);
      const touch = this.statements.statement(
        'INSERT INTO key_last_used (key_id, at) VALUES (?, ?) ON CONFLICT (key_id) DO UPDATE SET at = excluded.at WHERE excluded.at > at',
      );
      for (const [keyId, at] of lastUsed) touch.run(keyId, at);
    });
  }
}
