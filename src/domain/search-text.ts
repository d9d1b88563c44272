/**
 * The text that search compares: case folded, accents removed, compatibility
 * forms decomposed (NFKD), whitespace collapsed. The importer stores it for
 * every record and queries are folded the same way, so `sao tome` finds
 * `São Tomé` and `MULLER` finds `Müller`.
 */

/** Case folding beyond toLowerCase: the mappings where full folding differs from lower case. */
const FOLD_EXTRA: Record<string, string> = { ß: 'ss', ς: 'σ' };
const EXTRA_PATTERN = /[ßς]/g;
/** Longer words are indexed and searched by their first this many characters (PostgreSQL caps a lexeme at 2 KiB). */
export const MAX_WORD_LENGTH = 100;
const MARKS = /\p{M}+/gu;
const SPACES = /\s+/gu;
const WORD = /[\p{L}\p{N}]+/gu;
/**
 * Text of ASCII characters only: NFKD leaves it as it is and it holds no mark
 * and no ß or ς, so folding is lower case and spaces; its letters and digits
 * are a–z and 0–9 once folded. Most codes and many displays and definitions
 * are ASCII, and folding is a fifth of what a record costs the search index.
 */
const NON_ASCII = /[^\p{ASCII}]/u;
const ASCII_WORD = /[a-z0-9]+/g;

/**
 * Text of Latin characters (up to U+024F: Latin-1, Extended-A and -B) folds
 * character by character: none of them is a combining mark or lower-cases
 * by context, so the folding of the text is the folding of each character,
 * spaces collapsed after. Each one's folding is worked out once, the general
 * way; this path is ~40 % of the general one on accented displays.
 */
const LATIN_CHAR = /[\u0080-\u024f]/g;
const BEYOND_LATIN = /[^\p{ASCII}\u0080-\u024f]/u;
const LATIN_FOLDED: string[] = [];
for (let code = 0x80; code <= 0x24f; code++) LATIN_FOLDED[code] = foldCharacters(String.fromCharCode(code));

/**
 * Whitespace that collapsing and trimming would change: any but the space,
 * two spaces in a row, or a space at either end. Most texts have none, and
 * testing for it costs less than the replacement (~0.3 µs a field of the
 * bench's 1 000 000-code snapshot, whose three fields a code are folded).
 */
const UNCOLLAPSED = /[^\S ]| {2}|^ | $/;

/** Whitespace collapsed to one space, and none at either end. */
function collapsed(text: string): string {
  return UNCOLLAPSED.test(text) ? text.replace(SPACES, ' ').trim() : text;
}

/** Folded text, punctuation kept: what a code or display is compared as. */
export function foldText(text: string): string {
  if (!NON_ASCII.test(text)) return collapsed(text.toLowerCase());
  if (!BEYOND_LATIN.test(text)) return collapsed(text.replace(LATIN_CHAR, (c) => LATIN_FOLDED[c.charCodeAt(0)]!).toLowerCase());
  return foldUnicode(text);
}

/** foldText for any text (foldText takes shorter ways for ASCII and Latin text, which a test holds to this one). */
export function foldUnicode(text: string): string {
  return foldCharacters(text).replace(SPACES, ' ').trim();
}

function foldCharacters(text: string): string {
  // Lower-cased again after NFKD: a compatibility form may decompose into a capital (№ → No, ℃ → °C, 𝐀 → A).
  return decomposed(text)
    .toLowerCase()
    .replace(EXTRA_PATTERN, (c) => FOLD_EXTRA[c]!);
}

/** Lower case, then NFKD without its marks. Lower-case first: 'İ' lower-cases to 'i' + a combining dot, which NFKD keeps and the mark strip removes. */
function decomposed(text: string): string {
  return text.toLowerCase().normalize('NFKD').replace(MARKS, '');
}

/**
 * Whether folding until SQLite schema 13 (PostgreSQL 8) gave this text
 * another form: it lower-cased only before NFKD, so a compatibility form that
 * decomposes into a capital kept it (`№1234` folded to `No1234`). The query's
 * words lost that capital (wordsOf's ASCII way keeps a–z and 0–9) and the word
 * list kept it, so such records were not found by their words. No character
 * up to U+024F is one of them.
 */
export function foldedOtherwiseBefore(text: string): boolean {
  if (!BEYOND_LATIN.test(text)) return false;
  const before = decomposed(text);
  return before.toLowerCase() !== before;
}

/** Words of folded text: runs of letters and digits. */
export function wordsOf(folded: string): string[] {
  return capped(NON_ASCII.test(folded) ? folded.match(WORD) : folded.match(ASCII_WORD));
}

/** wordsOf for any folded text (wordsOf takes a shorter way for ASCII, which a test holds to this one). */
export function wordsOfUnicode(folded: string): string[] {
  return capped(folded.match(WORD));
}

/** The words, each cut to MAX_WORD_LENGTH characters. */
function capped(words: string[] | null): string[] {
  return (words ?? []).map((word) => (word.length > MAX_WORD_LENGTH ? word.slice(0, MAX_WORD_LENGTH) : word));
}

/** The distinct words of a record's code, display and definition, in first-seen order. */
export function recordWords(code: string, display: string, definition: string | null): string[] {
  return distinctWords([foldText(code), foldText(display), foldText(definition ?? '')]);
}

/** The distinct words of folded texts, in first-seen order. */
export function distinctWords(folded: readonly string[]): string[] {
  const words = new Set<string>();
  for (const text of folded) for (const word of wordsOf(text)) words.add(word);
  return [...words];
}

/** Whether FTS5's `ascii` tokenizer keeps this UTF-16 code unit in a word: an ASCII letter or digit, or anything beyond ASCII. */
function isTokenUnit(c: number): boolean {
  return (c >= 0x61 && c <= 0x7a) || (c >= 0x30 && c <= 0x39) || (c >= 0x41 && c <= 0x5a) || c >= 0x80;
}
/**
 * A character that is not ASCII, or a capital. Folded text holds no capital
 * (folding lower-cases after NFKD too), but wordsOf's ASCII way keeps only a–z
 * and 0–9, so a capital given here would not be one word of FTS5's.
 */
const NOT_LOWER_ASCII = /[A-Z\u0080-\uffff]/;
/**
 * Whether text holds a run of a–z and 0–9 longer than MAX_WORD_LENGTH: a word
 * wordsOf would cut. One pass over the text, where the regular expression
 * `[a-z0-9]{101}` tried a match from every character of every word (3 µs a
 * record of the bench's dx file, against 0.7).
 */
function hasLongAsciiWord(text: string): boolean {
  if (text.length <= MAX_WORD_LENGTH) return false;
  let run = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if ((c >= 0x61 && c <= 0x7a) || (c >= 0x30 && c <= 0x39)) {
      if (++run > MAX_WORD_LENGTH) return true;
    } else run = 0;
  }
  return false;
}

/**
 * Text that FTS5's `ascii` tokenizer splits into exactly the words of these
 * folded texts (wordsOf), a word perhaps more than once. Folded text of
 * lower-case ASCII is its own answer: its words are the runs of a–z and 0–9,
 * and the tokenizer splits at every other ASCII character, so the texts are
 * only joined (no word list built: 7 µs a record of the bench's dx file).
 * Other text, or a word to be cut, gives the distinct words joined by spaces.
 */
export function tokenizedText(folded: readonly string[]): string {
  const joined = folded.join(' ');
  if (!NOT_LOWER_ASCII.test(joined) && !hasLongAsciiWord(joined)) return joined;
  return distinctWords(folded).join(' ');
}

/**
 * Visits each word of tokenizedText's text that is at least min code units
 * long, or at least minWide long when one of its first two code units is not
 * ASCII (the runs of what the `ascii` tokenizer keeps in a word, repeats
 * kept), in place, as the code units start to end of text, with a hash of
 * them, making no string: a caller that has seen the word lately
 * (text.startsWith(seen, start)) need not make one.
 */
export function scanLongTokens(text: string, min: number, visit: (start: number, end: number, hash: number) => void, minWide = min): void {
  let start = -1;
  let hash = 0;
  let wide = false;
  for (let i = 0; i <= text.length; i++) {
    const c = i < text.length ? text.charCodeAt(i) : 0;
    if (isTokenUnit(c)) {
      if (start < 0) {
        start = i;
        hash = 0;
        wide = c >= 0x80;
      } else if (i === start + 1 && c >= 0x80) wide = true;
      hash = (Math.imul(hash, 31) + c) | 0;
    } else if (start >= 0) {
      const length = i - start;
      if (length >= min || (wide && length >= minWide)) visit(start, i, hash);
      start = -1;
    }
  }
}

/**
 * The smallest string greater than every string that starts with prefix (in
 * code point order, which is UTF-8 byte order), or null when there is none:
 * the exclusive upper end of a prefix range on an index.
 */
export function prefixUpperBound(prefix: string): string | null {
  const points = [...prefix];
  while (points.length > 0) {
    const last = points.pop()!.codePointAt(0)!;
    if (last < 0x10ffff) {
      const next = last === 0xd7ff ? 0xe000 : last + 1;
      return points.join('') + String.fromCodePoint(next);
    }
  }
  return null;
}

/** A search as the store runs it: the query folded, and its words. */
export interface SearchTerms {
  /** Folded query, punctuation kept: compared with the start of the code and the display. */
  folded: string;
  /** Exclusive upper end of the prefix range of `folded` (null: no upper end). */
  upper: string | null;
  /** Words of the query, each to be the start of a word of the record; empty: only code prefixes match. */
  words: string[];
}

export function searchTerms(q: string): SearchTerms {
  const folded = foldText(q);
  return { folded, upper: prefixUpperBound(folded), words: [...new Set(wordsOf(folded))] };
}
