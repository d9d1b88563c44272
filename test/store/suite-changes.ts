/** Store suite, changes: pageChanges and its (effective_date, id) keyset. */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import fc from 'fast-check';
import { CHANGE_TYPES, type ChangeType } from '../../src/domain/records.ts';
import type { ChangeWrite } from '../../src/store/store.ts';
import {
  assertChangePaging,
  changeRow,
  expectedChanges,
  NO_CHANGE_FILTERS,
  pageAllChanges,
  withStore,
  writeChanges,
  type ChangeFilters,
  type OpenStore,
} from './suite-fixtures.ts';

/**
 * Hundreds of changes on one date, written in several imports whose ids do
 * not follow their dates (a back-dated import gets larger ids).
 */
function crowdedDay(): ChangeWrite[] {
  const rows: ChangeWrite[] = [];
  let id = 0;
  for (let i = 0; i < 5; i++) rows.push(changeRow(++id, `a:E${i}`, '2024-01-01'));
  for (let i = 0; i < 300; i++) rows.push(changeRow(++id, `${i % 2 ? 'a' : 'b'}:C${i}`, '2024-03-01', CHANGE_TYPES[i % 4]));
  for (let i = 0; i < 5; i++) rows.push(changeRow(++id, `a:L${i}`, '2024-06-01'));
  for (let i = 0; i < 40; i++) rows.push(changeRow(++id, `b:B${i}`, '2024-03-01', 'retired'));
  for (let i = 0; i < 5; i++) rows.push(changeRow(++id, `a:Q${i}`, '2023-12-31'));
  return rows;
}

export function changeTests(open: OpenStore): void {
  test('pageChanges orders by (effective_date, id) and loses or repeats nothing at page boundaries on a crowded date', async () => {
    await withStore(open, async (store) => {
      const rows = crowdedDay();
      await writeChanges(store, [...rows].reverse());
      for (const limit of [1, 2, 3, 7, 50, 339, 340, 341, 355, 200]) {
        await assertChangePaging(store, rows, NO_CHANGE_FILTERS, limit);
      }
      const first = await store.pageChanges({ ...NO_CHANGE_FILTERS, after: null, limit: 1 });
      assert.deepEqual(first.last, { effectiveDate: '2023-12-31', id: 351 }, 'a back-dated change comes first despite its larger id');
    });
  });

  test('pageChanges applies every filter, alone and combined, across pages', async () => {
    await withStore(open, async (store) => {
      const rows = crowdedDay();
      await writeChanges(store, rows);
      const cases: Partial<ChangeFilters>[] = [
        { system: 'a' },
        { system: 'b' },
        { system: 'c' },
        { codeId: 'b:C10' },
        { codeId: 'b:C1' },
        { type: 'retired' },
        { type: 'added', system: 'a' },
        { effectiveFrom: '2024-03-01' },
        { effectiveTo: '2024-03-01' },
        { effectiveFrom: '2024-03-01', effectiveTo: '2024-03-01' },
        { effectiveFrom: '2024-01-02', effectiveTo: '2024-02-28' },
        { effectiveFrom: '2024-06-02' },
        { system: 'b', type: 'retired', effectiveFrom: '2024-01-01', effectiveTo: '2024-12-31' },
        { codeId: 'a:C11', type: 'reactivated', effectiveFrom: '2024-03-01', effectiveTo: '2024-03-01' },
      ];
      for (const partial of cases) {
        const filters = { ...NO_CHANGE_FILTERS, ...partial };
        for (const limit of [1, 6, 200]) await assertChangePaging(store, rows, filters, limit);
      }
      // The cases above must not all be trivially empty or complete.
      assert.equal(expectedChanges(rows, { ...NO_CHANGE_FILTERS, codeId: 'b:C10' }).keys.length, 1);
      assert.equal(expectedChanges(rows, { ...NO_CHANGE_FILTERS, effectiveFrom: '2024-03-01', effectiveTo: '2024-03-01' }).keys.length, 340);
    });
  });

  test('a position between two stored keys, or on another date, resumes right after it', async () => {
    await withStore(open, async (store) => {
      const rows = [changeRow(1, 'x:A', '2024-01-01'), changeRow(5, 'x:B', '2024-01-01'), changeRow(3, 'x:C', '2024-01-02'), changeRow(9, 'x:D', '2024-01-03')];
      await writeChanges(store, rows);
      const ids = async (effectiveDate: string, id: number) => {
        const page = await store.pageChanges({ ...NO_CHANGE_FILTERS, after: { effectiveDate, id }, limit: 10 });
        return (JSON.parse(`[${page.json.toString('utf8')}]`) as { id: number }[]).map((r) => r.id);
      };
      assert.deepEqual(await ids('2024-01-01', 1), [5, 3, 9]);
      assert.deepEqual(await ids('2024-01-01', 2), [5, 3, 9]);
      assert.deepEqual(await ids('2024-01-01', 5), [3, 9]);
      assert.deepEqual(await ids('2024-01-01', 99), [3, 9]);
      assert.deepEqual(await ids('2024-01-02', 0), [3, 9]);
      assert.deepEqual(await ids('2023-12-31', 1000), [1, 5, 3, 9]);
      assert.deepEqual(await ids('2024-01-03', 9), []);
    });
  });

  test('paging changes sees changes committed meanwhile after its position, exactly once', async () => {
    await withStore(open, async (store) => {
      const rows: ChangeWrite[] = [];
      for (let i = 1; i <= 30; i++) rows.push(changeRow(i, `x:C${i}`, '2024-05-01'));
      await writeChanges(store, rows);
      let nextId = 31;
      const added: ChangeWrite[] = [];
      const pages = await pageAllChanges(store, NO_CHANGE_FILTERS, 4, async (page) => {
        // Later imports, dated on or after the latest date, get larger ids: they sort after every page read so far.
        const date = page < 3 ? '2024-05-01' : '2024-07-01';
        const batch = [changeRow(nextId++, 'x:N', date), changeRow(nextId++, 'x:M', date)];
        added.push(...batch);
        await writeChanges(store, batch);
      });
      const want = expectedChanges([...rows, ...added], NO_CHANGE_FILTERS);
      assert.deepEqual(pages.keys, want.keys);
      assert.ok(added.length > 6);
    });
  });

  test('an empty store or a filter that matches nothing gives an empty page', async () => {
    await withStore(open, async (store) => {
      const empty = { json: Buffer.alloc(0), count: 0, last: null, hasMore: false };
      assert.deepEqual(await store.pageChanges({ ...NO_CHANGE_FILTERS, after: null, limit: 10 }), empty);
      await writeChanges(store, [changeRow(1, 'x:A', '2024-01-01')]);
      assert.deepEqual(await store.pageChanges({ ...NO_CHANGE_FILTERS, type: 'retired', after: null, limit: 10 }), empty);
      assert.deepEqual(await store.pageChanges({ ...NO_CHANGE_FILTERS, after: { effectiveDate: '2024-01-01', id: 1 }, limit: 10 }), empty);
    });
  });

  test('property: any changes and filters page back as the filtered (effective_date, id) order', async () => {
    await withStore(open, async (store) => {
      let nextId = 1;
      let run = 0;
      const dates = ['2024-01-01', '2024-01-02', '2024-02-29', '2025-12-31'];
      const change = fc.record({
        code: fc.constantFrom('A', 'B', 'C'),
        date: fc.constantFrom(...dates),
        type: fc.constantFrom<ChangeType>(...CHANGE_TYPES),
      });
      const filters = fc.record({
        code: fc.option(fc.constantFrom('A', 'B', 'Z')),
        type: fc.option(fc.constantFrom<ChangeType>(...CHANGE_TYPES)),
        from: fc.option(fc.constantFrom(...dates, '2024-01-15')),
        to: fc.option(fc.constantFrom(...dates, '2024-01-15')),
      });
      await fc.assert(
        fc.asyncProperty(
          fc.array(fc.array(change, { maxLength: 15 }), { minLength: 1, maxLength: 3 }),
          filters,
          fc.integer({ min: 1, max: 9 }),
          async (imports, f, limit) => {
            const system = `p${++run}`;
            const rows: ChangeWrite[] = [];
            for (const batch of imports) {
              const written = batch.map((c) => changeRow(nextId++, `${system}:${c.code}`, c.date, c.type));
              if (written.length > 0) await writeChanges(store, written);
              rows.push(...written);
            }
            const query: ChangeFilters = {
              system,
              codeId: f.code === null ? null : `${system}:${f.code}`,
              type: f.type,
              effectiveFrom: f.from,
              effectiveTo: f.to,
            };
            await assertChangePaging(store, rows, query, limit);
          },
        ),
        { numRuns: 100 },
      );
    });
  });
}
