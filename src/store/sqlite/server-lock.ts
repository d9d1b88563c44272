/**
 * One server per SQLite file. The embedded limiter counts in the server's
 * memory, so a second server on the same file would enforce every limit on
 * its own: twice the rate and twice the allowance.
 *
 * The server holds an exclusive SQLite lock on a file beside the database,
 * `<database>.server-lock`, for as long as it runs. SQLite's locks are the
 * operating system's (fcntl on Unix, LockFileEx on Windows), so they end with
 * the process, also on kill -9 or a crash: there is never a stale lock to
 * clean up. The file itself stays, empty. CLI commands do not take the lock.
 */
import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { ServerAlreadyRunning, type ServerLock } from '../server-lock.ts';
import { isBusy } from './busy.ts';
import { explainUnopenable } from './unopenable.ts';

export function serverLockPath(databasePath: string): string {
  return `${databasePath}.server-lock`;
}

/**
 * Takes the lock at once or throws ServerAlreadyRunning, whose message says why and what to do
 * (DatabaseFileError when the lock file cannot be opened or created).
 */
export function lockServer(databasePath: string): ServerLock & { readonly path: string } {
  const path = serverLockPath(databasePath);
  let db: DatabaseSync;
  try {
    mkdirSync(dirname(path), { recursive: true });
    db = new DatabaseSync(path);
  } catch (error) {
    // The first file a server opens: a folder it cannot write is found here.
    throw explainUnopenable([path], error);
  }
  try {
    // Never wait: a server that is running holds the lock for good.
    db.exec('PRAGMA busy_timeout = 0');
    db.exec('BEGIN EXCLUSIVE');
  } catch (error) {
    db.close();
    if (!isBusy(error)) throw explainUnopenable([path], error);
    throw new ServerAlreadyRunning(
      `another server is already running on ${databasePath} (it holds ${path}); two servers on one SQLite file would each enforce the limits alone. ` +
        'Stop it first, or run several instances on PostgreSQL and Redis (README, "Scale out").',
    );
  }
  return {
    path,
    release() {
      if (db.isOpen) db.close();
    },
  };
}
