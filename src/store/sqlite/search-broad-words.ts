/**
 * Group 4 of a SQLite search whose words mix one-character words with longer
 * ones (`e11.9`, `k1250 9`): when the longer words match few records, the
 * one-character words are tested on those records instead of joined into
 * FTS5's query.
 *
 * A one-character word is the OR of 37 or more two-character prefix terms
 * (search-terms.ts). FTS5 opens each of them, and its AND seeks every arm at
 * each step, so `"k1250" AND (…37 arms…)` took 1.8 ms on the bench's
 * 1 000 000 codes where `"k1250"` alone, 12 records, took 0.06 ms: an exact
 * code with a one-digit part (most of the bench's exact-code queries, and the
 * way codes such as E11.9 are written) cost more than any other class of
 * query. Here the longer words' own query is read first, without the records
 * (FTS5 alone); when it has at most SMALL_SET rows after the cursor, each of them is kept when every one-character word starts one of
 * its words, read from its folded code and display and, when those do not
 * settle it, its definition. The test is the index's rule itself (wordsOf,
 * as the indexer splits a record's texts), so the records kept, and their
 * order, are those of FTS5's AND.
 *
 * When that word is found in more records, FTS5's AND of every word reads
 * the group as before: testing every candidate cost ~4 µs each (the record
 * read for its definition), which lost to FTS5 when the longer words are
 * common and the one-character word is rare (`lateral q`: 0.7 ms by FTS5,
 * 3.2 ms testing up to 256 candidates). Counting up to SMALL_SET + 1 records
 * of one word first costs 20–35 µs, spent only on a word with a digit: a
 * word of letters only is more often a common word (`lateral q`, as typed),
 * where the count would be spent for nothing (5–12 % of such a search).
 */
import { foldText, wordsOf } from '../../domain/search-text.ts';

/** The longer words' matches, at most, for the one-character words to be tested on them. */
export const SMALL_SET = 32;

/** A row of group 4: its search sequence and the record's JSON. */
export type WordRow = [seq: number, json: string];
/** A record the longer words match: its search sequence, id, folded code and folded display. */
export type Candidate = [seq: number, id: string, foldedCode: string, foldedDisplay: string];

export interface WordGroupReader {
  /** The FTS5 query of one word (wordMatch), or null when it starts no term. */
  wordMatch(word: string): string | null;
  /** Up to limit rows of group 4 for a match expression, after a search sequence, in sequence order. */
  rows(match: string, afterSeq: number, limit: number): WordRow[];
  /** How many records the match expression alone finds after a search sequence, counting up to limit (FTS5 alone: no filter, no join). */
  count(match: string, afterSeq: number, limit: number): number;
  /** The same records as rows, without their JSON. */
  candidates(match: string, afterSeq: number, limit: number): Candidate[];
  /** A record's JSON, by id. */
  json(id: string): string;
}

/** Group 4's rows after afterSeq, up to limit of them: the records in which every query word starts a word. */
export function readWordGroup(words: string[], afterSeq: number, limit: number, read: WordGroupReader, smallSet = SMALL_SET): WordRow[] {
  const parts: string[] = [];
  for (const word of words) {
    const part = read.wordMatch(word);
    if (part === null) return [];
    parts.push(part);
  }
  const broad = words.filter(isOneCharacter);
  const narrow = words.flatMap((word, i) => (isOneCharacter(word) ? [] : [{ word, part: parts[i]! }]));
  // A word with a digit is likely a part of a code, found in few records; the longest of them the likeliest to be rare.
  const rarest = narrow.reduce<{ word: string; part: string } | null>(
    (a, b) => (DIGIT.test(b.word) && (a === null || b.word.length > a.word.length) ? b : a),
    null,
  );
  if (broad.length > 0 && rarest !== null && read.count(rarest.part, afterSeq, smallSet + 1) <= smallSet) {
    const kept: WordRow[] = [];
    for (const [seq, id, foldedCode, foldedDisplay] of read.candidates(narrow.map((n) => n.part).join(' AND '), afterSeq, smallSet)) {
      const json = read.json(id);
      if (startsWords(broad, foldedCode, foldedDisplay, json) && kept.push([seq, json]) === limit) break;
    }
    return kept;
  }
  return read.rows(parts.join(' AND '), afterSeq, limit);
}

const DIGIT = /\p{N}/u;

/** One character, as wordMatch counts them (code points). */
function isOneCharacter(word: string): boolean {
  return [...word].length === 1;
}
/** Whether each of the words starts a word of the record's code, display or definition. */
function startsWords(words: string[], foldedCode: string, foldedDisplay: string, json: string): boolean {
  const left = words.filter((word) => !startsAWordOf(foldedCode, word) && !startsAWordOf(foldedDisplay, word));
  if (left.length === 0) return true;
  const definition = (JSON.parse(json) as { definition?: unknown }).definition;
  if (typeof definition !== 'string') return false;
  const folded = foldText(definition);
  return left.every((word) => startsAWordOf(folded, word));
}

function startsAWordOf(folded: string, word: string): boolean {
  // Most texts do not hold the character at all.
  return folded.includes(word) && wordsOf(folded).some((w) => w.startsWith(word));
}
