/**
 * The files of `codebook backup` (backupInto, below). Each copy is written
 * under a name of its own beside the one asked for, `<name>.partial-<pid>`,
 * synced to disk, and only then given that name, which it never takes from a
 * file that exists. A process killed in the middle of a copy (kill -9, a
 * crash, the machine going down) leaves a `.partial-<pid>` file and SQLite's
 * `-journal` of it, never half a backup under the name asked for: the name
 * stays free, and nothing there looks like a database to restore. The next
 * backup to that name removes what a process no longer running left.
 */
import { closeSync, existsSync, fsyncSync, linkSync, openSync, readdirSync, renameSync, rmSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import type { DatabaseSync } from 'node:sqlite';
import { InvalidRequest } from '../../errors.ts';
import { activityPath } from './activity.ts';
import { endReadTurn } from './read-turn.ts';

/** Where this process writes the copy that becomes `file`. */
export function partialPath(file: string): string {
  return `${file}.partial-${process.pid}`;
}

/** The files a copy being written to `partial` may have beside it (SQLite's rollback journal). */
export function partialFiles(partial: string): string[] {
  return [partial, `${partial}-journal`];
}

/**
 * Removes the partial copies of `file` that earlier backups left: those of a
 * process that no longer runs, and this process's own (it writes one copy at
 * a time, and none yet). A running process's copy is left alone.
 */
export function removeLeftovers(file: string): void {
  const folder = dirname(file);
  const prefix = `${basename(file)}.partial-`;
  for (const name of readdirSync(folder)) {
    if (!name.startsWith(prefix)) continue;
    const pid = /^(\d+)(?:-journal)?$/.exec(name.slice(prefix.length))?.[1];
    if (pid === undefined) continue;
    if (Number(pid) !== process.pid && isRunning(Number(pid))) continue;
    rmSync(join(folder, name), { force: true });
  }
}

function isRunning(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: it runs, as another user.
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** Writes what the file system still holds of `path` in its cache to the disk. */
export function syncFile(path: string, flags = 'r+'): void {
  const fd = openSync(path, flags);
  try {
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
}

/** Writes the folder's entries (a name given, a name removed) to the disk. Windows cannot open a folder, and needs no such step. */
export function syncFolder(folder: string): void {
  if (process.platform === 'win32') return;
  syncFile(folder, 'r');
}

/** Codes of link() where the file system has no hard links. */
const NO_HARD_LINKS = new Set(['EPERM', 'ENOTSUP', 'EOPNOTSUPP', 'ENOSYS']);

/**
 * Gives `partial` the name `file`, unless a file has that name: a hard link
 * fails rather than replace one (another backup to the same name may have
 * finished meanwhile), and the partial name is then removed. Where the file
 * system has no hard links, a check and a rename.
 */
export function placeWithoutReplacing(partial: string, file: string): void {
  try {
    linkSync(partial, file);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code ?? '';
    if (code === 'EEXIST') throw alreadyExists(file);
    if (!NO_HARD_LINKS.has(code)) throw error;
    if (existsSync(file)) throw alreadyExists(file);
    renameSync(partial, file);
    return;
  }
  rmSync(partial, { force: true });
}

export function alreadyExists(file: string): InvalidRequest {
  return new InvalidRequest(`${file} already exists; name a new file`);
}

/**
 * Copies the store open on `db` (its main file and its attached activity
 * file) to `file` and `<file>.activity`. VACUUM INTO reads one snapshot, as
 * any reader does in WAL mode: writers go on meanwhile, and the copy holds every committed transaction up to the
 * snapshot and nothing after it. Copying the file instead could catch it
 * half-written, and would miss what still sits in the -wal file.
 *
 * The activity file (activity.ts) is copied beside it, `<file>.activity`,
 * from a snapshot of its own taken just after: what the copy of the main
 * file holds and the counts up to a moment later.
 *
 * Both are written under partial names and synced before they take the
 * names asked for (below), the activity file first: a file under
 * the name asked for is a whole backup with its activity file beside it,
 * also when the process is killed, and never a half-written one that would
 * take the name from the next attempt.
 */
export function backupInto(db: DatabaseSync, file: string): string[] {
  const files = [file, activityPath(file)];
  const taken = files.find((f) => existsSync(f));
  if (taken !== undefined) throw alreadyExists(taken);
  for (const f of files) removeLeftovers(f);
  const [main, activity] = files.map(partialPath) as [string, string];
  const placed: string[] = [];
  endReadTurn(db);
  try {
    db.prepare('VACUUM main INTO ?').run(main);
    db.prepare('VACUUM activity INTO ?').run(activity);
    syncFile(main);
    syncFile(activity);
    placeWithoutReplacing(activity, files[1]!);
    placed.push(files[1]!);
    placeWithoutReplacing(main, file);
    placed.push(file);
    syncFolder(dirname(file));
  } catch (error) {
    // No part of a failed backup is left behind, under either name.
    for (const f of [...partialFiles(main), ...partialFiles(activity), ...placed]) rmSync(f, { force: true });
    throw error;
  }
  return files;
}
