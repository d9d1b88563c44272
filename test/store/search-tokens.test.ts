/**
 * The SQLite word index is given each record's folded texts as they are when
 * they are lower-case ASCII (tokenizedText), and FTS5's `ascii` tokenizer
 * splits them. Whatever the text, FTS5 must then hold exactly the words it held
 * when it was given the distinct words joined by spaces (wordsOf's words), and
 * the word list must note exactly the words longer than the prefix index, and
 * those of two or three whose first two code units are not both ASCII.
 */
import assert from 'node:assert/strict';
import { DatabaseSync } from 'node:sqlite';
import { test } from 'node:test';
import fc from 'fast-check';
import { distinctWords, foldText, scanLongTokens, tokenizedText } from '../../src/domain/search-text.ts';
import { SEARCH_WORDS_SCHEMA } from '../../src/store/sqlite/search.ts';
import { SearchTermWriter, SQLITE_SEARCH_TERMS_SCHEMA } from '../../src/store/sqlite/search-terms.ts';

/** The terms FTS5 keeps for one record given text. */
function ftsTerms(text: string): string[] {
  const db = new DatabaseSync(':memory:');
  try {
    db.exec(SEARCH_WORDS_SCHEMA);
    db.prepare('INSERT INTO search_words (rowid, words) VALUES (1, ?)').run(text);
    db.exec("CREATE VIRTUAL TABLE temp.vocab USING fts5vocab(main, search_words, 'row')");
    return (db.prepare('SELECT term FROM temp.vocab ORDER BY term').all() as { term: string }[]).map((r) => r.term);
  } finally {
    db.close();
  }
}

/** ASCII (capitals, punctuation, control characters), Latin, other scripts, what folds into capitals (№ → No), and beyond the BMP. */
const unit = fc
  .oneof(
    { weight: 8, arbitrary: fc.integer({ min: 0, max: 0x7f }) },
    { weight: 2, arbitrary: fc.integer({ min: 0x80, max: 0x24f }) },
    { weight: 1, arbitrary: fc.constantFrom(0x2116, 0x2121, 0x3c2, 0x1e9e, 0x2014, 0xab, 0x6771, 0x4eac, 0xff21) },
    // Beyond the BMP (𠀀 𝐀 🄰), and a lone surrogate.
    { weight: 1, arbitrary: fc.constantFrom(0x20000, 0x1d400, 0x1f130, 0xd800) },
  )
  .map((c) => String.fromCodePoint(c));
const text = fc.oneof(
  fc.string({ unit, maxLength: 120 }),
  // Words near and over the 100 characters a word is cut at.
  fc
    .tuple(
      fc.string({ unit, maxLength: 10 }),
      fc.string({ unit: fc.constantFrom('a', 'b', 'Z', '9', '𠀀'), minLength: 95, maxLength: 130 }),
      fc.string({ unit, maxLength: 10 }),
    )
    .map((parts) => parts.join('')),
);
/** The words the word list notes of a text, as SearchTermWriter scans them: four code units or more, or two when wide. */
function noted(text: string): string[] {
  const words: string[] = [];
  scanLongTokens(text, 4, (start, end) => words.push(text.slice(start, end)), 2);
  return words;
}

/** Whether the word list must hold a word: four code units or more, or two or three with one of the first two beyond ASCII. */
function mustNote(word: string): boolean {
  return word.length >= 4 || (word.length >= 2 && (word.charCodeAt(0) >= 0x80 || word.charCodeAt(1) >= 0x80));
}

test('FTS5 holds the same words from tokenizedText as from the distinct words, and the long ones are noted', () => {
  fc.assert(
    fc.property(text, text, fc.option(text, { nil: null }), (code, display, definition) => {
      const folded = [foldText(code), foldText(display), foldText(definition ?? '')];
      const words = distinctWords(folded);
      const given = tokenizedText(folded);
      assert.deepEqual(ftsTerms(given), ftsTerms(words.join(' ')));
      assert.deepEqual([...new Set(noted(given))].sort(), words.filter(mustNote).sort());
    }),
    { numRuns: 600 },
  );
});

test('lower-case ASCII texts are given as they are; anything else as its distinct words', () => {
  assert.equal(tokenizedText(['a01.1', 'diabetes mellitus, type 2', '']), 'a01.1 diabetes mellitus, type 2 ');
  // Folding leaves no capital since it lower-cases after NFKD, but a capital is still not given to FTS5 as it is.
  assert.equal(tokenizedText(['No 5', 'x', '']), 'o 5 x', 'a capital: the words, as wordsOf gives them');
  assert.equal(tokenizedText(['são', 'tomé', '']), 'são tomé');
  const long = 'y'.repeat(150);
  assert.equal(tokenizedText(['c1', `a ${long}`, '']), `c1 a ${'y'.repeat(100)}`, 'a word over 100 characters is cut, as wordsOf cuts it');
  const hundred = `${'x'.repeat(99)}9`;
  assert.equal(tokenizedText(['c1', `a.${hundred}.b`, '']), `c1 a.${hundred}.b `, 'a word of exactly 100 characters is given as it is');
  assert.equal(tokenizedText(['c1', `a.${hundred}9.b`, '']), `c1 a ${hundred} b`, 'one of 101 is cut');
  assert.deepEqual(noted('a01.1 diabetes mellitus, type 2 '), ['diabetes', 'mellitus', 'type']);
  assert.deepEqual(noted('øl cø cat αβ x ø 𠀀 𠀀y yø9 a𠀀'), ['øl', 'cø', 'αβ', '𠀀', '𠀀y', 'yø9', 'a𠀀'], 'short words with a wide first or second unit');
});

test('the word list gets every long word, when more distinct words come than the writer keeps as recent', () => {
  const db = new DatabaseSync(':memory:');
  try {
    db.exec(SQLITE_SEARCH_TERMS_SCHEMA);
    const writer = new SearchTermWriter(db);
    // 300 000 distinct words (more than the 2^18 recent slots, so some share one), each written three times, far apart;
    // every seventh longer than a slot keeps (13 units and more), some with a character beyond the BMP, and each text
    // ends in a long word.
    const words = Array.from({ length: 300_000 }, (_, i) => {
      const short = `w${i.toString(36).padStart(4, '0')}`;
      return i % 7 === 0 ? `${short}long${i % 2 === 0 ? '𠀀' : ''}word` : short;
    });
    for (let round = 0; round < 3; round++) {
      for (let i = 0; i < words.length; i += 100) writer.write(`and x.yz cø ${words.slice(i, i + 100).join(' ')}`);
    }
    writer.flush();
    const terms = new Set((db.prepare('SELECT term FROM search_terms').all() as { term: string }[]).map((r) => r.term));
    assert.ok(terms.delete('cø'), 'a short word with a second character beyond ASCII is noted');
    assert.equal(terms.size, words.length, 'each word once; words of up to three ASCII characters (and, x, yz) left out');
    assert.deepEqual(
      words.filter((w) => !terms.has(w)),
      [],
    );
  } finally {
    db.close();
  }
});
