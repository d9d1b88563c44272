/** Store suite, codes: pageCodes, codeJson, codeExists, countCodes, hasCodes. */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import fc from 'fast-check';
import type { CodeWrite } from '../../src/store/store.ts';
import { binaryOrder, codeRow, NO_CODE_FILTERS, pageAllCodes, withStore, writeCodes, type OpenStore } from './suite-fixtures.ts';

// Ids whose UTF-8 byte order differs from JavaScript's UTF-16 order and from
// any locale collation, and ids that share prefixes.
const TRICKY_CODES = ['A', 'A.1', 'A1', 'A10', 'A2', 'AB', 'Z', 'a', 'z', 'é', 'É', 'ß', '中', '\uE000', '\uFFFD', '😀', '𝄞', '0', '-', 'A/B', 'A%2F'];

export function codeTests(open: OpenStore): void {
  test('pageCodes returns every code once, in UTF-8 byte order of id, at every page size', async () => {
    await withStore(open, async (store) => {
      const ids = TRICKY_CODES.map((c) => `x:${c}`);
      await writeCodes(
        store,
        [...ids].reverse().map((id) => codeRow(id)),
      );
      const expected = [...ids].sort(binaryOrder);
      // Spot-check the order itself, not only agreement with binaryOrder.
      assert.deepEqual(expected.slice(0, 5), ['x:-', 'x:0', 'x:A', 'x:A%2F', 'x:A.1']);
      assert.ok(expected.indexOf('x:Z') < expected.indexOf('x:a'), 'upper case sorts before lower case');
      assert.ok(expected.indexOf('x:z') < expected.indexOf('x:é'), 'non-ASCII sorts after ASCII');
      assert.ok(expected.indexOf('x:\uFFFD') < expected.indexOf('x:😀'), 'astral code points sort after U+FFFD (unlike UTF-16)');
      for (const limit of [1, 2, 3, 7, ids.length - 1, ids.length, ids.length + 1, 200]) {
        assert.deepEqual(await pageAllCodes(store, NO_CODE_FILTERS, limit), expected, `limit ${limit}`);
      }
    });
  });

  test('pageCodes keeps ids of systems that share a prefix apart and in byte order', async () => {
    await withStore(open, async (store) => {
      const ids = ['a:1', 'ab:1', 'a.b:1', 'a-b:1', 'a:10', 'a:1a', 'b:1'];
      await writeCodes(
        store,
        ids.map((id) => codeRow(id)),
      );
      assert.deepEqual(await pageAllCodes(store, NO_CODE_FILTERS, 2), ['a-b:1', 'a.b:1', 'a:1', 'a:10', 'a:1a', 'ab:1', 'b:1']);
      assert.deepEqual(await pageAllCodes(store, { system: 'a', status: null }, 1), ['a:1', 'a:10', 'a:1a']);
      assert.deepEqual(await pageAllCodes(store, { system: 'ab', status: null }, 1), ['ab:1']);
    });
  });

  test('pageCodes filters by system, by status and by both, across pages', async () => {
    await withStore(open, async (store) => {
      const statuses = ['active', 'deprecated', 'retired'] as const;
      const rows: CodeWrite[] = [];
      for (const system of ['s1', 's2']) for (let i = 0; i < 30; i++) rows.push(codeRow(`${system}:C${String(i).padStart(2, '0')}`, statuses[i % 3]));
      await writeCodes(store, rows);
      for (const system of [null, 's1', 's2', 'nope']) {
        for (const status of [null, ...statuses]) {
          const want = rows.filter((r) => (system === null || r.system === system) && (status === null || r.status === status)).map((r) => r.id);
          for (const limit of [1, 4, 50]) {
            assert.deepEqual(await pageAllCodes(store, { system, status }, limit), want, `${system}/${status}/limit ${limit}`);
          }
        }
      }
    });
  });

  test('pageCodes starts strictly after the given id, whether or not that id exists', async () => {
    await withStore(open, async (store) => {
      await writeCodes(
        store,
        ['x:A', 'x:B', 'x:C', 'x:D'].map((id) => codeRow(id)),
      );
      assert.deepEqual(await pageAllCodes(store, NO_CODE_FILTERS, 10, 'x:B'), ['x:C', 'x:D']);
      assert.deepEqual(await pageAllCodes(store, NO_CODE_FILTERS, 10, 'x:B0'), ['x:C', 'x:D']);
      assert.deepEqual(await pageAllCodes(store, NO_CODE_FILTERS, 10, 'x:'), ['x:A', 'x:B', 'x:C', 'x:D']);
      assert.deepEqual(await pageAllCodes(store, NO_CODE_FILTERS, 10, 'x:D'), []);
      const full = await store.pageCodes({ ...NO_CODE_FILTERS, after: 'x:B', limit: 2 });
      assert.equal(full.hasMore, false, 'a page that ends exactly at the last code has no more');
      assert.equal(full.last, 'x:D');
    });
  });

  test('an empty store gives an empty page', async () => {
    await withStore(open, async (store) => {
      assert.deepEqual(await store.pageCodes({ ...NO_CODE_FILTERS, after: null, limit: 50 }), { json: Buffer.alloc(0), count: 0, last: null, hasMore: false });
      assert.equal(await store.countCodes(), 0);
      assert.equal(await store.hasCodes(), false);
    });
  });

  test('paging codes is stable while codes are added between pages', async () => {
    await withStore(open, async (store) => {
      await writeCodes(
        store,
        ['x:B', 'x:D', 'x:F', 'x:H'].map((id) => codeRow(id)),
      );
      const first = await store.pageCodes({ ...NO_CODE_FILTERS, after: null, limit: 2 });
      assert.equal(first.last, 'x:D');
      await writeCodes(
        store,
        ['x:A', 'x:C', 'x:E', 'x:G'].map((id) => codeRow(id)),
      );
      const rest = await pageAllCodes(store, NO_CODE_FILTERS, 2, first.last);
      assert.deepEqual(rest, ['x:E', 'x:F', 'x:G', 'x:H'], 'codes after the position appear once; codes before it do not');
    });
  });

  test('property: any set of ids pages back complete, unrepeated and in byte order', async () => {
    await withStore(open, async (store) => {
      let run = 0;
      const unit = fc.oneof(
        fc.constantFrom('A', 'a', 'B', 'Z', '0', '.', '-', '/', ':', ' ', 'é', 'ß', '中', '\uFFFD', '\uE000', '😀'),
        fc.string({ unit: 'binary', minLength: 1, maxLength: 1 }).filter((c) => c.codePointAt(0)! > 0x1f && c !== '\u007f'),
      );
      await fc.assert(
        fc.asyncProperty(
          fc.uniqueArray(fc.string({ unit, minLength: 1, maxLength: 5 }), { maxLength: 24 }),
          fc.integer({ min: 1, max: 12 }),
          async (codes, limit) => {
            const system = `p${++run}`;
            const ids = codes.map((c) => `${system}:${c}`);
            if (ids.length > 0)
              await writeCodes(
                store,
                ids.map((id) => codeRow(id)),
              );
            assert.deepEqual(await pageAllCodes(store, { system, status: null }, limit), [...ids].sort(binaryOrder));
          },
        ),
        { numRuns: 100 },
      );
    });
  });

  test('codeJson returns the stored record verbatim; codeExists and countCodes agree', async () => {
    await withStore(open, async (store) => {
      const rows = ['x:A', 'x:a', 'x:A/B', 'x:😀', 'y:A'].map((id) => codeRow(id));
      await writeCodes(store, rows);
      for (const row of rows) {
        assert.equal(await store.codeJson(row.id), row.json);
        assert.equal(await store.codeExists(row.id), true);
      }
      for (const id of ['x:B', 'x:a ', 'X:A', 'x:', 'A', 'z:A', '']) {
        assert.equal(await store.codeJson(id), null, id);
        assert.equal(await store.codeExists(id), false, id);
      }
      assert.equal(await store.countCodes(), rows.length);
      assert.equal(await store.hasCodes(), true);
    });
  });

  test('writing a code again replaces it: status, hash and record change, nothing is duplicated', async () => {
    await withStore(open, async (store) => {
      await writeCodes(store, [codeRow('x:A'), codeRow('x:B')]);
      const retired = codeRow('x:A', 'retired', 'Renamed');
      await writeCodes(store, [retired]);
      assert.equal(await store.countCodes(), 2);
      assert.equal(await store.codeJson('x:A'), retired.json);
      assert.deepEqual(await pageAllCodes(store, { system: null, status: 'retired' }, 5), ['x:A']);
      assert.deepEqual(await pageAllCodes(store, { system: null, status: 'active' }, 5), ['x:B']);
      const hashes = await store.withImport((tx) => tx.codeHashes('x'));
      assert.deepEqual(hashes.get('x:A'), { hash: retired.hash, status: 'retired' });
    });
  });
}
