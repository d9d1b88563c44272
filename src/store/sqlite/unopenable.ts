/**
 * Why SQLite could not open or create one of the server's files, in the
 * operator's terms. SQLite says only "unable to open database file" (and
 * mkdir an errno): the file, and the folder it is in, are probed here once
 * that failed, to name the file and the reason (a folder this process cannot
 * write, a read-only file system, a path through a regular file).
 */
import { accessSync, constants, statSync } from 'node:fs';
import { dirname } from 'node:path';
import { DatabaseFileError } from '../../errors.ts';

/** SQLite's primary result codes that mean the file could not be opened or written (extended codes carry them in their low byte). */
const SQLITE_FILE_CODES = new Set([3 /* PERM */, 8 /* READONLY */, 14 /* CANTOPEN */]);
/** The system's, from mkdir and open. */
const ERRNO_FILE_CODES = new Set(['EACCES', 'EPERM', 'EROFS', 'ENOTDIR', 'EEXIST', 'EISDIR']);

/**
 * The error to report when opening `files` (in the order they are opened)
 * failed with `error`: a DatabaseFileError naming the first of them found
 * unusable and why, or the error itself when it is no such failure or no
 * reason is found.
 */
export function explainUnopenable(files: string[], error: unknown): unknown {
  if (!isFileFailure(error)) return error;
  for (const file of files) {
    const reason = whyUnusable(file);
    if (reason !== null) return new DatabaseFileError(`cannot open or create ${file}: ${reason} (DATABASE_URL)`, { cause: error });
  }
  return error;
}

function isFileFailure(error: unknown): boolean {
  const { code, errcode } = (error ?? {}) as { code?: unknown; errcode?: unknown };
  if (typeof errcode === 'number') return SQLITE_FILE_CODES.has(errcode & 0xff);
  return typeof code === 'string' && ERRNO_FILE_CODES.has(code);
}

/** Why this process cannot open `file` for writing, or create it; null when nothing stands in the way. */
export function whyUnusable(file: string): string | null {
  const kind = kindOf(file);
  if (kind === 'folder') return 'it is a folder';
  if (kind === 'file') {
    return (
      refusal(file, constants.R_OK | constants.W_OK, 'the file') ??
      // SQLite creates files beside it as it writes: -wal and -shm (the lock file's -journal).
      refusal(dirname(file), constants.W_OK | constants.X_OK, `the folder ${dirname(file)} (SQLite makes its -wal, -shm or -journal files there)`)
    );
  }
  // Missing: the nearest folder on its path that exists must be writable, and every part of the path a folder.
  let up = dirname(file);
  for (;;) {
    const upKind = kindOf(up);
    if (upKind === 'file') return `${up} is a file, not a folder`;
    if (upKind === 'folder') return refusal(up, constants.W_OK | constants.X_OK, `the folder ${up}`);
    if (dirname(up) === up) return null;
    up = dirname(up);
  }
}

function kindOf(path: string): 'file' | 'folder' | 'missing' {
  try {
    return statSync(path).isDirectory() ? 'folder' : 'file';
  } catch {
    return 'missing';
  }
}

/** What stops this process from using `path` in `mode`, as the end of a sentence about `subject`; null when nothing does. */
function refusal(path: string, mode: number, subject: string): string | null {
  try {
    accessSync(path, mode);
    return null;
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'EROFS') return `${subject} is on a read-only file system`;
    // access() answers EPERM for a file or folder marked immutable (chattr +i), whoever asks.
    if (code === 'EPERM') return `${subject} may not be changed: it is marked immutable (lsattr shows an i)`;
    const user = typeof process.getuid === 'function' ? `, which runs as uid ${process.getuid()}` : '';
    return `${subject} is not writable by this process${user}`;
  }
}
