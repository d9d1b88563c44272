/**
 * The request log's writer thread's entry point (activity-writer-thread.ts
 * is the thread), in JavaScript for the reason src/main.js is: the compile
 * cache is switched on before any TypeScript module loads, so the thread
 * does not load Node's TypeScript stripper (~7 MB of the thread's memory).
 */
import { enableCompileCache } from 'node:module';

enableCompileCache();
await import('./activity-writer-thread.ts');
