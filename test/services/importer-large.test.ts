/**
 * runImport at scale: a 100 000-row generated CSV, then a revised snapshot of
 * it (10 000 revised, 1 000 retired, 89 000 found unchanged by their hash).
 */
import assert from 'node:assert/strict';
import { once } from 'node:events';
import { createWriteStream } from 'node:fs';
import { join } from 'node:path';
import { finished } from 'node:stream/promises';
import { after, before, test } from 'node:test';
import { runImport } from '../../src/services/import/importer.ts';
import { openImportFixture, type ImportFixture } from './import-helpers.ts';

const ROWS = 100_000;
let t: ImportFixture;
before(() => {
  t = openImportFixture();
});
after(() => t.close());

/** Codes C000000…C099999; `variant` changes every 10th display and drops every 100th code. */
async function writeCsv(file: string, variant: number): Promise<void> {
  const out = createWriteStream(file);
  out.write('code,display,definition,parents,group,weight\n');
  for (let i = 0; i < ROWS; i++) {
    if (variant > 0 && i % 100 === 99) continue;
    const code = `C${String(i).padStart(6, '0')}`;
    const display = variant > 0 && i % 10 === 0 ? `Code ${i}, revised` : `Code ${i}`;
    const parent = i % 1000 === 0 ? '' : `C${String(i - (i % 1000)).padStart(6, '0')}`;
    if (!out.write(`${code},"${display}","Definition of ""${code}""",${parent},G${i % 7},${i % 13}\n`)) await once(out, 'drain');
  }
  out.end();
  await finished(out);
}

test(`imports a ${ROWS.toLocaleString('en')}-row CSV, then a revised snapshot of it`, async (ctx) => {
  const file = join(t.dir, 'large.csv');
  await writeCsv(file, 0);
  const request = { file, system: 'big', release: 'v1', effectiveDate: '2024-01-01', format: 'csv', mode: 'snapshot' } as const;

  let started = performance.now();
  const first = await runImport(t.store, request);
  const firstMs = performance.now() - started;
  ctx.diagnostic(`first import of ${ROWS} rows: ${Math.round(firstMs)} ms`);
  console.log(`# importer: ${ROWS} rows added in ${Math.round(firstMs)} ms`);
  assert.deepEqual([first.rows, first.added, first.firstChangeId, first.lastChangeId], [ROWS, ROWS, 1, ROWS]);
  assert.equal(await t.store.countCodes(), ROWS);

  await writeCsv(file, 1);
  started = performance.now();
  const second = await runImport(t.store, { ...request, release: 'v2', effectiveDate: '2024-02-01' });
  ctx.diagnostic(`revised snapshot: ${Math.round(performance.now() - started)} ms`);
  const dropped = ROWS / 100;
  // Every 10th code is revised, except those dropped (i % 100 === 99 is never a multiple of 10).
  assert.deepEqual(
    [second.rows, second.added, second.revised, second.retired, second.unchanged],
    [ROWS - dropped, 0, ROWS / 10, dropped, ROWS - dropped - ROWS / 10],
  );
  assert.deepEqual([second.firstChangeId, second.lastChangeId], [ROWS + 1, ROWS + ROWS / 10 + dropped]);

  const retired = await t.store.pageCodes({ after: null, limit: 200, system: 'big', status: 'retired' });
  assert.equal(retired.count, 200);
  assert.equal(JSON.parse(`[${retired.json.toString('utf8')}]`)[0].id, 'big:C000099');
  const sample = JSON.parse((await t.store.codeJson('big:C012340'))!);
  assert.deepEqual(
    [sample.display, sample.definition, sample.parents, sample.attributes],
    ['Code 12340, revised', 'Definition of "C012340"', ['big:C012000'], { group: 'G6', weight: '3' }],
  );
});
