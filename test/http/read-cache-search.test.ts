/**
 * Search pages share the exact read cache: a page is kept under the query as
 * searched, its filters and its cursor, so another query, filter or page is
 * another entry; a commit drops them all, so a code imported by the next
 * import is found by the very next search.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { createTestContext, type TestContext } from '../helpers/context.ts';

let ctx: TestContext;
before(async () => {
  ctx = await createTestContext({ realClock: true });
  await ctx.importRows(
    [
      { code: 'D1', display: 'Diabetes mellitus' },
      { code: 'D2', display: 'Diabetes insipidus' },
      { code: 'D3', display: 'Diabetic foot' },
      { code: 'M1', display: 'Müller cell' },
    ],
    { system: 'f', release: '2024-01', effectiveDate: '2024-01-01', mode: 'snapshot' },
  );
});
after(() => ctx.close());

interface Page {
  data: { id: string; display: string }[];
  pagination: { has_more: boolean; next_cursor?: string };
}

async function page(path: string): Promise<Page> {
  const res = await ctx.get(path);
  assert.equal(res.statusCode, 200, `${path}: ${res.body}`);
  return res.json();
}

const hits = () => ctx.deps.catalog.stats().hits;
const ids = (p: Page) => p.data.map((c) => c.id);

/** Reads path twice; the second answer comes from the cache and is the same. */
async function twice(path: string): Promise<Page> {
  const first = await page(path);
  const before = hits();
  assert.deepEqual(await page(path), first);
  assert.equal(hits(), before + 1, `${path}: the second read is a hit`);
  return first;
}

describe('search through the read cache', () => {
  test('each query, filter and page is its own entry, with its own answer', async () => {
    assert.deepEqual(ids(await twice('/v1/codes/search?q=diab')), ['f:D2', 'f:D1', 'f:D3']);
    assert.deepEqual(ids(await twice('/v1/codes/search?q=diab%20mell')), ['f:D1']);
    assert.deepEqual(ids(await twice('/v1/codes/search?q=muller')), ['f:M1']);
    // The same query folded the same way is the same entry: MULLER is muller.
    const before = hits();
    assert.deepEqual(ids(await page('/v1/codes/search?q=MULLER')), ['f:M1']);
    assert.equal(hits(), before + 1, 'a query that folds to the same text is served from the cache');
    const first = await twice('/v1/codes/search?q=diab&limit=2');
    assert.deepEqual(ids(first), ['f:D2', 'f:D1'], 'by folded display: insipidus, mellitus, then diabetic');
    const second = await twice(`/v1/codes/search?q=diab&limit=2&cursor=${encodeURIComponent(first.pagination.next_cursor!)}`);
    assert.deepEqual(ids(second), ['f:D3']);
    assert.deepEqual(ids(await twice('/v1/codes/search?q=diab&system=nope')), []);
  });

  test('an import drops the kept pages: the next search finds the new code', async () => {
    assert.deepEqual(ids(await twice('/v1/codes/search?q=diab')), ['f:D2', 'f:D1', 'f:D3']);
    await ctx.importRows([{ code: 'D4', display: 'Diabetes gestational' }], {
      system: 'f',
      release: '2024-02',
      effectiveDate: '2024-02-01',
      mode: 'delta',
    });
    assert.deepEqual(ids(await page('/v1/codes/search?q=diab')), ['f:D4', 'f:D2', 'f:D1', 'f:D3']);
  });
});
