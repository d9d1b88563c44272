/**
 * The server process entry point, in JavaScript so that Node.js loads it
 * without its TypeScript stripper: Node's compile cache is switched on before
 * any TypeScript module loads, and every module after it comes from the cache,
 * already stripped and compiled. A TypeScript entry would itself be stripped
 * before the cache is on, which loads the stripper (~0.1 s and ~15 MB of
 * memory) at every start.
 */
import { accessSync, constants } from 'node:fs';
import { enableCompileCache } from 'node:module';

/**
 * glibc's malloc serves a block of at least its mmap threshold (128 KiB) with
 * a mapping of its own, returned to the system when freed, but it raises that
 * threshold each time it frees such a block, and from then on keeps blocks of
 * that size in its arenas. The pages the reader thread reads (SQLite's
 * buffers, grown by doubling up to 128 KiB; SQLITE_PAGES_ON_THREAD) then land
 * in arenas among the event loop's allocations, which keep the free memory
 * between them: on the bench's page scenarios the server held 243 MB instead
 * of 183. glibc reads a fixed threshold only from the environment the process
 * starts with, so a server on an SQLite file with the reader thread's pages on
 * (SQLITE_PAGES_ON_THREAD=1; off by default) starts itself again in place
 * (execve: the same process id, stdio, arguments and settings) with the
 * threshold fixed. Not when whoever started it set a threshold, nor when the
 * process holds what an exec would drop (an IPC channel to its parent, an
 * inspector); not on PostgreSQL, which has no reader thread (an in-memory
 * database is refused at start, src/server.ts). Node.js aborts the process
 * when execve itself fails, hence the check that the binary can be run.
 * Other C libraries than glibc ignore the variable.
 */
const FIXED_MMAP_THRESHOLD = String(128 * 1024);

function readsPagesOnThread() {
  const url = process.env.DATABASE_URL;
  return (url === undefined || url.startsWith('sqlite:')) && process.env.SQLITE_PAGES_ON_THREAD === '1';
}

function canRunAgain() {
  try {
    accessSync(process.execPath, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

if (
  process.platform === 'linux' &&
  typeof process.execve === 'function' &&
  process.env.MALLOC_MMAP_THRESHOLD_ === undefined &&
  readsPagesOnThread() &&
  process.channel === undefined &&
  !process.execArgv.some((flag) => flag.startsWith('--inspect')) &&
  canRunAgain()
) {
  process.execve(process.execPath, [process.execPath, ...process.execArgv, ...process.argv.slice(1)], {
    ...process.env,
    MALLOC_MMAP_THRESHOLD_: FIXED_MMAP_THRESHOLD,
  });
}

enableCompileCache();
await import('./server.ts');
