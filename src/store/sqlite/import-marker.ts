/**
 * Whether an import is being written to an SQLite file, for the writers that
 * find the file's write lock held. SQLite does not say who holds it: an
 * ordinary write holds it for milliseconds, an import until it commits, which
 * may be minutes. So an import, once it holds the write lock, also holds an
 * exclusive lock on a file beside the database, `<database>.import-lock`, until
 * it has committed or rolled back. Like the server's lock (server-lock.ts) it
 * is an operating-system lock taken through SQLite, so it ends with the
 * process, also on kill -9: never a stale marker.
 *
 * A server's write that finds the write lock held asks importRunning(): when
 * an import holds it, waiting could only end in a 503 much later, so it is
 * answered at once (busy.ts).
 */
import { existsSync } from 'node:fs';
import { DatabaseSync } from 'node:sqlite';
import { isBusy } from './busy.ts';

export function importMarkerPath(databasePath: string): string {
  return `${databasePath}.import-lock`;
}

/**
 * A probe holds a shared lock for a moment: the import waits this long for
 * it, far more than a probe ever takes.
 */
const MARK_WAIT_MS = 2_000;

/**
 * Held by an import from the moment it holds the write lock; release() once
 * it has committed or rolled back. null when the file cannot be made (the
 * import goes on unmarked: waiting writers then wait out their bound, as
 * before there was a marker).
 */
export function markImport(databasePath: string): { release(): void } | null {
  let db: DatabaseSync | undefined;
  try {
    db = new DatabaseSync(importMarkerPath(databasePath));
    db.exec(`PRAGMA busy_timeout = ${MARK_WAIT_MS}`);
    db.exec('BEGIN EXCLUSIVE');
  } catch {
    if (db?.isOpen) db.close();
    return null;
  }
  const held = db;
  return {
    release() {
      if (held.isOpen) held.close();
    },
  };
}

/** Whether an import holds the marker of the database at databasePath now; never waits. */
export function importRunning(databasePath: string): boolean {
  const path = importMarkerPath(databasePath);
  if (!existsSync(path)) return false;
  let db: DatabaseSync | undefined;
  try {
    db = new DatabaseSync(path, { readOnly: true });
    db.exec('PRAGMA busy_timeout = 0');
    // A read takes a shared lock, which the import's exclusive one refuses.
    db.prepare('SELECT count(*) FROM sqlite_schema').get();
    return false;
  } catch (error) {
    return isBusy(error);
  } finally {
    if (db?.isOpen) db.close();
  }
}
