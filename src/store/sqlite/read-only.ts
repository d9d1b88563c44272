/**
 * Files SQLite opened read-only. SQLite opens a database file it may not
 * write (its mode or owner, an immutable file) read-only without a word, and
 * such a connection stays read-only for as long as it is open: every write
 * on it fails with SQLITE_READONLY, also once the file can be written again.
 * The server refuses to start on such a file (refuseReadOnly); a connection
 * opened later (the request log's writer thread, activity-writer-thread.ts)
 * is closed and opened again on a later tick instead.
 */
import type { DatabaseSync } from 'node:sqlite';
import { DatabaseFileError } from '../../errors.ts';
import { isBusy, tryWrite } from './busy.ts';

const SQLITE_READONLY = 8;

/** SQLITE_READONLY, or one of its extended codes (a read-only -shm, a file moved away, …). */
export function isReadOnly(error: unknown): boolean {
  return ((error as { errcode?: number } | null)?.errcode ?? 0) % 256 === SQLITE_READONLY;
}

/** SQLite's own words for an error (its errstr: "attempt to write a readonly database"), else the message. */
export function sqliteReason(error: unknown): string {
  return (error as { errstr?: string } | null)?.errstr ?? (error instanceof Error ? error.message : String(error));
}

/**
 * Throws DatabaseFileError when the connection holds the file of this
 * schema read-only. The test is a write that is rolled back (a table created
 * in a transaction that never commits): a read-only file refuses it before
 * SQLite looks at the write lock, so a lock held by another writer (an
 * import) is taken as a writable file, and nothing is waited for.
 */
export function refuseReadOnly(db: DatabaseSync, schema: 'main' | 'activity', file: string, holds: string): void {
  try {
    tryWrite(db, () => {
      db.exec('BEGIN');
      try {
        db.exec(`CREATE TABLE ${schema}.codebook_write_test (x INTEGER)`);
      } finally {
        if (db.isTransaction) db.exec('ROLLBACK');
      }
    });
  } catch (error) {
    if (isReadOnly(error)) throw notWritable(file, holds, error);
    if (!isBusy(error)) throw error;
  }
}

/** The one line that says which file cannot be written, what it holds and what to do. */
export function notWritable(file: string, holds: string, cause: unknown): DatabaseFileError {
  return new DatabaseFileError(
    `cannot write ${file}: SQLite could open it only read-only (${sqliteReason(cause)}). The server keeps ${holds} there; ` +
      'give the user it runs as write access to the file, its -wal and -shm files and their folder, then start it again',
    { cause },
  );
}
