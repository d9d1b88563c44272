/**
 * Search on SQLite. search_codes holds each record's folded code and display
 * (groups 1–3 are ranges of their indexes, entered at the cursor's row value
 * so a deep page seeks rather than skips); search_words is a contentless FTS5
 * table of each record's words, keyed by its search sequence, with prefix
 * indexes so that two or three letters are one term lookup; one letter is the
 * OR of the two-letter prefixes it starts, and a longer word the OR of the
 * terms it starts (search-terms.ts). Group 4 reads the doclists lazily in
 * sequence order from the cursor on and stops at the page's end.
 *
 * Since schema 12 the word index keeps only which records hold a word
 * (detail=none): search asks whether every query word starts a word of the
 * record, never where, so word positions were written on every import and
 * never read. Its tokenizer is `ascii`, which splits at ASCII characters
 * other than letters and digits only: FTS5 is given text it splits into
 * exactly the record's words (tokenizedText in search-text.ts: lower-case
 * ASCII as folded, anything else as its words split here), so each word is
 * one FTS5 term, exactly.
 *
 * Since schema 19 each search row keeps a digest of the text FTS5 was given
 * (words_digest, see wordsDigest): a revision whose text is the same (a
 * retirement, a change of other fields) keeps its words in FTS5 as they are.
 */
import type { DatabaseSync, StatementSync } from 'node:sqlite';
import { createXXHash3 } from 'hash-wasm';
import type { CodeRecord } from '../../domain/records.ts';
import { searchTexts, walkSearch, type CodeSearchQuery, type SearchGroup, type SearchKey, type SearchRow, type SearchTuning } from '../search-walk.ts';
import { tokenizedText } from '../../domain/search-text.ts';
import type { RawPage } from '../store.ts';
import { SearchTermWriter, wordMatch } from './search-terms.ts';
import { readWordGroup, type Candidate, type WordGroupReader, type WordRow } from './search-broad-words.ts';

export const SQLITE_SEARCH_SCHEMA = `
  -- seq: the record's search sequence, assigned once; the FTS rowid.
  CREATE TABLE search_codes (
    seq           INTEGER PRIMARY KEY,
    id            TEXT NOT NULL UNIQUE,
    system        TEXT NOT NULL,
    status        TEXT NOT NULL,
    folded_code    TEXT NOT NULL,
    folded_display TEXT NOT NULL
  ) STRICT;
  CREATE INDEX search_by_code ON search_codes (folded_code, id);
  -- Migration 11 adds folded_code to it (the third group reads the index alone).
  CREATE INDEX search_by_display ON search_codes (folded_display, id);
  -- Migration 12 replaces it (SEARCH_WORDS_SCHEMA_12), and 16 (SEARCH_WORDS_SCHEMA).
  CREATE VIRTUAL TABLE search_words USING fts5(
    words, content='', contentless_delete=1, prefix='1 2 3', tokenize='unicode61 remove_diacritics 0'
  );
`;

/**
 * The word index since schema 16: which records hold each word (and each
 * word's first two and three characters; a one-character query word is the
 * OR of its two-character prefixes, see search-terms.ts). FTS5 gathers the
 * words of a transaction in memory and writes them out as a segment each time
 * they pass its hash size; at 8 MB instead of the default 1 MB a large import
 * writes a few large segments instead of many it must then merge (300 000
 * records' words: 2.6 → 1.9 s; the queries cost the same).
 */
export const SEARCH_WORDS_SCHEMA = wordIndexSchema('2 3');

/** The word index as schema 12 to 15 made it: a one-character prefix level too. */
export const SEARCH_WORDS_SCHEMA_12 = wordIndexSchema('1 2 3');

function wordIndexSchema(prefixes: string): string {
  return `
  CREATE VIRTUAL TABLE search_words USING fts5(
    words, content='', contentless_delete=1, prefix='${prefixes}', tokenize='ascii', detail=none
  );
  INSERT INTO search_words (search_words, rank) VALUES ('hashsize', 8388608);
`;
}

/**
 * The search table's index on folded display, as migration 11 left it. New
 * records land at random places in it, so a large import drops it and builds
 * it again before it commits: one sort instead of a random B-tree insert a
 * record (400 000 new records: the inserts cost ~4 s, building the index
 * 0.3 s). The folded-code index (search_by_code) is kept and written as the
 * records come: an import writes them in the order of their ids, and folding
 * keeps the order of codes of one case and script, so its inserts walk
 * through it in order. Building it again with each of the snapshot's four
 * systems (0.4, 0.7, 0.9 and 1 million rows) cost 5.3–5.5 s with the
 * search table's inserts and commits, against 4.1 s keeping it.
 */
const REBUILT_INDEX = 'CREATE INDEX search_by_display ON search_codes (folded_display, id, folded_code)';
/** An import rebuilds REBUILT_INDEX once it has added this many records… */
const REBUILD_AFTER = 5_000;
/** …and at least this share of the records indexed (building costs ~0.8 µs a record, an insert ~10). */
const REBUILD_SHARE = 0.1;

/** Whether adding this many records, to make this many indexed, calls for dropping REBUILT_INDEX and building it again. */
function worthRebuilding(added: number, indexedAfter: number): boolean {
  return added >= REBUILD_AFTER && added >= REBUILD_SHARE * indexedAfter;
}

/**
 * The word index merged once imports have revised this share of its records
 * since its last merge. A revised record's old entries stay in the index,
 * behind tombstones, until FTS5 merges their segment, and its automatic
 * merging leaves many: after a 1 000 000-code snapshot and 92 deltas (1.6
 * million revisions), a page 100 pages deep in the word index took 2.15× the
 * first page and search served 35 % of the list page's rate; merged (5.6 s),
 * 1.03× and 58 %. The number of segments stayed low (4 to 11) all along.
 * A tenth: the bench's 92 deltas then took 296 s instead of 258 (a quarter:
 * 269 s, but 1.62× and 42 % just before a merge).
 */
export const MERGE_AFTER_REVISED_SHARE = 0.1;

export const SEARCH_WORDS_CHURN_SCHEMA = `
  CREATE TABLE search_words_churn (
    id      INTEGER PRIMARY KEY CHECK (id = 1),
    revised INTEGER NOT NULL
  ) STRICT;
  INSERT INTO search_words_churn (id, revised) VALUES (1, 0);
`;

/**
 * Migration 19: the digest of the text each search row's words were made from
 * (wordsDigest), NULL for the rows written before, which get theirs when next
 * written. Whatever writes a row's words in search_words must write its digest
 * with them or set it NULL, never leave one that no longer matches: a row
 * whose digest matches keeps the words it has.
 */
export const SEARCH_WORDS_DIGEST_SCHEMA = 'ALTER TABLE search_codes ADD COLUMN words_digest INTEGER';

/** Compiled once, when the module loads (hash-wasm's WebAssembly), as for the entity tags. */
const xxh3 = await createXXHash3();

/**
 * A 64-bit digest (XXH3-64 of its UTF-8, as a signed SQLite INTEGER) of the
 * text a record's words are made from, as FTS5 is given it. Two texts share
 * one only by a 2^-64 chance; a record's text is the operator's data, not
 * chosen to collide. ~1 µs a record, against the FTS5 delete and insert it
 * saves a record whose words did not change.
 */
export function wordsDigest(text: string): bigint {
  xxh3.init();
  xxh3.update(text);
  const digest = xxh3.digest('binary');
  return new DataView(digest.buffer, digest.byteOffset, digest.length).getBigInt64(0);
}

/**
 * Adds an import's revisions of the word index to the count since its last
 * merge, and merges it (FTS5 'optimize', in the import's transaction) once
 * the count passes MERGE_AFTER_REVISED_SHARE of the records it holds.
 */
export function mergeWordIndexAfter(db: DatabaseSync, revised: number): void {
  const row = db.prepare('UPDATE search_words_churn SET revised = revised + ? WHERE id = 1 RETURNING revised').get(revised) as { revised: number };
  // Every record ever indexed has had a sequence number: the last is the count, near enough, without a scan.
  const records = Number((db.prepare('SELECT coalesce(max(seq), 0) AS n FROM search_codes').get() as { n: number }).n);
  if (Number(row.revised) <= MERGE_AFTER_REVISED_SHARE * records) return;
  mergeWordIndex(db);
}

/** Merges the word index into one segment (FTS5 'optimize') and starts the count of revisions since again. */
export function mergeWordIndex(db: DatabaseSync): void {
  db.exec("INSERT INTO search_words (search_words) VALUES ('optimize')");
  db.exec('UPDATE search_words_churn SET revised = 0 WHERE id = 1');
}

/** What the indexer finds of a row already indexed: its sequence, and the digest of its words (null: unknown). */
interface IndexedRow {
  seq: bigint;
  words_digest: bigint | null;
}

/** Writes the search rows of codes just written, inside the import's transaction. */
export class SqliteSearchIndexer {
  private readonly find: StatementSync;
  private readonly insert: StatementSync;
  private readonly lastSeq: StatementSync;
  /** The last sequence given out, read once per transaction (the indexer lives in one). */
  private seq: number | null = null;
  private readonly db: DatabaseSync;
  /** Records added by this transaction. */
  private added = 0;
  /** Records this transaction revised whose words changed (their old words deleted). */
  revised = 0;
  /** REBUILT_INDEX is dropped, to be built again by finish(). */
  private rebuilding = false;
  private readonly update: StatementSync;
  private readonly deleteWords: StatementSync;
  private readonly insertWords: StatementSync;
  /** null: the index as migration 7 built it, before search_terms (migration 10 fills that from the FTS5 index). */
  private readonly terms: SearchTermWriter | null;
  /** false: the search table as before migration 19, without words_digest; every revision writes its words. */
  private readonly digests: boolean;

  /** The options describe an older schema (the migrations that build the index on one, and the tests of them). */
  constructor(db: DatabaseSync, options: { terms?: boolean; digests?: boolean } = {}) {
    this.db = db;
    this.terms = (options.terms ?? true) ? new SearchTermWriter(db) : null;
    this.digests = options.digests ?? true;
    const digest = this.digests ? ', words_digest' : '';
    // One lookup a row gives both. Read as bigints: a digest takes all 64 bits.
    this.find = db.prepare(`SELECT seq${digest} FROM search_codes WHERE id = ?`);
    this.find.setReadBigInts(true);
    // The sequence is counted here: INSERT … RETURNING cost three times a plain insert.
    this.insert = db.prepare(
      `INSERT INTO search_codes (seq, id, system, status, folded_code, folded_display${digest}) VALUES (?, ?, ?, ?, ?, ?${this.digests ? ', ?' : ''})`,
    );
    this.lastSeq = db.prepare('SELECT coalesce(max(seq), 0) AS seq FROM search_codes');
    this.update = db.prepare(
      `UPDATE search_codes SET status = ?, folded_code = ?, folded_display = ?${this.digests ? ', words_digest = ?' : ''} WHERE seq = ?`,
    );
    this.deleteWords = db.prepare('DELETE FROM search_words WHERE rowid = ?');
    this.insertWords = db.prepare('INSERT INTO search_words (rowid, words) VALUES (?, ?)');
  }

  /**
   * The transaction will add at least this many records (an import's lower
   * bound, told before its first write): when that is enough to rebuild
   * REBUILT_INDEX, it is dropped before the first insert instead of after
   * REBUILD_AFTER of them. The share only grows as records are added, so the
   * bound that passes it now is passed at the end as well. The records that
   * went in with the folded-text indexes in place (up to 90 000 of 100 000
   * when a system is added to 900 000 records) cost 3.4 of the 1 000 000-code
   * snapshot's 5.5 s of search-table inserts.
   */
  expectAdded(atLeast: number): void {
    if (!this.rebuilding && worthRebuilding(atLeast, this.lastIndexed() + atLeast)) this.dropRebuiltIndex();
  }

  /** this.seq, read on first use. */
  private lastIndexed(): number {
    return (this.seq ??= Number((this.lastSeq.get() as { seq: number }).seq));
  }

  private dropRebuiltIndex(): void {
    this.db.exec('DROP INDEX search_by_display');
    this.rebuilding = true;
  }

  /**
   * Indexes a chunk of rows one statement at a time (every lookup, then every
   * row, then every word list): interleaving FTS5 writes with B-tree writes
   * row by row cost twice as much (FTS5 reloads its state between them).
   * isNew[i] true: the import found no record of row i, so it has no search
   * row either and is not looked up (a snapshot's first import: ~2 µs a record).
   * A row already indexed whose words' digest is the one stored (a status
   * changed, or a field search does not read) has its search row updated and
   * its words left as they are in FTS5 and the word list: the FTS5 delete and
   * insert were most of the write lock of an import retiring many codes.
   */
  writeMany(rows: readonly SearchRow[], isNew: readonly boolean[] = []): void {
    const texts = rows.map((row) => tokenizedText(searchTexts(row)));
    const digests = this.digests ? texts.map(wordsDigest) : [];
    /** Per row: its sequence (0: none yet), and whether its words are to be written (new, or changed). */
    const seqs: number[] = [];
    const revised: boolean[] = [];
    const writesWords: boolean[] = [];
    rows.forEach((row, i) => {
      const found = isNew[i] === true ? undefined : (this.find.get(row.id) as IndexedRow | undefined);
      seqs.push(found ? Number(found.seq) : 0);
      revised.push(found !== undefined);
      writesWords.push(found === undefined || !this.digests || found.words_digest !== digests[i]);
    });
    let seq = this.lastIndexed();
    const fresh = revised.filter((r) => !r).length;
    this.added += fresh;
    this.revised += writesWords.filter((w) => w).length - fresh;
    if (!this.rebuilding && worthRebuilding(this.added, seq + fresh)) this.dropRebuiltIndex();
    const digestOf = (i: number) => (this.digests ? [digests[i]!] : []);
    rows.forEach((row, i) => {
      if (revised[i]) this.update.run(row.status, row.foldedCode, row.foldedDisplay, ...digestOf(i), seqs[i]!);
      else {
        seqs[i] = ++seq;
        this.insert.run(seqs[i], row.id, row.system, row.status, row.foldedCode, row.foldedDisplay, ...digestOf(i));
      }
    });
    this.seq = seq;
    rows.forEach((_, i) => {
      if (revised[i] && writesWords[i]) this.deleteWords.run(seqs[i]!);
    });
    texts.forEach((text, i) => {
      if (writesWords[i]) this.insertWords.run(seqs[i]!, text);
    });
    if (this.terms) for (const [i, text] of texts.entries()) if (writesWords[i]) this.terms.write(text);
  }

  /** What writeMany left for the end of the transaction: the word list, and the index it dropped. */
  finish(): void {
    this.terms?.flush();
    if (this.rebuilding) this.db.exec(REBUILT_INDEX);
    this.rebuilding = false;
  }
}

type Statements = { arrays(sql: string): StatementSync };

export async function searchSqlite(statements: Statements, q: CodeSearchQuery, tuning: SearchTuning = {}): Promise<RawPage<SearchKey, CodeRecord>> {
  const { folded, upper } = q.terms;
  const filters: string[] = [];
  const base: Record<string, string | number> = { q: folded };
  if (upper !== null) base.upper = upper;
  if (q.system !== null) {
    filters.push('s.system = $system');
    base.system = q.system;
  }
  if (q.status !== null) {
    filters.push('s.status = $status');
    base.status = q.status;
  }
  const codePrefix = upper === null ? 's.folded_code >= $q' : '(s.folded_code >= $q AND s.folded_code < $upper)';
  const displayPrefix = upper === null ? 's.folded_display >= $q' : '(s.folded_display >= $q AND s.folded_display < $upper)';
  const and = (conditions: string[]) => [...conditions, ...filters].join(' AND ');

  return walkSearch(q, async (group: SearchGroup, after: SearchKey | null, limit: number) => {
    const params = { ...base, limit };
    let sql: string;
    if (group === 1) {
      Object.assign(params, { afterId: after?.id ?? '' });
      sql = `SELECT s.id, c.json FROM search_codes s JOIN codes c ON c.id = s.id
        WHERE ${and(['s.folded_code = $q', 's.id > $afterId'])} ORDER BY s.folded_code, s.id LIMIT $limit`;
    } else if (group === 2) {
      // The first page enters the range after the code itself; later ones at the cursor's row value, which the index seeks to.
      const from = after === null ? 's.folded_code > $q' : '(s.folded_code, s.id) > ($afterText, $afterId)';
      if (after !== null) Object.assign(params, { afterText: after.text, afterId: after.id });
      const to = upper === null ? [] : ['s.folded_code < $upper'];
      sql = `SELECT s.id, c.json, s.folded_code FROM search_codes s JOIN codes c ON c.id = s.id
        WHERE ${and([from, ...to])} ORDER BY s.folded_code, s.id LIMIT $limit`;
    } else if (group === 3) {
      const from = after === null ? 's.folded_display >= $q' : '(s.folded_display, s.id) > ($afterText, $afterId)';
      if (after !== null) Object.assign(params, { afterText: after.text, afterId: after.id });
      const to = upper === null ? [] : ['s.folded_display < $upper'];
      sql = `SELECT s.id, c.json, s.folded_display FROM search_codes s JOIN codes c ON c.id = s.id
        WHERE ${and([from, ...to, `NOT ${codePrefix}`])} ORDER BY s.folded_display, s.id LIMIT $limit`;
    } else {
      // CROSS JOIN keeps FTS5 outermost: its doclist is walked in rowid order and the walk stops at the limit.
      // The cursor's sequence is cast: node:sqlite binds a number as REAL, and FTS5 takes a rowid bound
      // only when it is an INTEGER. Given a REAL it walked every doclist from its start and SQLite
      // dropped the rows before the cursor, so a page cost what the rows before it did (40 ms at
      // sequence 900 000 of a word in half of 1 000 000 records, against 0.1 ms).
      const words = (columns: string) => `SELECT ${columns} FROM search_words f CROSS JOIN search_codes s ON s.seq = f.rowid CROSS JOIN codes c ON c.id = s.id
        WHERE ${and(['search_words MATCH $match', 'f.rowid > CAST($afterSeq AS INTEGER)', `NOT ${codePrefix}`, `NOT ${displayPrefix}`])} ORDER BY f.rowid LIMIT $limit`;
      const run = (sql: string, match: string, afterSeq: number, rows: number) =>
        statements.arrays(sql).all(usedParameters(sql, { ...base, match, afterSeq, limit: rows })) as unknown[];
      const reader: WordGroupReader = {
        wordMatch: (word) => wordMatch(statements, word, tuning.expandTerms),
        rows: (match, afterSeq, rows) => run(words('s.seq, c.json'), match, afterSeq, rows) as WordRow[],
        count: (match, afterSeq, rows) => {
          const sql = 'SELECT count(*) FROM (SELECT rowid FROM search_words WHERE search_words MATCH ? AND rowid > CAST(? AS INTEGER) ORDER BY rowid LIMIT ?)';
          return Number((statements.arrays(sql).get(match, afterSeq, rows) as unknown as [number])[0]);
        },
        candidates: (match, afterSeq, rows) => run(words('s.seq, c.json, s.folded_code, s.folded_display'), match, afterSeq, rows) as Candidate[],
      };
      const rows = readWordGroup(q.terms.words, after?.seq ?? 0, limit, reader, tuning.smallSet);
      return rows.map(([seq, json]): [SearchKey, string] => [{ group, text: '', id: '', seq: Number(seq) }, json]);
    }
    const found = statements.arrays(sql).all(usedParameters(sql, params)) as unknown as (string | number)[][];
    return found.map((r): [SearchKey, string] => {
      const json = r[1] as string;
      return [{ group, text: group === 1 ? '' : (r[2] as string), id: r[0] as string, seq: 0 }, json];
    });
  });
}

/** node:sqlite refuses named parameters the statement does not use. */
function usedParameters(sql: string, params: Record<string, string | number>): Record<string, string | number> {
  const used: Record<string, string | number> = {};
  for (const [, name] of sql.matchAll(/\$(\w+)/g)) used[name!] = params[name!]!;
  return used;
}
