/**
 * The import's CSV reader (src/services/import/csv.ts) against csv-parse, the
 * general-purpose parser it replaced, kept here as the oracle: on every
 * well-formed file, fed in chunks cut anywhere, the same records; on a file
 * with a stray quote, an error wherever csv-parse has one (and the same
 * records where it has none). Line numbers are checked against the
 * generator's own count.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { parse } from 'csv-parse/sync';
import fc from 'fast-check';
import { CsvReader, CsvSyntaxError } from '../../src/services/import/csv.ts';

const MAX = 1 << 20;

/** Our records and their lines, the text cut at `cuts` (offsets, any order). */
function ours(text: string, cuts: number[]): { records: string[][]; lines: number[] } {
  const records: string[][] = [];
  const lines: number[] = [];
  const reader = new CsvReader({ maxRecord: MAX });
  const sink = (fields: string[], line: number) => {
    records.push(fields);
    lines.push(line);
  };
  let from = 0;
  for (const cut of [...new Set(cuts)].filter((c) => c > 0 && c < text.length).sort((a, b) => a - b)) {
    reader.push(text.slice(from, cut), sink);
    from = cut;
  }
  reader.push(text.slice(from), sink);
  reader.end(sink);
  return { records, lines };
}

function theirs(text: string): string[][] {
  const records: unknown = parse(text, { bom: true, skip_empty_lines: true, relax_column_count: true });
  return records as string[][];
}

const EOLS = ['\n', '\r\n', '\r'] as const;

/** A file of records with one kind of line end (in quoted fields too), and each record's first line. */
const csvFile = fc
  .record({
    eol: fc.constantFrom(...EOLS),
    bom: fc.boolean(),
    finalEol: fc.boolean(),
    records: fc.array(
      fc.record({
        blankBefore: fc.nat({ max: 2 }),
        fields: fc.array(
          fc.record({
            parts: fc.array(fc.constantFrom('a', 'Zé', ' ', ',', '"', 'EOL', 'x y', '', '漢', '🙂'), { maxLength: 6 }),
            quoted: fc.boolean(),
          }),
          { minLength: 1, maxLength: 5 },
        ),
      }),
      { minLength: 1, maxLength: 12 },
    ),
  })
  .map(({ eol, bom, finalEol, records }) => {
    let text = bom ? '\uFEFF' : '';
    let line = 1;
    const expected: string[][] = [];
    const lines: number[] = [];
    records.forEach((r, i) => {
      text += eol.repeat(r.blankBefore);
      line += r.blankBefore;
      const values = r.fields.map((f) => f.parts.map((p) => (p === 'EOL' ? eol : p)).join(''));
      const cells = values.map((value, j) => {
        const mustQuote = /[",\r\n]/.test(value) || (value === '' && values.length === 1) || r.fields[j]!.quoted;
        return mustQuote ? `"${value.replaceAll('"', '""')}"` : value;
      });
      lines.push(line);
      expected.push(values);
      text += cells.join(',');
      line += values.reduce((n, v) => n + v.split(eol).length - 1, 0);
      if (i < records.length - 1 || finalEol) {
        text += eol;
        line++;
      }
    });
    return { text, expected, lines };
  });

test('well-formed files: the records csv-parse reads and the generator wrote, on their first lines, however the text is cut', () => {
  fc.assert(
    fc.property(csvFile, fc.array(fc.nat({ max: 400 }), { maxLength: 8 }), ({ text, expected, lines }, cuts) => {
      const got = ours(text, cuts);
      assert.deepEqual(got.records, expected);
      assert.deepEqual(theirs(text), expected);
      assert.deepEqual(got.lines, lines);
    }),
    { numRuns: 400 },
  );
});

test('a stray quote anywhere: an error wherever csv-parse has one, the same records where it has none', () => {
  fc.assert(
    fc.property(csvFile, fc.nat(), fc.array(fc.nat({ max: 400 }), { maxLength: 4 }), ({ text }, at, cuts) => {
      const start = text.startsWith('\uFEFF') ? 1 : 0;
      const where = start + (at % (text.length - start + 1));
      const broken = text.slice(0, where) + '"' + text.slice(where);
      let expected: string[][] | null;
      try {
        expected = theirs(broken);
      } catch {
        expected = null;
      }
      let got: string[][] | null;
      try {
        got = ours(broken, cuts).records;
      } catch (error) {
        assert.ok(error instanceof CsvSyntaxError, String(error));
        got = null;
      }
      assert.deepEqual(got, expected, JSON.stringify(broken));
    }),
    { numRuns: 400 },
  );
});

test('errors name the line of the problem, and a record past the bound the line it starts on', () => {
  const errorOf = (text: string, maxRecord = MAX) => {
    try {
      const reader = new CsvReader({ maxRecord });
      reader.push(text, () => {});
      reader.end(() => {});
    } catch (error) {
      return [(error as CsvSyntaxError).line, (error as CsvSyntaxError).tooLong];
    }
    return null;
  };
  assert.deepEqual(errorOf('a,b\nc,d"e\n'), [2, false]);
  assert.deepEqual(errorOf('a,b\n"c\nd"x\n'), [3, false]);
  assert.deepEqual(errorOf('a,b\n\n"never closed\nmore\n'), [3, false]);
  assert.deepEqual(errorOf('a,b\n\nc,"0123456789\n0123456789\n', 8), [3, true]);
  assert.deepEqual(errorOf('12345678\n', 8), null, 'the line end is not part of the record');
  assert.deepEqual(errorOf('123456789\n', 8), [1, true]);
  // The character shown is whole, even where it takes two UTF-16 units.
  assert.throws(() => new CsvReader({ maxRecord: MAX }).push('"a"🙂\n', () => {}), { message: /after a closing quote, "🙂" where/ });
});

test('a sink that returns false stops the reading', () => {
  const seen: string[] = [];
  const reader = new CsvReader({ maxRecord: MAX });
  reader.push('a\nb\nc\n', (fields) => {
    seen.push(fields[0]!);
    return seen.length < 2;
  });
  reader.push('d\n', (fields) => void seen.push(fields[0]!));
  reader.end((fields) => void seen.push(fields[0]!));
  assert.deepEqual(seen, ['a', 'b']);
});
