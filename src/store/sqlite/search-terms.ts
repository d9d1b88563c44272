/**
 * The words of the SQLite search index, one row each (migration 10), so that a
 * query word the FTS5 prefix index does not cover is read lazily. FTS5
 * answers `"word"*` beyond its prefix index by merging the doclists of every
 * term with that prefix into one list before it returns the first row: a cost
 * in proportion to every match (95 ms for a word found in every record of
 * 200 000), whatever the page. The terms with that prefix, read from
 * search_terms, become `("t1" OR "t2" …)`: each a plain term FTS5 walks in
 * rowid order and stops at the page's end, and seeks to a cursor.
 *
 * The prefix index covers two and three characters (schema 16). A query word
 * of one character is the OR of itself and of the two-character prefixes it
 * starts: the 36 that lower-case ASCII can make, always, and the others found
 * in search_terms, which notes every word whose first two code units are not
 * both ASCII. A one-character level cost the 1 000 000-code snapshot ~1.2 s
 * of FTS5 writes and 23 MB for what 37 lookups of the two-character level
 * answer in ~0.3 ms.
 *
 * The table only grows: a term whose last record was revised away stays, and
 * costs an empty doclist in the OR. Words of two or three ASCII characters are
 * not noted (no query reads them here); tables filled before that keep
 * theirs, unread. The indexer notes each record's words unless it noted them
 * moments ago (a bounded set of recent words, so a snapshot notes the common
 * words once, not once per record), and adds the noted words to the table at
 * the end of the import, in term order.
 */
import type { DatabaseSync, StatementSync } from 'node:sqlite';
import { prefixUpperBound, scanLongTokens } from '../../domain/search-text.ts';

export const SQLITE_SEARCH_TERMS_SCHEMA = `
  CREATE TABLE search_terms (
    term TEXT PRIMARY KEY
  ) STRICT, WITHOUT ROWID;
`;

/** Characters covered by the FTS5 prefix index (prefix='2 3'): a word of two or three is one term of it. */
export const PREFIX_INDEX_CHARS = 3;
/** More terms than this under one prefix: `"word"*` (materialised) is the cheaper of the two. */
export const MAX_EXPANDED_TERMS = 64;
/** The words noted: longer than the prefix index covers… */
const NOTED_MIN = PREFIX_INDEX_CHARS + 1;
/** …and from two code units when one of the first two is not ASCII (the second characters of oneCharacterMatch). */
const NOTED_WIDE_MIN = 2;
/** What may follow a first character in a word of folded lower-case ASCII: always tried by oneCharacterMatch. */
const ASCII_SECONDS = [...'0123456789abcdefghijklmnopqrstuvwxyz'];
/** The first code point that search_terms is asked for after a one-character word. */
const FIRST_WIDE = '\u0080';
/** The recent words: one per slot, the slot a function of the word (2^18 slots, ~10 MB). */
const SLOT_BITS = 18;
const SLOT_MASK = (1 << SLOT_BITS) - 1;
/**
 * A word this long is not kept in a slot: V8 may make a slice of 13 code
 * units or more a view of the whole text, which the slot would keep alive.
 */
const SLOT_MAX_LENGTH = 12;
/** Noted words written to the temporary table in one statement. */
const NOTE_BATCH = 512;

/** Fills search_terms from the FTS5 index of an existing database (migration 10). */
export function fillSearchTerms(db: DatabaseSync): void {
  db.exec(SQLITE_SEARCH_TERMS_SCHEMA);
  db.exec(`CREATE VIRTUAL TABLE temp.search_words_vocab USING fts5vocab(main, search_words, 'row')`);
  try {
    db.exec('INSERT INTO search_terms (term) SELECT term FROM temp.search_words_vocab');
  } finally {
    db.exec('DROP TABLE temp.search_words_vocab');
  }
}

/**
 * Notes the words of records being indexed, skipping those noted recently, in
 * a temporary table of the import's connection; flush() adds them to
 * search_terms in term order, before the import commits. Inserted one by one
 * as they came, every new word was a B-tree insert at a random place (the
 * terms are mostly code fragments, ~475 000 of them at 1 000 000 codes): 8 µs
 * a record of a snapshot, against one ordered pass at the end.
 *
 * The recent words are a table of slots, each holding the last word noted
 * whose hash fell in it: a word is compared with its slot's in place in the
 * record's text, and becomes a string only when it is noted. A 1 000 000-code
 * snapshot holds 20.5 million such words, 436 358 distinct: a regular
 * expression's match and a Set of the last 100 000 words took 2.6 s of JavaScript and
 * noted 475 012; the slots take 1.0 s and note ~490 000 (a word noted twice
 * costs a row of the temporary table, never a term).
 */
export class SearchTermWriter {
  private readonly db: DatabaseSync;
  private readonly note: StatementSync;
  private readonly slots: string[] = new Array<string>(1 << SLOT_BITS).fill('');
  /** Words noted and not yet in the temporary table. */
  private pending: string[] = [];
  private noted = 0;

  constructor(db: DatabaseSync) {
    this.db = db;
    // No constraint on the column: a statement that might fail half-way opens a savepoint, and FTS5
    // writes out the words it holds in memory at every savepoint of the transaction (a segment a batch).
    db.exec('CREATE TEMP TABLE IF NOT EXISTS search_terms_noted (term TEXT)');
    // NOTE_BATCH words a statement: one at a time, the statements cost ~0.3 s of a 1 000 000-code snapshot.
    this.note = db.prepare('INSERT INTO temp.search_terms_noted (term) SELECT value FROM json_each(?)');
  }

  /**
   * text: a record's words as FTS5 is given them (tokenizedText). A word of
   * up to three ASCII characters is left out: wordMatch reads the table
   * for a query word longer than that, and every term it reads starts with
   * that word, or for a one-character word's second characters beyond ASCII.
   * (Code units, not characters: a longer word of one to three characters
   * outside the BMP is noted all the same, which costs a row, never a match.)
   */
  write(text: string): void {
    scanLongTokens(
      text,
      NOTED_MIN,
      (start, end, hash) => {
        const slot = (hash ^ (hash >>> SLOT_BITS)) & SLOT_MASK;
        const seen = this.slots[slot]!;
        if (seen.length === end - start && text.startsWith(seen, start)) return;
        const word = text.slice(start, end);
        if (word.length <= SLOT_MAX_LENGTH) this.slots[slot] = word;
        // Well-formed, as node:sqlite hands it to FTS5: a word cut at 100 code units may end in half
        // a surrogate pair, which node:sqlite makes U+FFFD but JSON carries into json_each as it is.
        if (this.pending.push(word.toWellFormed()) === NOTE_BATCH) this.notePending();
        this.noted++;
      },
      NOTED_WIDE_MIN,
    );
  }

  private notePending(): void {
    if (this.pending.length === 0) return;
    this.note.run(JSON.stringify(this.pending));
    this.pending = [];
  }

  /** Adds the noted words to search_terms: to be called before the transaction commits. */
  flush(): void {
    this.notePending();
    if (this.noted === 0) return;
    this.db.exec('INSERT OR IGNORE INTO search_terms (term) SELECT DISTINCT term FROM temp.search_terms_noted ORDER BY term');
    this.db.exec('DELETE FROM temp.search_terms_noted');
    this.noted = 0;
  }
}

type Statements = { arrays(sql: string): StatementSync };

/** The word list's terms in [from, to), and from a term on (no upper bound), in order, up to a limit. */
const TERMS_IN_RANGE = 'SELECT term FROM search_terms WHERE term >= ? AND term < ? ORDER BY term LIMIT ?';
const TERMS_FROM = 'SELECT term FROM search_terms WHERE term >= ? ORDER BY term LIMIT ?';

/**
 * The FTS5 query of one word, or null when it starts no term at all. One
 * character: oneCharacterMatch; two or three: the prefix index's term;
 * longer: its terms, or the prefix query when there are too many.
 */
export function wordMatch(statements: Statements, word: string, maxTerms = MAX_EXPANDED_TERMS): string | null {
  const characters = [...word].length;
  if (characters === 1) {
    return oneCharacterMatch(statements.arrays(TERMS_IN_RANGE), word, maxTerms);
  }
  if (characters <= PREFIX_INDEX_CHARS) return `"${word}"*`;
  const upper = prefixUpperBound(word);
  const found = (upper === null
    ? statements.arrays(TERMS_FROM).all(word, maxTerms + 1)
    : statements.arrays(TERMS_IN_RANGE).all(word, upper, maxTerms + 1)) as unknown as [string][];
  if (found.length === 0) return null;
  if (found.length > maxTerms) return `"${word}"*`;
  if (found.length === 1) return `"${found[0]![0]}"`;
  return `(${found.map(([term]) => `"${term}"`).join(' OR ')})`;
}

/** Whether wordMatch's query for a word longer than the prefix index covers is FTS5's prefix query, which FTS5 reads whole. */
export function readsWholePrefix(word: string, part: string): boolean {
  return [...word].length > PREFIX_INDEX_CHARS && part.endsWith('*');
}

/**
 * A one-character word c: the word c itself, or a word that starts with c and
 * a second character, each of those two-character prefixes one term of the
 * prefix index. The second characters beyond ASCII are read from search_terms
 * one at a time, each lookup starting past every term of the one before (a
 * skip over the terms, not a walk through them). More than maxTerms of them
 * (a script whose words run together, such as Chinese): `"c"*`, which FTS5
 * reads whole, as for a long word with too many terms.
 */
function oneCharacterMatch(range: StatementSync, c: string, maxTerms: number): string {
  const end = prefixUpperBound(c);
  // Only U+10FFFF has no upper end: read whole.
  if (end === null) return `"${c}"*`;
  const arms = [`"${c}"`, ...ASCII_SECONDS.map((second) => `"${c}${second}"*`)];
  let wide = 0;
  // Each lookup starts past the last one's prefix, so the walk ends (SQLite orders by code point, as prefixUpperBound does).
  for (let from: string | null = c + FIRST_WIDE; from !== null;) {
    const found = range.all(from, end, 1) as unknown as [string][];
    if (found.length === 0) break;
    if (++wide > maxTerms) return `"${c}"*`;
    const second = String.fromCodePoint(found[0]![0].codePointAt(c.length)!);
    arms.push(`"${c}${second}"*`);
    from = prefixUpperBound(c + second);
  }
  return `(${arms.join(' OR ')})`;
}
