/**
 * Waiting for SQLite's write lock without blocking the event loop.
 *
 * With busy_timeout set, SQLite sleeps inside the (synchronous) node:sqlite
 * call while another connection writes, and the whole process stalls: an
 * import may hold the lock for many seconds. Writes from a running process
 * instead try with busy_timeout 0 and retry on timers.
 */
import type { DatabaseSync } from 'node:sqlite';
import { endReadTurn, noteWrite } from './read-turn.ts';

/** busy_timeout of every connection outside these retries (reads rarely wait in WAL mode). */
export const BUSY_TIMEOUT_MS = 5_000;
/** How long an ordinary write (a key, a session, a setting) waits for the lock. */
export const WRITE_WAIT_MS = 30_000;
const SQLITE_BUSY = 5;

/** SQLITE_BUSY, or one of its extended codes. */
export function isBusy(error: unknown): boolean {
  return ((error as { errcode?: number }).errcode ?? 0) % 256 === SQLITE_BUSY;
}

/** Runs one attempt of a write with busy_timeout 0, outside the turn's read transaction; SQLITE_BUSY propagates at once. */
export function tryWrite<T>(db: DatabaseSync, write: () => T): T {
  endReadTurn(db);
  db.exec('PRAGMA busy_timeout = 0');
  try {
    return write();
  } finally {
    // Committed now, or (BEGIN IMMEDIATE) within the same synchronous block as the write.
    noteWrite();
    db.exec(`PRAGMA busy_timeout = ${BUSY_TIMEOUT_MS}`);
  }
}

/** Runs write, retrying it on timers while another connection holds the write lock. */
export async function whenUnlocked<T>(
  db: DatabaseSync,
  write: () => T,
  waitMs = WRITE_WAIT_MS,
  timedOut: (cause: unknown) => Error = (cause) =>
    new Error(`the database stayed locked by another writer for more than ${Math.round(waitMs / 1000)} s`, { cause }),
): Promise<T> {
  const deadline = Date.now() + waitMs;
  for (let pause = 5; ; pause = Math.min(2 * pause, 100)) {
    try {
      return tryWrite(db, write);
    } catch (error) {
      if (!isBusy(error)) throw error;
      if (Date.now() >= deadline) throw timedOut(error);
    }
    await new Promise((resolve) => setTimeout(resolve, pause));
  }
}

/**
 * Runs write in one transaction that writes only the activity file's tables
 * (activity.ts), with busy_timeout 0: DEFERRED, so the lock it takes is that
 * file's alone, taken by its first write (BEGIN IMMEDIATE would lock the main
 * file as well, which an import holds for minutes). False, with nothing
 * written, when another connection holds that lock.
 */
export function writeActivity(db: DatabaseSync, write: () => void): boolean {
  try {
    tryWrite(db, () => {
      db.exec('BEGIN');
      try {
        write();
        db.exec('COMMIT');
      } catch (error) {
        if (db.isTransaction) db.exec('ROLLBACK');
        throw error;
      }
    });
    return true;
  } catch (error) {
    if (isBusy(error)) return false;
    throw error;
  }
}
