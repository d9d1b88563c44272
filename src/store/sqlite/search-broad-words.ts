/**
 * Group 4 of a SQLite search whose words mix one-character words with a part
 * of a code (`k1250.9` → `k1250` and `9`): when that part is found in few
 * records, the one-character words are tested on those records instead of
 * joined into FTS5's query.
 *
 * A one-character word is the OR of 37 or more two-character prefix terms
 * (search-terms.ts). FTS5 opens each of them, and its AND seeks every arm at
 * each step, so `"k1250" AND (…37 arms…)` took 1.8 ms on the bench's
 * 1 000 000 codes where `"k1250"` alone, 12 records, took 0.06 ms: an exact
 * code with a one-character part (most of the bench's exact-code queries)
 * cost more than any other class of query.
 *
 * Here the longest of the longer words that holds a digit (a part of a code,
 * likely rare) is counted first in FTS5 alone, up to SMALL_SET + 1 records
 * after the cursor. When it has at most SMALL_SET, the records of the longer
 * words are read, and each is kept when every one-character word starts one
 * of its words: its folded code and display, then, when those do not settle
 * it, its definition. The test is the index's rule itself (wordsOf, as the
 * indexer splits a record's texts), so the records kept, and their order,
 * are those of FTS5's AND.
 *
 * Otherwise FTS5's AND of every word reads the group, as before. Testing
 * every candidate cost ~4 µs each (the record read for its definition) and
 * lost to FTS5 where the longer words are common and the one-character word
 * rare (`lateral q`: 1.0 ms by FTS5, 3.2 ms testing up to 256 candidates).
 * The count costs 20–45 µs, so it is made only for a word with a digit: a
 * word of letters only is more often a common word typed before the next
 * (`lateral q`), where counting first made the search 8–16 % dearer. Nor
 * for a word FTS5 reads as a whole prefix (`"word"*`: more terms than
 * search-terms.ts expands), which it would then read twice.
 */
import { foldText, wordsOf } from '../../domain/search-text.ts';
import { readsWholePrefix } from './search-terms.ts';

/** The longer words' matches, at most, for the one-character words to be tested on them. */
export const SMALL_SET = 32;

/** A row of group 4: its search sequence and the record's JSON. */
export type WordRow = [seq: number, json: string];
/** A record the longer words match: its search sequence, its JSON, its folded code and folded display. */
export type Candidate = [seq: number, json: string, foldedCode: string, foldedDisplay: string];

export interface WordGroupReader {
  /** The FTS5 query of one word (wordMatch), or null when it starts no term. */
  wordMatch(word: string): string | null;
  /** Up to limit rows of group 4 for a match expression, after a search sequence, in sequence order. */
  rows(match: string, afterSeq: number, limit: number): WordRow[];
  /** How many records the match expression alone finds after a search sequence, counting up to limit (FTS5 alone: no filter, no join). */
  count(match: string, afterSeq: number, limit: number): number;
  /** The same records as rows, with their folded code and display. */
  candidates(match: string, afterSeq: number, limit: number): Candidate[];
}

/** Group 4's rows after afterSeq, up to limit of them: the records in which every query word starts a word. */
export function readWordGroup(words: string[], afterSeq: number, limit: number, read: WordGroupReader, smallSet = SMALL_SET): WordRow[] {
  const parts: string[] = [];
  for (const word of words) {
    const part = read.wordMatch(word);
    if (part === null) return [];
    parts.push(part);
  }
  const all = parts.join(' AND ');
  const broad = words.filter(isOneCharacter);
  if (broad.length === 0) return read.rows(all, afterSeq, limit);
  const narrow = words.flatMap((word, i) => (isOneCharacter(word) ? [] : [{ word, part: parts[i]! }]));
  const rarest = narrow
    .filter((n) => DIGIT.test(n.word) && !readsWholePrefix(n.word, n.part))
    .reduce<{ word: string; part: string } | null>((a, b) => (a === null || b.word.length > a.word.length ? b : a), null);
  if (rarest === null || read.count(rarest.part, afterSeq, smallSet + 1) > smallSet) return read.rows(all, afterSeq, limit);
  // Read in a statement of its own, perhaps a moment after the count: more than smallSet now, and FTS5 answers.
  const candidates = read.candidates(narrow.map((n) => n.part).join(' AND '), afterSeq, smallSet + 1);
  if (candidates.length > smallSet) return read.rows(all, afterSeq, limit);
  const kept: WordRow[] = [];
  for (const [seq, json, foldedCode, foldedDisplay] of candidates) {
    const starts = startsWords(broad, foldedCode, foldedDisplay, json);
    // A record whose JSON does not parse (see the import's repairs): FTS5 answers from the words it was indexed with.
    if (starts === null) return read.rows(all, afterSeq, limit);
    if (starts && kept.push([seq, json]) === limit) break;
  }
  return kept;
}

/** A digit: a word with one is likely a part of a code, found in few records. */
const DIGIT = /\p{N}/u;

/** One character, as wordMatch counts them (code points). */
function isOneCharacter(word: string): boolean {
  return [...word].length === 1;
}

/** Whether each of the words starts a word of the record's code, display or definition; null when its JSON does not parse. */
function startsWords(words: string[], foldedCode: string, foldedDisplay: string, json: string): boolean | null {
  const left = words.filter((word) => !startsAWordOf(foldedCode, word) && !startsAWordOf(foldedDisplay, word));
  if (left.length === 0) return true;
  let definition: unknown;
  try {
    definition = (JSON.parse(json) as { definition?: unknown }).definition;
  } catch {
    return null;
  }
  if (typeof definition !== 'string') return false;
  const folded = foldText(definition);
  return left.every((word) => startsAWordOf(folded, word));
}

function startsAWordOf(folded: string, word: string): boolean {
  // Most texts do not hold the character at all.
  return folded.includes(word) && wordsOf(folded).some((w) => w.startsWith(word));
}
