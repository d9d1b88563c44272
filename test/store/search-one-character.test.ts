/**
 * SQLite schema 16: the word index has no one-character prefix level, and a
 * one-character query word is the OR of the two-character prefixes it starts
 * (search-terms.ts). A database of schema 15 is rebuilt that way and its word
 * list given the words that OR reads; a character followed by more second
 * characters than the OR takes is read whole, with the same answers.
 */
import assert from 'node:assert/strict';
import { DatabaseSync } from 'node:sqlite';
import { join } from 'node:path';
import { test } from 'node:test';
import { searchTerms } from '../../src/domain/search-text.ts';
import { searchRowOf } from '../../src/store/search-walk.ts';
import { SqliteSearchIndexer, searchSqlite } from '../../src/store/sqlite/search.ts';
import { prepareArrays } from '../../src/store/sqlite/statements.ts';
import { oldCodes, type OldRows, withOldSqlite } from '../helpers/old-schema.ts';
import { createTestContext, tempDir } from '../helpers/context.ts';
import { writeCodes } from './suite-fixtures.ts';
import { searchAll, textRow } from './suite-search.ts';

const CODES = [textRow('o:1', 'Blue cø', null), textRow('o:2', 'Big c', 'Hans Ørsted'), textRow('o:3', 'Word αβγ', null), textRow('o:4', 'Plain cat', null)];
const OLD: OldRows = [['codes', oldCodes(CODES)]];

test('SQLite: a database of schema 15 loses the one-character level, and one-letter queries still find every word', async () => {
  await withOldSqlite(
    15,
    OLD,
    async (store) => {
      const db = new DatabaseSync(store.path, { readOnly: true });
      const sql = (db.prepare("SELECT sql FROM sqlite_master WHERE name = 'search_words'").get() as { sql: string }).sql;
      const churn = db.prepare('SELECT revised FROM search_words_churn').get() as { revised: number };
      db.close();
      assert.match(sql, /prefix='2 3'/);
      assert.equal(churn.revised, 0, 'merged by the upgrade, so the count of revisions since the last merge starts again');
      const sorted = async (q: string) => (await searchAll(store, q)).sort();
      assert.deepEqual(await sorted('c'), ['o:1', 'o:2', 'o:4'], 'cø is found through the word list the upgrade filled');
      assert.deepEqual(await sorted('ø'), ['o:2']);
      assert.deepEqual(await sorted('α'), ['o:3']);
      assert.deepEqual(await sorted('ca'), ['o:4'], 'two letters: the prefix index');
      // Written after the upgrade: the indexer notes the new short word itself.
      await writeCodes(store, [textRow('o:5', 'Red cж', null)]);
      assert.deepEqual(await sorted('c'), ['o:1', 'o:2', 'o:4', 'o:5']);
    },
    // What the importer wrote before: the words with a one-character level, and no word list entries
    // (schema 15 noted only words of four code units or more; here, none at all).
    (db) => {
      const indexer = new SqliteSearchIndexer(db, { terms: false, digests: false });
      indexer.writeMany(CODES.map(searchRowOf));
      indexer.finish();
      db.exec('UPDATE search_words_churn SET revised = 3');
    },
  );
});

test('SQLite: a character followed by more second characters than the OR takes is read whole, with the same answers', async () => {
  const dir = tempDir('codebook-search-one-');
  const path = join(dir, 'codebook.db');
  const ctx = await createTestContext({ env: { DATABASE_URL: `sqlite:${path}` } });
  try {
    // 中 followed by 12 distinct characters, each in a word further in than the display's start.
    const seconds = [...'国文心山水火木金土日月人'];
    await ctx.importRows(
      [
        ...seconds.map((second, i) => ({ code: `Z${i}`, display: `x 中${second}`, ...(i % 2 === 0 ? { definition: `c${second}` } : {}) })),
        { code: 'Q', display: 'x 中' },
      ],
      { system: 'zh', release: 'r1', effectiveDate: '2024-01-01', mode: 'snapshot' },
    );
    const db = new DatabaseSync(path, { readOnly: true });
    const statements = { arrays: (sql: string) => prepareArrays(db, sql) };
    const ids = async (q: string, expandTerms?: number) => {
      const page = await searchSqlite(statements, { terms: searchTerms(q), after: null, limit: 50, system: null, status: null }, { expandTerms });
      return (JSON.parse(`[${page.json.toString('utf8')}]`) as { id: string }[]).map((r) => r.id).sort();
    };
    const every = ['zh:Q', ...seconds.map((_, i) => `zh:Z${i}`)].sort();
    for (const expandTerms of [undefined, 12, 11, 1]) {
      assert.deepEqual(await ids('中', expandTerms), every, `中, at most ${expandTerms ?? 'the default'} second characters`);
      assert.deepEqual(await ids('c', expandTerms), seconds.flatMap((_, i) => (i % 2 === 0 ? [`zh:Z${i}`] : [])).sort(), 'c, then a character beyond ASCII');
    }
    db.close();
  } finally {
    await ctx.close();
  }
});
