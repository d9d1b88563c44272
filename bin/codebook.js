#!/usr/bin/env node
// Entry point of `npx codebook`: npm puts the project's pinned Node.js first on PATH.
// The compile cache is on before the first TypeScript module loads (see src/main.js): a static import
// of one would be stripped before this file runs, and load the stripper at every start.
import { enableCompileCache } from 'node:module';

enableCompileCache();
const { boundedHeapArgs } = await import('../src/cli/bounded-heap.ts');
const relaunch = boundedHeapArgs(process.argv.slice(2), process.execArgv, process.env);
if (relaunch !== null) {
  // `import` runs in a child with a bounded heap: left to itself, V8 lets a long import's garbage grow the heap to gigabytes.
  const { spawn } = await import('node:child_process');
  const child = spawn(process.execPath, [...relaunch, ...process.execArgv, import.meta.filename, ...process.argv.slice(2)], {
    stdio: 'inherit',
    env: { ...process.env, CODEBOOK_BOUNDED_HEAP: '1' },
  });
  // Ctrl-C reaches the child from the terminal; a signal sent to this process alone is passed on.
  for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP']) process.on(signal, () => child.kill(signal));
  child.on('exit', (code, signal) => {
    if (signal) {
      process.removeAllListeners(signal);
      process.kill(process.pid, signal);
    }
    process.exit(code ?? 1);
  });
} else {
  const { runCli } = await import('../src/cli/main.ts');
  process.exitCode = await runCli(process.argv.slice(2));
}
