/**
 * SQLite's word index is merged once imports have revised a share of its
 * records since its last merge: the count survives between imports, the merge
 * leaves one segment, and search answers the same before and after it.
 */
import assert from 'node:assert/strict';
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { after, before, test } from 'node:test';
import { searchTerms } from '../../src/domain/search-text.ts';
import { MERGE_AFTER_REVISED_SHARE } from '../../src/store/sqlite/search.ts';
import { SqliteStore } from '../../src/store/sqlite/sqlite-store.ts';
import { importRowsInto, tempDir } from '../helpers/context.ts';

const CODES = 40;
let dir: string;
let path: string;
let store: SqliteStore;

before(() => {
  dir = tempDir();
  path = join(dir, 'codebook.db');
  store = new SqliteStore({ path });
});
after(async () => {
  await store.close();
  rmSync(dir, { recursive: true, force: true });
});

/** The revisions counted since the last merge, and the word index's segments. */
function indexState(): { revised: number; segments: number } {
  const db = new DatabaseSync(path, { readOnly: true });
  try {
    const { revised } = db.prepare('SELECT revised FROM search_words_churn').get() as { revised: number };
    const { segments } = db.prepare('SELECT count(DISTINCT segid) AS segments FROM search_words_idx').get() as { segments: number };
    return { revised: Number(revised), segments: Number(segments) };
  } finally {
    db.close();
  }
}

async function found(query: string): Promise<string[]> {
  const page = await store.searchCodes({ terms: searchTerms(query), after: null, limit: 100, system: null, status: null });
  return (JSON.parse(`[${page.json.toString('utf8')}]`) as { id: string }[]).map((r) => r.id).sort();
}

const rows = (display: (i: number) => string) => Array.from({ length: CODES }, (_, i) => ({ code: `C${String(i).padStart(2, '0')}`, display: display(i) }));
const ids = (from: number, to: number) => Array.from({ length: to - from }, (_, i) => `m:C${String(from + i).padStart(2, '0')}`);

// Each step revises k records: one step stays within the share, two pass it.
const k = Math.floor(MERGE_AFTER_REVISED_SHARE * CODES * 0.8);

test('imports count the records they revise and merge the word index past their share; search is the same either side', async () => {
  assert.ok(k >= 1 && k <= MERGE_AFTER_REVISED_SHARE * CODES && 2 * k > MERGE_AFTER_REVISED_SHARE * CODES);
  await importRowsInto(
    store,
    dir,
    rows((i) => `lateral view ${i}`),
    { system: 'm', release: 'r1', effectiveDate: '2024-01-01', mode: 'snapshot' },
  );
  assert.equal(indexState().revised, 0, 'a snapshot of new codes revises nothing');

  // k of 40 revised: within the share.
  const revise = (from: number, to: number, word: string) => rows((i) => (i >= from && i < to ? `${word} view ${i}` : `lateral view ${i}`)).slice(from, to);
  await importRowsInto(store, dir, revise(0, k, 'medial'), { system: 'm', release: 'r2', effectiveDate: '2024-02-01' });
  const before = indexState();
  assert.equal(before.revised, k);
  assert.ok(before.segments > 1, `two imports leave more than one segment (${before.segments})`);
  assert.deepEqual(await found('medial'), ids(0, k));
  assert.deepEqual(await found('lateral'), ids(k, CODES));

  // k more since the last merge, past the share: merged in this import.
  await importRowsInto(store, dir, revise(k, 2 * k, 'medial'), { system: 'm', release: 'r3', effectiveDate: '2024-03-01' });
  assert.deepEqual(indexState(), { revised: 0, segments: 1 });
  assert.deepEqual(await found('medial'), ids(0, 2 * k));
  assert.deepEqual(await found('lateral'), ids(2 * k, CODES));
  assert.deepEqual(await found('view'), ids(0, CODES));

  // The count starts again from the merge.
  await importRowsInto(store, dir, revise(2 * k, 3 * k, 'upper'), { system: 'm', release: 'r4', effectiveDate: '2024-04-01' });
  assert.equal(indexState().revised, k);
  assert.deepEqual(await found('upper'), ids(2 * k, 3 * k));
});
