/**
 * The SQLite store's `searchIndex: false`, with which `npm run bench --
 * --import-share` times the import without the search index: the imports
 * then write everything but the search rows. If they wrote those too, the
 * bench's "without" would be the same import and its ratio a false 1×; if
 * they left out more, the ratio would count that as the index's cost.
 */
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { test } from 'node:test';
import { SqliteStore } from '../../src/store/sqlite/sqlite-store.ts';
import { tempDir } from '../helpers/context.ts';
import { searchAll, textRow } from './suite-search.ts';

const rows = Array.from({ length: 6_000 }, (_, i) => textRow(`s:C${String(i).padStart(4, '0')}`, `Lateral item ${i}`, `Defined as thing${i}.`));

for (const searchIndex of [true, false]) {
  test(`SQLite with searchIndex ${String(searchIndex)}: imports store every record; search finds them only with the index`, async () => {
    const dir = tempDir('codebook-search-switch-');
    const store = new SqliteStore({ path: join(dir, 'codebook.db'), searchIndex });
    try {
      await store.withImport(async (tx) => {
        await tx.expectCodes('s', rows.length);
        await tx.writeCodes(rows);
      });
      assert.equal(await store.countCodes(), rows.length);
      const page = await store.pageCodes({ system: 's', status: null, after: null, limit: 3 });
      assert.deepEqual(
        (JSON.parse(`[${page.json.toString('utf8')}]`) as { id: string }[]).map((r) => r.id),
        ['s:C0000', 's:C0001', 's:C0002'],
      );
      assert.equal((await store.codeJson('s:C5999')) !== null, true);
      const found = searchIndex ? ['s:C4242'] : [];
      assert.deepEqual(await searchAll(store, 'C4242'), found, 'group 1: the code');
      assert.deepEqual(await searchAll(store, 'thing4242'), found, 'group 4: a word of the definition');
      assert.equal((await searchAll(store, 'lateral', 500)).length, searchIndex ? rows.length : 0, 'group 3: the display');
    } finally {
      await store.close();
    }
  });
}
