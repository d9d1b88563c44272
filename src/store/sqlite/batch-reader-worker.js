/**
 * The batch reader's thread's entry point (batch-reader-thread.ts is the
 * thread), in JavaScript for the reason src/main.js is: the compile cache is
 * switched on before any TypeScript module loads, so the thread does not load
 * Node's TypeScript stripper (~7 MB of each thread's memory).
 */
import { enableCompileCache } from 'node:module';

enableCompileCache();
await import('./batch-reader-thread.ts');
