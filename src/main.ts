/**
 * The server process entry point. Node's compile cache is switched on before
 * any other module loads: type stripping and compiling ~100 modules is most of
 * the start-up time, and the cache removes it from every start after the first.
 */
import { enableCompileCache } from 'node:module';

enableCompileCache();
await import('./server.ts');
