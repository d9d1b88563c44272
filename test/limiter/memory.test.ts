/** The limiter suite on the embedded MemoryLimiter, over a real SQLite file. */
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { describe } from 'node:test';
import type { Limiter } from '../../src/limiter/limiter.ts';
import { MemoryLimiter } from '../../src/limiter/memory-limiter.ts';
import { SqliteStore } from '../../src/store/sqlite/sqlite-store.ts';
import { tempDir } from '../helpers/context.ts';
import { limiterSuite } from './limiter.suite.ts';

describe('Limiter (memory)', () => {
  limiterSuite(async () => {
    const dir = tempDir();
    const store = new SqliteStore({ path: join(dir, 'codebook.db') });
    const limiters: Limiter[] = [];
    return {
      shared: false,
      async create() {
        const limiter = new MemoryLimiter(store.usage);
        limiters.push(limiter);
        return limiter;
      },
      async cleanup() {
        for (const l of limiters) await l.close();
        await store.close();
        rmSync(dir, { recursive: true, force: true });
      },
    };
  });
});
