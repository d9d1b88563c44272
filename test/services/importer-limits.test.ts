/**
 * What an import refuses, row by row with line numbers, before anything is
 * applied: oversized rows (records are served whole) and bytes that are not
 * UTF-8; and attribute names that are ordinary to a file but special to
 * JavaScript objects.
 */
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, test } from 'node:test';
import { ImportRejected, runImport } from '../../src/services/import/importer.ts';
import { openImportFixture, type ImportFixture } from './import-helpers.ts';

let fx: ImportFixture;
beforeEach(async () => {
  fx = openImportFixture();
  await fx.importText('code,display\nA,Alpha\n');
});
afterEach(() => fx.close());

async function rejected(text: string | Buffer, format: 'csv' | 'ndjson' = 'csv'): Promise<{ line: number; message: string }[]> {
  const before = await fx.snapshot();
  const file = join(fx.dir, `bad.${format}`);
  writeFileSync(file, text);
  const error = await runImport(fx.store, { file, system: 't', release: 'r2', effectiveDate: '2024-02-01', format, mode: 'delta' }).then(
    () => assert.fail('the import was accepted'),
    (e: unknown) => e,
  );
  assert.ok(error instanceof ImportRejected, String(error));
  assert.equal(await fx.snapshot(), before, 'nothing was applied');
  return error.errors;
}

test('an oversized display, definition or row is refused with its line', async () => {
  const errors = await rejected(
    `code,display,definition,note\nB,${'d'.repeat(1_001)},,\nC,Gamma,${'x'.repeat(10_001)},\nD,Delta,,${'n'.repeat(40_000)}\nE,Epsilon,,ok\n`,
  );
  assert.deepEqual(
    errors.map((e) => [e.line, e.message]),
    [
      [2, 'display is longer than 1000 characters'],
      [3, 'definition is longer than 10000 characters'],
      [4, 'the row holds more than 32768 characters of text'],
    ],
  );
});

test('more than 100 attributes in a row is refused', async () => {
  const names = Array.from({ length: 101 }, (_, i) => `a${i}`);
  const errors = await rejected(`${['code', 'display', ...names].join(',')}\nB,Beta,${names.map(() => 'v').join(',')}\n`);
  assert.deepEqual(errors.map((e) => e.message), ['more than 100 attributes']);
});

test('bytes that are not UTF-8 are refused at their line, in CSV and NDJSON', async () => {
  const csv = Buffer.concat([Buffer.from('code,display\nB,Beta\n'), Buffer.from([0x43, 0x2c, 0xff, 0xfe, 0x0a]), Buffer.from('D,Delta\n')]);
  assert.deepEqual((await rejected(csv)).map((e) => [e.line, e.message]), [[3, 'not valid UTF-8 text: save the file as UTF-8']]);
  const ndjson = Buffer.concat([Buffer.from('{"code":"B","display":"Beta"}\n{"code":"C","display":"'), Buffer.from([0xc3]), Buffer.from('"}\n')]);
  assert.deepEqual((await rejected(ndjson, 'ndjson')).map((e) => e.line), [2]);
});

test('valid multi-byte text split across read chunks imports unchanged', async () => {
  // 1 MiB chunks: put a 4-byte character across the first boundary.
  const filler = 'x'.repeat((1 << 20) - 'code,display,note\nB,Beta,'.length - 2);
  await fx.importText(`code,display,note\nB,Beta,${filler}😀\n`.replace(filler, filler.slice(0, 30_000)));
  const text = `code,display\nC,${'é'.repeat(600)}😀\n`;
  await fx.importText(text, { release: 'r3' });
  assert.equal((await fx.code('t:C'))!.display, `${'é'.repeat(600)}😀`);
});

test('columns named __proto__ or constructor land in attributes like any other', async () => {
  await fx.importText('code,display,__proto__,constructor\nB,Beta,p,c\n', { release: 'r2' });
  // Parsed, not written as a literal: in a literal, __proto__ would set the prototype.
  assert.deepEqual((await fx.code('t:B'))!.attributes, JSON.parse('{"__proto__":"p","constructor":"c"}'));
  await fx.importText('{"code":"N","display":"Nu","attributes":{"__proto__":"q"}}\n', { release: 'r3', format: 'ndjson' });
  assert.equal(Object.getOwnPropertyDescriptor((await fx.code('t:N'))!.attributes, '__proto__')?.value, 'q');
});
