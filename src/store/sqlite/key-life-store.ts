/** KeyLifeStore over node:sqlite, sharing the store's connection: the shared queries, and an append that never waits for the lock. */
import type { DatabaseSync } from 'node:sqlite';
import type { RequestLogEntry } from '../key-life-store.ts';
import { SqlKeyLifeStore } from '../sql/key-life-queries.ts';
import { writeActivity } from './busy.ts';
import { SqliteSql } from './sql.ts';

export class SqliteKeyLifeStore extends SqlKeyLifeStore {
  private readonly db: DatabaseSync;
  private readonly statements: SqliteSql;

  constructor(db: DatabaseSync) {
    const sql = new SqliteSql(db);
    super(sql);
    this.db = db;
    this.statements = sql;
  }

  async appendRequests(entries: RequestLogEntry[]): Promise<boolean> {
    if (entries.length === 0) return true;
    // Never wait for the lock: the caller keeps the entries for the next tick.
    return writeActivity(this.db, () => {
      const insert = this.statements.statement(
        `INSERT INTO request_log (org_id, key_id, key_prefix, at, method, path, status, error_code, duration_ms, request_id)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
      );
      for (const e of entries) insert.run(e.orgId, e.keyId, e.keyPrefix, e.at, e.method, e.path, e.status, e.errorCode, e.durationMs, e.requestId);
    });
  }
}
