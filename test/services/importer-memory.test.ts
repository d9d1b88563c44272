/**
 * An import runs in bounded memory: a file whose rows, held in memory at
 * once, would need several times the heap the importing process is given
 * imports whole, its snapshot and its no-change re-import, on each backend.
 * Nothing here is timed; the bench measures time and peak RSS.
 */
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { createWriteStream } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { after, afterEach, beforeEach, describe, test } from 'node:test';
import { ROOT } from '../helpers/cli.ts';
import { importBackends, type BackendFixture } from './import-backends.ts';

const backends = await importBackends();
after(() => Promise.all(backends.map((b) => b.dispose())));

const src = (path: string) => JSON.stringify(pathToFileURL(join(ROOT, 'src', path)).href);

/** The old importer held every row, the stored state and every record it wrote: ~3 KiB a row here, ~150 MiB in all. */
const ROWS = 50_000;
const HEAP_MB = 64;

/** Imports FILE as a snapshot twice in a child with a small heap; prints both summaries' counts as JSON. */
const IMPORTER = `
  import { runImport } from ${src('services/import/importer.ts')};
  import { SqliteStore } from ${src('store/sqlite/sqlite-store.ts')};
  import { PostgresStore } from ${src('store/postgres/postgres-store.ts')};
  const [location, file] = process.argv.slice(1);
  const where = JSON.parse(location);
  const store = where.kind === 'sqlite' ? new SqliteStore({ path: where.path }) : await PostgresStore.open({ url: where.url, schema: where.schema, max: 1 });
  const request = { file, system: 'big', release: 'r1', effectiveDate: '2024-01-01', format: 'csv', mode: 'snapshot' };
  const first = await runImport(store, request);
  const again = await runImport(store, request);
  process.stdout.write(JSON.stringify([first.added, again.unchanged]));
  await store.close();
`;

async function writeBigFile(file: string): Promise<void> {
  const out = createWriteStream(file);
  out.write('code,display,definition,parents\n');
  const filler = 'lorem ipsum dolor sit amet '.repeat(36);
  for (let i = 0; i < ROWS; i++) {
    const parent = i % 10 === 0 ? '' : `C${String(i - (i % 10)).padStart(6, '0')}`;
    if (!out.write(`C${String(i).padStart(6, '0')},Code number ${i} ${filler.slice(0, 60)},${filler} ${i},${parent}\n`)) {
      await new Promise<void>((resolve) => out.once('drain', () => resolve()));
    }
  }
  await new Promise((resolve, reject) => out.end((error?: Error | null) => (error ? reject(error) : resolve(undefined))));
}

for (const backend of backends) {
  describe(`an import in bounded memory, on ${backend.name}`, { skip: backend.skip }, () => {
    let fx: BackendFixture;
    beforeEach(async () => {
      fx = await backend.open();
    });
    afterEach(() => fx.close());

    test(`${ROWS} rows of ~1 KiB import and re-import with a ${HEAP_MB} MB heap`, async () => {
      const file = join(fx.dir, 'big.csv');
      await writeBigFile(file);
      const child = spawn(process.execPath, [`--max-old-space-size=${HEAP_MB}`, '--input-type=module', '-e', IMPORTER, JSON.stringify(fx.location), file], {
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      let stdout = '';
      let stderr = '';
      child.stdout.on('data', (c: Buffer) => (stdout += c.toString()));
      child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
      const code = await new Promise<number | null>((resolve) => child.on('exit', resolve));
      assert.equal(code, 0, `the import ran out of memory or failed: ${stderr.slice(-2000)}`);
      assert.deepEqual(JSON.parse(stdout), [ROWS, ROWS]);
      const codes = await fx.store.countCodes();
      assert.equal(codes, ROWS);
    });
  });
}
