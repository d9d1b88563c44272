/**
 * The server process entry point, in JavaScript so that Node.js loads it
 * without its TypeScript stripper: Node's compile cache is switched on before
 * any TypeScript module loads, and every module after it comes from the cache,
 * already stripped and compiled. A TypeScript entry would itself be stripped
 * before the cache is on, which loads the stripper (~0.1 s and ~15 MB of
 * memory) at every start.
 */
import { enableCompileCache } from 'node:module';

enableCompileCache();
await import('./server.ts');
