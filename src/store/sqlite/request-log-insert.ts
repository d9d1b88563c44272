/** The request log's append on SQLite, shared by the writer thread and the event loop's fallback. */
import type { DatabaseSync, StatementSync } from 'node:sqlite';
import type { RequestLogEntry } from '../../domain/key-life-records.ts';

const INSERT = `INSERT INTO request_log (org_id, key_id, key_prefix, at, method, path, status, error_code, duration_ms, request_id)
                VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`;

const statements = new WeakMap<DatabaseSync, StatementSync>();

/** Inserts the entries (decoded before the caller took the lock: RequestBatch.entries()); the caller holds the transaction. */
export function insertRequests(db: DatabaseSync, entries: readonly RequestLogEntry[]): void {
  let insert = statements.get(db);
  if (insert === undefined) statements.set(db, (insert = db.prepare(INSERT)));
  for (const e of entries) insert.run(e.orgId, e.keyId, e.keyPrefix, e.at, e.method, e.path, e.status, e.errorCode, e.durationMs, e.requestId);
}
