/**
 * What an import refuses, row by row with line numbers, before anything is
 * applied: oversized rows (records are served whole) and bytes that are not
 * UTF-8; text that one of the backends cannot store; and attribute names
 * that are ordinary to a file but special to JavaScript objects.
 */
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, afterEach, beforeEach, describe, test } from 'node:test';
import { ImportRejected, runImport } from '../../src/services/import/importer.ts';
import { importBackends } from './import-backends.ts';
import { openImportFixture, type ImportFixture } from './import-helpers.ts';

let fx: ImportFixture;
beforeEach(async () => {
  fx = openImportFixture();
  await fx.importText('code,display\nA,Alpha\n');
});
afterEach(() => fx.close());

/** The ImportRejected an import ends with (fails the test when it is accepted, or fails otherwise). */
async function refusal(importing: Promise<unknown>): Promise<ImportRejected> {
  const error = await importing.then(
    () => assert.fail('the import was accepted'),
    (e: unknown) => e,
  );
  assert.ok(error instanceof ImportRejected, String(error));
  return error;
}

async function rejected(text: string | Buffer, format: 'csv' | 'ndjson' = 'csv'): Promise<{ line: number; message: string }[]> {
  const before = await fx.snapshot();
  const file = join(fx.dir, `bad.${format}`);
  writeFileSync(file, text);
  const error = await refusal(runImport(fx.store, { file, system: 't', release: 'r2', effectiveDate: '2024-02-01', format, mode: 'delta' }));
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
  const attributes = Object.fromEntries(Array.from({ length: 101 }, (_, i) => [`a${i}`, 'v']));
  const errors = await rejected(`${JSON.stringify({ code: 'B', display: 'Beta', attributes })}\n`, 'ndjson');
  assert.deepEqual(
    errors.map((e) => [e.line, e.message]),
    [[1, 'more than 100 attributes (101)']],
  );
});

test('bytes that are not UTF-8 are refused at their line, in CSV and NDJSON', async () => {
  const csv = Buffer.concat([Buffer.from('code,display\nB,Beta\n'), Buffer.from([0x43, 0x2c, 0xff, 0xfe, 0x0a]), Buffer.from('D,Delta\n')]);
  assert.deepEqual(
    (await rejected(csv)).map((e) => [e.line, e.message]),
    [[3, 'not valid UTF-8 text: save the file as UTF-8']],
  );
  const ndjson = Buffer.concat([Buffer.from('{"code":"B","display":"Beta"}\n{"code":"C","display":"'), Buffer.from([0xc3]), Buffer.from('"}\n')]);
  assert.deepEqual(
    (await rejected(ndjson, 'ndjson')).map((e) => e.line),
    [2],
  );
});

test('bytes that are not UTF-8 are refused at their line in files of CR-ended and CRLF-ended lines', async () => {
  for (const eol of ['\r', '\r\n']) {
    const csv = Buffer.from(`code,display${eol}A,Alpha${eol}B,Be\xfft${eol}C,Gamma${eol}`, 'latin1');
    assert.deepEqual(
      (await rejected(csv)).map((e) => [e.line, e.message]),
      [[3, 'not valid UTF-8 text: save the file as UTF-8']],
      JSON.stringify(eol),
    );
    const ndjson = Buffer.from(`{"code":"A","display":"Alpha"}${eol}{"code":"B","display":"Be\xfft"}${eol}`, 'latin1');
    assert.deepEqual(
      (await rejected(ndjson, 'ndjson')).map((e) => e.line),
      [2],
      JSON.stringify(eol),
    );
  }
});

test('bytes that are not UTF-8 get the line the CSV reader gives, after a quoted field of CR, LF and CRLF breaks', async () => {
  const before = 'code,display,definition\rA,Alpha,"one\rtwo\nthree\r\nfour"\r\n\rB,';
  assert.deepEqual(await rejected(`${before},\r`), [{ line: 7, message: 'display is required' }]);
  assert.deepEqual(await rejected(Buffer.concat([Buffer.from(before), Buffer.from([0xff]), Buffer.from(',\r')])), [
    { line: 7, message: 'not valid UTF-8 text: save the file as UTF-8' },
  ]);
});

for (const format of ['csv', 'ndjson'] as const) {
  test(`${format}: a character the 1 MiB read cuts off after its first byte is refused on its own line, not the next read's`, async () => {
    const first = format === 'csv' ? 'code,display\nB,Beta\n' : '{"code":"B","display":"Beta"}\n';
    const start = format === 'csv' ? 'C,' : '{"code":"C","display":"';
    // The lead byte of a 3-byte character is the first read's last byte; what follows it is no continuation.
    const filler = 'x'.repeat((1 << 20) - first.length - start.length - 1);
    const next = format === 'csv' ? 'D,Delta\n'.repeat(100) : '"}\n{"code":"D","display":"Delta"}\n';
    const errors = await rejected(
      Buffer.concat([Buffer.from(first + start + filler), Buffer.from([0xe2]), Buffer.from(`${format === 'csv' ? '\n' : ''}${next}`)]),
      format,
    );
    assert.deepEqual(
      errors.map((e) => [e.line, e.message]),
      [[format === 'csv' ? 3 : 2, 'not valid UTF-8 text: save the file as UTF-8']],
    );
  });
}

test('an unpaired surrogate anywhere in an NDJSON row is refused at its line, field by field', async () => {
  const lone = '"X\\ud800"';
  const lines = [
    `{"code":${lone},"display":"Bad code"}`,
    `{"code":"C2","display":${lone}}`,
    `{"code":"C3","display":"Three","definition":"a \\udc00 b"}`,
    `{"code":"C4","display":"Four","parents":["B",${lone}]}`,
    `{"code":"C5","display":"Five","attributes":{${lone}:"v"}}`,
    `{"code":"C6","display":"Six","note":${lone}}`,
    `{"code":"C7","display":"Seven, a pair is fine: \\ud83d\\ude00"}`,
  ];
  const unpaired = 'is not valid Unicode text: it holds an unpaired surrogate (a \\ud800–\\udfff escape without its pair); correct the source file';
  assert.deepEqual(
    (await rejected(`${lines.join('\n')}\n`, 'ndjson')).map((e) => [e.line, e.message]),
    [
      [1, `code ${unpaired}`],
      [2, `display ${unpaired}`],
      [3, `definition ${unpaired}`],
      [4, `parents ${unpaired}`],
      [5, `attribute name "X\\ud800" ${unpaired}`],
      [6, `attribute note ${unpaired}`],
    ],
  );
});

const backends = await importBackends();
after(() => Promise.all(backends.map((b) => b.dispose())));

for (const backend of backends) {
  // PostgreSQL cannot store U+0000 in text; SQLite can. A file must import the same way on both.
  describe(`a NUL character on ${backend.name}`, { skip: backend.skip }, () => {
    const nul = 'contains a NUL character (U+0000), which text cannot hold: remove it from the source file';

    test('is refused in every text of an NDJSON row, at its line and naming the field; tabs and line breaks are not', async () => {
      const t = await backend.open();
      try {
        await t.importText('code,display\nA,Alpha\n');
        const before = await t.snapshot();
        const lines = [
          '{"code":"B","display":"Be\\u0000ta"}',
          '{"code":"C","display":"Gamma","definition":"one\\u0000"}',
          '{"code":"D","display":"Delta","parents":["A\\u0000"]}',
          '{"code":"E","display":"Epsilon","attributes":{"n\\u0000":"v"}}',
          '{"code":"F","display":"Phi","note":"\\u0000"}',
          '{"code":"G\\u0000","display":"Gamma"}',
          '{"code":"H","display":"Tab\\there","definition":"two\\nlines\\r\\n","note":"a\\tb"}',
        ];
        const refused = await refusal(t.importText(`${lines.join('\n')}\n`, { format: 'ndjson' }));
        assert.deepEqual(
          refused.errors.map((e) => [e.line, e.message]),
          [
            [1, `display ${nul}`],
            [2, `definition ${nul}`],
            [3, `parents ${nul}`],
            [4, `attribute name "n\\u0000" ${nul}`],
            [5, `attribute note ${nul}`],
            [6, 'code contains control characters'],
          ],
        );
        assert.equal(await t.snapshot(), before, 'nothing was applied');
        assert.equal((await t.importText(`${lines.at(-1)}\n`, { format: 'ndjson' })).added, 1);
        const h = (await t.code('t:H'))!;
        assert.deepEqual([h.display, h.definition, h.attributes], ['Tab\there', 'two\nlines\r\n', { note: 'a\tb' }]);
      } finally {
        await t.close();
      }
    });

    test('a NUL byte in a CSV field or column name is refused at its line, naming the field', async () => {
      const t = await backend.open();
      try {
        const refused = await refusal(t.importText('code,display,definition,note\nA,Al\0pha,,\nB,Beta,x\0y,\nC,Gamma,,\0\nD,Delta,,ok\n'));
        assert.deepEqual(
          refused.errors.map((e) => [e.line, e.message]),
          [
            [2, `display ${nul}`],
            [3, `definition ${nul}`],
            [4, `attribute note ${nul}`],
          ],
        );
        const header = await refusal(t.importText('code,display,no\0te\nA,Alpha,x\nB,Beta,y\n'));
        assert.deepEqual(
          header.errors.map((e) => [e.line, e.message]),
          [[1, `the header's column name "no\\u0000te" ${nul}`]],
        );
        assert.deepEqual(await t.codes(), []);
      } finally {
        await t.close();
      }
    });
  });
}

test('a surrogate encoded as bytes (CESU-8) is not UTF-8: refused at its line in CSV and NDJSON', async () => {
  const surrogate = Buffer.from([0xed, 0xa0, 0x80]);
  const csv = Buffer.concat([Buffer.from('code,display\nB,Beta\nC,'), surrogate, Buffer.from('\n')]);
  assert.deepEqual(
    (await rejected(csv)).map((e) => [e.line, e.message]),
    [[3, 'not valid UTF-8 text: save the file as UTF-8']],
  );
  const ndjson = Buffer.concat([Buffer.from('{"code":"B","display":"'), surrogate, Buffer.from('"}\n')]);
  assert.deepEqual(
    (await rejected(ndjson, 'ndjson')).map((e) => [e.line, e.message]),
    [[1, 'not valid UTF-8 text: save the file as UTF-8']],
  );
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

/** Imports a file written from parts; returns its problems and the most bytes the import read of it. */
async function rejectedWithRead(parts: (string | Buffer)[], format: 'csv' | 'ndjson'): Promise<{ errors: [number, string][]; read: number; size: number }> {
  const file = join(fx.dir, `big.${format}`);
  writeFileSync(file, Buffer.concat(parts.map((p) => (typeof p === 'string' ? Buffer.from(p) : p))));
  let read = 0;
  let size = 0;
  const onProgress = (phase: string, done: number, total: number) => {
    if (phase === 'read') [read, size] = [Math.max(read, done), total];
  };
  const error = await refusal(runImport(fx.store, { file, system: 't', release: 'r2', effectiveDate: '2024-02-01', format, mode: 'delta' }, { onProgress }));
  return { errors: error.errors.map((e) => [e.line, e.message]), read, size };
}

test('a CSV header with 100 000 columns is refused at the header, naming the count and the limit, before any row is read', async () => {
  const names = Array.from({ length: 100_000 }, (_, i) => `a${i}`);
  const row = `B,Beta,${names.map(() => 'v').join(',')}\n`;
  const { errors, read, size } = await rejectedWithRead([`code,display,${names.join(',')}\n`, ...Array.from({ length: 60 }, () => row)], 'csv');
  assert.deepEqual(errors, [
    [
      1,
      'the header has 100002 columns, 100000 of them attributes: at most 100 attribute columns are allowed (105 columns with code, display, definition, status, parents)',
    ],
  ]);
  assert.ok(read < size / 3, `stopped reading after ${read} of ${size} bytes`);
});

test('101 attribute columns are refused at the header; 100 are allowed', async () => {
  const names = (n: number) => Array.from({ length: n }, (_, i) => `a${i}`);
  const csv = (n: number) =>
    `code,display,definition,status,parents,${names(n).join(',')}\nB,Beta,,,,${names(n)
      .map(() => 'v')
      .join(',')}\n`;
  assert.deepEqual(
    (await rejected(csv(101))).map((e) => [e.line, e.message]),
    [
      [
        1,
        'the header has 106 columns, 101 of them attributes: at most 100 attribute columns are allowed (105 columns with code, display, definition, status, parents)',
      ],
    ],
  );
  assert.equal((await fx.importText(csv(100), { release: 'r2' })).added, 1);
});

for (const format of ['csv', 'ndjson'] as const) {
  const ok = format === 'csv' ? 'code,display\n' : '{"code":"B","display":"Beta"}\n';
  const filler = (bytes: number) => (format === 'csv' ? `C,${'x'.repeat(bytes - 2)}` : `{"code":"C","display":"${'x'.repeat(bytes - 28)}"}`.padEnd(bytes, ' '));

  test(`${format}: a line longer than 1 MiB is refused with its number as soon as it is read`, async () => {
    const { errors, read, size } = await rejectedWithRead([ok, ok.replace('B', 'D'), filler(30 << 20), '\n', ok.replace('B', 'E')], format);
    assert.deepEqual(errors, [[3, 'longer than 1 MiB (1048576 bytes), and a row holds at most 32 KiB of text: check that this is the right file and format']]);
    assert.ok(read < size / 4, `stopped reading after ${read} of ${size} bytes`);
  });

  test(`${format}: a line of exactly 1 MiB is read (and refused as a row); one byte more is not read`, async () => {
    const at = await rejectedWithRead([ok, filler(1 << 20), '\n'], format);
    assert.deepEqual(at.errors, [
      [2, 'display is longer than 1000 characters'],
      [2, 'the row holds more than 32768 characters of text'],
    ]);
    const over = await rejectedWithRead([ok, filler((1 << 20) + 1), '\n'], format);
    assert.deepEqual(
      over.errors.map(([line, message]) => [line, message.slice(0, 30)]),
      [[2, 'longer than 1 MiB (1048576 byt']],
    );
  });
}

for (const format of ['csv', 'ndjson'] as const) {
  const row = (code: string, eol: string) => (format === 'csv' ? `${code},${'d'.repeat(500)}` : JSON.stringify({ code, display: 'd'.repeat(500) })) + eol;
  const header = (eol: string) => (format === 'csv' ? `code,display${eol}` : '');

  test(`${format}: a file of more than 1 MiB in lines that end in CR alone imports, as with LF`, async () => {
    const rows = Array.from({ length: 2_200 }, (_, i) => row(`C${i}`, '\r'));
    assert.ok(rows.join('').length > 1 << 20);
    assert.equal((await fx.importText(header('\r') + rows.join(''), { release: 'r2', format })).added, 2_200);
  });

  test(`${format}: a line longer than 1 MiB among lines that end in CR is named by its own line`, async () => {
    const { errors } = await rejectedWithRead([header('\r'), row('B', '\r'), row('C', '\r'), 'x'.repeat(2 << 20), '\r'], format);
    assert.deepEqual(errors, [
      [format === 'csv' ? 4 : 3, 'longer than 1 MiB (1048576 bytes), and a row holds at most 32 KiB of text: check that this is the right file and format'],
    ]);
  });

  test(`${format}: a CRLF that the 1 MiB read splits is one line end`, async () => {
    const first = header('\r\n') + row('B', '\r\n');
    // The second row's CR is the first read's last byte, its LF the next read's first.
    const second = row('C', '').padEnd((1 << 20) - first.length - 1, ' ');
    const { errors } = await rejectedWithRead([first, second, '\r\n', 'x'.repeat(2 << 20), '\r\n'], format);
    assert.deepEqual(
      errors.map(([line, message]) => [line, message.slice(0, 30)]),
      [[format === 'csv' ? 4 : 3, 'longer than 1 MiB (1048576 byt']],
    );
  });
}

test('a quoted CSV field that runs on past 1 MiB in short lines is refused where its record starts', async () => {
  const { errors, read, size } = await rejectedWithRead(
    ['code,display\nB,Beta\nC,"never closed\n', ...Array.from({ length: 200_000 }, () => 'short line, still quoted\n')],
    'csv',
  );
  assert.deepEqual(errors, [[3, 'the record starting here is longer than 1 MiB (1048576 characters): is a quote left open?']]);
  assert.ok(read < size / 2, `stopped reading after ${read} of ${size} bytes`);
});
