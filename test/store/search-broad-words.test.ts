/**
 * SQLite: a search whose words mix one-character words with a longer word
 * holding a digit (`k125 q`, as in E11.9) tests the one-character words on
 * the few records the longer word finds (search-broad-words.ts) instead of
 * FTS5's AND of every word. Both ways must find the same records in the same
 * order, page by page: in the code, the display or only the definition, a
 * letter inside a word not counted, folded characters and one beyond ASCII.
 */
import assert from 'node:assert/strict';
import { DatabaseSync } from 'node:sqlite';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { searchTerms } from '../../src/domain/search-text.ts';
import type { SearchKey, SearchTuning } from '../../src/store/search-walk.ts';
import { searchSqlite } from '../../src/store/sqlite/search.ts';
import { prepareArrays } from '../../src/store/sqlite/statements.ts';
import { createTestContext, tempDir, type TestContext } from '../helpers/context.ts';

const ROWS: Record<string, string>[] = [
  { code: 'K125.1', display: 'Alpha beta', definition: 'Quiet lung' },
  { code: 'K125.2', display: 'Quartz alpha' },
  { code: 'K125.3', display: 'Alpha', definition: 'Aqua marine' },
  { code: 'K125.4', display: 'Alpha' },
  { code: 'K125.Q', display: 'Gamma' },
  { code: 'K125.5', display: 'Über alpha' },
  { code: 'K125.6', display: 'Delta', definition: 'After Ørsted' },
  { code: 'K126.1', display: 'Quartz' },
  { code: 'Q125', display: 'Quartz k125' },
  { code: 'K125.9', display: 'Quartz k125 qa' },
];

/** Another system's records of the same words: what a system filter leaves out. */
const OTHER_SYSTEM: Record<string, string>[] = [
  { code: 'K125.7', display: 'Quartz alpha' },
  { code: 'K125.8', display: 'Beta', definition: 'Quiet' },
];

let ctx: TestContext;
let db: DatabaseSync;

before(async () => {
  const dir = tempDir('codebook-search-broad-');
  const path = join(dir, 'codebook.db');
  ctx = await createTestContext({ env: { DATABASE_URL: `sqlite:${path}` } });
  await ctx.importRows(ROWS, { system: 'dx', release: 'r1', effectiveDate: '2024-01-01', mode: 'snapshot' });
  await ctx.importRows(OTHER_SYSTEM, { system: 'px', release: 'r1', effectiveDate: '2024-01-01', mode: 'snapshot' });
  db = new DatabaseSync(path, { readOnly: true });
});
after(async () => {
  db.close();
  await ctx.close();
});

/** Every id the search returns, walking pages of `limit`, in the order served. */
async function walk(q: string, tuning: SearchTuning, limit = 50, asked: string[] = [], system: string | null = null): Promise<string[]> {
  const statements = { arrays: (sql: string) => (asked.push(sql), prepareArrays(db, sql)) };
  const ids: string[] = [];
  let position: SearchKey | null = null;
  for (;;) {
    const page = await searchSqlite(statements, { terms: searchTerms(q), after: position, limit, system, status: null }, tuning);
    ids.push(...(JSON.parse(`[${page.json.toString('utf8')}]`) as { id: string }[]).map((r) => r.id));
    if (!page.hasMore) return ids;
    position = page.last;
  }
}

// smallSet 0: the longer word is never few enough, so FTS5's AND of every word answers.
const FTS5_AND: SearchTuning = { smallSet: 0 };
/** What only the tested way asks: the longer words' records with their folded code and display. */
const TESTED_READ = 's.folded_code, s.folded_display FROM search_words';
const TESTED: SearchTuning = {};

const EXPECTED: [string, string[]][] = [
  ['k125 q', ['dx:K125.1', 'dx:K125.2', 'dx:K125.Q', 'dx:Q125', 'dx:K125.9', 'px:K125.7', 'px:K125.8']],
  ['q k125', ['dx:Q125', 'dx:K125.1', 'dx:K125.2', 'dx:K125.Q', 'dx:K125.9', 'px:K125.7', 'px:K125.8']],
  // The exact code is group 1 (and 2): group 4 must leave it out, as FTS5's AND does, or it would come twice.
  ['k125.q', ['dx:K125.Q', 'dx:K125.1', 'dx:K125.2', 'dx:Q125', 'dx:K125.9', 'px:K125.7', 'px:K125.8']],
  // A display that starts with the query is group 3: group 4 leaves it out too.
  ['quartz k125 q', ['dx:K125.9', 'dx:K125.2', 'dx:Q125', 'px:K125.7']],
  ['k125 alpha q', ['dx:K125.1', 'dx:K125.2', 'px:K125.7']],
  ['k125 ü', ['dx:K125.5']],
  ['k125 u', ['dx:K125.5']],
  ['k125 ø', ['dx:K125.6']],
  ['k125 a', ['dx:K125.1', 'dx:K125.2', 'dx:K125.3', 'dx:K125.4', 'dx:K125.5', 'dx:K125.6', 'px:K125.7']],
  ['k125 z', []],
  ['k125 q a', ['dx:K125.1', 'dx:K125.2', 'px:K125.7']],
];

test('mixed one-character words: tested on the records, the same records in the same order as FTS5 finds them', async () => {
  for (const [q, expected] of EXPECTED) {
    const fts5 = await walk(q, FTS5_AND);
    assert.deepEqual([...fts5].sort(), [...expected].sort(), `${q}: what FTS5's AND finds`);
    const asked: string[] = [];
    assert.deepEqual(await walk(q, TESTED, 50, asked), fts5, `${q}: tested on the records`);
    assert.ok(
      asked.some((sql) => sql.includes(TESTED_READ)),
      `${q}: the longer words' records were read to be tested`,
    );
    for (const limit of [1, 2]) assert.deepEqual(await walk(q, TESTED, limit), fts5, `${q}: pages of ${limit}`);
    for (const system of ['dx', 'px']) {
      const filtered = await walk(q, FTS5_AND, 50, [], system);
      assert.deepEqual(
        filtered,
        fts5.filter((id) => id.startsWith(`${system}:`)),
        `${q}, system ${system}: what FTS5's AND finds`,
      );
      assert.deepEqual(await walk(q, TESTED, 50, [], system), filtered, `${q}, system ${system}: tested on the records`);
    }
  }
});

test('a longer word found in more records than the small set, or without a digit: FTS5 answers, with the same records', async () => {
  for (const [q] of EXPECTED) {
    const asked: string[] = [];
    assert.deepEqual(await walk(q, { smallSet: 1 }, 50, asked), await walk(q, FTS5_AND), q);
    assert.ok(!asked.some((sql) => sql.includes(TESTED_READ)), `${q}: FTS5's AND, no record tested`);
  }
  const asked: string[] = [];
  assert.deepEqual(await walk('quartz a', TESTED, 50, asked), ['dx:K125.2', 'px:K125.7']);
  assert.ok(!asked.some((sql) => sql.includes(TESTED_READ)), 'a word of letters only: FTS5 answers');
});
