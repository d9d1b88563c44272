/**
 * Upgrading a SQLite database of schema 11, whose word index kept word
 * positions (detail=full, unicode61): migration 12 rebuilds it from the stored
 * records without them, and search answers as it did, revisions included.
 */
import assert from 'node:assert/strict';
import { DatabaseSync } from 'node:sqlite';
import { test } from 'node:test';
import { searchRowOf } from '../../src/store/search-walk.ts';
import { SqliteSearchIndexer } from '../../src/store/sqlite/search.ts';
import { oldCodes, type OldRows, withOldSqlite } from '../helpers/old-schema.ts';
import { writeCodes } from './suite-fixtures.ts';
import { searchAll, textRow } from './suite-search.ts';

const CODES = [
  textRow('iso:STP', 'São Tomé and Príncipe', 'Islands in the Gulf of Guinea.'),
  textRow('iso:OLD', 'Old money', null, 'retired'),
  textRow('icd:E11', 'Diabetes mellitus', 'Type 2.'),
];
const OLD: OldRows = [['codes', oldCodes(CODES)]];

test('SQLite: a database of schema 11 gets a word index without positions, and search answers as before', async () => {
  await withOldSqlite(
    11,
    OLD,
    async (store) => {
      const db = new DatabaseSync(store.path, { readOnly: true });
      const sql = (db.prepare("SELECT sql FROM sqlite_master WHERE name = 'search_words'").get() as { sql: string }).sql;
      const hashSize = db.prepare("SELECT v FROM search_words_config WHERE k = 'hashsize'").get() as { v: number } | undefined;
      db.close();
      assert.equal(hashSize?.v, 8 * 1024 * 1024, 'words gathered 8 MB at a time before FTS5 writes a segment');
      assert.match(sql, /detail=none/);
      assert.match(sql, /tokenize='ascii'/);

      assert.deepEqual(await searchAll(store, 'sao tome'), ['iso:STP']);
      assert.deepEqual(await searchAll(store, 'diab mell'), ['icd:E11']);
      assert.deepEqual(await searchAll(store, 'gui'), ['iso:STP'], 'a word of the definition, from the prefix index');
      assert.deepEqual(await searchAll(store, 'guinea'), ['iso:STP'], 'a whole word of the definition');
      assert.deepEqual(await searchAll(store, 'mellitus islands'), [], 'every word must match the same record');
      assert.deepEqual(await searchAll(store, 'money', 200, { status: 'retired' }), ['iso:OLD']);

      // A revision after the upgrade replaces the record's words in the rebuilt index.
      await writeCodes(store, [textRow('icd:E11', 'Sugar disease', null)]);
      assert.deepEqual(await searchAll(store, 'diab'), []);
      assert.deepEqual(await searchAll(store, 'suga dis'), ['icd:E11']);
    },
    // What the importer of schema 11 wrote beside the records: their search rows, words with positions.
    (db) => {
      const indexer = new SqliteSearchIndexer(db, { digests: false });
      indexer.writeMany(CODES.map(searchRowOf));
      indexer.finish();
    },
  );
});
