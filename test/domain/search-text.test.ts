/**
 * Folding takes a shorter way for ASCII text (lower case and spaces, words of
 * a–z and 0–9) and another for Latin text (each character's folding worked
 * out once). Each must give exactly what the general way gives (NFKD, marks
 * removed, full case folding, words of letters and digits of any script), and
 * the general way must still serve everything else.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import fc from 'fast-check';
import { foldedOtherwiseBefore, foldText, foldUnicode, wordsOf, wordsOfUnicode } from '../../src/domain/search-text.ts';

const ascii = fc.string({ unit: fc.integer({ min: 0, max: 0x7f }).map((c) => String.fromCharCode(c)), maxLength: 300 });

test('ASCII text folds, and splits into words, as the general way folds and splits it', () => {
  fc.assert(
    fc.property(ascii, (text) => {
      const folded = foldText(text);
      assert.equal(folded, foldUnicode(text));
      assert.deepEqual(wordsOf(folded), wordsOfUnicode(folded));
    }),
    { numRuns: 2_000 },
  );
  const long = `Code ${'x'.repeat(150)} end`;
  assert.deepEqual(wordsOf(foldText(long)), ['code', 'x'.repeat(100), 'end'], 'a word longer than 100 characters is cut, as before');
});

/** ASCII with Latin-1 and Latin Extended-A/B mixed in (ß, İ, Ǆ and the no-break space among them), and now and then a character beyond. */
const latin = fc.string({
  unit: fc
    .oneof(
      { weight: 6, arbitrary: fc.integer({ min: 0, max: 0x7f }) },
      { weight: 4, arbitrary: fc.integer({ min: 0x80, max: 0x24f }) },
      { weight: 1, arbitrary: fc.constantFrom(0x250, 0x300, 0x307, 0x3c2, 0x1e9e, 0x2160) },
    )
    .map((c) => String.fromCharCode(c)),
  maxLength: 200,
});

test('Latin text folds as the general way folds it', () => {
  for (let code = 0x80; code <= 0x24f; code++) {
    const c = String.fromCharCode(code);
    assert.equal(foldText(`A${c}b ${c}${c}`), foldUnicode(`A${c}b ${c}${c}`), `U+${code.toString(16)}`);
  }
  fc.assert(
    fc.property(latin, (text) => {
      assert.equal(foldText(text), foldUnicode(text));
      assert.deepEqual(wordsOf(foldText(text)), wordsOfUnicode(foldUnicode(text)));
    }),
    { numRuns: 3_000 },
  );
  assert.equal(foldText('İstanbul ǅemal  Ærøskøbing'), 'istanbul dzemal ærøskøbing');
  assert.equal(foldText('Straße\u00a0Nr.  5'), 'strasse nr. 5', 'a no-break space is a space');
});

test('other text still folds the general way: accents, full case folding, other scripts', () => {
  assert.equal(foldText('São  Tomé\tand PRÍNCIPE'), 'sao tome and principe');
  assert.equal(foldText('Straße İstanbul ΟΔΟΣ'), 'strasse istanbul οδοσ');
  assert.equal(foldText('ﬁle x²'), 'file x2', 'compatibility forms are decomposed');
  assert.deepEqual(wordsOf(foldText('Müller-Lüdenscheidt, 3rd (ß) 東京')), ['muller', 'ludenscheidt', '3rd', 'ss', '東京']);
  fc.assert(
    fc.property(fc.string({ maxLength: 100 }), (text) => {
      assert.equal(foldText(text), foldUnicode(text));
      assert.deepEqual(wordsOf(foldText(text)), wordsOfUnicode(foldText(text)));
    }),
    { numRuns: 1_000 },
  );
});

/** How folding went until SQLite schema 13 (PostgreSQL 8): lower case before NFKD only. */
function foldedBefore(text: string): string {
  return text
    .toLowerCase()
    .normalize('NFKD')
    .replace(/\p{M}+/gu, '')
    .replace(/[ßς]/g, (c) => (c === 'ß' ? 'ss' : 'σ'))
    .replace(/\s+/gu, ' ')
    .trim();
}

test('folded text holds no capital, and folding it again changes nothing', () => {
  assert.equal(foldText('№1234'), 'no1234', 'a compatibility form that decomposes into a capital');
  assert.equal(foldText('25 ℃ or 77 ℉'), '25 °c or 77 °f');
  assert.equal(foldText('𝐁𝐨𝐥𝐝 ℌ ᴬ'), 'bold h a');
  assert.deepEqual(wordsOf(foldText('№1234')), ['no1234'], 'the query keeps the N');
  fc.assert(
    fc.property(fc.string({ unit: 'grapheme', maxLength: 60 }), fc.string({ maxLength: 60 }), (a, b) => {
      for (const text of [a, b]) {
        const folded = foldText(text);
        assert.equal(folded.toLowerCase(), folded);
        assert.equal(foldText(folded), folded);
      }
    }),
    { numRuns: 2_000 },
  );
});

test('foldedOtherwiseBefore tells exactly the texts whose folding changed', () => {
  for (let code = 0; code <= 0x2fff; code++) {
    if (code >= 0xd800 && code <= 0xdfff) continue;
    const c = String.fromCodePoint(code);
    assert.equal(foldedOtherwiseBefore(`x${c}y`), foldedBefore(`x${c}y`) !== foldText(`x${c}y`), `U+${code.toString(16)}`);
  }
  for (const c of ['𝐀', '🄰', '𝔄', '𝟏']) assert.equal(foldedOtherwiseBefore(c), foldedBefore(c) !== foldText(c), c);
  assert.equal(foldedOtherwiseBefore('№1234'), true);
  assert.equal(foldedOtherwiseBefore('São Tomé, Ærø, ǅemal'), false, 'nothing up to U+024F changed');
});
