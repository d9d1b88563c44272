/** The sub-store suite on SQLite (PostgreSQL runs it in postgres.test.ts). */
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { SqliteStore } from '../../src/store/sqlite/sqlite-store.ts';
import { tempDir } from '../helpers/context.ts';
import { subStoreSuite } from './substores.suite.ts';

subStoreSuite('sqlite', async () => {
  const dir = tempDir();
  const store = new SqliteStore({ path: join(dir, 'codebook.db') });
  return {
    store,
    dir,
    async cleanup() {
      await store.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
});
