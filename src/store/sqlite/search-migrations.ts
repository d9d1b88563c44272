/**
 * What the migrations do to the SQLite search index over the records already
 * stored: build it (migration 7), rebuild the word index without word
 * positions (12) and without its one-character prefix level (16), and refold
 * the rows whose folding changed (13). Each of these runs before migration 19
 * adds words_digest to the search table, so none writes it; one that rewrites
 * a record's words after it must write the row's digest too, or set it NULL
 * (see SEARCH_WORDS_DIGEST_SCHEMA).
 */
import type { DatabaseSync } from 'node:sqlite';
import { refoldedSearchRow, searchTexts, storedSearchRow, type SearchRow, type StoredSearchSource } from '../search-walk.ts';
import { tokenizedText } from '../../domain/search-text.ts';
import { mergeWordIndex, SEARCH_WORDS_SCHEMA, SEARCH_WORDS_SCHEMA_12, SqliteSearchIndexer } from './search.ts';
import { SearchTermWriter } from './search-terms.ts';

/** Rows indexed at a time by the migration. */
const INDEX_CHUNK = 2_000;

/** Builds the search rows of every stored code (migration 7, which adds search; search_terms comes with 9). */
export function indexExistingCodes(db: DatabaseSync): void {
  const indexer = new SqliteSearchIndexer(db, { terms: false, digests: false });
  const all = db.prepare('SELECT id, system, code, status, json FROM codes ORDER BY id');
  let chunk: SearchRow[] = [];
  for (const r of all.iterate() as Iterable<StoredSearchSource>) {
    chunk.push(storedSearchRow(r));
    if (chunk.length === INDEX_CHUNK) {
      indexer.writeMany(chunk);
      chunk = [];
    }
  }
  indexer.writeMany(chunk);
  indexer.finish();
}

/**
 * Migration 12: the word index rebuilt without word positions (see the top of
 * this file). A contentless index cannot give its words back, so they are
 * made again from the stored records, under the sequence each already has.
 */
export function rebuildSearchWords(db: DatabaseSync): void {
  rebuildWordIndex(db, SEARCH_WORDS_SCHEMA_12, null);
}

/**
 * Migration 16: the word index rebuilt without its one-character prefix
 * level, and the words that a one-character query now reads its second
 * characters from (those whose first two code units are not both ASCII)
 * added to the word list.
 */
export function dropOneCharacterPrefixes(db: DatabaseSync): void {
  const terms = new SearchTermWriter(db);
  rebuildWordIndex(db, SEARCH_WORDS_SCHEMA, terms);
  terms.flush();
  // Merged into one segment, as mergeWordIndexAfter leaves it. The rebuild of the bench's 1 000 000
  // codes left seven, and page 101 of two common words took 1.5-3.3x the first page at the store;
  // merged (2.2 s), 1.0-1.4x.
  mergeWordIndex(db);
}

function rebuildWordIndex(db: DatabaseSync, schema: string, terms: SearchTermWriter | null): void {
  db.exec('DROP TABLE search_words');
  db.exec(schema);
  const insert = db.prepare('INSERT INTO search_words (rowid, words) VALUES (?, ?)');
  const all = db.prepare('SELECT s.seq, c.id, c.system, c.code, c.status, c.json FROM search_codes s JOIN codes c ON c.id = s.id ORDER BY s.seq');
  for (const r of all.iterate() as Iterable<StoredSearchSource & { seq: number }>) {
    const text = tokenizedText(searchTexts(storedSearchRow(r)));
    insert.run(r.seq, text);
    terms?.write(text);
  }
}

/**
 * Migration 13: the search rows of the records whose folding changed when it
 * began to lower-case after NFKD too (refoldedSearchRow): their folded code
 * and display, their words in FTS5, and the word list. Every other record is
 * left as it is; most are passed over without their JSON being parsed.
 */
export function refoldSearchRows(db: DatabaseSync): void {
  const page = db.prepare(
    'SELECT s.seq, c.id, c.system, c.code, c.status, c.json FROM search_codes s JOIN codes c ON c.id = s.id WHERE s.seq > ? ORDER BY s.seq LIMIT ?',
  );
  const update = db.prepare('UPDATE search_codes SET folded_code = ?, folded_display = ? WHERE seq = ?');
  const remove = db.prepare('DELETE FROM search_words WHERE rowid = ?');
  const insert = db.prepare('INSERT INTO search_words (rowid, words) VALUES (?, ?)');
  const terms = new SearchTermWriter(db);
  for (let after = 0; ;) {
    const rows = page.all(after, INDEX_CHUNK) as unknown as (StoredSearchSource & { seq: number })[];
    for (const r of rows) {
      const row = refoldedSearchRow(r);
      if (row === null) continue;
      const text = tokenizedText(searchTexts(row));
      update.run(row.foldedCode, row.foldedDisplay, r.seq);
      remove.run(r.seq);
      insert.run(r.seq, text);
      terms.write(text);
    }
    if (rows.length < INDEX_CHUNK) break;
    after = Number(rows.at(-1)!.seq);
  }
  terms.flush();
}
