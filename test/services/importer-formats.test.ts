/** runImport: CSV quoting, BOM and line endings; NDJSON; where each value lands. */
import assert from 'node:assert/strict';
import { afterEach, beforeEach, describe, test } from 'node:test';
import { ImportRejected } from '../../src/services/import/importer.ts';
import { openImportFixture, type ImportFixture } from './import-helpers.ts';

let t: ImportFixture;
beforeEach(() => {
  t = openImportFixture();
});
afterEach(() => t.close());

async function errorLines(run: Promise<unknown>): Promise<[number, string][]> {
  try {
    await run;
  } catch (error) {
    if (error instanceof ImportRejected) return error.errors.map((e) => [e.line, e.message]);
    throw error;
  }
  assert.fail('the import was expected to be refused');
}

for (const [name, eol] of [
  ['LF', '\n'],
  ['CRLF', '\r\n'],
] as const) {
  describe(`CSV with ${name} line endings`, () => {
    const lines = (...l: string[]) => l.join(eol) + eol;

    test('quoted fields keep commas, quotes and line breaks', async () => {
      const csv = lines(
        'code,display,definition,note',
        'A,"Alpha, the first","He said ""hi""",plain',
        'B,Beta,"Line one',
        'line two',
        'line three",x',
        'C,"Gamma",,"a,b"',
      );
      assert.equal((await t.importText(csv)).added, 3);
      const [a, b, c] = await t.codes();
      assert.deepEqual([a!.display, a!.definition, a!.attributes], ['Alpha, the first', 'He said "hi"', { note: 'plain' }]);
      assert.deepEqual([b!.display, b!.definition, b!.attributes], ['Beta', `Line one${eol}line two${eol}line three`, { note: 'x' }]);
      assert.deepEqual([c!.display, c!.definition, c!.attributes], ['Gamma', null, { note: 'a,b' }]);
      assert.equal((await t.importText(csv)).unchanged, 3, 'the same file again changes nothing');
    });

    test('line numbers count the physical lines of multi-line fields and blank lines', async () => {
      const csv = lines(
        'code,display,definition', // 1
        'A,Alpha,"one', // 2
        'two', // 3
        'three"', // 4
        '', // 5
        ',"No code', // 6: a bad row spanning lines 6-7 is reported on its first line
        'here",', // 7
        'B,Beta,"x', // 8
        '', // 9: a blank line inside a quoted field is part of it
        'y"', // 10
        'C,,', // 11
        '', // 12
        '', // 13
        'D,Delta,"a""b', // 14
        'c"', // 15
        'E', // 16
      );
      assert.deepEqual(await errorLines(t.importText(csv)), [
        [6, 'code is required'],
        [11, 'display is required'],
        [16, 'expected 3 fields as in the header, found 1'],
      ]);
    });
  });
}

test('CSV: a stray quote is refused on its line, and nothing of the file is imported', async () => {
  const csv = 'code,display\nA,Alpha\n\nB,Beta "the second"\nC,Gamma\n';
  assert.deepEqual(await errorLines(t.importText(csv)), [
    [4, 'not valid CSV: a quote inside a field that does not start with one (field 2): quote the whole field and write the quote twice'],
  ]);
  assert.deepEqual(await t.codes(), []);
  assert.deepEqual(await errorLines(t.importText('code,display\nA,"Alpha" first\n')), [
    [2, `not valid CSV: after a closing quote, " " where a comma or the line's end must be (a quote inside a quoted field is written twice)`],
  ]);
  const open = await errorLines(t.importText('code,display\nA,Alpha\nB,"Beta\n'));
  assert.deepEqual(open, [[3, 'not valid CSV: a quoted field is never closed (a quote is missing)']]);
});

test('a UTF-8 byte order mark and CRLF endings leave no trace in names or values', async () => {
  await t.importText('\uFEFFcode,display,extra\r\nA,Alpha,x\r\nB,Beta,\r\n');
  const [a, b] = await t.codes();
  assert.deepEqual([a!.id, a!.display, a!.attributes], ['t:A', 'Alpha', { extra: 'x' }]);
  assert.deepEqual(b!.attributes, { extra: null }, 'an empty cell is null');
});

test('CSV: every column beyond the known ones lands in attributes as text; parents become code_ids', async () => {
  await t.importText('code,display,parents,numeric_code,minor_unit,Entities\nP,Parent,,,,\nQ,Other,,,,\nA,Alpha,P; Q ,008,2,"France; Monaco"\n');
  const a = await t.code('t:A');
  assert.deepEqual(a!.attributes, { Entities: 'France; Monaco', minor_unit: '2', numeric_code: '008' });
  assert.deepEqual(a!.parents, ['t:P', 't:Q']);
  const reordered = await t.importText(
    'minor_unit,Entities,code,numeric_code,display,parents\n,,P,,Parent,\n,,Q,,Other,\n2,"France; Monaco",A,008,Alpha,P;Q\n',
  );
  assert.equal(reordered.unchanged, 3, 'column order does not make a change');
});

test('attributes keep every name, __proto__ and numbers among them, in the order of their names', async () => {
  await t.importText('code,display,zeta,alpha,10,9,__proto__,constructor\nA,Alpha,z,a,ten,nine,p,c\nB,Beta,,,,,,\n');
  await t.importText('code,display,alpha,beta\nC,Gamma,a,b\n', { mode: 'delta' });
  const a = await t.code('t:A');
  // Sorted by name; numbers first, as in any JavaScript object.
  assert.deepEqual(Object.entries(a!.attributes), [
    ['9', 'nine'],
    ['10', 'ten'],
    ['__proto__', 'p'],
    ['alpha', 'a'],
    ['constructor', 'c'],
    ['zeta', 'z'],
  ]);
  assert.deepEqual(Object.keys((await t.code('t:B'))!.attributes), ['9', '10', '__proto__', 'alpha', 'constructor', 'zeta']);
  assert.deepEqual(Object.entries((await t.code('t:C'))!.attributes), [
    ['alpha', 'a'],
    ['beta', 'b'],
  ]);
});

test('a change of an attribute named __proto__ alone is a change like any other', async () => {
  await t.importText('code,display,__proto__\nA,Alpha,p\n');
  const again = await t.importText('code,display,__proto__\nA,Alpha,q\n', { mode: 'delta' });
  assert.deepEqual([again.revised, again.unchanged], [1, 0]);
  assert.deepEqual(Object.entries((await t.code('t:A'))!.attributes), [['__proto__', 'q']]);
  assert.equal((await t.importText('code,display,__proto__\nA,Alpha,q\n', { mode: 'delta' })).unchanged, 1);
});

test('a character whose bytes the 1 MiB read splits arrives whole, in CSV and in NDJSON', async () => {
  const euros = '€'.repeat(100); // 3 bytes each
  // Pads the first display until byte 1 MiB falls inside a euro sign, not at its start.
  for (let pad = 0; pad < 3; pad++) {
    const displays = Array.from({ length: 3_600 }, (_, i) => (i === 0 ? 'a'.repeat(pad) : '') + euros);
    const csv = 'code,display\n' + displays.map((d, i) => `C${i},${d}\n`).join('');
    const bytes = Buffer.from(csv);
    const at = 1 << 20;
    if ((bytes[at]! & 0xc0) !== 0x80) continue; // a character's first byte: try the next padding
    assert.ok(bytes.length > at);
    await t.importText(csv);
    const ndjson = displays.map((d, i) => JSON.stringify({ code: `N${i}`, display: d })).join('\n') + '\n';
    assert.equal(Buffer.from(ndjson)[at]! & 0xc0, 0x80, 'the NDJSON file is split inside a character too');
    await t.importText(ndjson, { format: 'ndjson', mode: 'delta' });
    const stored = new Map((await t.codes()).map((c) => [c.id, c.display]));
    for (const [i, d] of displays.entries()) {
      assert.equal(stored.get(`t:C${i}`), d);
      assert.equal(stored.get(`t:N${i}`), d);
    }
    return;
  }
  assert.fail('no padding put byte 1 MiB inside a character');
});

test('NDJSON: one byte order mark at the start is dropped, a second is not', async () => {
  assert.equal((await t.importText('\uFEFF{"code":"A","display":"Alpha"}\n', { format: 'ndjson' })).added, 1);
  const errors = await errorLines(t.importText('\uFEFF\uFEFF{"code":"B","display":"Beta"}\n', { format: 'ndjson', mode: 'delta' }));
  assert.deepEqual(
    errors.map(([line, message]) => [line, message.startsWith('not valid JSON')]),
    [[1, true]],
  );
});

describe('NDJSON', () => {
  const lines = [
    '{"code":"A","display":"Alpha","definition":"Def","status":"deprecated","parents":["P"],"attributes":{"rank":1,"official":true,"note":null},"extra":"top"}',
    '',
    '{"code":"P","display":"Parent","parents":"","attributes":{}}',
    '{"code":"Q","display":"Q","parents":"P;A"}',
  ];

  test('reads every field, typed attributes (object and top-level keys) and parents', async () => {
    const summary = await t.importText(lines.join('\n') + '\n', { format: 'ndjson' });
    assert.equal(summary.added, 3);
    const a = await t.code('t:A');
    assert.deepEqual(
      { display: a!.display, definition: a!.definition, status: a!.status, parents: a!.parents, attributes: a!.attributes },
      { display: 'Alpha', definition: 'Def', status: 'deprecated', parents: ['t:P'], attributes: { extra: 'top', note: null, official: true, rank: 1 } },
    );
    assert.deepEqual((await t.code('t:Q'))!.parents, ['t:P', 't:A']);
  });

  test('a byte order mark and CRLF endings are accepted, and line numbers stay right', async () => {
    const text = '\uFEFF' + [...lines, '{"code":"Z"}', ''].join('\r\n');
    assert.deepEqual(await errorLines(t.importText(text, { format: 'ndjson' })), [[5, 'display is required']]);
    const summary = await t.importText('\uFEFF' + lines.join('\r\n'), { format: 'ndjson' });
    assert.equal(summary.added, 3);
    assert.equal((await t.code('t:A'))!.display, 'Alpha');
  });
});
