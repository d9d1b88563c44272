/**
 * Waiting for SQLite's write lock without blocking the event loop.
 *
 * With busy_timeout set, SQLite sleeps inside the (synchronous) node:sqlite
 * call while another connection writes, and the whole process stalls: an
 * import may hold the lock for many seconds. Writes from a running process
 * instead try with busy_timeout 0 and retry on timers, for as long as their
 * WriteWait allows: a server's request WRITE_WAIT_MS (then a 503, nothing
 * written), an operator's command as long as an import may take.
 */
import type { DatabaseSync } from 'node:sqlite';
import { DatabaseBusyError } from '../../errors.ts';
import { endReadTurn, noteWrite } from './read-turn.ts';

/** busy_timeout of every connection outside these retries (reads rarely wait in WAL mode). */
export const BUSY_TIMEOUT_MS = 5_000;
/** How long an ordinary write of the server (a key, a session, a setting) waits for the lock. */
export const WRITE_WAIT_MS = 30_000;
/**
 * An ordinary write holds the lock for a few milliseconds: a write still
 * waiting after this long waits for an import, which holds it until it commits.
 */
export const IMPORT_NOTICE_MS = 500;
const SQLITE_BUSY = 5;

/** How the writes of a connection wait while another connection (an import) holds the write lock. */
export interface WriteWait {
  /** How long a write waits before it gives up with DatabaseBusyError, in ms. */
  waitMs: number;
  /** Called once a write has waited IMPORT_NOTICE_MS, at most once per write (the CLI says that it waits). */
  onWaiting?: () => void;
  /**
   * true: a write waits out an import too, up to waitMs (the operator CLI, whose revocation must be made).
   * Otherwise (the server) a write that has waited IMPORT_NOTICE_MS gives up at once with DatabaseBusyError
   * when importRunning says an import holds the lock (import-marker.ts): it would hold it for longer than
   * a request should wait.
   */
  untilImportCommits?: boolean;
  /** Whether an import holds the write lock now (the store sets it from its file's path). */
  importRunning?: () => boolean;
}

/** The server's writes: a request is answered within WRITE_WAIT_MS, with a 503 if the lock stayed held. */
export const SERVER_WRITE_WAIT: WriteWait = { waitMs: WRITE_WAIT_MS };

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

/** What a write that waited out its bound throws: nothing of it was written. */
export function stayedLocked(waitMs: number, cause: unknown): DatabaseBusyError {
  return new DatabaseBusyError(
    `the database stayed locked by another writer (an import being written) for more than ${Math.round(waitMs / 1000)} s; nothing was changed: try again once the import has committed`,
    { cause },
  );
}

/** What a write that found an import holding the lock throws: nothing of it was written. */
export function importHoldsLock(cause: unknown): DatabaseBusyError {
  return new DatabaseBusyError(
    'an import is being written to the database and holds its write lock until it commits; nothing was changed: try again once it has',
    {
      cause,
    },
  );
}

/** Runs write, retrying it on timers while another connection holds the write lock (see WriteWait). */
export async function whenUnlocked<T>(
  db: DatabaseSync,
  write: () => T,
  wait: WriteWait = SERVER_WRITE_WAIT,
  timedOut: (cause: unknown) => Error = (cause) => stayedLocked(wait.waitMs, cause),
): Promise<T> {
  const started = Date.now();
  const deadline = started + wait.waitMs;
  let noticed = wait.onWaiting === undefined;
  let importSeen = false;
  for (let pause = 5; ; pause = Math.min(2 * pause, 100)) {
    try {
      return tryWrite(db, write);
    } catch (error) {
      if (!isBusy(error)) throw error;
      if (importSeen) throw importHoldsLock(error);
      const now = Date.now();
      if (now >= deadline) throw timedOut(error);
      if (now - started >= IMPORT_NOTICE_MS) {
        if (!noticed) {
          noticed = true;
          wait.onWaiting!();
        }
        // Tried once more at once: the import may have committed between the try and the look.
        if (wait.untilImportCommits !== true && wait.importRunning?.() === true) {
          importSeen = true;
          continue;
        }
      }
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
