/**
 * SQLite schema, one entry per version. PRAGMA user_version records how many
 * have been applied; each runs in its own IMMEDIATE transaction, so two
 * processes starting at once cannot both apply it.
 */
import type { DatabaseSync } from 'node:sqlite';

export const SQLITE_MIGRATIONS: readonly string[] = [
  // 1: settings, codes, changes
  `
  CREATE TABLE settings (
    key   TEXT PRIMARY KEY,
    value TEXT NOT NULL
  ) STRICT;

  -- id is '{system}:{code}'; BINARY collation gives the byte order paging needs.
  -- json is the record exactly as the API returns it.
  CREATE TABLE codes (
    id     TEXT PRIMARY KEY,
    system TEXT NOT NULL,
    code   TEXT NOT NULL,
    status TEXT NOT NULL,
    hash   TEXT NOT NULL,
    json   TEXT NOT NULL
  ) STRICT, WITHOUT ROWID;
  CREATE INDEX codes_by_system ON codes (system, id);
  CREATE INDEX codes_by_status ON codes (status, id);

  -- id is assigned by the serialised importer in commit order and never reused.
  CREATE TABLE changes (
    id             INTEGER PRIMARY KEY,
    code_id        TEXT NOT NULL,
    system         TEXT NOT NULL,
    type           TEXT NOT NULL,
    effective_date TEXT NOT NULL,
    json           TEXT NOT NULL
  ) STRICT;
  CREATE INDEX changes_by_date ON changes (effective_date, id);
  CREATE INDEX changes_by_code ON changes (code_id, effective_date, id);
  CREATE INDEX changes_by_system ON changes (system, effective_date, id);
  `,
];

export function migrateSqlite(db: DatabaseSync): void {
  const version = () => Number((db.prepare('PRAGMA user_version').get() as { user_version: number }).user_version);
  while (version() < SQLITE_MIGRATIONS.length) {
    db.exec('BEGIN IMMEDIATE');
    try {
      const current = version();
      if (current < SQLITE_MIGRATIONS.length) {
        db.exec(SQLITE_MIGRATIONS[current]!);
        db.exec(`PRAGMA user_version = ${current + 1}`);
      }
      db.exec('COMMIT');
    } catch (error) {
      db.exec('ROLLBACK');
      throw error;
    }
  }
}
