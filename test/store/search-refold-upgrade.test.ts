/**
 * Upgrading a database whose search rows were folded the way before SQLite
 * schema 13 (PostgreSQL 8), when folding lower-cased only before NFKD:
 * `№1234` was folded to `No1234`, kept so in the folded display and the word
 * list, and neither `no1234` nor `№1234` found its record. The migration
 * writes those rows again; the others are left as they were.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { distinctWords } from '../../src/domain/search-text.ts';
import { searchRowOf, type SearchRow } from '../../src/store/search-walk.ts';
import { SqliteSearchIndexer } from '../../src/store/sqlite/search.ts';
import type { Store } from '../../src/store/store.ts';
import { oldCodes, type OldRows, withOldPostgres, withOldSqlite } from '../helpers/old-schema.ts';
import { createTestDatabase, type TestDatabase } from '../helpers/postgres.ts';
import { skipUnlessPostgres } from '../helpers/services.ts';
import { searchAll, textRow } from './suite-search.ts';

const CHANGED = textRow('ru:N1234', '№1234 приказ', 'Температура в ℃.');
const LATIN = textRow('iso:STP', 'São Tomé and Príncipe', 'Islands in the Gulf of Guinea.');
const CODES = [CHANGED, LATIN];

/** The search rows as the folding of those schemas left them: capitals kept after NFKD. */
const OLD_ROWS: SearchRow[] = [
  { ...searchRowOf({ ...CHANGED, display: '', definition: null }), foldedDisplay: 'No1234 приказ', foldedDefinition: 'температура в °C.' },
  searchRowOf({ ...LATIN, display: 'São Tomé and Príncipe', definition: 'Islands in the Gulf of Guinea.' }),
];

const OLD: OldRows = [['codes', oldCodes(CODES)]];

async function assertRefolded(store: Store): Promise<void> {
  assert.deepEqual(await searchAll(store, 'no1234'), ['ru:N1234'], 'a whole word, through the word list');
  assert.deepEqual(await searchAll(store, '№1234'), ['ru:N1234']);
  assert.deepEqual(await searchAll(store, 'no12'), ['ru:N1234'], 'the folded display starts with it');
  assert.deepEqual(await searchAll(store, 'температура ℃'), ['ru:N1234']);
  assert.deepEqual(await searchAll(store, 'sao tome'), ['iso:STP'], 'a record whose folding did not change');
  assert.deepEqual(await searchAll(store, 'guinea'), ['iso:STP']);
}

test('SQLite: a database of schema 12 gets the search rows its folding changed written again', async () => {
  await withOldSqlite(12, OLD, assertRefolded, (db) => {
    const indexer = new SqliteSearchIndexer(db, { digests: false });
    indexer.writeMany(OLD_ROWS);
    indexer.finish();
  });
});

const skip = await skipUnlessPostgres();
describe('PostgreSQL', { skip }, () => {
  let db: TestDatabase;
  before(async () => {
    db = await createTestDatabase('codebook_refold');
  });
  after(() => db?.drop());

  test('a database of schema 7 gets the search rows its folding changed written again', async () => {
    const searchRows = OLD_ROWS.map((r) => ({
      id: r.id,
      system: r.system,
      status: r.status,
      folded_code: r.foldedCode,
      folded_display: r.foldedDisplay,
      words: distinctWords([r.foldedCode, r.foldedDisplay, r.foldedDefinition]).join(' '),
    }));
    await withOldPostgres(db, 7, [...OLD, ['search_codes', searchRows]], assertRefolded);
  });
});
