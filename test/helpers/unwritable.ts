/**
 * Real files this process and its children cannot write, and then can again.
 * As root, a file's mode does not stop a write (root passes every permission
 * check), so a file is made immutable instead (`chattr +i`: needs root's
 * CAP_LINUX_IMMUTABLE and a filesystem that keeps the flag, such as ext4 or
 * xfs; tmpfs does not). Any other user: its write permission is taken away.
 * Either way SQLite then opens the file read-only, as it does on a server
 * whose user may not write it. Where neither works the tests skip with the
 * reason, except under CI (requiredInCi), where they must run.
 */
import { execFileSync } from 'node:child_process';
import { chmodSync, closeSync, existsSync, mkdtempSync, openSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { requiredInCi } from './services.ts';

const asRoot = process.getuid?.() === 0;
/** Files made unwritable and not yet given back, with the mode each had. */
const taken = new Map<string, number>();

/** Gives back every file still unwritable (an immutable file cannot be removed, nor its folder): call it before removing them. */
export function makeAllWritable(): void {
  for (const file of [...taken.keys()]) makeWritable(file);
}

/** Takes write access to the file away, from this process and the processes it starts. */
export function makeUnwritable(file: string): void {
  if (taken.has(file)) return;
  const mode = statSync(file).mode & 0o7777;
  if (asRoot) execFileSync('chattr', ['+i', file], { stdio: ['ignore', 'ignore', 'pipe'] });
  else chmodSync(file, mode & ~0o222);
  taken.set(file, mode);
}

/**
 * Gives write access back. Without root, also to the -wal and -shm files SQLite made beside it
 * meanwhile: it makes them with the database file's mode, so they were made unwritable too.
 */
export function makeWritable(file: string): void {
  const mode = taken.get(file);
  if (mode === undefined) return;
  if (asRoot) execFileSync('chattr', ['-i', file], { stdio: ['ignore', 'ignore', 'pipe'] });
  else for (const made of [file, `${file}-wal`, `${file}-shm`]) if (made === file || existsSync(made)) chmodSync(made, mode);
  taken.delete(file);
}

/** Whether a file can be opened for writing right now. */
export function canOpenForWriting(file: string): boolean {
  try {
    closeSync(openSync(file, 'r+'));
    return true;
  } catch {
    return false;
  }
}

/**
 * The `skip` option for tests that make files unwritable in the system's temporary folder, where
 * the test folders are: false when it works there (tried on a file of its own in a folder of its
 * own: taken away, a write open refused, given back), else the reason. Called before the tests
 * make their folders: under CI it throws, and the file's tests and hooks do not run.
 */
export function skipUnlessUnwritable(): string | false {
  const dir = mkdtempSync(join(tmpdir(), 'codebook-unwritable-'));
  const probe = join(dir, 'probe');
  const how = asRoot ? 'chattr +i (this process runs as root, where a file mode stops no write)' : 'chmod a-w';
  let works = false;
  let why = '';
  try {
    writeFileSync(probe, '');
    makeUnwritable(probe);
    works = !canOpenForWriting(probe);
    if (!works) why = 'the file could still be opened for writing';
  } catch (error) {
    why = (error as { stderr?: Buffer }).stderr?.toString().trim() || (error as Error).message;
  } finally {
    try {
      makeWritable(probe);
      rmSync(dir, { recursive: true, force: true });
    } catch {
      // The probe stays behind; the reason is reported below.
    }
  }
  return requiredInCi(works, `cannot make a file unwritable in ${tmpdir()} with ${how}: ${why}`);
}
