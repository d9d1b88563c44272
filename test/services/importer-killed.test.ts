/**
 * kill -9 in the middle of an import: the process dies inside the import's
 * transaction, after rows were written, and the database is as it was. The
 * lock dies with the process, and the next import gets the same change ids.
 */
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { after, afterEach, beforeEach, describe, test } from 'node:test';
import { ROOT } from '../helpers/cli.ts';
import { importBackends, type BackendFixture } from './import-backends.ts';

const backends = await importBackends();
after(() => Promise.all(backends.map((b) => b.dispose())));

const src = (path: string) => JSON.stringify(pathToFileURL(join(ROOT, 'src', path)).href);

/**
 * Imports FILE as a snapshot into the database named by its arguments and,
 * once the first chunk of rows is written, says so and blocks inside the
 * transaction until it is killed.
 */
const IMPORTER = `
  import { runImport } from ${src('services/import/importer.ts')};
  import { SqliteStore } from ${src('store/sqlite/sqlite-store.ts')};
  import { PostgresStore } from ${src('store/postgres/postgres-store.ts')};
  const [location, file] = process.argv.slice(1);
  const where = JSON.parse(location);
  const store = where.kind === 'sqlite' ? new SqliteStore({ path: where.path }) : await PostgresStore.open({ url: where.url, schema: where.schema, max: 1 });
  const onProgress = (phase, done) => {
    if (phase !== 'write' || done === 0) return;
    process.stdout.write('written ' + done + '\\n');
    Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 120000);
  };
  await runImport(store, { file, system: 't', release: 'r2', effectiveDate: '2024-02-01', format: 'csv', mode: 'snapshot' }, { onProgress });
`;

for (const backend of backends) {
  describe(`kill -9 during an import, on ${backend.name}`, { skip: backend.skip }, () => {
    let fx: BackendFixture;
    beforeEach(async () => {
      fx = await backend.open();
      await fx.importText('code,display\nA,Alpha\nB,Beta\nC,Gamma\n', { mode: 'snapshot' });
    });
    afterEach(() => fx.close());

    test('leaves the database as it was; the next import takes the same ids', async () => {
      const before = await fx.snapshot();
      const rows = Array.from({ length: 12_000 }, (_, i) => `N${i},New ${i}\n`).join('');
      const file = join(fx.dir, 'big.csv');
      writeFileSync(file, `code,display\nA,Alpha (revised)\nB,Beta\nC,Gamma\n${rows}`);

      const child = spawn(process.execPath, ['--input-type=module', '-e', IMPORTER, JSON.stringify(fx.location), file], {
        stdio: ['ignore', 'pipe', 'inherit'],
      });
      const exited = once(child, 'exit');
      try {
        const [first] = (await once(child.stdout, 'data')) as [Buffer];
        assert.match(first.toString(), /^written [1-9]\d*\n/, 'killed with rows written, inside the transaction');
        child.kill('SIGKILL');
        const [, signal] = (await exited) as [number | null, string | null];
        assert.equal(signal, 'SIGKILL');
      } finally {
        child.kill('SIGKILL');
      }

      assert.equal(await fx.snapshot(), before, 'nothing of the killed import is visible');
      const retry = await fx.importText(`code,display\nA,Alpha (revised)\nB,Beta\nC,Gamma\n${rows}`, {
        mode: 'snapshot',
        release: 'r2',
        effectiveDate: '2024-02-01',
      });
      assert.deepEqual([retry.firstChangeId, retry.lastChangeId, retry.added, retry.revised], [4, 12_004, 12_000, 1], 'the lock is free and no id was used up');
    });
  });
}
