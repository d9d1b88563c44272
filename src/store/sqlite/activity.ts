/**
 * The server's own bookkeeping in a database file of its own, `<database>.activity`:
 * the limit counters, the daily usage, the request log and each key's last use.
 *
 * The server commits these every second (the request log ten times a second,
 * from a thread of its own). In the database file itself every
 * such commit moved the file's data version, and SQLite drops a connection's
 * page cache when it begins reading after another connection committed: the
 * batch reader's thread (and any other reader: a CLI command, a backup) found
 * the pages it had just read gone once a second, and held snapshots kept the
 * WAL growing by the request log. In a file of its own, the codes' file moves
 * only when codes, keys, organisations or plans change.
 *
 * The store's connection ATTACHes the file as `activity`. Its tables are not
 * in the main file, so the shared queries name them without a schema and
 * SQLite finds them there; a query may join them to the main file's tables.
 * A transaction that writes only these tables locks only this file: an import
 * holding the main file's lock for minutes no longer holds the counts back.
 *
 * SQLite commits a transaction that writes both files one file after the
 * other, not both or neither, so nothing here writes both at once; the move
 * from the main file (schema 15) copies first, in a transaction of its own,
 * and drops the main file's tables only in a later one that finds every row
 * copied.
 */
import type { DatabaseSync } from 'node:sqlite';
import { pathToFileURL } from 'node:url';

/** The file beside the database: `codebook.db` → `codebook.db.activity` (with its own -wal and -shm). */
export function activityPath(databasePath: string): string {
  return databasePath === ':memory:' ? ':memory:' : `${databasePath}.activity`;
}

/** Every file a database at this path keeps on disk: the database and its activity file, each with its WAL and shared-memory index. */
export function databaseFiles(databasePath: string): string[] {
  return [databasePath, activityPath(databasePath)].flatMap((file) => [file, `${file}-wal`, `${file}-shm`]);
}

/** Created on every open, so a file that is missing (deleted, or not copied with the database) starts empty. */
const ACTIVITY_SCHEMA = `
  -- Per-organisation counts of the limit windows ('month:2026-11', 'minute:2026-11-21T08:17').
  CREATE TABLE IF NOT EXISTS activity.limit_counters (
    org_id     TEXT NOT NULL,
    window_key TEXT NOT NULL,
    count      INTEGER NOT NULL,
    PRIMARY KEY (org_id, window_key)
  ) STRICT, WITHOUT ROWID;

  -- Requests per key, UTC day and outcome, for the dashboard and the usage command.
  CREATE TABLE IF NOT EXISTS activity.usage_daily (
    key_id  TEXT NOT NULL,
    day     TEXT NOT NULL,
    outcome TEXT NOT NULL,
    count   INTEGER NOT NULL,
    PRIMARY KEY (key_id, day, outcome)
  ) STRICT, WITHOUT ROWID;

  -- The organisation's latest requests, newest first by id; pruned by age and count.
  CREATE TABLE IF NOT EXISTS activity.request_log (
    id          INTEGER PRIMARY KEY,
    org_id      TEXT NOT NULL,
    key_id      TEXT NOT NULL,
    key_prefix  TEXT NOT NULL,
    at          TEXT NOT NULL,
    method      TEXT NOT NULL,
    path        TEXT NOT NULL,
    status      INTEGER NOT NULL,
    error_code  TEXT,
    duration_ms REAL NOT NULL,
    request_id  TEXT NOT NULL
  ) STRICT;
  -- One index: filters (key, status, Request-Id) read at most one organisation's entries (10 000),
  -- and every further index would cost each logged request another write.
  CREATE INDEX IF NOT EXISTS activity.request_log_by_org ON request_log (org_id, id);

  -- When each key was last used (api_keys.last_used_at until schema 15); only moves forward.
  CREATE TABLE IF NOT EXISTS activity.key_last_used (
    key_id TEXT PRIMARY KEY,
    at     TEXT NOT NULL
  ) STRICT, WITHOUT ROWID;
`;

/** The tables that schema 15 moves, in the main file's column order (the same as here). */
const MOVED = ['limit_counters', 'usage_daily', 'request_log'] as const;

/** Attaches the activity file (creating it and its tables when missing) to the store's connection. */
export function attachActivity(db: DatabaseSync, databasePath: string): void {
  db.prepare('ATTACH DATABASE ? AS activity').run(activityPath(databasePath));
  // journal_mode and synchronous are each file's own: the main file's PRAGMAs ran before the ATTACH.
  db.exec('PRAGMA activity.journal_mode = WAL');
  db.exec('PRAGMA activity.synchronous = NORMAL');
  db.exec(ACTIVITY_SCHEMA);
}

/**
 * Attaches the activity file read-only, for a connection that reads it but
 * writes the main file alone (a transaction's, see SqliteStore.withTransaction):
 * its BEGIN IMMEDIATE then locks the main file only, never holding back the
 * counts and the request log. The file exists: the store's connection made it.
 */
export function attachActivityReadOnly(db: DatabaseSync, databasePath: string): void {
  db.prepare('ATTACH DATABASE ? AS activity').run(`${pathToFileURL(activityPath(databasePath)).href}?mode=ro`);
}

function mainHas(db: DatabaseSync, table: string): boolean {
  return db.prepare("SELECT 1 FROM main.sqlite_schema WHERE type = 'table' AND name = ?").get(table) !== undefined;
}

/**
 * The first half of the move: copies what the main file holds into the
 * activity file, in a transaction that writes only the activity file (so it
 * is durable on its own). Counts and last uses are the main file's where it
 * has them; the request log keeps its ids. Run again, it changes nothing.
 */
export function copyIntoActivity(db: DatabaseSync): void {
  // Synced to the disk at its commit, not at the next checkpoint (synchronous NORMAL): the drop that
  // follows must never outlive the copy, also on a power loss.
  db.exec('PRAGMA activity.synchronous = FULL');
  db.exec('BEGIN IMMEDIATE');
  try {
    // Checked under the lock: another process may have moved them since this one read the version.
    if (mainHas(db, 'request_log')) {
      for (const table of MOVED) db.exec(`INSERT OR REPLACE INTO activity.${table} SELECT * FROM main.${table}`);
      db.exec(`INSERT INTO activity.key_last_used (key_id, at)
               SELECT id, last_used_at FROM main.api_keys WHERE last_used_at IS NOT NULL
               ON CONFLICT (key_id) DO UPDATE SET at = excluded.at WHERE excluded.at > at`);
    }
    db.exec('COMMIT');
  } catch (error) {
    db.exec('ROLLBACK');
    throw error;
  } finally {
    db.exec('PRAGMA activity.synchronous = NORMAL');
  }
}

export class ActivityNotCopied extends Error {
  override name = 'ActivityNotCopied';
}

/**
 * Schema 15, the second half of the move, in the migration's transaction:
 * drops the main file's tables and its last-use column, writing only the main
 * file, once every row of theirs is in the activity file. A row written in
 * between (another process of an older version) throws ActivityNotCopied,
 * and the migration copies again.
 */
export function dropMovedTables(db: DatabaseSync): void {
  for (const table of MOVED) {
    const missing = db.prepare(`SELECT count(*) AS n FROM (SELECT * FROM main.${table} EXCEPT SELECT * FROM activity.${table})`).get() as { n: number };
    if (missing.n > 0) throw new ActivityNotCopied(`${missing.n} rows of ${table} are not in the activity file yet`);
  }
  const staleUse = db
    .prepare(
      `SELECT count(*) AS n FROM main.api_keys k WHERE k.last_used_at IS NOT NULL
         AND NOT EXISTS (SELECT 1 FROM activity.key_last_used u WHERE u.key_id = k.id AND u.at >= k.last_used_at)`,
    )
    .get() as { n: number };
  if (staleUse.n > 0) throw new ActivityNotCopied(`${staleUse.n} last uses are not in the activity file yet`);
  for (const table of MOVED) db.exec(`DROP TABLE main.${table}`);
  db.exec('ALTER TABLE main.api_keys DROP COLUMN last_used_at');
}
