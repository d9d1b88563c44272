/**
 * A large import on SQLite drops the search table's folded-display index and
 * builds it again before it commits, and adds its words to the word list in
 * one pass at the end (see SqliteSearchIndexer). Whatever the size of the
 * import, what search answers afterwards, and the indexes it reads, are what
 * they were; an import that fails after dropping it leaves it in place.
 */
import assert from 'node:assert/strict';
import { DatabaseSync } from 'node:sqlite';
import { join } from 'node:path';
import { test } from 'node:test';
import { searchRowOf } from '../../src/store/search-walk.ts';
import { SqliteSearchIndexer } from '../../src/store/sqlite/search.ts';
import { SqliteStore } from '../../src/store/sqlite/sqlite-store.ts';
import { openImportFixture } from '../services/import-helpers.ts';
import { tempDir } from '../helpers/context.ts';
import { writeCodes } from './suite-fixtures.ts';
import { searchAll, textRow } from './suite-search.ts';

/** The definitions of the search table's indexes, as the connection sees them. */
function indexesOf(db: DatabaseSync): string[] {
  return (
    db.prepare("SELECT sql FROM sqlite_master WHERE type = 'index' AND tbl_name = 'search_codes' AND sql IS NOT NULL ORDER BY name").all() as {
      sql: string;
    }[]
  ).map((r) => r.sql);
}

/** The definitions of the search table's indexes, as the file holds them. */
function searchIndexes(path: string): string[] {
  const db = new DatabaseSync(path, { readOnly: true });
  try {
    return indexesOf(db);
  } finally {
    db.close();
  }
}

/** n records of system s, the i-th with a word of its own ("wordNNNNN") in its display and its definition. */
function rows(system: string, n: number, from = 0) {
  return Array.from({ length: n }, (_, k) => {
    const i = from + k;
    const tag = String(i).padStart(5, '0');
    return textRow(`${system}:C${tag}`, `Zeta ${system} item${tag}`, `Defined as thing${tag}.`);
  });
}

test('SQLite: a large import rebuilds the folded-display index and writes its words once; search answers as after small ones', async () => {
  const dir = tempDir('codebook-search-bulk-');
  const path = join(dir, 'codebook.db');
  const store = new SqliteStore({ path });
  try {
    const before = searchIndexes(path);
    assert.equal(before.length, 2, 'search_by_code and search_by_display');
    // Small imports (index as it goes), then one large enough to rebuild (12 000 new records against 400).
    await writeCodes(store, rows('small', 200));
    await writeCodes(store, rows('small', 200, 200));
    await writeCodes(store, rows('big', 12_000));
    assert.deepEqual(searchIndexes(path), before, 'the same two indexes, defined as before');

    assert.deepEqual(await searchAll(store, 'big:C00042'), ['big:C00042'], 'group 1: the code equals the query');
    assert.equal((await searchAll(store, 'big:C0004')).length, 10, 'group 2: code prefix (C00040–C00049)');
    assert.equal((await searchAll(store, 'zeta big item0001')).length, 10, 'group 3: display prefix');
    assert.deepEqual(await searchAll(store, 'thing11999'), ['big:C11999'], 'group 4: a long word of the definition, through the word list');
    assert.deepEqual(await searchAll(store, 'item00123'), ['small:C00123', 'big:C00123'], 'records of both imports, in the order they were first indexed');
    assert.equal((await searchAll(store, 'zeta', 200)).length, 12_400);

    // Revised later by a small import: the rebuilt indexes are kept current like the others.
    await writeCodes(store, [textRow('big:C00042', 'Omega renamed', null)]);
    assert.deepEqual(await searchAll(store, 'omega ren'), ['big:C00042']);
    assert.deepEqual(await searchAll(store, 'zeta big item00042'), []);

    const db = new DatabaseSync(path, { readOnly: true });
    const plan = (
      db.prepare('EXPLAIN QUERY PLAN SELECT id FROM search_codes WHERE folded_display >= ? ORDER BY folded_display, id').all('a') as { detail: string }[]
    )
      .map((r) => r.detail)
      .join(' | ');
    db.close();
    assert.match(plan, /search_by_display/, 'the rebuilt display index is the one the third group reads');
  } finally {
    await store.close();
  }
});

test('SQLite: an import that fails after dropping the folded-display index leaves it, and the words, as they were', async () => {
  const dir = tempDir('codebook-search-bulk-fail-');
  const path = join(dir, 'codebook.db');
  const store = new SqliteStore({ path });
  try {
    await writeCodes(store, rows('kept', 100));
    const before = searchIndexes(path);
    await assert.rejects(
      store.withImport(async (tx) => {
        // Told first: the display index is dropped before the first write (12 000 rows would drop it anyway).
        await tx.expectCodes('lost', 12_000);
        await tx.writeCodes(rows('lost', 12_000));
        throw new Error('the import fails after its rows were written');
      }),
      /the import fails/,
    );
    assert.deepEqual(searchIndexes(path), before);
    assert.deepEqual(await searchAll(store, 'thing00007'), ['kept:C00007']);
    assert.deepEqual(await searchAll(store, 'lost:C0'), []);
    // The next import starts from a clean slate: its words and indexes are its own.
    await writeCodes(store, rows('next', 6_000));
    assert.deepEqual(await searchAll(store, 'thing05999'), ['next:C05999']);
    assert.deepEqual(searchIndexes(path), before);
  } finally {
    await store.close();
  }
});

test('SQLite: an import told it will add enough records drops the folded-display index before its first write; a smaller one keeps it', async () => {
  const dir = tempDir('codebook-search-bulk-expect-');
  const path = join(dir, 'codebook.db');
  const store = new SqliteStore({ path });
  await writeCodes(store, rows('kept', 400));
  await store.close();
  const db = new DatabaseSync(path);
  try {
    const before = indexesOf(db);
    assert.equal(before.length, 2);
    const within = (fn: (indexer: SqliteSearchIndexer) => void) => {
      db.exec('BEGIN IMMEDIATE');
      try {
        fn(new SqliteSearchIndexer(db));
      } finally {
        db.exec('ROLLBACK');
      }
    };
    within((indexer) => {
      indexer.expectAdded(12_000);
      assert.deepEqual(
        indexesOf(db),
        before.filter((sql) => sql.includes('search_by_code')),
        '12 000 new records against 400: the display index dropped before any insert, the code index kept',
      );
      indexer.writeMany(rows('big', 10).map(searchRowOf), new Array<boolean>(10).fill(true));
      indexer.finish();
      assert.deepEqual(indexesOf(db), before, 'built again, as defined before, by finish()');
    });
    within((indexer) => {
      indexer.expectAdded(4_000);
      assert.deepEqual(indexesOf(db), before, 'fewer than 5 000 new records: kept');
      indexer.expectAdded(0);
      assert.deepEqual(indexesOf(db), before, 'none for sure (a re-import): kept');
    });
  } finally {
    db.close();
  }
});

test('SQLite: the bound an import tells the indexer is its file rows less every stored code of the system, retired ones too', async () => {
  const fx = openImportFixture();
  const told: number[] = [];
  // Called below with .call(this): the real method runs, and the bound it was told is kept.
  // eslint-disable-next-line @typescript-eslint/unbound-method
  const expectAdded = SqliteSearchIndexer.prototype.expectAdded;
  SqliteSearchIndexer.prototype.expectAdded = function (this: SqliteSearchIndexer, atLeast: number) {
    told.push(atLeast);
    expectAdded.call(this, atLeast);
  };
  try {
    const csv = (n: number, retiredEvery: number) =>
      [
        'code,display,status',
        ...Array.from({ length: n }, (_, i) => `C${String(i).padStart(5, '0')},Item ${i},${i % retiredEvery === 0 ? 'retired' : 'active'}`),
      ].join('\n');
    await fx.importText(csv(6_000, 4), { mode: 'snapshot' });
    await fx.importText(csv(6_000, 4), { mode: 'snapshot' });
    await fx.importText(csv(6_500, 4), { mode: 'snapshot', system: 'u' });
    assert.deepEqual(told, [6_000, 0, 6_500], 'a new system: every row; the same file again: none, its 1 500 retired codes counted');
    assert.equal((await searchAll(fx.store, 'item 5999')).length, 2, 'both systems found by display after the imports');
  } finally {
    SqliteSearchIndexer.prototype.expectAdded = expectAdded;
    await fx.close();
  }
});
