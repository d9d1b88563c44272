/** runImport: bad rows are all reported with their line numbers, and nothing is applied. */
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { afterEach, beforeEach, test } from 'node:test';
import { ImportRejected, runImport, type ImportRequest } from '../../src/services/import/importer.ts';
import type { RowError } from '../../src/services/import/parse.ts';
import { openImportFixture, type ImportFixture } from './import-helpers.ts';

let t: ImportFixture;
let before: string;
beforeEach(async () => {
  t = openImportFixture();
  await t.importText('code,display\nA,Alpha\nP,Parent\n');
  before = await t.snapshot();
});
afterEach(() => t.close());

/** Expects the import to be refused with exactly these problems (line, pattern), and nothing written. */
async function rejects(run: Promise<unknown>, expected: [number, RegExp][]): Promise<RowError[]> {
  let errors: RowError[] = [];
  await assert.rejects(run, (error: unknown) => {
    assert.ok(error instanceof ImportRejected, String(error));
    assert.match(error.message, /nothing was imported/);
    errors = error.errors;
    return true;
  });
  assert.deepEqual(
    errors.map((e) => e.line),
    expected.map(([line]) => line),
    JSON.stringify(errors, null, 1),
  );
  expected.forEach(([, pattern], i) => assert.match(errors[i]!.message, pattern));
  assert.equal(await t.snapshot(), before, 'nothing was applied');
  return errors;
}

test('every bad CSV row is reported with its line, in file order, and nothing is applied', async () => {
  const csv = [
    'code,display,status,parents', // 1
    'B,Beta,,', // 2: fine
    ',No code,,', // 3
    'C,,,', // 4
    'D,Delta,obsolete,', // 5
    'B,Beta again,,', // 6: duplicate of line 2
    'E,Echo', // 7
    'F,Foxtrot,,,extra', // 8
    ' G,Golf,,', // 9
    'H,Hotel,,H', // 10
    'I,India,,P;P', // 11
    'J,   ,,', // 12
    'K,Kilo,active,A', // 13: fine, A is an existing code (delta)
  ].join('\n');
  const errors = await rejects(t.importText(csv), [
    [3, /^code is required$/],
    [4, /^display is required$/],
    [5, /^status must be one of active, deprecated, retired \(got "obsolete"\)$/],
    [6, /^code B appears again \(first on line 2\)$/],
    [7, /^expected 4 fields as in the header, found 2$/],
    [8, /^expected 4 fields as in the header, found 5$/],
    [9, /leading or trailing spaces/],
    [10, /cannot be its own parent/],
    [11, /lists a code twice/],
    [12, /^display is required$/],
  ]);
  assert.equal(errors.length, 10);
});

test('an unknown parent is reported with its line; in a snapshot a parent must be in the file', async () => {
  await rejects(t.importText('code,display,parents\nX,Ex,Q\nY,Why,X;A;R\n'), [
    [2, /^parent Q is not a code of this system$/],
    [3, /^parent R is not a code of this system$/],
  ]);
  // A parent of another system with the same code does not count.
  await t.importText('code,display\nZ,Zed\n', { system: 'other' });
  before = await t.snapshot();
  await rejects(t.importText('code,display,parents\nX,Ex,Z\n'), [[2, /parent Z/]]);
  // In a snapshot, A is about to be retired: it cannot stay a parent.
  await rejects(t.importText('code,display,parents\nP,Parent,\nX,Ex,A\n', { mode: 'snapshot' }), [[3, /parent A/]]);
  const ok = await t.importText('code,display,parents\nX,Ex,A\n', { mode: 'delta' });
  assert.equal(ok.added, 1, 'in a delta, an existing code is a valid parent');
});

test('a bad or missing header is reported on line 1', async () => {
  await rejects(t.importText('code,name\nA,Alpha\n'), [[1, /^the header has no display column \(columns: code, name\)$/]]);
  await rejects(t.importText('id,display,,display\n1,x,,y\n'), [
    [1, /no code column/],
    [1, /empty column name/],
    [1, /repeats display/],
  ]);
  await rejects(t.importText(''), [[1, /the file is empty/]]);
  await rejects(t.importText('\n\n'), [[1, /the file is empty/]]);
});

test('an NDJSON file with no object (empty, blank lines, spaces) is refused on line 1, and its release stays free', async () => {
  for (const text of ['', '\n\n', '  \r\n\t\n']) {
    await rejects(t.importText(text, { format: 'ndjson', release: 'r2' }), [[1, /^the file is empty: expected one JSON object per line$/]]);
  }
  assert.equal((await t.importText('{"code":"B","display":"Beta"}\n', { format: 'ndjson', release: 'r2' })).added, 1);
});

test('every bad NDJSON line is reported with its line, and nothing is applied', async () => {
  const ndjson = [
    '{"code":"B","display":"Beta"}', // 1: fine
    '{"code":"C","display":"Gamma"', // 2
    '', // 3: blank lines are skipped
    '[1,2]', // 4
    '{"code":"D","display":"Delta","tags":["x"]}', // 5
    '{"code":"E","display":"Echo","attributes":{"nested":{"a":1}}}', // 6
    '{"code":"F","display":"Fox","attributes":[1]}', // 7
    '{"code":5,"display":"Five"}', // 8
    '{"code":"G","display":"Golf","status":"active","definition":7}', // 9
    '{"code":"H","display":"Hotel","parents":[1]}', // 10
    '{"code":"B","display":"Beta"}', // 11: duplicate
    '{"code":"I","display":"India","big":1e999}', // 12: Infinity is not a JSON value a client could read back
  ].join('\n');
  await rejects(t.importText(ndjson, { format: 'ndjson' }), [
    [2, /^not valid JSON: /],
    [4, /^each line must be a JSON object$/],
    [5, /^attribute tags must be text, a number, true\/false or null$/],
    [6, /^attribute nested must be/],
    [7, /^attributes must be an object$/],
    [8, /^code must be text$/],
    [9, /^definition must be text$/],
    [10, /^parents must be text or an array of codes$/],
    [11, /^code B appears again \(first on line 1\)$/],
    [12, /^attribute big must be/],
  ]);
});

for (const format of ['csv', 'ndjson'] as const) {
  /** A file of n rows without a code, one problem each; the line of the first. */
  const withoutCodes = (n: number) => (format === 'csv' ? `code,display\n${',x\n'.repeat(n)}` : '{"code":"","display":"x"}\n'.repeat(n));
  const firstRow = format === 'csv' ? 2 : 1;

  test(`${format}: past 1000 problems reading stops, and the refusal says these are the first 1000`, async () => {
    let refused: ImportRejected | undefined;
    await assert.rejects(t.importText(withoutCodes(1_500), { format }), (error: unknown) => {
      assert.ok(error instanceof ImportRejected, String(error));
      refused = error;
      return true;
    });
    const last = firstRow + 999;
    assert.equal(refused!.errors.length, 1000);
    assert.deepEqual(refused!.errors.at(-1), { line: last, message: 'code is required' });
    assert.match(
      refused!.message,
      new RegExp(
        `^the first 1000 problems in .*\\.${format} \\(to line ${last}\\): reading stops at 1000, so the rest of the file was not checked; nothing was imported$`,
      ),
    );
    assert.equal(await t.snapshot(), before, 'nothing was applied');
  });

  test(`${format}: exactly 1000 problems, the last on the last row, are all of them`, async () => {
    await assert.rejects(
      t.importText(withoutCodes(1_000), { format }),
      (error: unknown) =>
        error instanceof ImportRejected && error.errors.length === 1000 && /^1000 problem\(s\) in .*; nothing was imported$/.test(error.message),
    );
  });
}

test('a row with several problems at the limit: the first 1000 problems are reported, no more', async () => {
  const rows = `${',x\n'.repeat(999)},,bogus\n,x\n`;
  await assert.rejects(t.importText(`code,display,status\n${rows}`), (error: unknown) => {
    assert.ok(error instanceof ImportRejected, String(error));
    assert.equal(error.errors.length, 1000);
    assert.deepEqual(error.errors.at(-1), { line: 1001, message: 'code is required' });
    assert.match(error.message, /^the first 1000 problems in .* \(to line 1001\): reading stops at 1000/);
    return true;
  });
});

test('past 1000 codes found twice, or 1000 unknown parents, the refusal says these are the first 1000 and more may follow', async () => {
  const before = await t.snapshot();
  const codes = Array.from({ length: 1_200 }, (_, i) => `D${i}`);
  const twice = `code,display\n${codes.map((c) => `${c},x\n`).join('')}${codes.map((c) => `${c},again\n`).join('')}`;
  await assert.rejects(t.importText(twice), (error: unknown) => {
    assert.ok(error instanceof ImportRejected, String(error));
    assert.equal(error.errors.length, 1000);
    assert.match(error.message, /^the first 1000 problems in .*\.csv \(to line \d+\): the list stops at 1000, so more may follow; nothing was imported$/);
    return true;
  });
  const orphans = `code,display,parents\n${codes.map((c) => `${c},x,NOPE${c}\n`).join('')}`;
  await assert.rejects(t.importText(orphans), (error: unknown) => {
    assert.ok(error instanceof ImportRejected, String(error));
    assert.equal(error.errors.length, 1000);
    assert.match(error.message, /^the first 1000 problems with parents in .*\.csv: the list stops there, so more may follow; nothing was imported$/);
    return true;
  });
  assert.equal(await t.snapshot(), before, 'nothing was applied');
});

test('a bad system, release or effective date is refused before the file is read', async () => {
  const base: ImportRequest = {
    file: join(t.dir, 'does-not-exist.csv'),
    system: 't',
    release: 'r1',
    effectiveDate: '2024-01-01',
    format: 'csv',
    mode: 'delta',
  };
  for (const [change, pattern] of [
    [{ system: 'Bad System' }, /^system "Bad System" must match/],
    [{ system: '' }, /^system "" must match/],
    [{ release: 'has space' }, /^release "has space"/],
    [{ effectiveDate: '2024-02-30' }, /^effectiveDate "2024-02-30" must be a calendar date/],
    [{ effectiveDate: '01/02/2024' }, /^effectiveDate/],
  ] as const) {
    await assert.rejects(runImport(t.store, { ...base, ...change }), (error: unknown) => error instanceof ImportRejected && pattern.test(error.message));
  }
  assert.equal(await t.snapshot(), before);
});
