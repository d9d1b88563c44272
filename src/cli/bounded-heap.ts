/**
 * The V8 heap `codebook import` runs with. An import streams its file and
 * keeps a chunk of rows at a time, but V8 sizes its heap by the memory of the
 * machine, not by what is live: left alone, the garbage of a long import grew
 * the process past 600 MB with ~30 MB live. A small young generation and a
 * capped old one make V8 collect instead (see README, "Imports of any size").
 */

/** The flags, measured at 1 000 000 codes (bench/README.md). */
export const IMPORT_HEAP_FLAGS = ['--max-semi-space-size=16', '--max-old-space-size=192'];

/**
 * The flags to start `codebook ARGS` again with, or null to run it here: it
 * is not an import, or it already runs in the child, or the operator chose
 * the heap sizes (in NODE_OPTIONS or on the command line).
 */
export function boundedHeapArgs(args: readonly string[], execArgv: readonly string[], env: NodeJS.ProcessEnv): string[] | null {
  if (args[0] !== 'import' || env.CODEBOOK_BOUNDED_HEAP === '1') return null;
  const chosen = /--max-(old|semi)-space-size/;
  if (chosen.test(env.NODE_OPTIONS ?? '') || execArgv.some((a) => chosen.test(a))) return null;
  return IMPORT_HEAP_FLAGS;
}

/**
 * In the relaunched child: a check to call at every progress tick, which
 * stops the import as SIGTERM stops it (before its commit) once the CLI that
 * started it is gone. A signal sent to the CLI is passed on (bin/codebook.js),
 * but kill -9 cannot be, and the child would import on unseen. An orphan gets
 * another parent, so its parent's id changes; getppid() costs well under a
 * microsecond, and the import's write phase runs without turning the event
 * loop, where a closed IPC channel would be noticed.
 */
export function stopWhenOrphaned(env: NodeJS.ProcessEnv): () => void {
  if (env.CODEBOOK_BOUNDED_HEAP !== '1') return () => undefined;
  const parent = process.ppid;
  return () => {
    if (process.ppid !== parent) process.kill(process.pid, 'SIGTERM');
  };
}
