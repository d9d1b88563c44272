/**
 * Search answers what the importer wrote, on both backends: the search rows
 * come from the importer's own path (codes it adds are known to be new and
 * indexed without looking for an earlier row; codes it revises replace
 * theirs), through a first snapshot, a revision, a retirement and a return.
 */
import assert from 'node:assert/strict';
import { after, afterEach, beforeEach, describe, test } from 'node:test';
import { searchTerms } from '../../src/domain/search-text.ts';
import type { Store } from '../../src/store/store.ts';
import { importBackends, type BackendFixture } from './import-backends.ts';

async function found(store: Store, q: string, status: 'active' | 'retired' | null = null): Promise<string[]> {
  const ids: string[] = [];
  let after = null;
  for (;;) {
    const page = await store.searchCodes({ terms: searchTerms(q), after, limit: 50, system: null, status });
    ids.push(...(JSON.parse(`[${page.json.toString('utf8')}]`) as { id: string }[]).map((r) => r.id));
    if (!page.hasMore) return ids;
    after = page.last;
  }
}

const FIRST = [
  'code,display,definition,status',
  'E11,Diabetes mellitus type 2,A chronic metabolic disorder of the pancreas.,active',
  'E10,Type 1 diabetes mellitus,,active',
  'J45,Asthma,Inflammation of the airways.,active',
  'ST,São Tomé,An island nation in the Gulf of Guinea.,active',
].join('\n');

const backends = await importBackends();
after(() => Promise.all(backends.map((b) => b.dispose())));

for (const backend of backends) {
  describe(`search after imports, on ${backend.name}`, { skip: backend.skip }, () => {
    let fx: BackendFixture;
    beforeEach(async () => {
      fx = await backend.open();
      await fx.importText(FIRST, { mode: 'snapshot', release: 'r1', effectiveDate: '2024-01-01' });
    });
    afterEach(() => fx.close());

    test('a first import: long and short words, word starts, accents and code prefixes all find their codes', async () => {
      assert.deepEqual(await found(fx.store, 'diabetes'), ['t:E11', 't:E10'], 'the display that starts with it first');
      assert.deepEqual(await found(fx.store, 'diab mell'), ['t:E10', 't:E11']);
      assert.deepEqual(await found(fx.store, 'pancreas'), ['t:E11'], 'a word found only in a definition');
      assert.deepEqual(await found(fx.store, 'of'), ['t:E11', 't:J45', 't:ST'], 'a two-letter word of the definitions');
      assert.deepEqual(await found(fx.store, 'sao tome'), ['t:ST']);
      assert.deepEqual(await found(fx.store, 'e1'), ['t:E10', 't:E11'], 'the code prefix');
      assert.deepEqual(await found(fx.store, 'gui'), ['t:ST']);
      assert.deepEqual(await found(fx.store, 'guinea'), ['t:ST']);
      assert.deepEqual(await found(fx.store, 'gulf'), ['t:ST'], 'a word of four letters, the shortest that is looked up in the word list');
      assert.deepEqual(await found(fx.store, 'type'), ['t:E10', 't:E11'], 'a display that starts with it, then a four-letter word inside one');
    });

    test('a revision replaces the words of the code; a retirement and a return keep it findable under its status', async () => {
      await fx.importText('code,display,definition,status\nJ45,Bronchial asthma,Narrowing of the bronchi.,active\n', {
        release: 'r2',
        effectiveDate: '2024-02-01',
      });
      assert.deepEqual(await found(fx.store, 'bronch'), ['t:J45']);
      assert.deepEqual(await found(fx.store, 'airways'), [], 'the old definition is gone');
      assert.deepEqual(await found(fx.store, 'asthma'), ['t:J45']);

      await fx.importText(FIRST.split('\n').slice(0, 3).join('\n'), { mode: 'snapshot', release: 'r3', effectiveDate: '2024-03-01' });
      assert.deepEqual(await found(fx.store, 'asthma', 'retired'), ['t:J45'], 'retired by the snapshot that left it out');
      assert.deepEqual(await found(fx.store, 'asthma', 'active'), []);

      await fx.importText('code,display,definition,status\nJ45,Asthma again,,active\nK35,Acute appendicitis,,active\n', {
        release: 'r4',
        effectiveDate: '2024-04-01',
      });
      assert.deepEqual(await found(fx.store, 'asthma', 'active'), ['t:J45']);
      assert.deepEqual(await found(fx.store, 'again'), ['t:J45']);
      assert.deepEqual(await found(fx.store, 'appendic'), ['t:K35'], 'a code added by a later delta');
      assert.deepEqual((await found(fx.store, 'a')).sort(), ['t:E11', 't:J45', 't:K35', 't:ST'], 'one letter: each code with a word that starts with it, once');
    });
  });
}
