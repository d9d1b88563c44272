/**
 * SQLite's search rows keep a digest of the text their words were made from
 * (schema 19): an import that revises a record without changing that text (a
 * retirement, a change of status, of a field search does not read) leaves the
 * record's words in the word index as they are, and does not count toward
 * its merge; a record whose words changed is written as before. A database of
 * schema 18 has no digests, and its rows get theirs when next written.
 */
import assert from 'node:assert/strict';
import { rmSync } from 'node:fs';
import { createHash } from 'node:crypto';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { test } from 'node:test';
import { searchRowOf } from '../../src/store/search-walk.ts';
import { MERGE_AFTER_REVISED_SHARE, SqliteSearchIndexer } from '../../src/store/sqlite/search.ts';
import { SqliteStore } from '../../src/store/sqlite/sqlite-store.ts';
import { importRowsInto, tempDir } from '../helpers/context.ts';
import { oldCodes, type OldRows, withOldSqlite } from '../helpers/old-schema.ts';
import { writeCodes } from './suite-fixtures.ts';
import { searchAll, textRow } from './suite-search.ts';

/** What the file holds: the revisions counted since the word index's last merge, its content (a digest of its blocks), the search rows' digests. */
function fileState(path: string): { revised: number; words: string; digests: Map<string, bigint | null> } {
  const db = new DatabaseSync(path, { readOnly: true });
  try {
    const { revised } = db.prepare('SELECT revised FROM search_words_churn').get() as { revised: number };
    const words = createHash('sha256');
    const blocks = db.prepare('SELECT id, block FROM search_words_data ORDER BY id');
    blocks.setReadBigInts(true);
    for (const { id, block } of blocks.iterate() as Iterable<{ id: bigint; block: Uint8Array }>) words.update(`${id}:`).update(block);
    const read = db.prepare('SELECT id, words_digest FROM search_codes ORDER BY id');
    read.setReadBigInts(true);
    const digests = new Map((read.all() as { id: string; words_digest: bigint | null }[]).map((r) => [r.id, r.words_digest]));
    return { revised: Number(revised), words: words.digest('hex'), digests };
  } finally {
    db.close();
  }
}

const CODES = 100;
const code = (i: number) => `C${String(i).padStart(3, '0')}`;
/** The snapshot's rows: code i with a word of its own in its display and definition, active unless given. */
const rows = (n: number, status: (i: number) => string = () => 'active', definition: (i: number) => string = (i) => `Defined as thing${i}.`) =>
  Array.from({ length: n }, (_, i) => ({ code: code(i), display: `Item number${i}`, definition: definition(i), status: status(i) }));

test('SQLite: a snapshot that only retires codes or changes their status leaves the word index as it was and adds nothing to its churn', async () => {
  const dir = tempDir('codebook-words-digest-');
  const path = join(dir, 'codebook.db');
  const store = new SqliteStore({ path });
  const options = (release: string, effectiveDate: string) => ({ system: 'm', release, effectiveDate, mode: 'snapshot' as const });
  // 2 × changed status changes, fewer than the share that merges the index: counted, they would show in the churn.
  const changed = Math.floor(MERGE_AFTER_REVISED_SHARE * CODES * 0.4);
  try {
    await importRowsInto(store, dir, rows(CODES), options('r1', '2024-01-01'));
    const first = fileState(path);
    assert.equal(first.revised, 0);
    assert.equal([...first.digests.values()].filter((d) => d === null).length, 0, 'every new row has its digest');

    // The last `changed` codes left out (retired), the first `changed` deprecated.
    await importRowsInto(
      store,
      dir,
      rows(CODES - changed, (i) => (i < changed ? 'deprecated' : 'active')),
      options('r2', '2024-02-01'),
    );
    const retired = fileState(path);
    assert.equal(retired.revised, 0, 'status changes are not revisions of the word index');
    assert.equal(retired.words, first.words, 'the word index is not written at all');
    assert.deepEqual(retired.digests, first.digests);
    assert.deepEqual(await searchAll(store, `thing${CODES - 1}`), [`m:${code(CODES - 1)}`], 'a retired code is found by its words');
    assert.deepEqual(await searchAll(store, `number${CODES - 1}`, 200, { status: 'retired' }), [`m:${code(CODES - 1)}`]);
    assert.deepEqual(await searchAll(store, `number${CODES - 1}`, 200, { status: 'active' }), []);
    assert.deepEqual(await searchAll(store, 'thing0', 200, { status: 'deprecated' }), ['m:C000']);
    assert.equal((await searchAll(store, 'item', 200, { status: 'retired' })).length, changed);
    assert.equal((await searchAll(store, 'item', 200, { status: 'active' })).length, CODES - 2 * changed);

    // Definitions changed, statuses as they were: revisions of the word index, counted.
    const revisedWords = 3;
    await importRowsInto(
      store,
      dir,
      rows(
        CODES - changed,
        (i) => (i < changed ? 'deprecated' : 'active'),
        (i) => (i < revisedWords ? `Now called other${i}.` : `Defined as thing${i}.`),
      ),
      options('r3', '2024-03-01'),
    );
    const revised = fileState(path);
    assert.equal(revised.revised, revisedWords);
    assert.notEqual(revised.words, first.words);
    for (let i = 0; i < CODES; i++) {
      const id = `m:${code(i)}`;
      if (i < revisedWords) assert.notEqual(revised.digests.get(id), first.digests.get(id), id);
      else assert.equal(revised.digests.get(id), first.digests.get(id), id);
    }
    assert.deepEqual(await searchAll(store, 'other1'), ['m:C001'], 'found by the new definition');
    assert.deepEqual(await searchAll(store, 'thing1'), ['m:C010', 'm:C011', 'm:C012', 'm:C013', 'm:C014', 'm:C015', 'm:C016', 'm:C017', 'm:C018', 'm:C019']);
  } finally {
    await store.close();
    rmSync(dir, { recursive: true, force: true });
  }
});

const OLD_CODES = [
  textRow('o:1', 'Lateral view', 'Seen from the side.'),
  textRow('o:2', 'Medial view', 'Seen from the middle.'),
  textRow('o:3', 'Dorsal view', 'Seen from the back.'),
  // Enough records that one revision stays within the share that merges the word index.
  ...Array.from({ length: 20 }, (_, i) => textRow(`p:${i}`, `Filler ${i}`, null)),
];
const OLD: OldRows = [['codes', oldCodes(OLD_CODES)]];

test('SQLite: a database of schema 18 gets a digest column, empty; its rows are written whole when next revised and get their digest', async () => {
  await withOldSqlite(
    18,
    OLD,
    async (store) => {
      const before = fileState(store.path);
      assert.deepEqual(new Set(before.digests.values()), new Set([null]), 'no digest until a row is written again');
      assert.equal(before.digests.size, OLD_CODES.length);

      // Retired: the old row's words, of unknown digest, are written again with it.
      await writeCodes(store, [textRow('o:1', 'Lateral view', 'Seen from the side.', 'retired')]);
      const retired = fileState(store.path);
      assert.equal(retired.revised, 1, 'a row without a digest is a revision of its words');
      assert.notEqual(retired.digests.get('o:1'), null);
      assert.equal(retired.digests.get('o:2'), null);
      assert.deepEqual(await searchAll(store, 'side', 200, { status: 'retired' }), ['o:1']);
      assert.deepEqual(await searchAll(store, 'side', 200, { status: 'active' }), []);

      // Active again: its digest is known now, and its words are kept.
      await writeCodes(store, [textRow('o:1', 'Lateral view', 'Seen from the side.')]);
      const again = fileState(store.path);
      assert.equal(again.revised, 1);
      assert.equal(again.words, retired.words);
      assert.deepEqual(await searchAll(store, 'lateral', 200, { status: 'active' }), ['o:1']);

      // A definition and a display changed on rows without a digest: their new words only.
      await writeCodes(store, [textRow('o:2', 'Medial view', 'Looked at from above.'), textRow('o:3', 'Ventral view', 'Seen from the back.')]);
      assert.deepEqual(await searchAll(store, 'above'), ['o:2']);
      assert.deepEqual(await searchAll(store, 'middle'), []);
      assert.deepEqual(await searchAll(store, 'ventral'), ['o:3']);
      assert.deepEqual(await searchAll(store, 'dorsal'), []);
      assert.deepEqual(await searchAll(store, 'view'), ['o:1', 'o:2', 'o:3']);
      assert.equal([...fileState(store.path).digests.values()].filter((d) => d === null).length, OLD_CODES.length - 3, 'the rows not written since');
    },
    // What the importer of schema 18 wrote beside the records: their search rows and words, no digest.
    (db) => {
      const indexer = new SqliteSearchIndexer(db, { digests: false });
      indexer.writeMany(OLD_CODES.map(searchRowOf));
      indexer.finish();
    },
  );
});
