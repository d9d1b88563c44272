/**
 * The store's two kinds of write transaction, each on a connection of its
 * own: an import (SqliteStore.withImport), whose IMMEDIATE transaction is the
 * cross-process import lock (SQLite admits one writer), and an audited change
 * with its audit entry (SqliteStore.withTransaction).
 */
import type { DatabaseSync } from 'node:sqlite';
import type { ImportTransaction, WriteTransaction } from '../store.ts';
import { attachActivityReadOnly } from './activity.ts';
import { SQLITE_LAST_USED_AT } from './access-store.ts';
import { BUSY_TIMEOUT_MS, whenUnlocked, type WriteWait } from './busy.ts';
import { openDatabase } from './connection.ts';
import { markImport } from './import-marker.ts';
import { SqliteImportTransaction } from './import-transaction.ts';
import { noteWrite } from './read-turn.ts';
import { SqliteSql } from './sql.ts';
import { transactionOver } from '../sql/transaction.ts';

/** Threads SQLite may sort with when an import builds an index (PRAGMA threads; the bundled SQLite allows up to 8). */
const IMPORT_SORT_THREADS = 2;

/**
 * An import into the file at `path`, all or nothing. `committed` runs once it
 * has committed (the store's caches and listeners), before the connection
 * closes.
 */
export async function inImport<T>(
  path: string,
  options: { searchIndex: boolean; waitMs: number },
  fn: (tx: ImportTransaction) => Promise<T>,
  committed: () => Promise<void>,
): Promise<T> {
  // No map for an import: it reads the stored codes in key order, which the kernel's read-ahead
  // serves, and its memory bound (the importer's RSS) would count every page it mapped.
  const db = openDatabase(path, BUSY_TIMEOUT_MS, 0);
  // The index an import builds again (the search table's folded display, see search.ts) sorts
  // on a second thread as well (when it was two indexes: both at 1 000 000 rows in 1.7–1.9 s
  // instead of 2.2–2.4).
  db.exec(`PRAGMA threads = ${IMPORT_SORT_THREADS}`);
  try {
    await beginImmediate(db, options.waitMs);
    // From here until it commits or rolls back, other writers can tell that it is an import that holds the lock.
    const marker = path === ':memory:' ? null : markImport(path);
    let result: T;
    try {
      const tx = new SqliteImportTransaction(db, options.searchIndex);
      result = await fn(tx);
      tx.finish();
      db.exec('COMMIT');
    } catch (error) {
      if (db.isTransaction) db.exec('ROLLBACK');
      throw error;
    } finally {
      marker?.release();
    }
    noteWrite();
    await committed();
    return result;
  } finally {
    db.close();
  }
}

/**
 * On a connection of its own, as an import: the server's connection serves
 * every request in flight, and a transaction left open on it across an
 * await would take in what they read and write meanwhile. BEGIN IMMEDIATE
 * takes the file's write lock before the first statement (waiting on
 * timers, as every write does), so no statement inside waits for it or
 * finds its snapshot stale. Only the main file is written (a transaction
 * over both files would commit them one after the other, see activity.ts);
 * the activity file is attached read-only for keys' last use.
 *
 * `on` is the file's path, or a connection to use as it is (an in-memory
 * database has no other). `committed` runs after the commit of a connection
 * of its own: the store's own caches see it at once, where data_version
 * would show it only within a freshness window.
 */
export async function inTransaction<T>(
  on: string | DatabaseSync,
  writeWait: WriteWait,
  fn: (tx: WriteTransaction) => Promise<T>,
  committed: () => void,
): Promise<T> {
  const own = typeof on === 'string';
  const db = own ? transactionConnection(on) : on;
  try {
    // An import holds the write lock for its whole length: wait as this store's writes do (the CLI's long, the server's a request's).
    await whenUnlocked(db, () => db.exec('BEGIN IMMEDIATE'), writeWait);
    try {
      const result = await fn(transactionOver(new SqliteSql(db), SQLITE_LAST_USED_AT));
      db.exec('COMMIT');
      noteWrite();
      if (own) committed();
      return result;
    } catch (error) {
      if (db.isTransaction) db.exec('ROLLBACK');
      throw error;
    }
  } finally {
    if (own) db.close();
  }
}

function transactionConnection(path: string): DatabaseSync {
  const db = openDatabase(path, BUSY_TIMEOUT_MS, 0);
  try {
    db.exec('PRAGMA foreign_keys = ON');
    attachActivityReadOnly(db, path);
    return db;
  } catch (error) {
    db.close();
    throw error;
  }
}

/**
 * Takes the import lock, waiting on timers for another import to finish: an
 * import waiting in this process must not stall the one holding the lock.
 */
function beginImmediate(db: DatabaseSync, waitMs: number): Promise<void> {
  return whenUnlocked(
    db,
    () => db.exec('BEGIN IMMEDIATE'),
    { waitMs },
    (cause) => new Error(`another import held the import lock for more than ${Math.round(waitMs / 1000)} s`, { cause }),
  );
}
